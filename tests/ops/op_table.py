"""A shared table of minigrad's math ops and their PyTorch counterparts.

Each :class:`OpCase` names one op applied to inputs of given shapes. ``fn(lib, *inputs)`` is
written once for both libraries (``lib`` is ``minigrad`` or ``torch``, the inputs that
library's tensors); :attr:`OpCase.minigrad` and :meth:`OpCase.torch` bind it. ``domain``
says where inputs may be drawn so the op is smooth there (``sample`` draws them), e.g.
``"positive"`` for log and sqrt. Tests import this module; it imports only NumPy and minigrad,
never torch (the torch callable asks for the torch module).

Used by tests/ops/test_ops_math.py (forward values, gradients, node names, next_functions, saved
attributes, all against torch) and meant for gradcheck over every entry (every differentiable
entry passes ``minigrad.autograd.gradcheck`` on float64 samples)::

    from op_table import OPS, first_output, sample
    for case in OPS:
        if case.differentiable:
            arrays = sample(case, np.random.default_rng(0))      # float64 NumPy arrays
            xs = [minigrad.tensor(a, requires_grad=True) for a in arrays]
            gradcheck(lambda *t: first_output(case.minigrad(*t)), xs)

``first_output`` picks the values of ops returning (values, indices). The second half of the
module holds the comparison helpers the differential tests share (``both``, ``assert_close``,
``assert_same_graph``, ``assert_same_saved``, ``assert_same_error``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
from helpers import F32, as_array, assert_close, dtype_name  # noqa: F401 - used by the tests

import minigrad

__all__ = ["OpCase", "OPS", "BY_NAME", "DOMAINS", "sample", "first_output", "both",
           "assert_close", "assert_same_graph", "assert_same_saved", "assert_same_error",
           "dtype_name", "nodes", "saved_names"]


@dataclass(frozen=True)
class OpCase:
    """One op on inputs of fixed shapes.

    ``fn(lib, *tensors)`` computes it with library ``lib``; ``shapes`` gives one shape per
    tensor input; ``domain`` names where inputs are drawn (see :data:`DOMAINS`), one for all
    inputs or a tuple with one per input; ``differentiable`` is False for ops without a
    gradient (argmax).
    """

    name: str
    fn: Callable
    shapes: tuple
    domain: str | tuple = "real"
    differentiable: bool = True

    @property
    def minigrad(self) -> Callable:
        """The op as a minigrad callable on minigrad tensors."""
        return partial(self.fn, minigrad)

    def torch(self, torch_module) -> Callable:
        """The op as a callable on torch tensors (pass the torch module, e.g. the fixture)."""
        return partial(self.fn, torch_module)

    def domains(self) -> tuple:
        d = self.domain
        return d if isinstance(d, tuple) else (d,) * len(self.shapes)

    def __repr__(self) -> str:  # pytest ids
        return self.name


def _uniform(lo, hi):
    return lambda rng, shape: rng.uniform(lo, hi, shape)


def _away_from(points, margin=0.05, lo=-2.0, hi=2.0):
    """Uniform on [lo, hi] but at least ``margin`` from each kink in ``points``."""

    def draw(rng, shape):
        x = rng.uniform(lo, hi, shape)
        for p in points:
            near = np.abs(x - p) < margin
            x = np.where(near, p + np.copysign(margin, x - p + 1e-12) * 2, x)
        return x

    return draw


def _signed(rng, shape):
    return rng.choice([-1.0, 1.0], shape) * rng.uniform(0.5, 2.0, shape)


DOMAINS = {
    "real": _away_from((0.0,)),  # most ops; also keeps relu/abs/sign away from their kink
    "positive": _uniform(0.5, 2.0),  # log, sqrt, pow with a real exponent, division
    "nonzero": _signed,  # divisors: |x| >= 0.5, either sign
    "clamp": _away_from((-0.5, 0.0, 0.5)),  # clamp(-0.5, 0.5) and its tensor bounds
    "small": _uniform(-0.9, 0.9),  # products and powers that should stay moderate
}


def sample(case: OpCase, rng: np.random.Generator, dtype=np.float64) -> list:
    """One NumPy array per input of ``case``, drawn from its domain (``dtype`` float64)."""
    return [np.asarray(DOMAINS[d](rng, s), dtype=dtype)
            for d, s in zip(case.domains(), case.shapes)]


def first_output(out):
    """The differentiable output of an op: the values of a (values, indices) pair."""
    return out[0] if isinstance(out, tuple) else out


def _op(name, fn, *shapes, domain="real", **kw) -> OpCase:
    return OpCase(name, fn, tuple(shapes), domain, **kw)


# ---------------------------------------------------------------- the table
ARITHMETIC = [
    _op("add", lambda L, x, y: x + y, (2, 3), (3,)),
    _op("add_scalar", lambda L, x: x + 2, (2, 3)),
    _op("radd_scalar", lambda L, x: 2 + x, (3,)),
    _op("add_alpha", lambda L, x, y: L.add(x, y, alpha=2), (2, 3), (2, 1)),
    _op("sub", lambda L, x, y: x - y, (2, 1, 3), (4, 1)),
    _op("sub_alpha", lambda L, x, y: x.sub(y, alpha=0.5), (3,), (3,)),
    _op("rsub_scalar", lambda L, x: 2 - x, (2, 3)),
    _op("mul", lambda L, x, y: x * y, (2, 3), (2, 3)),
    _op("mul_broadcast", lambda L, x, y: L.mul(x, y), (4, 1), (3,)),
    _op("mul_scalar", lambda L, x: x * 2, (3,)),
    _op("rmul_scalar", lambda L, x: 2.5 * x, (3,)),
    _op("mul_0d", lambda L, x, y: x * y, (), (2, 3)),
    _op("div", lambda L, x, y: x / y, (2, 3), (3,), domain=("real", "nonzero")),
    _op("div_scalar", lambda L, x: x / 2, (2, 3)),
    _op("rdiv_scalar", lambda L, x: 2 / x, (2, 3), domain="nonzero"),
    _op("neg", lambda L, x: -x, (2, 3)),
    _op("pow_int", lambda L, x: x ** 3, (2, 3)),
    _op("pow_float", lambda L, x: x.pow(2.5), (2, 3), domain="positive"),
    _op("pow_zero", lambda L, x: x ** 0, (3,)),
    _op("pow_tensor", lambda L, x, y: x ** y, (2, 3), (3,), domain=("positive", "real")),
    _op("pow_0d_exponent", lambda L, x, y: L.pow(x, y), (2, 3), (), domain="positive"),
    _op("rpow_scalar", lambda L, x: 2 ** x, (2, 3)),
    _op("pow_scalar_base", lambda L, x: L.pow(1.5, x), (3,)),
    _op("square", lambda L, x: x.square(), (3,)),
    _op("reciprocal", lambda L, x: x.reciprocal(), (3,), domain="nonzero"),
]

UNARY = [
    _op("exp", lambda L, x: L.exp(x), (2, 3)),
    _op("log", lambda L, x: L.log(x), (2, 3), domain="positive"),
    _op("sqrt", lambda L, x: x.sqrt(), (2, 3), domain="positive"),
    _op("sin", lambda L, x: L.sin(x), (2, 3)),
    _op("cos", lambda L, x: x.cos(), (2, 3)),
    _op("abs", lambda L, x: L.abs(x), (2, 3)),
    _op("abs_operator", lambda L, x: abs(x), (3,)),
    _op("tanh", lambda L, x: L.tanh(x), (2, 3)),
    _op("sigmoid", lambda L, x: L.sigmoid(x), (2, 3)),
    _op("relu", lambda L, x: L.relu(x), (2, 3)),
    _op("relu_method", lambda L, x: x.relu(), (4,)),
    _op("clamp_numbers", lambda L, x: L.clamp(x, -0.5, 0.5), (2, 3), domain="clamp"),
    _op("clamp_min_only", lambda L, x: x.clamp(min=0.0), (2, 3), domain="clamp"),
    _op("clamp_max_only", lambda L, x: x.clamp(max=0.5), (2, 3), domain="clamp"),
    _op("clip", lambda L, x: x.clip(-0.5, 0.5), (3,), domain="clamp"),
    _op("clamp_tensors", lambda L, x, lo, hi: x.clamp(lo - 1, hi + 1), (2, 3), (3,), (2, 3),
        domain="clamp"),
    _op("clamp_min_tensor_kw", lambda L, x, lo: L.clamp(x, min=lo), (2, 3), (2, 3),
        domain="clamp"),
    _op("clamp_max_tensor_kw", lambda L, x, hi: x.clamp(max=hi), (2, 3), (3,), domain="clamp"),
    _op("clamp_min", lambda L, x: x.clamp_min(0.5), (2, 3), domain="clamp"),
    _op("clamp_max", lambda L, x: L.clamp_max(x, -0.5), (2, 3), domain="clamp"),
    _op("clamp_min_tensor", lambda L, x, lo: x.clamp_min(lo), (2, 3), (3,), domain="clamp"),
    _op("clamp_max_tensor", lambda L, x, hi: x.clamp_max(hi), (2, 3), (2, 3), domain="clamp"),
    _op("maximum", lambda L, x, y: L.maximum(x, y), (2, 3), (3,)),
    _op("minimum", lambda L, x, y: x.minimum(y), (2, 3), (2, 3)),
    _op("max_of_two", lambda L, x, y: L.max(x, y), (2, 3), (2, 3)),
    _op("min_of_two", lambda L, x, y: x.min(y), (3,), (3,)),
    _op("signbit", lambda L, x: L.signbit(x), (2, 3), differentiable=False),
    _op("copysign", lambda L, x, y: L.copysign(x, y), (2, 3), (3,)),
    _op("copysign_number", lambda L, x: x.copysign(-0.0), (2, 3)),
]

REDUCTIONS = [
    _op("sum", lambda L, x: x.sum(), (2, 3)),
    _op("sum_dim", lambda L, x: L.sum(x, 1), (2, 3)),
    _op("sum_negative_dim_keepdim", lambda L, x: x.sum(-1, keepdim=True), (2, 3)),
    _op("sum_dims", lambda L, x: x.sum((0, 2)), (2, 3, 4)),
    _op("sum_dim_none", lambda L, x: x.sum(dim=None), (2, 3)),
    _op("sum_dim_empty", lambda L, x: x.sum(()), (2, 3)),
    _op("sum_dtype_float64", lambda L, x: x.sum(1, dtype=L.float64), (2, 3)),
    _op("nansum", lambda L, x: L.nansum(x), (2, 3)),
    _op("nansum_dim_keepdim", lambda L, x: x.nansum(1, keepdim=True), (2, 3)),
    _op("nanmean_dim", lambda L, x: x.nanmean(0), (2, 3)),
    _op("mean", lambda L, x: L.mean(x), (2, 3)),
    _op("mean_dim", lambda L, x: x.mean(0), (2, 3)),
    _op("mean_dims_keepdim", lambda L, x: x.mean((-1, 0), keepdim=True), (2, 3, 4)),
    _op("prod", lambda L, x: x.prod(), (2, 3), domain="small"),
    _op("prod_dim", lambda L, x: L.prod(x, -1), (2, 3), domain="small"),
    _op("prod_dim_keepdim", lambda L, x: x.prod(0, keepdim=True), (2, 3), domain="small"),
    _op("max", lambda L, x: x.max(), (2, 3)),
    _op("min", lambda L, x: L.min(x), (2, 3)),
    _op("max_dim", lambda L, x: x.max(1), (2, 3)),
    _op("max_dim_keepdim", lambda L, x: L.max(x, -1, keepdim=True), (2, 3)),
    _op("min_dim", lambda L, x: x.min(dim=0), (2, 3)),
    _op("amax", lambda L, x: x.amax(), (2, 3)),
    _op("amax_dim", lambda L, x: L.amax(x, -1), (2, 3)),
    _op("amin_dims_keepdim", lambda L, x: x.amin((0, 1), keepdim=True), (2, 3, 2)),
    _op("mode", lambda L, x: x.mode(), (2, 3)),
    _op("mode_ties_keepdim", lambda L, x: L.mode(L.cat([x, x[:, :2]], 1), 1, keepdim=True),
        (3, 3)),
    _op("mode_dim0", lambda L, x: L.mode(x, 0), (3, 2)),
    _op("argmax", lambda L, x: x.argmax(), (2, 3), differentiable=False),
    _op("argmin_dim", lambda L, x: L.argmin(x, 1, keepdim=True), (2, 3), differentiable=False),
    _op("softmax", lambda L, x: x.softmax(1), (2, 3)),
    _op("softmax_negative_dim", lambda L, x: L.softmax(x, -1), (2, 3, 4)),
    _op("log_softmax", lambda L, x: L.log_softmax(x, 0), (2, 3)),
    _op("log_softmax_method", lambda L, x: x.log_softmax(-1), (4,)),
    _op("norm", lambda L, x: x.norm(), (2, 3)),
    _op("norm_dim", lambda L, x: L.norm(x, dim=1), (2, 3)),
    _op("norm_p1_dims", lambda L, x: x.norm(p=1, dim=(-1, 0)), (2, 3)),
    _op("norm_p3_keepdim", lambda L, x: x.norm(3, dim=0, keepdim=True), (2, 3)),
    _op("norm_inf", lambda L, x: x.norm(float("inf")), (2, 3)),
    _op("dist", lambda L, x, y: L.dist(x, y), (2, 3), (3,)),
    _op("dist_p1", lambda L, x, y: x.dist(y, 1), (2, 3), (2, 3)),
    _op("dist_p3", lambda L, x, y: L.dist(x, y, p=3), (3,), (2, 3)),
]

LINALG = [
    _op("dot", lambda L, a, b: L.dot(a, b), (3,), (3,)),
    _op("matmul_1d_1d", lambda L, a, b: a @ b, (3,), (3,)),
    _op("mv", lambda L, A, b: L.mv(A, b), (2, 3), (3,)),
    _op("matmul_2d_1d", lambda L, A, b: A @ b, (2, 3), (3,)),
    _op("mm", lambda L, A, B: L.mm(A, B), (2, 3), (3, 4)),
    _op("matmul_2d_2d", lambda L, A, B: A.matmul(B), (2, 3), (3, 4)),
    _op("matmul_1d_2d", lambda L, a, B: a @ B, (3,), (3, 4)),
    _op("bmm", lambda L, A, B: L.bmm(A, B), (5, 2, 3), (5, 3, 4)),
    _op("matmul_3d_3d", lambda L, A, B: A @ B, (5, 2, 3), (5, 3, 4)),
    _op("matmul_3d_2d", lambda L, A, B: L.matmul(A, B), (5, 2, 3), (3, 4)),
    _op("matmul_3d_1d", lambda L, A, b: A @ b, (5, 2, 3), (3,)),
    _op("matmul_1d_3d", lambda L, a, B: a @ B, (3,), (5, 3, 4)),
    _op("matmul_2d_3d", lambda L, A, B: A @ B, (2, 3), (5, 3, 4)),
    _op("matmul_4d_3d_broadcast", lambda L, A, B: A @ B, (2, 5, 2, 3), (5, 3, 4)),
    _op("addmm", lambda L, c, A, B: L.addmm(c, A, B), (4,), (2, 3), (3, 4)),
    _op("addmm_beta_alpha", lambda L, c, A, B: c.addmm(A, B, beta=0.5, alpha=2), (2, 4),
        (2, 3), (3, 4)),
    _op("addmm_transposed_weight", lambda L, c, x, W: L.addmm(c, x, W.t()), (4,), (2, 3),
        (4, 3)),    _op("inner_1d", lambda L, a, b: L.inner(a, b), (3,), (3,)),
    _op("inner_3d_2d", lambda L, A, B: A.inner(B), (2, 4, 3), (2, 3)),
    _op("inner_0d", lambda L, a, B: L.inner(a, B), (), (2, 3)),
    _op("tensordot_all_dims", lambda L, A, B: L.tensordot(A, B, 2), (2, 3), (2, 3)),
    # a contracted size-1 dim against a longer one (or another size-1): summed first
    _op("inner_1x1", lambda L, A, B: A.inner(B), (1, 1), (1, 1)),
    _op("tensordot_size1_against_longer", lambda L, A, B: L.tensordot(A, B, ([1], [0])), (2, 3),
        (1, 4)),
    _op("outer_method", lambda L, a, b: a.outer(b), (3,), (2,)),
    _op("baddbmm", lambda L, c, A, B: L.baddbmm(c, A, B), (4, 2, 3), (4, 2, 5), (4, 5, 3)),
    _op("baddbmm_broadcast_beta_alpha", lambda L, c, A, B: c.baddbmm(A, B, beta=0.5, alpha=2),
        (1, 3), (2, 2, 4), (2, 4, 3)),
    _op("baddbmm_beta_0", lambda L, c, A, B: L.baddbmm(c, A, B, beta=0), (2, 3), (2, 2, 3),
        (2, 3, 3)),
]

COMPOSITES = [
    _op("mlp_layer", lambda L, x, W, b: L.tanh(x @ W + b).sum(), (4, 3), (3, 2), (2,)),
    _op("softmax_cross_entropy_by_hand",
        lambda L, z: -(z.log_softmax(1) * L.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])).sum(1)
        .mean(), (2, 3)),
    _op("sigmoid_of_square_plus_exp", lambda L, x, y: (x.sigmoid() ** 2 + y.exp()) / 2,
        (2, 3), (3,)),
]

def _F(L):
    return L.nn.functional


# the layers and activations of a first CNN (minigrad/nn/_conv.py, _pooling.py, _padding.py,
# _batchnorm.py, _activations.py)
NN = [
    _op("conv2d", lambda L, x, w, b: _F(L).conv2d(x, w, b), (2, 3, 6, 6), (4, 3, 3, 3), (4,)),
    _op("conv2d_stride_padding_dilation", lambda L, x, w, b: _F(L).conv2d(
        x, w, b, stride=2, padding=(1, 2), dilation=(2, 1)), (2, 3, 7, 6), (4, 3, 3, 2), (4,)),
    _op("conv2d_groups_no_bias", lambda L, x, w: _F(L).conv2d(x, w, groups=2, padding=1),
        (1, 4, 5, 5), (6, 2, 3, 3)),
    _op("conv2d_same", lambda L, x, w: _F(L).conv2d(x, w, padding="same"), (1, 2, 5, 5),
        (3, 2, 3, 3)),
    _op("conv2d_valid_unbatched", lambda L, x, w: _F(L).conv2d(x, w, padding="valid"),
        (2, 5, 5), (3, 2, 2, 2)),
    _op("conv1d", lambda L, x, w, b: _F(L).conv1d(x, w, b, stride=2, padding=1), (2, 3, 9),
        (4, 3, 3), (4,)),
    _op("max_pool2d", lambda L, x: _F(L).max_pool2d(x, 2), (2, 3, 6, 6)),
    _op("max_pool2d_indices", lambda L, x: _F(L).max_pool2d(
        x, 3, 2, padding=1, ceil_mode=True, return_indices=True), (2, 3, 7, 7)),
    _op("max_pool2d_dilation", lambda L, x: _F(L).max_pool2d(x, (2, 3), (1, 2), dilation=2),
        (1, 2, 7, 8)),
    _op("avg_pool2d", lambda L, x: _F(L).avg_pool2d(x, 2), (2, 3, 6, 6)),
    _op("avg_pool2d_padding_ceil", lambda L, x: _F(L).avg_pool2d(
        x, 3, 2, 1, ceil_mode=True, count_include_pad=False), (2, 3, 8, 7)),
    _op("adaptive_avg_pool2d", lambda L, x: _F(L).adaptive_avg_pool2d(x, (3, 2)), (2, 3, 7, 5)),
    _op("pad", lambda L, x: _F(L).pad(x, (1, 2, 0, 1)), (2, 3, 4)),
    _op("batch_norm_training", lambda L, x, w, b: _F(L).batch_norm(
        x, None, None, w, b, training=True), (4, 3, 2, 2), (3,), (3,)),
    _op("leaky_relu", lambda L, x: _F(L).leaky_relu(x, 0.2), (2, 3)),
    _op("elu", lambda L, x: _F(L).elu(x, 0.7), (2, 3)),
    _op("selu", lambda L, x: _F(L).selu(x), (2, 3)),
    _op("celu", lambda L, x: _F(L).celu(x, 1.5), (2, 3)),
    _op("gelu", lambda L, x: _F(L).gelu(x), (2, 3)),
    _op("gelu_tanh", lambda L, x: _F(L).gelu(x, approximate="tanh"), (2, 3)),
    _op("silu", lambda L, x: _F(L).silu(x), (2, 3)),
    _op("softplus", lambda L, x: _F(L).softplus(x, 2, 3), (2, 3)),
    _op("hardtanh", lambda L, x: _F(L).hardtanh(x, -0.5, 0.5), (2, 3), domain="clamp"),
    _op("logsigmoid", lambda L, x: _F(L).logsigmoid(x), (2, 3)),
    _op("mish", lambda L, x: _F(L).mish(x), (2, 3)),
    _op("hardswish", lambda L, x: _F(L).hardswish(x * 2), (2, 3)),
    _op("hardsigmoid", lambda L, x: _F(L).hardsigmoid(x * 2), (2, 3)),
    _op("softmin", lambda L, x: _F(L).softmin(x, 1), (2, 3)),
    _op("threshold", lambda L, x: _F(L).threshold(x, 0.5, 20.0), (2, 3), domain="clamp"),
    _op("softsign", lambda L, x: _F(L).softsign(x), (2, 3)),
    _op("tanhshrink", lambda L, x: _F(L).tanhshrink(x), (2, 3)),
    _op("max_pool1d", lambda L, x: _F(L).max_pool1d(x, 3, 2, 1), (2, 3, 9)),
    _op("avg_pool1d", lambda L, x: _F(L).avg_pool1d(x, 2), (3, 8)),
    _op("adaptive_avg_pool1d", lambda L, x: _F(L).adaptive_avg_pool1d(x, 3), (2, 3, 7)),
    _op("prelu", lambda L, x, w: _F(L).prelu(x, w), (2, 3, 4), (3,)),
    _op("normalize", lambda L, x: _F(L).normalize(x), (2, 3)),
    _op("normalize_p1_dim0", lambda L, x: _F(L).normalize(x, p=1, dim=0), (2, 3)),
    _op("group_norm", lambda L, x, w, b: _F(L).group_norm(x, 2, w, b), (3, 4, 5), (4,), (4,)),
    _op("group_norm_no_affine", lambda L, x: _F(L).group_norm(x, 3), (2, 6, 2, 2)),
    _op("prelu_one_weight", lambda L, x, w: _F(L).prelu(x, w), (4,), (1,)),
]

OPS = ARITHMETIC + UNARY + REDUCTIONS + LINALG + COMPOSITES + NN
BY_NAME = {case.name: case for case in OPS}
assert len(BY_NAME) == len(OPS), "op names in the table must be unique"


# ---------------------------------------------------------------- comparing with torch
# Helpers for the differential tests: the same inputs in both libraries, and comparisons of
# results, graphs and saved attributes (PyTorch is the oracle; `torch` is passed in).


def both(torch, arrays, requires_grad=True):
    """The same arrays as torch and minigrad leaf tensors (float arrays may require grad)."""
    ts, ms = [], []
    for a in arrays:
        rg = requires_grad and np.asarray(a).dtype.kind == "f"
        ts.append(torch.tensor(a, requires_grad=rg))
        ms.append(minigrad.tensor(a, requires_grad=rg))
    return ts, ms


def run_both(torch, case, seed=0, requires_grad=True):
    """``case`` on the same float32 inputs in both: (torch inputs, minigrad inputs, outputs)."""
    arrays = sample(case, np.random.default_rng(seed), dtype=np.float32)
    ts, ms = both(torch, arrays, requires_grad)
    return ts, ms, case.torch(torch)(*ts), case.minigrad(*ms)


def nodes(root):
    """Every node reachable from ``root``, each once, in a fixed (depth-first) order."""
    seen, order, stack = set(), [], [root]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(f for f, _ in reversed(node.next_functions))
    return order


def _index(x, seq):
    return next((i for i, s in enumerate(seq) if s is x), None)


def assert_same_graph(t_root, m_root, t_inputs, m_inputs):
    """Node names, next_functions (None edges, input_nr) and leaf identities agree."""
    t_nodes, m_nodes = nodes(t_root), nodes(m_root)
    t_names = [n.name() for n in t_nodes]
    m_names = [n.name() for n in m_nodes]
    assert m_names == t_names
    for tn, mn in zip(t_nodes, m_nodes):
        t_edges = [(f is None, nr) for f, nr in tn.next_functions]
        m_edges = [(f is None, nr) for f, nr in mn.next_functions]
        assert m_edges == t_edges, tn.name()
        if hasattr(tn, "variable"):
            assert _index(mn.variable, m_inputs) == _index(tn.variable, t_inputs)


def saved_names(node) -> list:
    return sorted(n for n in dir(node) if n.startswith("_saved_"))


def assert_same_saved(torch, t_root, m_root, t_inputs, m_inputs):
    """On every node: the same ``_saved_*`` names, and values of the same kind and value."""
    for tn, mn in zip(nodes(t_root), nodes(m_root)):
        names = saved_names(tn)
        assert saved_names(mn) == names, tn.name()
        for name in names:
            mv, tv = getattr(mn, name), getattr(tn, name)
            if name.endswith("_sym_strides") and tv:
                # the stride of a size-1 dim is arbitrary (views made by NumPy and by PyTorch
                # differ there) and never used: compare the others
                sizes = getattr(tn, name.replace("_strides", "_sizes"))
                mv, tv = ([s for s, n in zip(v, sizes) if n != 1] for v in (mv, tv))
            assert_same_value(torch, mv, tv, t_inputs, m_inputs, f"{tn.name()}.{name}")


def assert_same_value(torch, mv, tv, t_inputs, m_inputs, where):
    if isinstance(tv, torch.Tensor):
        assert isinstance(mv, minigrad.Tensor), where
        assert_close(mv, tv)
        assert mv.requires_grad == tv.requires_grad, where
        assert (mv.grad_fn is None) == (tv.grad_fn is None), where
        if tv.grad_fn is not None:
            assert mv.grad_fn.name() == tv.grad_fn.name(), where
        i = _index(tv, t_inputs)
        if i is not None:  # a saved input is that very tensor
            assert mv is m_inputs[i], where
    else:
        assert type(mv) is type(tv), (where, mv, tv)
        assert mv == tv, (where, mv, tv)


def outputs_of(out):
    """An op's tensor outputs (a (values, indices) pair gives both)."""
    return list(out) if isinstance(out, tuple) else [out]


def error_of(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001 - we compare whatever was raised
        return type(e), str(e).replace("torch.", "minigrad.")
    return None, None


def assert_same_error(torch_call, mg_call):
    """Both raise the same exception type with the same message."""
    t_type, t_msg = error_of(torch_call)
    m_type, m_msg = error_of(mg_call)
    assert t_type is not None, "torch raised nothing"
    assert (m_type, m_msg) == (t_type, t_msg)


def assert_same_result_or_error(torch, call):
    """``call(lib)`` in both libraries gives the same result, or raises the same error."""
    try:
        t = call(torch)
    except Exception:  # noqa: BLE001 - then minigrad must raise the same
        assert_same_error(lambda: call(torch), lambda: call(minigrad))
        return
    assert_close(call(minigrad), t)
