"""The table of local rules, continued (see :mod:`minigrad.autograd.derivatives`): the losses and
layers of ``minigrad.nn`` that have their own node (binary cross entropy, with and without
logits, Huber and smooth L1 losses, embeddings, layer normalisation).

``reduction`` is the number PyTorch saves: 0 for ``'none'``, 1 for ``'mean'`` (then each
gradient is divided by ``n``, the number of elements of ``a``), 2 for ``'sum'``.
``NN`` is merged into ``RULES``; ``HELPERS`` are the NumPy functions its rules use (and
``one``, from derivatives_more: 1 for a weight that is None).

>>> NN["HuberLossBackward0"].grads["a"]
'grad * clamp(a - t, -delta, delta) / n'
>>> HELPERS["per"](np.zeros((2, 3)), 1), HELPERS["per"](np.zeros((2, 3)), 2)
(6, 1)
"""

from __future__ import annotations

import numpy as np

from ._rule import _r

__all__ = ["NN", "HELPERS"]

_N = "per(a, reduction)"  # n with reduction='mean', else 1
_LOSS = {"a": "self", "t": "target", "reduction": "reduction"}
_PER = "  (n = a.numel() with reduction='mean', else 1)"


def _robust(forward: str, width: str, slope: str, np_slope: str):
    return _r(forward, dict(_LOSS, **{width: width}),
              np={"a": f"grad * {np_slope} / {_N}", "t": f"-grad * {np_slope} / {_N}"},
              a=f"grad * {slope} / n", t=f"-grad * {slope} / n")


def _weighted(forward: str, symbols: dict, a: tuple, t: tuple, t_note: str = ""):
    """A loss with a weight ``w``: each rule ``grad * w * (...) / n``; ``a``, ``t``: the
    (NumPy spelling, words) of the factor in the rules of the input and of the target."""
    return _r(forward, symbols,
              np={"a": f"grad * one(w) * {a[0]} / {_N}", "t": f"grad * one(w) * {t[0]} / {_N}"},
              a=f"grad * w * {a[1]} / n", t=f"grad * w * {t[1]} / n{t_note}")


NN = {
    "BinaryCrossEntropyBackward0": _weighted(
        "loss = mean(-w * (t * log(a) + (1 - t) * log(1 - a)))" + _PER,
        dict(_LOSS, w="weight"),
        a=("(a - t) / maximum(a * (1 - a), 1e-12)", "(a - t) / max(a * (1 - a), 1e-12)"),
        t=("(maximum(log(1 - a), -100) - maximum(log(a), -100))", "(log(1 - a) - log(a))"),
        t_note="  (logs at least -100)"),
    "BinaryCrossEntropyWithLogitsBackward0": _weighted(
        "loss = mean(w * ((1 - t) * a + (1 + (p - 1) * t) * softplus(-a)))"
        "  (p: pos_weight; n = a.numel() with reduction='mean', else 1)",
        dict(_LOSS, w="weight", p="pos_weight"),
        a=("((1 + (one(p) - 1) * t) * sigmoid(a) - one(p) * t)",
           "((1 + (p - 1) * t) * sigmoid(a) - p * t)"),
        t=("((one(p) - 1) * softplus(-a) - a)", "((p - 1) * softplus(-a) - a)")),
    "HuberLossBackward0": _robust(
        "loss = mean(d**2 / 2 where |d| < delta, else delta * (|d| - delta / 2)),  d = a - t"
        + _PER,
        "delta", "clamp(a - t, -delta, delta)", "clip(a - t, -delta, delta)"),
    "SmoothL1LossBackward0": _robust(
        "loss = mean(d**2 / (2 * beta) where |d| < beta, else |d| - beta / 2),  d = a - t" + _PER,
        "beta", "clamp((a - t) / beta, -1, 1)", "smooth_l1(a - t, beta)"),
    "NativeLayerNormBackward0": _r(
        "z = xhat * w + b,  xhat = (a - mean) * rstd  (mean and rstd = 1 / sqrt(var + eps) "
        "over the normalised last dims)",
        {"a": "input", "w": "weight", "b": "bias", "mean": "result1", "rstd": "result2",
         "shape": "normalized_shape"},
        np={"a": "ln_grad_input(grad, a, w, mean, rstd, shape)",
            "w": "ln_grad_weight(grad, a, mean, rstd, shape)",
            "b": "ln_grad_bias(grad, shape)"},
        a="rstd * (gw - mean(gw) - xhat * mean(gw * xhat)),  gw = grad * w  (means over the "
          "normalised dims)",
        w="sum of grad * xhat over the other dims", b="sum of grad over the other dims"),
    "EmbeddingBackward0": _r(
        "z = w[indices]  (rows of the weight w)",
        {"indices": "indices", "rows": "weight_sym_argsize_0", "pad": "padding_idx",
         "by_freq": "scale_grad_by_freq"},
        np={"w": "embedding_grad(grad, indices, rows, pad, by_freq)"},
        w="zeros(rows, grad.shape[-1]), with each row of grad added into row indices[i] "
          "(none into row pad; divided by how often indices[i] occurs, if by_freq)"),
    "EmbeddingDenseBackwardBackward0": _r(
        "z = embedding_dense_backward(g, indices, rows, pad, by_freq)  (the gradient of "
        "embedding's weight)", words=True, g="grad[indices]  (0 where indices == pad)"),
    # ---- nll_loss's gradient, an op of its own under create_graph=True
    "NllLossBackwardBackward0": _r(
        "z = nll_loss_backward(g, a, t, w, reduction, ignore_index)  (the gradient of nll_loss)",
        words=True, g="nll_loss(grad, t, w, reduction, ignore_index)", a="zeros_like(grad)"),
    "NllLoss2DBackwardBackward0": _r(
        "z = nll_loss2d_backward(g, a, t, w, reduction, ignore_index)  (per position)",
        words=True, g="nll_loss2d(grad, t, w, reduction, ignore_index)", a="zeros_like(grad)"),
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


HELPERS = {
    "per": lambda a, reduction: np.size(a) if reduction == 1 else 1,
    "maximum": np.maximum, "clip": np.clip, "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "softplus": lambda x: np.logaddexp(0, x), "smooth_l1": _smooth_l1,
    "embedding_grad": _embedding_grad, "ln_grad_input": _ln_grad_input,
    "ln_grad_weight": _ln_grad_weight, "ln_grad_bias": _ln_grad_bias,
}
