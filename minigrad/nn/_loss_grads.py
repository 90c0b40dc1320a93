"""The gradients of the losses as PyTorch computes and records them (``create_graph=True``).

``mse_loss_backward``, ``huber_loss_backward``, ``smooth_l1_loss_backward`` and
``binary_cross_entropy_backward`` are ops of their own in PyTorch: on tensors each records one
node (``MseLossBackwardBackward0``...) whose rule is PyTorch's ``derivatives.yaml`` entry for
it, with ``next_functions`` (grad_output, self, target); on arrays (a plain backward) they are
NumPy and record nothing. The target's gradient of ``binary_cross_entropy`` and both of
``binary_cross_entropy_with_logits`` are made of ops in PyTorch (no node of their own): written
below with the same ops in the same order, so the second-order graph has PyTorch's nodes.
``reduction`` is 0 = 'none', 1 = 'mean', 2 = 'sum'.

>>> import minigrad as torch
>>> x = torch.tensor([0.5, 2.], requires_grad=True)
>>> g, = torch.autograd.grad(torch.nn.functional.mse_loss(x, torch.zeros(2)), x,
...                          create_graph=True)
>>> g.grad_fn.name()
'MseLossBackwardBackward0'
"""

from __future__ import annotations

import numpy as np

from .._dtype import result_type
from .._ops import _formula as F
from .._ops.arithmetic import add_number, div_by_number, mul_by_number
from .._quiet import quietly
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from ._activation_functions import logsigmoid

__all__ = ["MseLossBackwardBackward0", "HuberLossBackwardBackward0",
           "SmoothL1LossBackwardBackward0", "BinaryCrossEntropyBackwardBackward0",
           "mse_loss_backward", "huber_loss_backward", "smooth_l1_loss_backward",
           "binary_cross_entropy_backward", "binary_cross_entropy_target_backward",
           "binary_cross_entropy_with_logits_backward",
           "binary_cross_entropy_with_logits_target_backward"]

_SYMBOLS = {"g": "grad_output", "a": "self", "t": "target", "reduction": "reduction"}


def _recorded(node_cls, out: np.ndarray, grad, x, t, **numbers) -> Tensor:
    """``out`` as the output of a ``node_cls`` node on (grad_output, self, target)."""
    out = Tensor._wrap(np.asarray(out))
    if should_record(grad, x, t):
        x, t = F.as_tensor(x), F.as_tensor(t)
        node = node_cls()
        node._s_grad_output, node._s_self, node._s_target = (SavedTensor(v) for v in (grad, x, t))
        for name, v in numbers.items():
            setattr(node, "_s_" + name, v)
        record(node, out, grad, x, t, broadcast=True)  # (grad_output's summed to its shape)
    return out


def _mean(x, reduction: int, n: int):
    """``x / n`` for reduction='mean' (PyTorch's in-place ``div_(numel)``: DivBackward1)."""
    return div_by_number(x, n) if reduction == 1 else x


def _numel(x) -> int:
    return x.numel() if isinstance(x, Tensor) else np.size(x)


# ---------------------------------------------------------------- mean squared error
class MseLossBackwardBackward0(Node):
    """The node of ``mse_loss_backward(grad_output, self, target, reduction)``."""

    rule = _r("z = mse_loss_backward(g, a, t, reduction) = 2 * (a - t) / n * g",
              dict(_SYMBOLS), numbers="reduction",
              g="mse_loss_backward(grad, a, t, reduction)",
              a="mse_loss_double_backward(grad * g, a, reduction)",
              t="-mse_loss_double_backward(grad * g, t, reduction)",
              note="mse_loss_double_backward(grad, a, reduction) = 2 * grad / n")

    saved = ("grad_output", "reduction", "self", "target")
    saved_tensors_names = ("grad_output", "self", "target")


@formula_function
def mse_loss_backward(grad, x, t, reduction: int):
    """PyTorch's ``mse_loss_backward``: ``2 * (x - t) / n * grad``, n the number of elements
    for ``reduction='mean'`` (1 for 'sum' and 'none'). ``x`` and ``t`` are taken in ``grad``'s
    dtype, the one the forward computed in (an integer target is a float there)."""
    if not isinstance(grad, Tensor):  # (a plain backward: arrays, no node)
        return _mse_grad(grad, _as(x, grad), _as(t, grad), reduction)
    gd = grad._data
    out = _mse_grad(gd, _as(F.data(x), gd), _as(F.data(t), gd), reduction)
    return _recorded(MseLossBackwardBackward0, out, grad, x, t, reduction=reduction)


def _mse_grad(g: np.ndarray, x: np.ndarray, t: np.ndarray, reduction: int) -> np.ndarray:
    n = x.size if reduction == 1 else 1
    return (x - t) * (2.0 / (n or 1)) * g  # (no elements: an empty gradient, any scale)


def _as(x: np.ndarray, like: np.ndarray) -> np.ndarray:
    return x.astype(like.dtype, copy=False)


@formula_function
def mse_loss_double_backward(grad, x, reduction: int):
    """``2 * grad``, divided by the number of elements for 'mean'."""
    return _mean(mul_by_number(grad, 2), reduction, _numel(x))


# ---------------------------------------------------------------- Huber and smooth L1
class HuberLossBackwardBackward0(Node):
    """The node of ``huber_loss_backward(grad_output, self, target, reduction, delta)``."""

    rule = _r("z = huber_loss_backward(g, a, t, reduction, delta) = g * clamp(a - t, -delta, "
              "delta) / n", dict(_SYMBOLS, delta="delta"), numbers="reduction delta",
              g="huber_loss_double_backward_grad_output(grad, g, a, t, reduction, delta)",
              a="huber_loss_double_backward(grad * g, a, t, reduction, delta)",
              t="-huber_loss_double_backward(grad * g, a, t, reduction, delta)",
              note="huber_loss_double_backward(grad, a, t, reduction, delta) = grad * "
                   "(|a - t| < delta) / n")

    saved = ("delta", "grad_output", "reduction", "self", "target")
    saved_tensors_names = ("grad_output", "self", "target")


class SmoothL1LossBackwardBackward0(Node):
    """The node of ``smooth_l1_loss_backward(grad_output, self, target, reduction, beta)``."""

    rule = _r("z = smooth_l1_loss_backward(g, a, t, reduction, beta) = g * clamp((a - t) / "
              "beta, -1, 1) / n", dict(_SYMBOLS, beta="beta"), numbers="reduction beta",
              g="smooth_l1_loss_backward(grad, a, t, reduction, beta)",
              a="smooth_l1_loss_double_backward(grad * g, a, t, reduction, beta)",
              t="-smooth_l1_loss_double_backward(grad * g, a, t, reduction, beta)",
              note="smooth_l1_loss_double_backward(grad, a, t, reduction, beta) = grad * "
                   "(|a - t| < beta) / beta / n")

    saved = ("beta", "grad_output", "reduction", "self", "target")
    saved_tensors_names = ("grad_output", "self", "target")


def _robust_backward(node_cls, grad, x, t, reduction: int, width: float, slope, **numbers):
    """``grad / n * slope(x - t)``; on tensors, the output of a ``node_cls`` node."""
    gd, xd, td = F.data(grad), F.data(x), F.data(t)
    dt = result_type(F.as_tensor(x), F.as_tensor(t)).np  # (PyTorch's promotion, not NumPy's)
    xd, td = xd.astype(dt, copy=False), td.astype(dt, copy=False)
    out = quietly(lambda: (gd / xd.size if reduction == 1 else gd) * slope(xd - td, width))
    return out if not isinstance(grad, Tensor) else _recorded(
        node_cls, out, grad, x, t, reduction=reduction, **numbers)


def _clamp(d, delta):
    return np.clip(d, -delta, delta)


def _smooth(d, beta):
    return np.sign(d) if beta == 0 else np.clip(d / beta, -1, 1)


@formula_function
def huber_loss_backward(grad, x, t, reduction: int, delta: float):
    """PyTorch's ``huber_loss_backward``: ``grad / n * clamp(x - t, -delta, delta)``."""
    return _robust_backward(HuberLossBackwardBackward0, grad, x, t, reduction, delta, _clamp,
                            delta=delta)


@formula_function
def smooth_l1_loss_backward(grad, x, t, reduction: int, beta: float):
    """PyTorch's ``smooth_l1_loss_backward``: ``grad / n * clamp((x - t) / beta, -1, 1)``."""
    return _robust_backward(SmoothL1LossBackwardBackward0, grad, x, t, reduction, beta, _smooth,
                            beta=beta)


def _inside(grad, x, t, width: float):
    """``|x - t| < width`` as a constant in ``grad``'s dtype and kind."""
    mask = quietly(lambda: np.abs(F.data(x) - F.data(t)) < width)
    return F.constant(mask.astype(F.data(grad).dtype), grad)


@formula_function
def huber_loss_double_backward(grad, x, t, reduction: int, delta: float):
    """``grad * (|x - t| < delta)``, divided by the number of elements for 'mean'."""
    return _mean(grad * _inside(grad, x, t, delta), reduction, _numel(x))


@formula_function
def huber_loss_double_backward_grad_output(grad, grad_output, x, t, reduction: int,
                                           delta: float):
    """The gradient of huber_loss_backward's grad_output: the first-order gradient of ``grad``
    (per element), or its product with ``grad`` summed (a reduced loss)."""
    if reduction == 0:
        return huber_loss_backward(grad, x, t, reduction, delta)
    r = huber_loss_backward(F.constant(np.ones_like(F.data(grad_output)), grad), x, t,
                            reduction, delta)
    return (r * grad).sum()


@formula_function
def smooth_l1_loss_double_backward(grad, x, t, reduction: int, beta: float):
    """``grad * (|x - t| < beta) / beta``, divided by the number of elements for 'mean'
    (zeros for beta 0)."""
    if beta == 0:
        return F.zeros_like(grad)
    return _mean(div_by_number(grad * _inside(grad, x, t, beta), beta), reduction, _numel(x))


# ---------------------------------------------------------------- binary cross-entropy
class BinaryCrossEntropyBackwardBackward0(Node):
    """The node of ``binary_cross_entropy_backward(grad_output, self, target, weight,
    reduction)``."""

    rule = _r("z = binary_cross_entropy_backward(g, a, t, w, reduction) = g * w * (a - t) / "
              "max(a * (1 - a), 1e-12) / n", dict(_SYMBOLS, w="weight"), numbers="reduction",
              g="binary_cross_entropy_double_backward_grad_output(grad, a, t, w, reduction)",
              a="binary_cross_entropy_double_backward(g, grad, a, t, w, reduction)",
              t="binary_cross_entropy_double_backward_target(grad, g, a, t, w, reduction)",
              note="with e = 1e-12: grad_a = grad * g * w * (a**2 - 2 * a * t + t) / ((a + e)**2"
                   " * (1 - a + e)**2) / n; grad_t = -grad * g * w / max((1 - a) * a, e) / n")

    saved = ("grad_output", "reduction", "self", "target", "weight")
    saved_tensors_names = ("grad_output", "self", "target", "weight")


@formula_function
def binary_cross_entropy_backward(grad, x, t, w, reduction):
    """PyTorch's ``binary_cross_entropy_backward`` (``w`` None: no weight)."""
    gd, xd, td = F.data(grad), F.data(x), F.data(t)
    out = quietly(lambda: (gd / xd.size if reduction == 1 else gd) * (xd - td)
                  / np.maximum(xd * (1 - xd), xd.dtype.type(1e-12)))
    if w is not None:
        out = out * F.data(w)
    if not isinstance(grad, Tensor):
        return out
    weight = None if w is None else SavedTensor(F.as_tensor(w))
    return _recorded(BinaryCrossEntropyBackwardBackward0, out, grad, x, t, reduction=reduction,
                     weight=weight)


def _weighted_mean(r, w, reduction: int, n: int):
    return _mean(r if w is None else r * w, reduction, n)


@formula_function
def binary_cross_entropy_double_backward(grad_output, grad, x, t, w, reduction):
    eps = 1e-12
    gi = (x * x - mul_by_number(x, 2) * t + t) / ((add_number(x, eps) ** 2) *
                                                  (add_number(1 - x, eps) ** 2))
    return _weighted_mean(gi * (grad * grad_output), w, reduction, _numel(x))


@formula_function
def binary_cross_entropy_double_backward_grad_output(grad, x, t, w, reduction):
    eps = 1e-12
    ggo = (x - t) / (add_number(x, eps) * add_number(1 - x, eps))
    return _weighted_mean(ggo * grad, w, reduction, _numel(x))


@formula_function
def binary_cross_entropy_double_backward_target(grad, grad_output, x, t, w, reduction):
    res = -grad * grad_output
    res = res if w is None else res * w
    denom = (1 - x) * x
    if isinstance(denom, Tensor):  # clamped where no graph sees it (PyTorch's clamp_min_
        denom._data = np.maximum(denom._data, 1e-12)  # under a NoGradGuard)
    else:
        denom = np.maximum(denom, 1e-12)
    return _mean(res / denom, reduction, _numel(t))


@formula_function
def binary_cross_entropy_target_backward(grad, x, t, w, reduction):
    """PyTorch's ``binary_cross_entropy_target_backward``: ``-logit(x) * grad`` (times the
    weight; divided by the number of elements for 'mean'): infinite where x is 0 or 1."""
    if not isinstance(grad, Tensor):
        x = F.data(x)
        r = quietly(lambda: -np.log(x / (1 - x)) * grad)
        return _weighted_mean(r, None if w is None else F.data(w), reduction, np.size(t))
    x = F.as_tensor(x)
    r = -(x / (1 - x)).log() * grad  # (PyTorch's LogitBackward0 is LogBackward0 <- Div here)
    return _weighted_mean(r, None if w is None else F.as_tensor(w), reduction, _numel(t))


@formula_function
def binary_cross_entropy_with_logits_backward(grad, x, t, w, p, reduction):
    """PyTorch's ``binary_cross_entropy_with_logits_backward``, its ops in its order:
    ``(sigmoid(x) - t) * grad`` (with pos_weight p: ``((p t + 1 - t) sigmoid(x) - p t) *
    grad``), times the weight, divided by the number of elements for 'mean'."""
    x, t = F.as_tensor(x), F.as_tensor(t)
    if p is None:
        gi = x.sigmoid() - t
    else:
        pt = F.as_tensor(p) * t
        gi = (add_number(pt, 1) - t) * x.sigmoid() - pt
    gi = gi * F.as_tensor(grad)
    return F.like(_weighted_mean(gi, None if w is None else F.as_tensor(w), reduction,
                                 x.numel()), grad)


@formula_function
def binary_cross_entropy_with_logits_target_backward(grad, x, t, w, p, reduction):
    """PyTorch's ``binary_cross_entropy_with_logits_target_backward``: ``-x * grad`` (with
    pos_weight p: ``(log_sigmoid(-x) - log_sigmoid(x) * p) * grad``), times the weight,
    divided by the number of elements for 'mean'."""
    x, g = F.as_tensor(x), F.as_tensor(grad)
    if p is None:
        gt = -x * g
    else:
        gt = (logsigmoid(-x) - logsigmoid(x) * F.as_tensor(p)) * g
    return F.like(_weighted_mean(gt, None if w is None else F.as_tensor(w), reduction,
                                 F.as_tensor(t).numel()), grad)
