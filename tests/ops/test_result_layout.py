"""The memory layout of new results against PyTorch: ``stride()``, ``is_contiguous()``, shape and
dtype of elementwise ops (PyTorch's TensorIterator: its fast setup for operands of one shape, the
order of the operands' strides otherwise), reductions (row-major), copies (``empty_like``'s
preserved layout), over many shapes, permutations, slices, broadcasts and empty tensors
(``minigrad/_layout.py``)."""

from __future__ import annotations

import itertools
import warnings

import pytest
from helpers import assert_same_for_each

import minigrad as mg

pytestmark = pytest.mark.torch

SHAPES = [(2, 3), (2, 3, 4), (1, 3, 2), (2, 1, 3), (3, 1), (2, 2, 1, 3), (0, 3), (2, 0, 3),
          (1, 1), (2, 3, 2, 2)]


def _inputs(L):
    """(name, maker) of float tensors in many layouts."""
    out = []
    for shape in SHAPES:
        n = 1
        for s in shape:
            n *= s

        def base(shape=shape, n=n):
            return L.arange(float(n)).reshape(shape) if n else L.zeros(shape)

        for p in itertools.permutations(range(len(shape))):
            out.append((f"{shape}.permute{p}", lambda p=p, b=base: b().permute(p)))
        out.append((f"{shape}[..., ::2]", lambda b=base: b()[..., ::2]))
        out.append((f"{shape}.expand", lambda b=base, s=shape: b().unsqueeze(0).expand(2, *s)))
        out.append((f"{shape}.expand(mid)",
                    lambda b=base, s=shape: b().unsqueeze(1).expand(s[0], 2, *s[1:])))
    out += [("t()[::2]", lambda: L.ones(4, 3).t()[::2]),
            ("permute[:, 1:]", lambda: L.ones(2, 3, 4).permute(2, 0, 1)[:, 1:]),
            ("transpose[::2]", lambda: L.ones(2, 3, 4).transpose(0, 2)[::2])]
    return out


OPS = [
    # one operand (fast setup, or the order of its strides)
    "x.neg()", "x.exp()", "torch.log1p(x)", "x.sigmoid()", "torch.isnan(x)", "x.abs()", "x.relu()",
    "x.sign()", "x.floor()", "x.round()", "x.clamp(0, 1)", "x.clamp_min(0.5)", "x.tanh()",
    "x.sqrt()", "x.isinf()", "x.logical_not()", "torch.signbit(x)", "x.reciprocal()", "x.square()",
    "x.rsqrt()", "x.erf()", "x ** 2", "F.softplus(x)", "F.gelu(x)", "F.silu(x)",
    "F.leaky_relu(x)", "F.elu(x)",
    # with a number (a 0-d operand in PyTorch) or a second tensor
    "x > 1", "x * 2", "x + 1.5", "x / 3", "x // 2", "2 - x", "x.mul(x)", "x.atan2(x)",
    "x.maximum(x)", "x.pow(x)", "x.remainder(2)", "x.int() + x", "x < x.int()", "x.int() / x",
    "F.mse_loss(x, x.int(), reduction='none')", "F.l1_loss(x.int(), x, reduction='none')",
    "x + x[..., :1]", "x[..., :1] * x",
    "x == x.contiguous()", "x.contiguous() < x", "torch.where(x > 1, x, 0.)", "x.lerp(x, 0.5)",
    "x.addcmul(x, x)",
    # as empty_like(x): clone, conversions, nan_to_num, sort, flip, *_like, hardtanh
    "x.clone()", "x.double()", "x.int()", "x.bool()", "x.to(torch.float64)", "x.nan_to_num()",
    "x.nan_to_num(0.0, 1.0)", "x.sort(-1)[0]", "x.sort(0)[1]", "x.flip(0)", "torch.zeros_like(x)",
    "F.hardtanh(x)",
    # row-major: reductions, masked_fill, tril
    "x.sum(-1)", "x.sum(0)", "x.prod(-1)", "x.prod(0)", "x.mean(-1)", "x.amax(0)", "x.max(-1)[1]",
    "x.argmax(0)", "x.topk(1, 0)[0]", "x.topk(2, -1)[1]", "x.median(0)[0]", "x.var(-1)",
    "x.std(0)", "x.logsumexp(-1)", "x.any(0)", "x.all(-1)",
    "x.sum(0, keepdim=True)", "x.prod(-1, keepdim=True)", "x.norm(dim=-1)", "x.nansum(0)",
    "x.count_nonzero(0)", "x.softmax(-1)", "x.cumsum(0)", "x.masked_fill(x > 1, 2.)", "x.tril()",
    "x.sum(0).t()", "torch.var_mean(x, -1)[1]",
    # new row-major tensors: repeat
    "x.repeat(*[1] * x.dim())", "x.repeat(2, *[1] * x.dim())",
]


def _layout(L, op, make):
    x = make()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = eval(op, {"x": x, "torch": L, "F": L.nn.functional})
    except (RuntimeError, IndexError, NotImplementedError) as e:
        return type(e).__name__
    return tuple(r.shape), r.stride(), r.is_contiguous(), str(r.dtype)


@pytest.mark.parametrize("op", OPS)
def test_result_layout_as_pytorch(torch, op):
    ours, theirs = dict(_inputs(mg)), dict(_inputs(torch))
    wrong = [(name, _layout(mg, op, ours[name]), _layout(torch, op, make))
             for name, make in theirs.items()]
    wrong = [w for w in wrong if w[1] != w[2]]
    assert not wrong, "\n".join(f"{n}: minigrad {m}, PyTorch {t}" for n, m, t in wrong)


# advanced indexing: PyTorch's index kernel is an iterator over the input restrided to the
# result (stride 0 where the indices go) and the index tensors
INDEXED = ["x[[0, 1]]", "x[:, [1, 0]]", "x[..., [0, 1]]", "x[[0, 1], :, [1, 0]]",
           "x[[[0], [1]], [1, 0]]", "x[[1, 0], [0, 1]]", "x[:, :, [1]]", "x[[0], [1]]",
           "x[[1, 0]][:, [0, 1]]", "x[:, [[1, 0], [0, 1]]]"]


@pytest.mark.parametrize("expr", INDEXED)
def test_gather_layout_as_pytorch(torch, expr):
    def run(L, shape, p, sl):
        x = eval("x" + sl, {"x": L.arange(24.).reshape(shape).permute(p)})
        try:
            y = eval(expr, {"x": x})
        except IndexError as e:  # (an index out of range: the same error in both)
            return str(e)
        return tuple(y.shape), y.stride(), y.is_contiguous(), y.tolist()
    for shape in [(2, 3, 4), (4, 2, 3)]:
        for p in itertools.permutations(range(3)):
            for sl in ["", "[::2]", "[:, ::2]", "[..., 1:]"]:
                assert run(mg, shape, p, sl) == run(torch, shape, p, sl), (shape, p, sl)


# pooling: PyTorch's CPU kernels allocate the output, and the input's gradient, in the input's
# suggest_memory_format(): channels-last where its strides read C, W, H, N in increasing order
# (size-1 dimensions' strides decide the ambiguous cases), else row-major
POOL_INPUTS = {
    "row-major": "L.arange(72.).reshape(2, 3, 3, 4)",
    "channels-last": "L.arange(72.).reshape(2, 3, 4, 3).permute(0, 3, 1, 2)",
    "1x3x1x1 channels-last": "L.arange(3.).reshape(1, 1, 1, 3).permute(1, 3, 2, 0)",
    "N1HW from NHWC": "L.arange(12.).reshape(1, 4, 3, 1).permute(0, 3, 1, 2)",
    "Nx1 channels-last": "L.arange(12.).reshape(1, 3, 4, 1).permute(0, 3, 1, 2)",
    "H, W swapped": "L.arange(72.).reshape(2, 3, 3, 4).transpose(2, 3)",
    "sliced rows": "L.arange(144.).reshape(2, 3, 6, 4)[:, :, ::2]",
    "3-D": "L.arange(36.).reshape(3, 4, 3).permute(2, 0, 1)",
    "expanded": "L.arange(12.).reshape(1, 3, 4, 1).permute(0, 3, 1, 2).expand(2, 1, 3, 4)",
    "1x1 planes": "L.arange(6.).reshape(2, 3, 1, 1)",
    "1x1 planes, channels-last": "L.arange(6.).reshape(2, 1, 1, 3).permute(0, 3, 1, 2)",
}
POOLS = ["F.adaptive_avg_pool2d(x, 2)", "F.adaptive_avg_pool2d(x, (1, 1))", "F.max_pool2d(x, 1)",
         "F.max_pool2d(x, 2, ceil_mode=True)", "F.max_pool2d(x, 1, return_indices=True)[1]",
         "F.avg_pool2d(x, 1)", "F.avg_pool2d(x, 2, ceil_mode=True)", "F.avg_pool2d(x, 2, 1, 1)"]


def _pooled(L, name, op, grad):
    x = eval(POOL_INPUTS[name], {"L": L})
    if grad:
        x.requires_grad_()
    y = eval(op, {"x": x, "F": L.nn.functional})
    if grad:
        y = L.autograd.grad(y.sum() if y.is_floating_point() else x.sum(), x)[0]
    return tuple(y.shape), y.stride(), y.is_contiguous()


@pytest.mark.parametrize("grad", [False, True])
@pytest.mark.parametrize("op", POOLS)
def test_pooling_layout_as_pytorch(torch, op, grad):
    assert_same_for_each(torch, POOL_INPUTS, lambda L, name: _pooled(L, name, op, grad))


# index_put (out of place) writes into the input's clone(preserve_format)
@pytest.mark.parametrize("index", ["[L.tensor([False, False])]", "[L.tensor([True, False])]",
                                   "[L.tensor([0])]", "[L.tensor([1]), L.tensor([0])]"])
def test_index_put_layout_as_pytorch(torch, index):
    def run(L, make):
        x = eval(make, {"L": L})
        try:
            y = x.index_put(tuple(eval(index, {"L": L})), L.tensor(2.), accumulate=False)
        except (IndexError, RuntimeError) as e:
            return type(e).__name__
        return tuple(y.shape), y.stride(), y.is_contiguous(), y.tolist()
    for make in ["L.arange(24.).reshape(1, 2, 3, 4).expand(2, 1, 2, 3, 4)",
                 "L.arange(24.).reshape(1, 2, 3, 4).transpose(1, 3)",
                 "L.arange(24.).reshape(1, 2, 3, 4).expand(2, 2, 3, 4)",
                 "L.arange(24.).reshape(2, 3, 4).transpose(0, 1)",
                 "L.arange(6.).reshape(2, 3, 1).transpose(0, 2)", "L.arange(6.).reshape(2, 3)"]:
        assert run(mg, make) == run(torch, make), make
