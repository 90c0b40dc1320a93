"""Silent differences the fuzzer found (tests/fuzz: a value, shape or missing error where
PyTorch gives another), each fixed and kept here against PyTorch: ``logsumexp`` over ``dim=[]``,
integer powers with negative exponents, the order of ties in a descending bool sort, the
dtype of ``addcmul``'s gradients with an integer factor, the layout of some results, and
``copy_`` between views that share memory in a way PyTorch does not refuse (its copy loop
reads what it has already written)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same_outcome, snippet_outcome

import minigrad as mg

N, I = "float('nan')", "float('inf')"  # (NaN and infinity in the expressions)

EXPRESSIONS = [
    # logsumexp(dim=[]): every dimension reduced with keepdim; an error without it
    "lib.arange(6.).reshape(2, 3).logsumexp([], keepdim=True)",
    "lib.arange(6.).reshape(2, 3).logsumexp((), keepdim=False)",
    "lib.logsumexp(lib.ones(3), [])", "lib.logsumexp(lib.ones(2, 0), [], keepdim=True)",
    "lib.logsumexp(lib.ones(2, 0), [])", "lib.logsumexp(lib.tensor(2.), [], keepdim=True)",
    "lib.arange(6.).reshape(2, 3).requires_grad_().logsumexp([], keepdim=True)"
    ".grad_fn._saved_dim",
    "(lambda x: lib.autograd.grad(x.logsumexp([], keepdim=True).sum(), x))"
    "(lib.arange(6.).reshape(2, 3).requires_grad_())",
    # an integer to a negative power: 0, but 1 for 1 and +-1 for -1 (0 ** -1 too)
    "lib.tensor([3, 1, -1, 0, -1]) ** lib.tensor([-1, -2, -3, -1, -2])",
    "lib.tensor([3, 2, -1, 0], dtype=lib.int32) ** lib.tensor([-1, -2, -3, -1], dtype=lib.int32)",
    "lib.tensor([True, False]) ** lib.tensor([-1, -2])",
    "lib.tensor([3, 2, 5, 2]) ** lib.tensor([40, -1, 3, 63])",
    "lib.tensor([2, 3], dtype=lib.uint8) ** lib.tensor([-1, 2])",
    "lib.pow(lib.tensor([0, 2], dtype=lib.int8), lib.tensor([-1, 7], dtype=lib.int8))",
    # an integer bound of clamp is taken in the tensor's dtype as PyTorch converts it (-2 is 254
    # in uint8; -300 does not fit int8: its error)
    "lib.tensor([0, 255], dtype=lib.uint8).clamp(-2, 0)",
    "lib.tensor([0, 255], dtype=lib.uint8).clamp(-2)",
    "lib.tensor([0, 255], dtype=lib.uint8).clamp(max=-2)",
    "lib.tensor([0, 255], dtype=lib.uint8).clamp(0, 300)",
    "lib.tensor([1, 2], dtype=lib.int8).clamp(-300, 200)",
    "lib.tensor([1, 2], dtype=lib.int8).clamp(-3, 2)",
    "lib.tensor([0, 255], dtype=lib.uint8).clamp_(-2, 0)",
    # a norm over dimensions of size 1: each result is its element's magnitude (any p but 0)
    *[f"lib.tensor([[-{I}, 0., 2., {N}, -3., 1.]]).norm({p}, 0)" for p in (
        N, "0", "1e30", f"-{I}", "2", "-1", "0.5", "3")],
    f"lib.tensor([[[-{I}, 2.]], [[3., 0.]]]).norm(1e30, (1,), keepdim=True)",
    f"lib.tensor([[[-{I}, 2.]]]).norm({N}, (0, 1))",
    "(lambda x: lib.autograd.grad(x.norm(3, 0).sum(), x))(lib.tensor([[3., -2.]], "
    "requires_grad=True))",
    # linspace of bools: 0 or 1 steps need no kernel (PyTorch's refusal from 2 steps on)
    "lib.linspace(0, 3, 0, dtype=lib.bool)", "lib.linspace(0, 3, 1, dtype=lib.bool)",
    "lib.linspace(2, 3, 1, dtype=lib.bool)", "lib.linspace(0, 3, 2, dtype=lib.bool)",
    # copy_ of the very same elements does nothing (expanded memory is not refused then)
    "(lambda v: (v.t().copy_(v), v.copy_(v)))(lib.tensor([0]).expand(3))",
    "lib.tensor([0]).expand(3).copy_(lib.tensor([1, 2, 3]))",
    # a descending sort keeps ties in their order (bools too)
    "lib.tensor([[True, False, True], [True, True, False], [False, True, True]])"
    ".sort(0, descending=True)",
    "lib.tensor([True, False, True, False]).argsort(descending=True)",
    "lib.tensor([False, True]).sort(descending=True, stable=True)",
    # a bool or integer tensor2 of addcmul/addcdiv does not promote the gradients (float32)
    "(lambda x: lib.autograd.grad(lib.addcmul(lib.zeros(2), x, lib.tensor([True, False]))"
    ".double().sum(), x))(lib.ones(2, requires_grad=True))",
    "(lambda x: lib.autograd.grad(lib.addcmul(x * 1, x, lib.tensor([3, 0]), value=2)"
    ".double().sum(), x))(lib.ones(2, requires_grad=True))",
    "(lambda x: lib.autograd.grad(lib.addcdiv(lib.zeros(2), x, lib.tensor([1, 2]))"
    ".double().sum(), x))(lib.ones(2, requires_grad=True))",
    "(lambda x: lib.autograd.grad(lib.addcmul(lib.zeros(2), x, lib.tensor([1, 2]))"
    ".sum(), x, create_graph=True))(lib.ones(2, requires_grad=True))",
    # addcdiv's gradient for tensor1 divides in tensor2's dtype: PyTorch refuses an integer one
    "(lambda x: lib.autograd.grad(lib.addcdiv(lib.zeros(2), x, lib.tensor([1, 2], "
    "dtype=lib.int32)).sum(), x))(lib.ones(2, requires_grad=True))",
    "(lambda y: lib.autograd.grad(lib.addcdiv(y, lib.tensor([1., 2.]), lib.tensor([True, "
    "True])).sum(), y))(lib.ones(2, requires_grad=True))",
    # dist of a bool tensor: the subtraction's error, before the shapes are looked at
    "lib.dist(lib.tensor([True, False]), lib.ones(2))", "lib.ones(2).dist(lib.tensor([True]))",
    "lib.dist(lib.tensor([True]), lib.tensor([False]))",
    "lib.dist(lib.ones(3, dtype=lib.bool), lib.ones(2))",
    # flatten of a contiguous tensor is a view (its elements one item apart); a copy otherwise
    "(lambda x: x.flatten()[1:].data_ptr() - x.data_ptr())(lib.arange(6.).reshape(2, 3))",
    "(lambda x: x.flatten().data_ptr() == x.data_ptr())(lib.arange(6.).reshape(2, 3).t())",
    # baddbmm of one element gives a tensor of its own that can be written in place
    "lib.baddbmm(lib.zeros(1, 1, 1), lib.ones(1, 1, 2), lib.ones(1, 2, 1)).clamp_max_(0.5)",
    "lib.baddbmm(lib.zeros(1), lib.ones(1, 1, 2), lib.ones(1, 2, 1)).ceil_().stride()",
    # in-place writes PyTorch allows on expanded memory: only the positions written change
    "lib.zeros(3).expand(2, 3).index_fill_(1, lib.tensor([0]), 1.)",
    "lib.arange(3.).reshape(3, 1).expand(3, 3).index_fill_(0, lib.tensor([2]), 7.)",
    "lib.arange(3.).reshape(3, 1).expand(3, 3).triu_()",
    "lib.arange(3.).reshape(3, 1).expand(3, 3).tril_()",
    "lib.arange(2.).reshape(1, 1, 2).expand(3, 2, 2).tril_(-1)",
    # ... unless PyTorch works on a copy (4 dimensions or more, batches not one matrix after
    # another; the first batch dimension may be expanded): copying it back is refused then
    *[f"{t}.{f}()" for f in ("triu_", "tril_") for t in (
        "lib.ones(1).expand(2, 4, 2, 3)", "lib.arange(6.).reshape(1, 1, 2, 3).expand(5, 1, 2, 3)",
        "lib.arange(12.).reshape(1, 2, 2, 3).expand(5, 2, 2, 3)",
        "lib.arange(12.).reshape(2, 1, 2, 3).expand(2, 4, 2, 3)",
        "lib.arange(8.).reshape(2, 2, 2, 1).expand(2, 2, 2, 3)",
        "lib.arange(24.).reshape(1, 2, 2, 2, 3).expand(3, 2, 2, 2, 3)",
        "lib.arange(24.).reshape(2, 2, 2, 3).transpose(0, 1)",
        "lib.arange(6.).reshape(1, 1, 3, 2).expand(1, 2, 3, 2).transpose(2, 3)",
        "(lambda x: lib.autograd.grad(x.sum(), x)[0])(lib.ones(2, 4, 2, 3, requires_grad=True))")],
    # the backward of index_fill on a 0-d tensor (its element is position 0), to the next
    # node's own refusal (std's result changed in place)
    "(lambda x: ((x * 3).index_fill_(0, lib.tensor([0]), 1.).backward(), x.grad))"
    "(lib.tensor(2., requires_grad=True))",
    "(lambda x, v: ((x * 1).index_fill(0, lib.tensor([0]), v).backward(), x.grad, v.grad))"
    "(lib.tensor(2., requires_grad=True), lib.tensor(4., requires_grad=True))",
    "(lambda x, v: lib.autograd.grad((x * 1).index_fill(0, lib.tensor(0), v), [x, v], "
    "create_graph=True))(lib.tensor(2., requires_grad=True), lib.tensor(4., requires_grad=True))",
    "(lambda x: x.std().index_fill_(0, lib.tensor([0]), 1).backward())"
    "(lib.tensor([1., 2., 3.], requires_grad=True))",
    # minimum/maximum/fmin/fmax: the input that was not chosen gets 0 even where grad is nan or
    # inf (PyTorch fills, it does not multiply by 0)
    *[f"(lambda a, b: (lib.{f}(a, b).backward(lib.tensor([{N}, {N}, {I}, 1.])), a.grad, b.grad))"
      f"(lib.tensor(-1.5, requires_grad=True), lib.tensor([{N}, 3.7, -1.5, -3.], "
      "requires_grad=True))" for f in ("minimum", "maximum", "fmin", "fmax")],
    # addmm as PyTorch's BLAS call: alpha 0 or an inner size 0 leaves the product out, beta 0
    # the input (inf and NaN there do not spread); baddbmm leaves out only an empty product
    *[f"lib.addmm({c}, {m}, {n}, beta={b}, alpha={a})"
      for c in (f"lib.tensor([[{N}]])", "lib.ones(1, 1)", "lib.ones(1)")
      for m, n in ((f"lib.tensor([[{I}, 1.]])", f"lib.tensor([[1.], [{N}]])"),
                   ("lib.zeros(1, 0)", "lib.zeros(0, 1)"))
      for a in (0.0, 1.0, 2.0, I) for b in (0.0, 1.0, 0.5)],
    *[f"lib.baddbmm({c}, lib.zeros(1, 1, 0), lib.zeros(1, 0, 1), beta={b}, alpha={a})"
      for c in (f"lib.tensor([[[{N}]]])", "lib.ones(1, 1, 1)") for a in (I, N, 2.0)
      for b in (0.5, 0.0, I)],
    # sigmoid of a very negative number: tiny, not 0 (PyTorch's 1 / (1 + exp(-x)); 0 only once
    # exp overflows), in every form and float dtype
    *[f"lib.tensor([-22.3, -39.76, -88., -104., -750., 20., 0.5]{d}).{f}"
      for d in ("", ", dtype=lib.float64", ", dtype=lib.float16")
      for f in ("sigmoid()", "sigmoid_()", "logical_not_()", "sigmoid().logical_not()")],
    "F.sigmoid(lib.tensor([[-30.], [-60.]]).t())", "lib.nn.Sigmoid()(lib.tensor(-50.))",
    # baddbmm past its checks: nothing to do for an empty result; an inner size of 0 is
    # input * beta in place (an int beta refused on bool, a float one on integers); otherwise
    # bool is refused and integers take alpha and beta truncated
    *[f"lib.baddbmm(lib.ones({i}, dtype=lib.{dt}), lib.ones(1, 1, {k}, dtype=lib.{dt}), "
      f"lib.ones(1, {k}, 1, dtype=lib.{dt}), beta={b}, alpha={a})"
      for dt in ("bool", "int64", "uint8", "float32") for k in (0, 2) for i in ("1, 1, 1", "1")
      for b in (1, 0, True, 0.5, 2) for a in (1, 0.5, True)],
    *[f"lib.ones(1, 1, 1, dtype=lib.{dt}).baddbmm_(lib.ones(1, 1, {k}, dtype=lib.{dt}), "
      f"lib.ones(1, {k}, 1, dtype=lib.{dt}), beta={b})"
      for dt in ("bool", "int32") for k in (0, 3) for b in (1, 0, 2.5)],
    "lib.baddbmm(lib.ones(1, 0, 1, dtype=lib.bool), lib.ones(1, 0, 2, dtype=lib.bool), "
    "lib.ones(1, 2, 1, dtype=lib.bool), beta=0.5)",
    # the p = nan norm of nothing is 0
    *[f"lib.zeros({s}).norm({N}{d})" for s, d in (("0", ""), ("2, 0", ", 1"), ("0, 2", ", 1"),
                                                  ("2, 2", ""), ("2, 2", ", 0"))],
]

# results PyTorch lays out contiguously whatever the input's layout (a transposed input here)
LAYOUTS = [f"(lambda r: (r.stride(), r.is_contiguous()))({call})" for call in (
    "lib.arange(6.).reshape(2, 3).t().roll(1, 0)", "lib.arange(6).reshape(2, 3).t().roll(1, 1)",
    "lib.arange(6.).reshape(2, 3).t().cumsum(0)", "lib.arange(6.).reshape(2, 3).t().cumprod(1)",
    "lib.arange(6).reshape(2, 3).t().cumsum(0, dtype=lib.float64)",
    "lib.pow(2.0, lib.arange(6.).reshape(2, 3).t())", "-0.0 ** lib.arange(6.).reshape(2, 3).t()",
    "F.layer_norm(lib.arange(6.).reshape(2, 3).t(), (2,))",
    "F.layer_norm(lib.arange(6.).reshape(2, 3).t().requires_grad_(), (2,), lib.ones(2))")] + [
    # sort's results are laid out as its input is (argsort's too)
    f"(lambda r: (r.values.stride(), r.indices.stride()))({call})" for call in (
        "lib.arange(6.).reshape(2, 3).t().sort(0)", "lib.arange(6.).reshape(2, 3).t().sort(1)",
        "lib.arange(12.).reshape(3, 4)[:, ::2].sort(0)",
        "lib.arange(24.).reshape(2, 3, 4).permute(2, 0, 1).sort(1, descending=True)")] + [
    "lib.arange(6.).reshape(2, 3).t().argsort(0).stride()"] + [
    # elementwise results laid out as TensorIterator orders them: the first operand decides
    f"(lambda x: ({call}).stride())(lib.arange(24.).reshape(2, 3, 4))" for call in (
        "x.mT == lib.ones(2, 4, 3)", "lib.ones(2, 4, 3) == x.mT", "x.mT < 1", "x.mT != x.mT",
        "x.permute(2, 0, 1) >= x[:, 0, 0]", "x.mT.eq(lib.ones(2, 4, 3, dtype=lib.bool))",
        "lib.copysign(x.mT, -1.)", "x.mT.copysign(lib.ones(2, 4, 3))",
        "lib.copysign(lib.tensor([[0, 3, -2]]).t(), float('nan'))",
        "x[:, ::2] == 1", "x.expand(3, 2, 3, 4).transpose(0, 1) == 2")] + [
    "(lambda v: v.t().copy_(v))(lib.copysign(lib.tensor([[0, 3, -2]]).t(), float('nan')))"] + [
    # advanced indexing of a contiguous tensor gives a contiguous result (its strides too)
    f"(lambda x: {call}.stride())(lib.arange(24.).reshape(2, 3, 4))" for call in (
        "x[None, ..., [-1, 0, -1]]", "x[:, [0, 1]]", "x[:, :, [0, 1]]", "x[..., [1, 0], :]",
        "x[:, [0, 1], [1, 2]]", "x[:, x[0] > 3]", "x[:, [[0, 1], [1, 2]]]",
        "x[:, lib.tensor([True, False, True])]", "x[None, [0, 1]]", "x[:, None, [0, 2]]",
        "x[range(2)]", "x.transpose(0, 2)[[0, 1]]")] + [
    # a mean's gradient is expanded, then divided: a new contiguous tensor (DivBackward1 under
    # create_graph), whatever the input's layout
    f"(lambda x: (lambda g: (g.stride(), g.grad_fn and g.grad_fn.name()))(lib.autograd.grad("
    f"{loss}, x, create_graph=True)[0]))(lib.arange(6.).reshape(2, 3).t().requires_grad_())"
    for loss in ("x.mean()", "x.mean(0).sum()", "(x * x).mean((0, 1), keepdim=True).sum()",
                 "F.adaptive_avg_pool2d(x.reshape(1, 1, 3, 2), 1).sum()",
                 "(x.sum() * x.mean(1)).sum()")]


@pytest.mark.parametrize("code", EXPRESSIONS + LAYOUTS)
def test_found_by_the_fuzzer_and_now_as_in_pytorch(torch, code):
    assert_same_outcome(torch, code)


# copy_ between overlapping views PyTorch lets through (not dense): its order of writes
COPIES = [
    "x = lib.tensor([[1, 2], [3, 4]], dtype=lib.int8).nonzero()\nx[1:].copy_(x[:-1])\nout = x",
    "b = lib.arange(60).reshape(20, 3).t()\nb[1:].copy_(b[:-1])\nout = b",
    "x = lib.arange(12.).reshape(3, 4)[:, :3]\nx.t().copy_(x)\nout = x",
    "x = lib.tensor([[1, 2], [3, 4]]).t()\nx.copy_(x.t())\nout = x",
] + [
    f"b = lib.arange(400).to(lib.{dt}).reshape(10, 40)\nv = b[:, :38]\n{copy}\nout = b"
    for dt in ("float32", "float64", "int64", "int32", "int16", "int8")
    for copy in ("v[:, 1:].copy_(v[:, :-1])", "v[:, :-1].copy_(v[:, 1:])",
                 "v[:, 2:].copy_(v[:, :-2])")
] + [
    "x = lib.arange(4.).requires_grad_()\ny = x * 1\nv = y.reshape(2, 2).t()\n"
    "v[1:].copy_(v[:-1])\ny.sum().backward()\nout = (y, x.grad)",
]


@pytest.mark.parametrize("code", COPIES)
def test_an_overlapping_copy_writes_in_pytorchs_order(torch, code):
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)


# signbit of the NaN an op gives: PyTorch's fmax/fmin give the second operand where both are NaN,
# its minimum/maximum a positive NaN (NumPy keeps the first operand's sign)
NAN_SIGNS = [f"lib.signbit(lib.{f}({a}, {b}))" for f in ("fmin", "fmax", "minimum", "maximum")
             for a, b in (("-lib.tensor(float('nan'))", "lib.tensor(float('nan'))"),
                          ("lib.tensor([float('nan')] * 3)", "-lib.tensor([float('nan')] * 3)"),
                          ("-lib.tensor([float('nan'), 1.])", "lib.tensor(1.)"))]
# the NaN of a number out of the domain is positive in PyTorch (NumPy's is negative); an element
# equal to a clamp's bound stays itself (-0.0 at 0.0)
NAN_SIGNS += [f"lib.signbit({e})" for e in (
    "lib.tensor([-1.5, 2., -0.]).sqrt()", "lib.tensor([-1.5, 2.]).log()",
    "lib.tensor([-1.]).log2()",
    "lib.tensor([-1.], dtype=lib.float64).log10()", "lib.tensor([-2., 4.]).pow(0.5)",
    "lib.tensor([-1.]).rsqrt()", "F.relu(lib.tensor([-0., 0., -1.]))",
    "F.relu(lib.tensor([-0., 0.], dtype=lib.float16))", "lib.tensor([-0., 0.]).clamp(min=0)",
    "lib.tensor([-0., 0.]).clamp(max=-0.)", "lib.tensor([-0., 0.]).clamp_min(0.)",
    "lib.tensor([-0., 0.], dtype=lib.float16).clamp(-0., 0.)",
    "lib.tensor([-0., 0.]).clamp(min=lib.tensor(0.))")]
# the NaN of a mean over no elements: PyTorch's 0 / 0 (sign bit set on x86), except nll_loss of no
# samples, which PyTorch fills with a positive quiet NaN; layer/group norm's saved mean and rstd
NAN_SIGNS += [f"lib.signbit({e})" for e in (
    "F.mse_loss(lib.ones(0), lib.ones(0))", "F.mse_loss(lib.ones(0, dtype=lib.float16), "
    "lib.ones(0, dtype=lib.float16))", "F.mse_loss(lib.ones(1).cos(), lib.ones(0, dtype=lib.int32))",
    "F.mse_loss(lib.ones(0, dtype=lib.float64, requires_grad=True), lib.ones(0))",
    "F.nll_loss(lib.ones(0, 3), lib.ones(0, dtype=lib.long))",
    "F.nll_loss(lib.ones(2, 3), lib.full((2,), -100))",
    "F.nll_loss(lib.ones(0, 3, 2), lib.ones(0, 2, dtype=lib.long))",
    "F.nll_loss(lib.ones(2, 3, 0), lib.ones(2, 0, dtype=lib.long))",
    "F.nll_loss(lib.ones(2, 3, 2, 0), lib.ones(2, 2, 0, dtype=lib.long), weight=lib.ones(3))",
    "F.group_norm(lib.ones(1, 2, 0, requires_grad=True), 1).grad_fn._saved_result2",
    "F.layer_norm(lib.ones(2, 0, requires_grad=True), (0,)).grad_fn._saved_result2")]
# exp passes a NaN's sign through (NumPy's float32 exp makes it positive), so sigmoid's NaN is
# -x's (fuzz seed 7006)
NAN_SIGNS += [f"lib.signbit({f}(lib.tensor([float('nan'), -float('nan')] * {n}{dt})))"
              for f in ("lib.exp", "lib.sigmoid", "F.sigmoid") for n in (1, 9)
              for dt in ("", ", dtype=lib.float64", ", dtype=lib.float16")]
NAN_SIGNS += [f"lib.signbit(lib.{f}(lib.tensor([float('nan'), -float('nan')] * {n})))"
              for f in ("log", "sin", "cos", "tanh") for n in (1, 9)]
NAN_SIGNS += ["F.group_norm(lib.ones(1, 2, 0, requires_grad=True), 1).grad_fn._saved_result1",
              "F.nll_loss(lib.ones(0, 3, 2), lib.ones(0, 2, dtype=lib.long), reduction='none')"]
# var_mean/std_mean's mean is PyTorch's Welford running mean: NaN once inf meets a later number
INF_MEANS = [f"lib.{f}(lib.tensor({d}){dim})" for f in ("var_mean", "std_mean")
             for d in ("[1., inf, 2.]", "[1., 2., inf]", "[-inf, 1.]", "[1., -inf]", "[inf, inf]",
                       "[[inf, 1., 2.], [-inf, 3., inf]]")
             for dim in ("", ", -1", ", 0, keepdim=True")]


@pytest.mark.parametrize("code", NAN_SIGNS + INF_MEANS)
def test_nan_signs_and_inf_means_as_in_pytorch(torch, code):
    code = code.replace("inf", "float('inf')").replace("float('float('inf')')", "float('inf')")
    assert_same_outcome(torch, code)


def _tied_tensors():
    """Tensors full of ties (repeated values, 0.0 and -0.0, several NaNs), drawn once."""
    rng = np.random.default_rng(20)
    pools = ([0., 1.], [0., -0., 1.], [1., 2., 3.], [np.nan, 1., 2.], [0, 1, 2, 3])
    for i in range(60):
        pool = pools[i % len(pools)]
        shape = [(7,), (3, 5), (2, 4, 3), (30,)][i % 4]
        yield rng.choice(pool, size=shape).astype("int64" if i % 5 == 4 else "float32")


@pytest.mark.parametrize("largest", [True, False])
def test_topk_ties_as_in_pytorch(torch, largest):
    """Which of equal values topk returns: PyTorch's (libstdc++'s nth_element and sort, not a
    stable order): the top 2 of [1., 1., 1., 1.] are at 2 and 3."""
    for i, a in enumerate(_tied_tensors()):
        dim = i % a.ndim
        for k in range(a.shape[dim] + 1):
            ours = mg.tensor(a).topk(k, dim, largest=largest)
            theirs = torch.tensor(a).topk(k, dim, largest=largest)
            assert ours.indices.tolist() == theirs.indices.tolist(), (a.tolist(), k, dim)
            assert repr(ours.values.tolist()) == repr(theirs.values.tolist())


@pytest.mark.parametrize("op", ["median()", "max()", "min()"])
def test_whole_tensor_ties_as_in_pytorch(torch, op):
    """Which of equal values (0.0 and -0.0) and which NaN a whole-tensor median/max/min gives:
    PyTorch's (median: std::nth_element; max/min: the last of ties, a negative NaN)."""
    rng = np.random.default_rng(21)  # (zeros: up to 7 elements; from 8 on PyTorch's vector
    for n in [*range(1, 8), 16, 17, 30, 41]:  # lanes combine them in an order not reproduced)
        for pool in ([0., -0., 1.], [0., -0., -1.], [0., -0.], [np.nan, 1.])[0 if n < 8 else 3:]:
            a = rng.choice(pool, size=n).astype("float32")
            ours, theirs = eval(f"x.{op}", {"x": mg.tensor(a)}), eval(f"x.{op}",
                                                                       {"x": torch.tensor(a)})
            assert mg.signbit(ours).item() == torch.signbit(theirs).item(), (a.tolist(), op)
            assert repr(ours.item()) == repr(theirs.item())


@pytest.mark.parametrize("descending", [False, True])
def test_sort_ties_as_in_pytorch(torch, descending):
    """sort (not stable=True) orders ties as PyTorch's std::sort does; argsort with it."""
    for i, a in enumerate(_tied_tensors()):
        dim = i % a.ndim
        ours = mg.tensor(a).sort(dim, descending=descending)
        theirs = torch.tensor(a).sort(dim, descending=descending)
        assert ours.indices.tolist() == theirs.indices.tolist(), (a.tolist(), dim)
        assert mg.tensor(a).argsort(dim, descending=descending).tolist() == \
            torch.tensor(a).argsort(dim, descending=descending).tolist()


def test_mode_of_long_rows_as_in_pytorch(torch):
    """mode's index among equal values of a row longer than 16: PyTorch's std::sort (introsort,
    not stable) decides which occurrence ends the run."""
    rng = np.random.default_rng(22)
    for n in (17, 20, 33, 48, 70):
        for dtype in ("int64", "float32"):
            a = rng.integers(0, 4, size=(3, n)).astype(dtype)
            ours, theirs = mg.tensor(a).mode(-1), torch.tensor(a).mode(-1)
            assert ours.indices.tolist() == theirs.indices.tolist(), (a.tolist(), n)
            assert ours.values.tolist() == theirs.values.tolist()


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int64"])
def test_xlogy_nan_signs_as_in_pytorch(torch, dtype):
    """The sign of each NaN xlogy gives (``signbit`` shows it): a NaN ``other`` gives a positive
    one, log of a negative number C's (positive in float64, negative in float32 and float16), and
    where both factors are NaN the one PyTorch's product keeps; tensor and number operands,
    in place, strided, and long enough for NumPy's vector loops."""
    rng = np.random.default_rng(23)
    pool = np.array([np.nan, -np.nan, -1., 0., -0., 2., -np.inf, np.inf, 0.5, -3.])
    a, b = (rng.choice(pool, 2001) for _ in range(2))
    if dtype == "int64":
        a, b = (np.nan_to_num(x, posinf=7, neginf=-7) for x in (a, b))
    a, b = a.astype(dtype), b.astype(dtype)
    for lib in (mg, torch):
        x, y = lib.tensor(a), lib.tensor(b)
        results = [lib.xlogy(x, y), lib.xlogy(x[::3], y[1::3]), lib.xlogy(x, -1.),
                   lib.xlogy(-np.nan, y), lib.xlogy(2., y)]
        if dtype != "int64":
            results.append(x.clone().xlogy_(y))
        signs = [lib.signbit(r).tolist() for r in results]
        if lib is mg:
            ours = signs
    assert ours == signs


# an index out of bounds stops PyTorch's index_put kernel where it meets it: the elements it
# went through before (TensorIterator's order) are written, in place, before the IndexError
BAD_INDEX_WRITES = [f"x = lib.arange(24.).reshape(2, 3, 4){view}\ntry:\n    {put}\n"
                    "except IndexError as e:\n    out = (str(e), x)" for view, put in (
    ("", "x[:, [0, 5]] = -1."), ("", "x[[1, 0, 2], :] = -1."),
    ("", "x[:, [0, 1, 7], [1, 2, 3]] = -1."), ("", "x[[1, 0], :, [0, 9]] = -1."),
    ("", "x[[[1], [0]], :, [[0, 2, 9]]] = -1."), ("", "x[None, [1, -3]] = lib.tensor(-5.)"),
    ("", "x[:, :, [3, 1, 4]] = lib.arange(100., 106.).reshape(2, 1, 3)"),
    ("", "x[lib.tensor([True, False]), [0, 3]] = -1."), ("[0]", "x[[0, 2], [1, 9]] = -1."),
    ("", "x.index_put_((lib.tensor([0, 1, 1, 5]),), lib.tensor(1.), accumulate=True)"),
    ("", "x.index_put_((lib.tensor([0, 1, 1, 5]), lib.tensor([0, 0, 0, 0])), "
         "lib.tensor([1., 2, 3, 4]), accumulate=True)"),
    (".transpose(0, 2)", "x[:, [0, 1, 3]] = -1."), (".transpose(0, 1)", "x[[0, 1, 3]] = -1."),
    (".transpose(0, 2)", "x[:, [0, 1, 3]] = lib.arange(24.).reshape(2, 3, 4).transpose(0, 2)"),
    ("", "x[1, [0, 2], [1, 9]] = -1."), ("", "x[..., [2, -5]] = -1."),
    ("", "x[:, lib.tensor([[0, 2], [1, 3]]).t()] = -1."))]


@pytest.mark.parametrize("code", BAD_INDEX_WRITES)
def test_an_index_out_of_bounds_stops_the_writes_where_pytorch_does(torch, code):
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)
