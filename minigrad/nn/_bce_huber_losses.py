"""Loss ops: binary cross-entropy (on probabilities and on logits), Huber and smooth L1.

Each is one node named as PyTorch names it. The backward formulas are written with Tensor
operations, so they also build a graph under ``create_graph=True`` (second derivatives); on
the usual backward pass they run with grad mode off and record nothing.
``reduction`` is 0 = 'none', 1 = 'mean', 2 = 'sum', as in ``_loss_nodes``.
"""

from __future__ import annotations

import numpy as np

from .._dtype import from_numpy_dtype
from .._ops import _formula as F
from .._ops._core import binary_operands, value
from .._ops.errors import cant_cast
from .._quiet import quiet, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, SavedTensor, record, should_record
from ._loss_grads import huber_loss_backward, smooth_l1_loss_backward

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "huber_loss",
           "smooth_l1_loss"]


def _reduce(loss: Tensor, reduction: int) -> Tensor:
    if reduction == 1:
        return loss.mean()
    return loss.sum() if reduction == 2 else loss


def _record(data: np.ndarray, node: Node, reduction: int, **saved) -> Tensor:
    """The loss as ``node``'s output; ``saved`` (self, target, weights) kept for backward."""
    node._s_reduction = reduction
    for name, t in saved.items():
        setattr(node, "_s_" + name, None if t is None else SavedTensor(t))
    return record(node, Tensor._wrap(data), saved["self"], saved["target"],
                  broadcast=True)  # (the engine casts each gradient to its input's dtype)


def _value(saved):
    return None if saved is None else F.as_tensor(value(saved))


# ---------------------------------------------------------------- binary cross-entropy
class BinaryCrossEntropyBackward0(Node):
    """loss = -w (t log x + (1 - t) log(1 - x)):  d/dx = w (x - t) / max(x (1 - x), 1e-12);
    d/dt = w (log(1 - x) - log(x)) (logs clamped at -100, as PyTorch does)."""

    rule = _r("loss = mean(-w * (t * log(a) + (1 - t) * log(1 - a)))  (n = a.numel() with "
              "reduction='mean', else 1)",
              {"a": "self", "t": "target", "reduction": "reduction", "w": "weight"},
              numbers="reduction", a="binary_cross_entropy_backward(grad, a, t, w, reduction)",
              t="binary_cross_entropy_target_backward(grad, a, t, w, reduction)",
              note="binary_cross_entropy_backward = grad * w * (a - t) / max(a * (1 - a), 1e-12)"
                   " / n; binary_cross_entropy_target_backward = grad * w * (log(1 - a) - "
                   "log(a)) / n (logs at least -100)")

    saved = ("reduction", "self", "target", "weight")
    saved_tensors_names = ("self", "target", "weight")


def binary_cross_entropy(input: Tensor, target: Tensor, weight, reduction: int) -> Tensor:
    x = input._data
    for name, d in (("input", x), ("target", target._data)):
        if not ((d >= 0) & (d <= 1)).all():  # NaN fails too, as in PyTorch
            raise RuntimeError(f"all elements of {name} should be between 0 and 1")
    t = target._data.astype(x.dtype, copy=False)
    token = quiet()  # (log 0: -inf, clamped to -100; 0 * an inf weight: NaN; no NumPy warning)
    try:
        loss = -(t * np.maximum(np.log(x), -100) + (1 - t) * np.maximum(np.log1p(-x), -100))
        if weight is not None:
            loss = loss * weight._data
    finally:
        restore(token)
    data = np.asarray(_reduce(Tensor._wrap(loss.astype(x.dtype)), reduction)._data)
    if not should_record(input, target, weight):
        return Tensor._wrap(data)
    return _record(data, BinaryCrossEntropyBackward0(), reduction, self=input, target=target,
                   weight=weight)


class BinaryCrossEntropyWithLogitsBackward0(Node):
    """loss = w ((1 - t) x + L softplus(-x)), L = 1 + (p - 1) t (p: pos_weight):
    d/dx = w (L sigmoid(x) - p t);  d/dt = w ((p - 1) softplus(-x) - x)."""

    rule = _r("loss = mean(w * ((1 - t) * a + (1 + (p - 1) * t) * softplus(-a)))  (p: "
              "pos_weight; n = a.numel() with reduction='mean', else 1)",
              {"a": "self",
               "t": "target",
               "reduction": "reduction",
               "w": "weight",
               "p": "pos_weight"},
              numbers="reduction",
              a="binary_cross_entropy_with_logits_backward(grad, a, t, w, p, reduction)",
              t="binary_cross_entropy_with_logits_target_backward(grad, a, t, w, p, reduction)",
              note="= grad * w * ((1 + (p - 1) * t) * sigmoid(a) - p * t) / n and grad * w * "
                   "((p - 1) * softplus(-a) - a) / n (w, p: 1 when not given)")

    saved = ("pos_weight", "reduction", "self", "target", "weight")
    saved_tensors_names = ("pos_weight", "self", "target", "weight")


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight, reduction: int,
                                     pos_weight) -> Tensor:
    x, t = input._data, target._data  # (the result has the target's dtype, as in PyTorch)
    token = quiet()  # (inf - inf, overflow: NaN and inf as in PyTorch, no NumPy warning)
    try:
        softplus = np.maximum(-x, 0) + np.log1p(np.exp(-np.abs(x)))
        if pos_weight is None:
            loss = (1 - t) * x + softplus
        else:
            loss = (1 - t) * x + (1 + (pos_weight._data - 1) * t) * softplus
        if weight is not None:
            loss = loss * weight._data
    finally:
        restore(token)
    data = np.asarray(_reduce(Tensor._wrap(loss.astype(t.dtype)), reduction)._data)
    if not should_record(input, target, weight, pos_weight):
        return Tensor._wrap(data)
    return _record(data, BinaryCrossEntropyWithLogitsBackward0(), reduction, self=input,
                   target=target, weight=weight, pos_weight=pos_weight)


# ---------------------------------------------------------------- Huber and smooth L1
class HuberLossBackward0(Node):
    """loss = d**2 / 2 where |d| < delta, else delta (|d| - delta / 2), d = self - target:
    d/dself = clamp(d, -delta, delta);  d/dtarget = clamp(-d, -delta, delta)."""

    rule = _r("loss = mean(d**2 / 2 where |d| < delta, else delta * (|d| - delta / 2)),  d = a - "
              "t  (n = a.numel() with reduction='mean', else 1)",
              {"a": "self", "t": "target", "reduction": "reduction", "delta": "delta"},
              np={"a": "grad * clip(a - t, -delta, delta) / per(a, reduction)",
                  "t": "-grad * clip(a - t, -delta, delta) / per(a, reduction)"},
              a="grad * clamp(a - t, -delta, delta) / n",
              t="-grad * clamp(a - t, -delta, delta) / n")

    saved = ("delta", "reduction", "self", "target")
    saved_tensors_names = ("self", "target")

    def backward(self, g):
        need_self = self.next_functions[0][0] is not None
        x, t = self._operands(_value(self._s_self), _value(self._s_target), need_self)
        if not isinstance(g, Tensor):
            x, t = x._data, t._data
        need_target = self.next_functions[1][0] is not None
        # (the target's as PyTorch computes it, with the operands swapped: 0 where they agree)
        return (self.loss_backward(g, x, t) if need_self else None,
                self.loss_backward(g, t, x) if need_target else None)

    def loss_backward(self, g, x, t):
        return huber_loss_backward(g, x, t, self._s_reduction, self._s_delta)

    @staticmethod
    def _operands(x: Tensor, t: Tensor, self_first: bool) -> tuple:
        """PyTorch's huber_loss_backward takes operands of one dtype only: that of the one whose
        gradient it computes first (self's, else the target's: it swaps them for that)."""
        if t.dtype != x.dtype:
            first, other = (x, t) if self_first else (t, x)
            raise RuntimeError(f"Found dtype {other.dtype._cpp} but expected {first.dtype._cpp}")
        return x, t


class SmoothL1LossBackward0(HuberLossBackward0):
    """loss = d**2 / (2 beta) where |d| < beta, else |d| - beta / 2, d = self - target:
    d/dself = clamp(d / beta, -1, 1);  d/dtarget = the negative of that."""

    rule = _r("loss = mean(d**2 / (2 * beta) where |d| < beta, else |d| - beta / 2),  d = a - t  "
              "(n = a.numel() with reduction='mean', else 1)",
              {"a": "self", "t": "target", "reduction": "reduction", "beta": "beta"},
              np={"a": "grad * smooth_l1(a - t, beta) / per(a, reduction)",
                  "t": "-grad * smooth_l1(a - t, beta) / per(a, reduction)"},
              a="grad * clamp((a - t) / beta, -1, 1) / n",
              t="-grad * clamp((a - t) / beta, -1, 1) / n")

    saved = ("beta", "reduction", "self", "target")

    def backward(self, g):
        self._grad_dtype = F.data(g).dtype  # (for the check in _operands)
        return super().backward(g)

    def _operands(self, x: Tensor, t: Tensor, self_first: bool) -> tuple:
        """smooth_l1_loss_backward promotes: a bool operand counts as 0 and 1. PyTorch's kernel
        writes each gradient into a tensor like its operand: an integer or bool operand that
        needs one gets its cast error, before anything is sent."""
        for i, (a, b) in enumerate(((x, t), (t, x))):
            if self.next_functions[i][0] is not None and a._data.dtype.kind in "biu":
                result = np.result_type(self._grad_dtype, b._data.dtype)
                raise cant_cast(from_numpy_dtype(result), a.dtype)
        if x._data.dtype.kind == "b":
            x = x.to(t.dtype)
        return x, (t.to(x.dtype) if t._data.dtype.kind == "b" else t)

    def loss_backward(self, g, x, t):
        return smooth_l1_loss_backward(g, x, t, self._s_reduction, self._s_beta)


def _robust(input, target, reduction, node, width: float, huber: bool) -> Tensor:
    kernel = "huber" if huber else "smooth_l1"
    a, b, dtype = binary_operands(input, target)
    kind = input._data.dtype.kind
    if huber and (dtype.kind == "f" and kind != "f" or dtype.kind in "iu" and kind == "b"):
        raise RuntimeError(f"result type {from_numpy_dtype(dtype)._legacy_name[:-6]} can't be "
                           f"cast to the desired output type {input.dtype._legacy_name[:-6]}")
    if dtype.kind != "f":  # (huber's result has the input's dtype: checked first)
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for "
                                  f"'{from_numpy_dtype(dtype)._legacy_name[:-6]}'")
    token = quiet()  # inf - inf is NaN, as in PyTorch, without a warning
    try:
        d = a - b
        if huber:
            d = d.astype(input._data.dtype, copy=False)
        a = np.abs(d)
        if huber:
            loss = np.where(a < width, 0.5 * d * d, width * (a - 0.5 * width))
        elif width == 0:
            loss = a
        else:
            loss = np.where(a < width, 0.5 * d * d / width, a - 0.5 * width)
    finally:
        restore(token)
    data = np.asarray(_reduce(Tensor._wrap(loss.astype(d.dtype)), reduction)._data)
    if not should_record(input, target):
        return Tensor._wrap(data)
    return _record(data, node, reduction, self=input, target=target)


def huber_loss(input, target, reduction: int, delta: float) -> Tensor:
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    node = HuberLossBackward0()
    node._s_delta = float(delta)
    return _robust(input, target, reduction, node, float(delta), huber=True)


def smooth_l1_loss(input, target, reduction: int, beta: float) -> Tensor:
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    node = SmoothL1LossBackward0()
    node._s_beta = float(beta)
    return _robust(input, target, reduction, node, float(beta), huber=False)
