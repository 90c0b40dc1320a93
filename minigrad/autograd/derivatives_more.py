"""The table of local rules, continued (see :mod:`minigrad.autograd.derivatives`): the
rounding, logarithmic, trigonometric and hyperbolic functions, the binary functions (remainders,
``atan2``, ``hypot``, ``xlogy``, ``fmax``/``fmin``, ``lerp``, ``addcmul``/``addcdiv``), the scans
and statistics (``cumsum``, ``cumprod``, ``var``, ``std``, ``logsumexp``, ``sort``...) and the
shape ops (``flip``, ``roll``, ``repeat``, triangles, diagonals, ``masked_select``).

``MORE`` is merged into ``RULES``; ``HELPERS`` are the NumPy functions its rules use.

>>> MORE["HypotBackward0"].grads
{'a': 'grad * a / z', 'b': 'grad * b / z'}
>>> HELPERS["unrepeat"](np.ones((2, 6)), (2, 3))  # the copies of a (1, 2) tensor, summed
array([[6., 6.]])
"""

from __future__ import annotations

import numpy as np

from ._rule import _r

__all__ = ["MORE", "HELPERS"]

_A = {"a": "self"}
_Z = {"z": "result"}
_AB = {"a": "self", "b": "other"}
_ZERO = {"a": "0 * grad"}  # the NumPy spelling of zeros_like(grad)
_STAT = {"a": "self", "dim": "dim", "keepdim": "keepdim", "correction": "correction"}
_PUT = {"i": "indices", "dim": "dim", "shape": "self_sym_sizes"}
_DIAG = {"offset": "offset", "d1": "dim1", "d2": "dim2", "shape": "self_sym_sizes"}


def _rounding(forward: str, symbols=None):
    return _r(forward, symbols, np=_ZERO, a="zeros_like(grad)")


def _random(forward: str, *inputs):
    return _r(forward, np={k: "0 * grad" for k in inputs}, **dict.fromkeys(inputs,
                                                                           "zeros_like(grad)"))


MORE = {
    # ---- piecewise constant: no gradient
    "FloorBackward0": _rounding("z = floor(a)"),
    "CeilBackward0": _rounding("z = ceil(a)"),
    "TruncBackward0": _rounding("z = trunc(a)"),
    "RoundBackward0": _rounding("z = round(a)"),
    "RoundBackward1": _rounding("z = round(a, decimals)", {"decimals": "decimals"}),
    "SignBackward0": _rounding("z = sign(a)"),
    "SgnBackward0": _rounding("z = sgn(a)  (0 at 0 and at NaN)"),
    "FracBackward0": _r("z = a - trunc(a)", a="grad"),
    "NanToNumBackward0": _r("z = nan_to_num(a, nan, posinf, neginf)", _A,
                            a="grad * isfinite(a)"),
    # ---- logarithms, exponentials, trigonometric and hyperbolic functions
    "Log1PBackward0": _r("z = log1p(a) = log(1 + a)", _A, a="grad / (a + 1)"),
    "Expm1Backward0": _r("z = expm1(a) = exp(a) - 1", _Z, a="grad * (z + 1)"),
    "Log2Backward0": _r("z = log2(a)", _A, a="grad / (a * log(2))"),
    "Log10Backward0": _r("z = log10(a)", _A, a="grad / (a * log(10))"),
    "TanBackward0": _r("z = tan(a)", _Z, a="grad * (1 + z**2)"),
    "AtanBackward0": _r("z = atan(a)", _A, a="grad / (1 + a**2)"),
    "AsinBackward0": _r("z = asin(a)", _A, a="grad / sqrt(1 - a**2)"),
    "AcosBackward0": _r("z = acos(a)", _A, a="-grad / sqrt(1 - a**2)"),
    "SinhBackward0": _r("z = sinh(a)", _A, a="grad * cosh(a)"),
    "CoshBackward0": _r("z = cosh(a)", _A, a="grad * sinh(a)"),
    "ErfBackward0": _r("z = erf(a)", _A, a="grad * 2 / sqrt(pi) * exp(-a**2)"),
    "ErfcBackward0": _r("z = erfc(a) = 1 - erf(a)", _A, a="-grad * 2 / sqrt(pi) * exp(-a**2)"),
    "RsqrtBackward0": _r("z = rsqrt(a) = 1 / sqrt(a)", _Z, a="-0.5 * grad * z**3"),
    # ---- binary functions
    "torch::autograd::NotImplemented": _r(
        "z = floor_divide(a, b) = floor(a / b)", words=True,
        a="raises: derivative for aten::floor_divide is not implemented",
        b="raises: derivative for aten::floor_divide is not implemented"),
    "Unique2Backward0": _r("z = unique(a)", words=True,
                           a="raises: the derivative for '_unique2' is not implemented."),
    "UniqueDimBackward0": _r("z = unique(a, dim=d)", words=True,
                             a="raises: the derivative for 'unique_dim' is not implemented."),
    "UniqueConsecutiveBackward0": _r(
        "z = unique_consecutive(a)", words=True,
        a="raises: the derivative for 'unique_consecutive' is not implemented."),
    "RemainderBackward0": _r("z = a % c  (c a number)", a="grad"),
    "RemainderBackward1": _r("z = a % b", _AB, np={"b": "-grad * floor(a / b)"}, a="grad",
                             b="-grad * a.div(b, rounding_mode='floor')"),
    "FmodBackward0": _r("z = fmod(a, c)  (c a number)", a="grad"),
    "FmodBackward1": _r("z = fmod(a, b)", _AB, np={"b": "-grad * trunc(a / b)"}, a="grad",
                        b="-grad * a.div(b, rounding_mode='trunc')"),
    "Atan2Backward0": _r("z = atan2(a, b)  (r = 1 / (a**2 + b**2), 0 where that is inf)", _AB,
                         np={"a": "grad * b / (a**2 + b**2)", "b": "-grad * a / (a**2 + b**2)"},
                         a="grad * b * r", b="grad * -a * r"),
    "HypotBackward0": _r("z = hypot(a, b) = sqrt(a**2 + b**2)", dict(_AB, z="result"),
                         a="grad * a / z", b="grad * b / z"),
    "XlogyBackward0": _r("z = xlogy(a, b) = a * log(b)  (0 where a is 0)", _AB,
                         np={"a": "where((a == 0) & (b <= 0), 0, grad * log(b))"},
                         a="xlogy(grad, b), 0 where a == 0 and b <= 0", b="grad * a / b"),
    "XlogyBackward1": _r("z = xlogy(c, b) = c * log(b)  (c a number)", {"c": "self", "b": "other"},
                         b="grad * c / b"),
    "XlogyBackward2": _r("z = xlogy(a, c) = a * log(c)  (c a number)", {"a": "self", "c": "other"},
                         np={"a": "where((a == 0) & (c <= 0), 0, grad * log(c))"},
                         a="xlogy(grad, c), 0 where a == 0 and c <= 0"),
    "FmaxBackward0": _r("z = fmax(a, b)  (a NaN is passed over)", _AB,
                        a="grad * ((a >= b) | isnan(b))", b="grad * ~((a >= b) | isnan(b))"),
    "FminBackward0": _r("z = fmin(a, b)  (a NaN is passed over)", _AB,
                        a="grad * ((a <= b) | isnan(b))", b="grad * ~((a <= b) | isnan(b))"),
    "LerpBackward0": _r("z = a + w * (e - a)  (w a number)", {"w": "weight"},
                        a="grad * (1 - w)", e="grad * w"),
    "LerpBackward1": _r("z = a + w * (e - a)", {"a": "self", "e": "end", "w": "weight"},
                        a="grad * (1 - w)", e="grad * w", w="grad * (e - a)"),
    "AddcmulBackward0": _r("z = a + v * t1 * t2", {"t1": "tensor1", "t2": "tensor2",
                                                   "v": "value"},
                           a="grad", t1="grad * v * t2", t2="grad * v * t1"),
    "AddcdivBackward0": _r("z = a + v * t1 / t2", {"t1": "tensor1", "t2": "tensor2",
                                                   "v": "value"},
                           a="grad", t1="grad * v / t2", t2="-grad * v * t1 / t2**2"),
    # ---- scans, statistics and order statistics
    "NansumBackward0": _r("z = nansum(a, dim, keepdim)",
                          {"a": "self", "dim": "dim", "keepdim": "keepdim"},
                          a="where(isnan(a), 0, expand(grad, a.shape, dim, keepdim))"),
    "CumsumBackward0": _r("z = cumsum(a, dim)", {"dim": "dim"},
                          np={"a": "flip(cumsum(flip(grad, dim), dim), dim)"},
                          a="grad.flip(dim).cumsum(dim).flip(dim)"),
    "CumprodBackward0": _r("z = cumprod(a, dim)", {"a": "self", "z": "result", "dim": "dim"},
                           np={"a": "cumprod_grad(grad, a, dim)"},
                           a="(z * grad).flip(dim).cumsum(dim).flip(dim) / a  (a without zeros; "
                             "else the product of the other factors)"),
    "VarBackward0": _r("z = var(a, dim, correction)  (N: the number of elements reduced)", _STAT,
                       np={"a": "expand(grad, a.shape, dim, keepdim) * 2 * (a - mean(a, dim)) / "
                                "(count(a.shape, dim) - one(correction))"},
                       a="expand(grad) * 2 * (a - mean(a, dim)) / (N - correction)"),
    "StdBackward0": _r("z = std(a, dim, correction)  (N: the number of elements reduced)",
                       dict(_STAT, z="result"),
                       np={"a": "expand(grad / z, a.shape, dim, keepdim) * (a - mean(a, dim)) / "
                                "(count(a.shape, dim) - one(correction))"},
                       a="expand(grad / z) * (a - mean(a, dim)) / (N - correction)"),
    "ScatterBackward0": _r("z = zeros.scatter(dim, index, src)  (sort/topk/median's gradient)",
                           words=True, zeros="none (no gradient)", src="grad.gather(dim, index)"),
    "VarMeanBackward0": _r("(z0, z1) = (var(a, dim, correction), mean(a, dim))", words=True,
                           a="expand(grad_0) * 2 * (a - z1) / (N - correction)"
                             " + expand(grad_1) / N"),
    "StdMeanBackward0": _r("(z0, z1) = (std(a, dim, correction), mean(a, dim))", words=True,
                           a="expand(grad_0 / z0) * (a - z1) / (N - correction)"
                             " + expand(grad_1) / N"),
    "LogsumexpBackward0": _r("z = logsumexp(a, dim) = log(sum(exp(a), dim))",
                             {"a": "self", "z": "result", "dim": "dim", "keepdim": "keepdim"},
                             np={"a": "expand(grad, a.shape, dim, keepdim) * "
                                      "exp(a - expand(z, a.shape, dim, keepdim))"},
                             a="expand(grad) * exp(a - expand(z))"),
    "SortBackward0": _r("(z, i) = a.sort(dim)", _PUT, np={"a": "put_along(grad, i, dim, shape)"},
                        a="zeros(shape), with grad put back at indices i along dim"),
    "TopkBackward0": _r("(z, i) = a.topk(k, dim)", _PUT,
                        np={"a": "put_along(grad, i, dim, shape)"},
                        a="zeros(shape), with grad put back at indices i along dim"),
    "MedianBackward0": _r("z = a.median()", {"a": "self", "z": "result"},
                          a="grad * (a == z) / total(a == z)"),
    "MedianBackward1": _r("(z, i) = a.median(dim, keepdim)", dict(_PUT, keepdim="keepdim"),
                          np={"a": "put_along(grad, i, dim, shape, keepdim)"},
                          a="zeros(shape), with grad put at indices i along dim"),
    # ---- shapes
    "FlipBackward0": _r("z = a.flip(dims)", {"dims": "dims"}, np={"a": "flip(grad, dims)"},
                        a="grad.flip(dims)"),
    "RollBackward0": _r("z = a.roll(shifts, dims)", {"shifts": "shifts", "dims": "dims"},
                        np={"a": "roll(grad, -shifts, dims)"}, a="grad.roll(-shifts, dims)"),
    "RepeatBackward0": _r("z = a.repeat(repeats)", {"repeats": "repeats"},
                          np={"a": "unrepeat(grad, repeats)"},
                          a="the sum of grad's copies (grad's blocks, repeats of them)"),
    "TrilBackward0": _r("z = a.tril(k)", {"k": "diagonal"}, np={"a": "tril(grad, k)"},
                        a="grad.tril(k)"),
    "TriuBackward0": _r("z = a.triu(k)", {"k": "diagonal"}, np={"a": "triu(grad, k)"},
                        a="grad.triu(k)"),
    "DiagonalBackward0": _r("z = a.diagonal(offset, d1, d2)", _DIAG,
                            np={"a": "undiagonal(grad, shape, offset, d1, d2)"},
                            a="zeros(shape), with grad on its diagonal (offset, d1, d2)"),
    "DiagonalBackwardBackward0": _r("z = grad_a of a diagonal, put into zeros", words=True,
                                    a="grad.diagonal(offset, d1, d2)"),
    "DiagonalBackward0_copy": _r("z = a.diag(offset)  (a matrix: a copy of its diagonal)", _DIAG,
                                 np={"a": "undiagonal(grad, shape, offset, d1, d2)"},
                                 a="zeros(shape), with grad on its diagonal (offset, d1, d2)"),
    "DiagEmbedBackward0": _r("z = a.diag(offset)  (a vector: a matrix with a on a diagonal)",
                             {"offset": "offset", "d1": "dim1", "d2": "dim2"},
                             np={"a": "diagonal(grad, offset, d1, d2)"},
                             a="grad.diagonal(offset, d1, d2)"),
    "MaskedSelectBackward0": _r("z = masked_select(a, mask) = a[mask]",
                                {"mask": "mask", "a": "self"},
                                np={"a": "unmask(grad, mask, a)"},
                                a="zeros like a, with grad put where mask is True"),
    # ---- random sampling: a sample is not differentiated
    "NormalBackward0": _random("a.normal_(mean, std)  (in place)", "a"),
    "UniformBackward0": _random("a.uniform_(low, high)  (in place)", "a"),
    "BernoulliBackward0": _random("a.bernoulli_(p)  (in place)", "a"),
    "RandomBackward0": _random("a.random_(low, high)  (in place)", "a"),
    "ExponentialBackward0": _random("a.exponential_(rate)  (in place)", "a"),
    "NormalBackward1": _random("z = normal(mean, std)  (std a number)", "mean"),
    "NormalBackward2": _random("z = normal(mean, std)  (mean a number)", "std"),
    "NormalBackward3": _random("z = normal(mean, std)", "mean", "std"),
    "PoissonBackward0": _random("z = poisson(rates)", "rates"),
}


# ---------------------------------------------------------------- NumPy for the rules above
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


HELPERS = {
    "isfinite": np.isfinite, "isnan": np.isnan, "floor": np.floor, "trunc": np.trunc,
    "hypot": np.hypot, "sinh": np.sinh, "cosh": np.cosh, "pi": np.pi,
    "cumsum": lambda g, dim: np.cumsum(g, axis=int(dim)),
    "flip": lambda g, dims: np.flip(g, axis=_axes(dims)), "roll": _roll,
    "mean": _mean, "nansum": _nansum, "cumprod_grad": _cumprod_grad, "unrepeat": _unrepeat,
    "tril": np.tril, "triu": np.triu, "undiagonal": _undiagonal, "diagonal": np.diagonal,
    "unmask": _unmask, "put_along": _put_along, "one": lambda w: 1.0 if w is None else w,
}
