"""The activations' gradients as ops of their own, under ``create_graph=True``, named as
PyTorch names them (``LeakyReluBackwardBackward0``, ``EluBackwardBackward0``, ...): the
gradient ``grad * slope(a)`` of an activation is a function of ``grad`` and of ``a``, and this
node differentiates it again: ``gg * slope(a)`` for ``grad``, ``gg * grad * slope'(a)`` for
``a`` (``slope'`` found by minigrad's own autograd from the slope's formula in
``_activations``).

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> x = torch.tensor([-1., 2.], requires_grad=True)
>>> g, = torch.autograd.grad((F.elu(x) ** 2).sum(), x, create_graph=True)
>>> g.grad_fn.name()
'EluBackwardBackward0'
"""

from __future__ import annotations

import numpy as np

from .._ops._core import value
from .._ops.binary_functions import NotImplementedBackward
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.grad_mode import enable_grad, no_grad
from ..autograd.graph import Node, SavedTensor, record, record_raising, should_record
from ._activations import CeluBackward0, _Activation

__all__ = ["second_order", "LeakyReluBackwardBackward0", "HardtanhBackwardBackward0",
           "ThresholdBackwardBackward0",
           "EluBackwardBackward0", "GeluBackwardBackward0", "SoftplusBackwardBackward0",
           "LogSigmoidBackwardBackward0", "HardswishBackwardBackward0"]


class _SecondOrder(Node):
    """z = grad * slope(a), an activation's gradient as an op of (grad, a):
    grad_grad = gg * slope(a);  grad_a = gg * grad * slope'(a) (0 where the slope is flat)."""

    x_name = "self"  # the name under which the input (or the in-place result) is shown
    g_name = None  # "grad_output" if PyTorch keeps it

    def backward(self, gg):
        first = self._first
        g, x = self._g, value(getattr(self, "_s_" + self.x_name))
        params = {p: getattr(first, "_s_" + p) for p in first.params}
        if isinstance(gg, Tensor):  # a third order: both recorded
            return gg * first.slope(x, **params), _slope_grad(first, x, gg * g, params, True)
        xt = x if isinstance(x, Tensor) else Tensor._wrap(x)
        with no_grad():
            dg = gg * first.slope(xt, **params)._data
        gd = g._data if isinstance(g, Tensor) else g
        dx = _slope_grad(first, xt, Tensor._wrap(gg * gd), params, False)
        return dg, dx if dx is None else dx._data


def _slope_grad(first, x: Tensor, weights: Tensor, params: dict, create_graph: bool):
    """d/dx of sum(weights * slope(x)), by minigrad's own autograd (zeros for a flat slope)."""
    from ..autograd import grad

    with enable_grad():
        xr = x if create_graph else Tensor._wrap(x._data).requires_grad_()
        s = first.slope(xr, **params)
        if not s.requires_grad:
            return Tensor._wrap(np.zeros_like(x._data))
        return grad(s, xr, weights, create_graph=create_graph)[0]


class LeakyReluBackwardBackward0(_SecondOrder):
    """z = leaky_relu_backward(grad, a, negative_slope):  grad_grad = gg * slope(a);
    grad_a = 0."""

    rule = _r("z = leaky_relu_backward(g, a)  (= g * slope(a), the gradient of leaky_relu)",
              words=True, g="grad * slope(a)", a="0  (the slope is flat)")

    saved = ("negative_slope", "self")
    saved_tensors_names = ("self",)


class HardtanhBackwardBackward0(_SecondOrder):
    """z = hardtanh_backward(grad, a, min_val, max_val):  grad_grad = gg * slope(a);
    grad_a = 0."""

    rule = _r("z = hardtanh_backward(g, a)  (= g * slope(a), the gradient of hardtanh)",
              words=True, g="grad * slope(a)", a="0  (the slope is flat)")

    saved = ("max_val", "min_val", "self")
    saved_tensors_names = ("self",)


class ThresholdBackwardBackward0(_SecondOrder):
    """z = threshold_backward(grad, a, threshold):  grad_grad = gg * slope(a);  grad_a = 0."""

    rule = _r("z = threshold_backward(g, a)  (= g * slope(a), the gradient of threshold)",
              words=True, g="grad * slope(a)", a="0  (the slope is flat)")

    saved = ("self", "threshold")
    saved_tensors_names = ("self",)


class EluBackwardBackward0(_SecondOrder):
    """z = elu_backward(grad, ..., a or z):  grad_grad = gg * slope;  grad_a = gg * grad *
    slope'."""

    rule = _r("z = elu_backward(g, a)  (= g * slope(a), the gradient of elu)", words=True,
              g="grad * slope(a)", a="grad * g * slope'(a)")

    saved = ("alpha", "grad_output", "input_scale", "is_result", "scale", "self_or_result")
    saved_tensors_names = ("grad_output", "self_or_result")
    x_name, g_name = "self_or_result", "grad_output"


class GeluBackwardBackward0(_SecondOrder):
    """z = gelu_backward(grad, a):  grad_grad = gg * slope(a);  grad_a = gg * grad * slope'(a)."""

    rule = _r("z = gelu_backward(g, a)  (= g * slope(a), the gradient of gelu)", words=True,
              g="grad * slope(a)", a="grad * g * slope'(a)")

    saved = ("approximate", "grad_output", "self")
    saved_tensors_names = ("grad_output", "self")
    g_name = "grad_output"


class SoftplusBackwardBackward0(_SecondOrder):
    """z = softplus_backward(grad, a):  grad_grad = gg * slope(a);  grad_a = gg * grad *
    slope'(a)."""

    rule = _r("z = softplus_backward(g, a)  (= g * slope(a), the gradient of softplus)",
              words=True, g="grad * slope(a)", a="grad * g * slope'(a)")

    saved = ("beta", "grad_output", "self", "threshold")
    saved_tensors_names = ("grad_output", "self")
    g_name = "grad_output"


class LogSigmoidBackwardBackward0(_SecondOrder):
    """z = log_sigmoid_backward(grad, a, buffer):  grad_grad = gg * slope(a);
    grad_a = gg * grad * slope'(a)."""

    rule = _r("z = log_sigmoid_backward(g, a)  (= g * slope(a), the gradient of log_sigmoid)",
              words=True, g="grad * slope(a)", a="grad * g * slope'(a)")

    saved = ("buffer", "grad_output", "self")
    saved_tensors_names = ("buffer", "grad_output", "self")
    g_name = "grad_output"


class HardswishBackwardBackward0(_SecondOrder):
    """z = hardswish_backward(grad, a):  grad_grad = gg * slope(a);  grad_a = gg * grad *
    slope'(a)."""

    rule = _r("z = hardswish_backward(g, a)  (= g * slope(a), the gradient of hardswish)",
              words=True, g="grad * slope(a)", a="grad * g * slope'(a)")

    saved = ("grad_output", "self")
    saved_tensors_names = ("grad_output", "self")
    g_name = "grad_output"


def second_order(first: _Activation, g: Tensor, x, params: dict):
    """``g * slope(x)`` under create_graph: one node as PyTorch records it."""
    xt = x if isinstance(x, Tensor) else Tensor._wrap(x)
    with no_grad():
        out = g * first.slope(xt, **params)
    out = Tensor._wrap(out._data)
    if not should_record(g, xt):
        return out
    if first.second == "NotImplemented":
        node = NotImplementedBackward()
        node._op = "hardsigmoid_backward"  # (its edges: the inputs that require grad)
        return record_raising(node, out, *(t for t in (g, xt) if t.requires_grad))
    node = globals()[first.second]()
    node._first, node._g = first, g
    for k, v in params.items():
        setattr(node, "_s_" + k, v)
    if isinstance(first, CeluBackward0):  # PyTorch's celu is elu with these
        node._s_alpha, node._s_scale, node._s_input_scale = params["alpha"], 1, \
            1 / params["alpha"]
    if isinstance(node, EluBackwardBackward0):
        node._s_is_result = first.keeps == "result"
    setattr(node, "_s_" + node.x_name, SavedTensor(xt))
    if node.g_name:
        node._s_grad_output = SavedTensor(g)
    if "buffer" in node.saved:
        node._s_buffer = first._s_buffer
    return record(node, out, g, xt)
