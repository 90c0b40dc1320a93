"""A node's rule evaluated with NumPy: the numbers the stepper's panel puts into a rule.

Each node class declares its ``rule`` (see :mod:`minigrad.autograd.derivatives`); a rule's text
is written so that NumPy can evaluate it, with the functions below (``expand``, ``sum_to``,
``put_along``...), except where it is words. The panel shows ``grad_a = grad * b`` and, next to
it, this module's value of ``grad * b`` for the step's numbers.

>>> import numpy as np
>>> from minigrad.autograd.derivatives import RULES
>>> evaluate(RULES["MulBackward0"], "a", grad=np.array(1.), a=np.array(2.), b=np.array(3.))
array(3.)
"""

from __future__ import annotations

import math

import numpy as np

from .._quiet import quietly
from ._rule import Rule
from .formulas import FUNCTIONS

__all__ = ["evaluate", "evaluate_forward", "sum_to", "signed"]


def _expand(g, shape, dim=None, keepdim=False):
    g = np.asarray(g)
    if dim is not None and not keepdim:
        dims = [dim] if isinstance(dim, int) else list(dim)
        for d in sorted(x % len(shape) for x in dims):
            g = np.expand_dims(g, d)
    return np.broadcast_to(g, tuple(shape))


def _count(shape, dim):
    dims = range(len(shape)) if dim is None else ([dim] if isinstance(dim, int) else dim)
    return int(np.prod([shape[d] for d in dims]))


def sum_to(g, shape):
    """``g`` summed over the dimensions a broadcast added (as the engine un-broadcasts)."""
    g = np.asarray(g)
    while g.ndim > len(shape):
        g = g.sum(0)
    axes = tuple(i for i, s in enumerate(shape) if s == 1 and g.shape[i] != 1)
    return g.sum(axes, keepdims=True) if axes else g


def _inside(a, lo, hi):
    ok = np.ones_like(a, dtype=bool)
    if lo is not None:
        ok &= a >= lo
    if hi is not None:
        ok &= a <= hi
    return ok


def _below(a, lo, hi):
    return (a < lo) & (lo < hi) if hi is not None else a < lo


def _above(a, lo, hi):
    return (a > hi) | (lo > hi) if lo is not None else a > hi


def _norm_grad(grad, a, z, p, dim, keepdim):
    g, z = _expand(grad, a.shape, dim, keepdim), _expand(z, a.shape, dim, keepdim)
    if np.isinf(p):  # the largest |a_i| take the gradient, shared evenly
        mask = np.abs(a) == z
        count = _expand(np.sum(mask, axis=dim, keepdims=True), a.shape, None)
        return g * np.sign(a) * mask / count
    return g * z ** (1 - p) * np.sign(a) * np.abs(a) ** (p - 1)


def _axes(dim):
    if dim is None:
        return None
    return tuple(int(d) for d in np.atleast_1d(dim))


def _nansum(a, dim, keepdim):
    """``a.nansum(dim, keepdim)`` for saved values (a negative dim is saved as unsigned)."""
    axes = None if dim is None else tuple(int(d) - 2**64 if int(d) >= 2**63 else int(d)
                                          for d in np.atleast_1d(dim))
    return np.nansum(a, axis=axes, keepdims=bool(keepdim))


def _mean(x, dim):
    return np.mean(x, axis=_axes(dim), keepdims=True)


def _roll(g, shifts, dims):
    shifts, dims = _axes(shifts), _axes(dims)
    if not dims:  # no dims: the flattened tensor is rolled
        return np.roll(g.reshape(-1), shifts[0]).reshape(g.shape)
    return np.roll(g, shifts, dims)


def _cumprod_grad(grad, a, dim):
    """Sum over j >= i of grad_j * (the product of a_0..a_j without a_i): exact with zeros."""
    am, gm = np.moveaxis(np.asarray(a), dim, -1), np.moveaxis(np.asarray(grad), dim, -1)
    out = np.zeros(am.shape)
    for i in range(am.shape[-1]):
        for j in range(i, am.shape[-1]):
            out[..., i] += gm[..., j] * np.prod(np.delete(am[..., :j + 1], i, axis=-1), axis=-1)
    return np.moveaxis(out, -1, dim)


def _unrepeat(grad, repeats):
    reps = _axes(repeats)
    split = []
    for r, n in zip(reps, grad.shape):
        split += [r, n // r]
    return grad.reshape(split).sum(tuple(range(0, 2 * len(reps), 2)))


def _put_along(grad, indices, dim, shape, keepdim=True):
    out, grad, indices = np.zeros(tuple(shape)), np.asarray(grad), np.asarray(indices)
    if not out.ndim:
        return out + grad
    if not keepdim:
        grad, indices = np.expand_dims(grad, dim), np.expand_dims(indices, dim)
    np.put_along_axis(out, indices, grad, axis=dim)
    return out


def _undiagonal(grad, shape, offset, d1, d2):
    out = np.zeros(tuple(shape))
    where = np.diagonal(np.arange(out.size).reshape(out.shape), offset, d1, d2)
    out.reshape(-1)[where.reshape(-1)] = np.asarray(grad).reshape(-1)
    return out


def _unmask(grad, mask, a):
    mask = np.asarray(mask, dtype=bool)
    out = np.zeros(np.broadcast_shapes(mask.shape, np.shape(a)))
    out[np.broadcast_to(mask, out.shape)] = grad
    return _sum_to(out, np.shape(a))


def _sum_to(g, shape):
    while g.ndim > len(shape):
        g = g.sum(0)
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    return g.sum(axes, keepdims=True) if axes else g


_MORE = {
    "isfinite": np.isfinite, "isnan": np.isnan, "floor": np.floor, "trunc": np.trunc,
    "hypot": np.hypot, "sinh": np.sinh, "cosh": np.cosh, "pi": np.pi,
    "cumsum": lambda g, dim: np.cumsum(g, axis=int(dim)),
    "flip": lambda g, dims: np.flip(g, axis=_axes(dims)), "roll": _roll,
    "mean": _mean, "nansum": _nansum, "cumprod_grad": _cumprod_grad, "unrepeat": _unrepeat,
    "tril": np.tril, "triu": np.triu, "undiagonal": _undiagonal, "diagonal": np.diagonal,
    "unmask": _unmask, "put_along": _put_along, "one": lambda w: 1.0 if w is None else w,
}


def _embedding_grad(grad, indices, rows, pad, by_freq):
    idx = np.asarray(indices).reshape(-1)
    g = np.asarray(grad).reshape(idx.size, -1)
    if by_freq:
        g = g / np.bincount(idx, minlength=rows)[idx][:, None]
    out = np.zeros((rows, g.shape[1]))
    np.add.at(out, idx, g)
    if pad is not None and pad >= 0:
        out[pad] = 0
    return out


def _ln_dims(a, shape):
    return tuple(range(np.ndim(a) - len(shape), np.ndim(a)))


def _ln_grad_input(grad, a, w, mean, rstd, shape):
    dims = _ln_dims(a, shape)
    xhat = (np.asarray(a) - mean) * rstd
    gw = grad if w is None else grad * np.asarray(w)
    return rstd * (gw - gw.mean(dims, keepdims=True)
                   - xhat * (gw * xhat).mean(dims, keepdims=True))


def _ln_grad_weight(grad, a, mean, rstd, shape):
    g = grad * (np.asarray(a) - mean) * rstd
    return g.reshape((-1,) + tuple(shape)).sum(0)


def _ln_grad_bias(grad, shape):
    return np.asarray(grad).reshape((-1,) + tuple(shape)).sum(0)


def _smooth_l1(d, beta):
    return np.sign(d) if beta == 0 else np.clip(d / beta, -1, 1)


_NN = {
    "per": lambda a, reduction: np.size(a) if reduction == 1 else 1,
    "maximum": np.maximum, "clip": np.clip, "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "softplus": lambda x: np.logaddexp(0, x), "smooth_l1": _smooth_l1,
    "embedding_grad": _embedding_grad, "ln_grad_input": _ln_grad_input,
    "ln_grad_weight": _ln_grad_weight, "ln_grad_bias": _ln_grad_bias,
}


_erf = np.vectorize(math.erf, otypes=[float])


def _phi_cdf(x):
    return 0.5 * (1 + _erf(np.asarray(x, dtype=float) / math.sqrt(2)))


def _gelu(a, approximate):
    a = np.asarray(a, dtype=float)
    if approximate == "tanh":
        return a * 0.5 * (1 + np.tanh(math.sqrt(2 / math.pi) * (a + 0.044715 * a ** 3)))
    return a * _phi_cdf(a)


def _gelu_slope(a, approximate):
    a = np.asarray(a, dtype=float)
    if approximate == "tanh":
        k = math.sqrt(2 / math.pi)
        t = np.tanh(k * (a + 0.044715 * a ** 3))
        return 0.5 * (1 + t) + 0.5 * a * (1 - t * t) * k * (1 + 3 * 0.044715 * a * a)
    return _phi_cdf(a) + a * np.exp(-a * a / 2) / math.sqrt(2 * math.pi)


_LAYERS = {"tanh": np.tanh, "Phi": _phi_cdf, "gelu": _gelu, "gelu_slope": _gelu_slope}


def _argsort_dims(dims) -> np.ndarray:
    """The order that undoes a permutation ``dims`` as PyTorch saves it (a negative dim as an
    unsigned 64-bit number: ``-1`` is 18446744073709551615)."""
    n = len(dims)
    signed = [int(d) - (1 << 64) if int(d) >= 1 << 63 else int(d) for d in dims]
    return np.argsort([d % n for d in signed])


_FUNCTIONS = {
    "exp": np.exp, "log": np.log, "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos,
    "sign": np.sign, "abs": np.abs, "sgn": lambda a: np.nan_to_num(np.sign(a)),
    "where": np.where, "outer": np.outer, "reshape": np.reshape,
    "squeeze": np.squeeze, "swapaxes": np.swapaxes, "transpose": np.transpose,
    "argsort": _argsort_dims, "total": np.sum, "expand": _expand, "count": _count,
    "sum_to": sum_to, "inside": _inside, "norm_grad": _norm_grad, "below": _below,
    "above": _above, "mT": lambda m: np.swapaxes(m, -1, -2),
    "sum": lambda g, dim: np.sum(g, axis=dim, keepdims=True),
    **_MORE, **_NN, **_LAYERS,
}


def signed(value):
    """A saved dim as the learner wrote it: PyTorch keeps ``-1`` as ``2**64 - 1``."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 2**63:
        return value - 2**64
    if isinstance(value, (list, tuple)):
        return type(value)(signed(v) for v in value)
    return value


def evaluate(rule: Rule, symbol: str, **values):
    """The gradient input ``symbol`` gets by ``rule``, computed by NumPy from ``values``
    (``grad`` and the rule's symbols as arrays or numbers); None for a rule in words."""
    if rule.words:
        return None
    expr = rule.np.get(symbol, rule.grads[symbol])
    scope = {k: v for k, v in FUNCTIONS.items() if k != "__builtins__"}  # (arrays work too)
    scope.update(_FUNCTIONS)
    for k, v in values.items():
        v = signed(v)
        scope[k] = np.asarray(v) if isinstance(v, (list, tuple)) and k != "shape" else v
    # (quietly: log of a negative base, 0 * inf... give NaN and inf as in PyTorch, no warning)
    return np.asarray(quietly(eval, expr, {"__builtins__": _IMPORT_ONLY}, scope))  # noqa: S307


_IMPORT_ONLY = {"__import__": __import__}  # the builtins a rule is evaluated with


_FORWARD_FUNCTIONS = {"max": np.maximum, "min": np.minimum, "maximum": np.maximum,
                      "minimum": np.minimum, "clamp": np.clip}


def evaluate_forward(rule: Rule, **values):
    """The forward ``z = ...`` of ``rule`` computed by NumPy from ``values`` (its inputs as
    arrays); None where the forward is not a single NumPy expression (``|a|``, words)."""
    head = rule.forward.split("  (")[0]
    if rule.words or not head.startswith("z = ") or "|" in head or "·" in head:
        return None
    scope = dict(_FUNCTIONS, **_FORWARD_FUNCTIONS)
    scope.update({k: signed(v) for k, v in values.items()})
    # (NumPy's ndarray.prod imports a module on its first call: it needs __import__)
    return np.asarray(eval(head[4:].split(" = ")[0], {"__builtins__": _IMPORT_ONLY}, scope))  # noqa: S307
