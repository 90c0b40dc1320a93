"""The pointwise, binary, activation and ordering ops the two main op tables leave out.

Same :class:`~op_table.OpCase` as tests/ops/op_table.py (``fn(lib, *inputs)`` written once for
both libraries). The tests that check behaviour at special values (0, -0., ±inf, NaN, ties)
and second-order graphs run over :data:`SPECIAL_OPS`: the differentiable entries of the
arithmetic, unary, reduction and composite tables, the where/masked_fill entries of
op_table_tensor.py, and :data:`MORE` below.
"""

from __future__ import annotations

from op_table import ARITHMETIC, COMPOSITES, REDUCTIONS, UNARY, OpCase
from op_table_tensor import INDEXING

__all__ = ["MORE", "SPECIAL_OPS", "BY_NAME"]


def _op(name, fn, *shapes, domain="real", **kw) -> OpCase:
    return OpCase(name, fn, tuple(shapes), domain, **kw)


def _unary(name, domain="real"):
    return _op(name, lambda L, x: getattr(L, name)(x), (2, 3), domain=domain)


MORE = [
    *(_unary(n) for n in ("floor", "ceil", "trunc", "sign", "sgn", "frac", "round", "expm1",
                          "tan", "atan", "sinh", "cosh", "erf", "erfc")),
    *(_unary(n, "positive") for n in ("log1p", "log2", "log10", "rsqrt")),
    *(_unary(n, "small") for n in ("asin", "acos")),
    _op("round_decimals", lambda L, x: x.round(decimals=1), (3,)),
    _op("nan_to_num", lambda L, x: L.nan_to_num(x), (2, 3)),
    _op("F_relu", lambda L, x: L.nn.functional.relu(x), (2, 3)),
    _op("F_sigmoid", lambda L, x: L.nn.functional.sigmoid(x), (3,)),
    _op("F_tanh", lambda L, x: L.nn.functional.tanh(x), (3,)),
    _op("F_softmax", lambda L, x: L.nn.functional.softmax(x, dim=-1), (2, 3)),
    _op("F_log_softmax", lambda L, x: L.nn.functional.log_softmax(x, dim=1), (2, 3)),
    _op("remainder", lambda L, x, y: x % y, (2, 3), (3,), domain=("real", "nonzero")),
    _op("remainder_scalar", lambda L, x: L.remainder(x, 1.5), (2, 3)),
    _op("fmod", lambda L, x, y: L.fmod(x, y), (2, 3), (2, 3), domain=("real", "nonzero")),
    _op("fmod_scalar", lambda L, x: x.fmod(-1.5), (2, 3)),
    _op("atan2", lambda L, x, y: L.atan2(x, y), (2, 3), (3,)),
    _op("hypot", lambda L, x, y: L.hypot(x, y), (2, 3), (2, 3)),
    _op("xlogy", lambda L, x, y: L.xlogy(x, y), (2, 3), (2, 3), domain=("real", "positive")),
    _op("fmax", lambda L, x, y: L.fmax(x, y), (2, 3), (2, 3)),
    _op("fmin", lambda L, x, y: x.fmin(y), (2, 3), (3,)),
    _op("lerp", lambda L, x, y: x.lerp(y, 0.25), (2, 3), (3,)),
    _op("lerp_tensor_weight", lambda L, x, y, w: L.lerp(x, y, w), (2, 3), (2, 3), (3,)),
    _op("addcmul", lambda L, x, a, b: x.addcmul(a, b, value=0.5), (2, 3), (2, 3), (3,)),
    _op("addcdiv", lambda L, x, a, b: L.addcdiv(x, a, b), (2, 3), (2, 3), (2, 3),
        domain=("real", "real", "nonzero")),
    _op("median", lambda L, x: x.median(), (2, 3)),
    _op("median_dim", lambda L, x: L.median(x, 1), (2, 3)),
    _op("sort", lambda L, x: x.sort(1), (2, 3)),
    _op("sort_descending", lambda L, x: L.sort(x, 0, descending=True), (3, 2)),
    _op("topk", lambda L, x: x.topk(2), (2, 3)),
    _op("topk_smallest", lambda L, x: L.topk(x, 2, dim=0, largest=False), (3, 2)),
    _op("logsumexp", lambda L, x: x.logsumexp(1), (2, 3)),
    _op("logsumexp_dims", lambda L, x: L.logsumexp(x, (0, 1), keepdim=True), (2, 3)),
    _op("cumsum", lambda L, x: x.cumsum(1), (2, 3)),
    _op("cumprod", lambda L, x: L.cumprod(x, 0), (3, 2), domain="small"),
    _op("var", lambda L, x: x.var(1), (2, 3)),
    _op("std", lambda L, x: L.std(x), (2, 3)),
    _op("maximum_ties", lambda L, x: L.maximum(x, x * 1), (2, 3)),
]

_TENSOR = [c for c in INDEXING if c.name.startswith(("where", "masked_fill"))]
SPECIAL_OPS = [c for c in ARITHMETIC + UNARY + REDUCTIONS + COMPOSITES + _TENSOR + MORE
               if c.differentiable]
BY_NAME = {c.name: c for c in SPECIAL_OPS}
assert len(BY_NAME) == len(SPECIAL_OPS), "op names must be unique"
