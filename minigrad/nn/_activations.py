"""The activation functions of ``nn.functional`` beyond relu/sigmoid/tanh: leaky_relu, elu,
selu, celu, gelu, silu, softplus, hardtanh (relu6), logsigmoid, mish, hardswish, hardsigmoid.
Each is one node class named as PyTorch names it. Its ``forward`` and its ``slope`` (the
derivative, which the incoming gradient is multiplied by) sit next to each other, written once
with tensor operations: the backward runs them on the saved input without recording, or,
under ``create_graph=True``, recorded, so that they can be differentiated again.

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> x = torch.tensor([-2., 3.], requires_grad=True)
>>> y = F.leaky_relu(x, 0.1)
>>> y
tensor([-0.2000,  3.0000], grad_fn=<LeakyReluBackward0>)
>>> y.sum().backward(); x.grad
tensor([0.1000, 1.0000])
"""

from __future__ import annotations

import math

import numpy as np

from .._ops._core import in_iterator_layout, like_input, value
from .._ops.arithmetic import add_number, sub
from .._ops.errors import not_implemented
from .._quiet import quiet, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.grad_mode import no_grad
from ..autograd.graph import Node, SavedTensor, record, should_record

__all__ = ["activation", "LeakyReluBackward0", "LeakyReluBackward1", "EluBackward0",
           "EluBackward1", "CeluBackward0", "CeluBackward1", "GeluBackward0", "SiluBackward0",
           "SoftplusBackward0", "HardtanhBackward0", "LogSigmoidBackward0", "MishBackward0",
           "HardswishBackward0", "HardsigmoidBackward0", "ThresholdBackward0"]


def _mask(cond: Tensor, like: Tensor) -> Tensor:
    """A 0/1 tensor of ``like``'s dtype (a constant: it carries no gradient)."""
    return Tensor._wrap(cond._data.astype(like._data.dtype))


class _Activation(Node):
    """What every activation node shares: ``backward`` is ``grad * slope(x)``, with ``x`` the
    saved input (or, for the in-place ``...Backward1`` nodes, the saved result)."""

    saved = ("self",)
    saved_tensors_names = ("self",)
    keeps = "self"  # which tensor slope() is computed from
    params: tuple = ()  # the numbers the node keeps, passed to forward() and slope()

    @staticmethod
    def forward(x: Tensor, **params) -> Tensor:
        raise NotImplementedError

    @staticmethod
    def slope(x: Tensor, **params) -> Tensor:
        raise NotImplementedError

    # the name of this gradient's node as an op (create_graph), as PyTorch's; None: PyTorch
    # records its formula's ops instead, made by the class's recorded(g, x) (silu, mish)
    second = None

    def backward(self, g):
        x = value(getattr(self, "_s_" + self.keeps))
        params = {p: getattr(self, "_s_" + p) for p in self.params}
        if isinstance(g, Tensor):  # create_graph: the gradient is an op of its own
            if self.second is None:  # (silu, mish: PyTorch records their formula's ops)
                return (self.recorded(g, x),)
            from ._activation_grads import second_order

            return (second_order(self, g, x, params),)
        token = quiet()
        try:
            with no_grad():
                s = self.slope(x if isinstance(x, Tensor) else Tensor._wrap(x), **params)
        finally:
            restore(token)
        return (g * s._data,)


# ---------------------------------------------------------------- piecewise linear
class LeakyReluBackward0(_Activation):
    """z = a where a > 0, else negative_slope * a:  grad_a = grad * (1 where a > 0, else
    negative_slope)."""

    rule = _r("z = where(a > 0, a, a * slope)", {"a": "self", "slope": "negative_slope"},
              a="grad * where(a > 0, 1, slope)")

    second = "LeakyReluBackwardBackward0"

    saved = ("negative_slope", "self")
    params = ("negative_slope",)

    @staticmethod
    def forward(x, negative_slope):
        return x * (_mask(x > 0, x) + _mask(x <= 0, x) * negative_slope)

    @staticmethod
    def slope(x, negative_slope):
        return _mask(x > 0, x) + _mask(x <= 0, x) * negative_slope


class LeakyReluBackward1(LeakyReluBackward0):
    """The in-place leaky_relu_: the same, read from the saved result z (same sign as a)."""

    rule = _r("z = leaky_relu_(a, slope)  (in place: z, kept, is a's new value)",
              {"z": "result", "slope": "negative_slope"}, a="grad * where(z > 0, 1, slope)")

    saved = ("negative_slope", "result")
    saved_tensors_names = ("result",)
    keeps = "result"


class HardtanhBackward0(_Activation):
    """z = clamp(a, min_val, max_val):  grad_a = grad where min_val < a < max_val, else 0."""

    rule = _r("z = clamp(a, lo, hi)", {"a": "self", "lo": "min_val", "hi": "max_val"},
              a="grad * ((a > lo) & (a < hi))")

    second = "HardtanhBackwardBackward0"

    saved = ("max_val", "min_val", "self")
    params = ("max_val", "min_val")

    @staticmethod
    def forward(x, max_val, min_val):
        return x.clamp(min_val, max_val)

    @staticmethod
    def slope(x, max_val, min_val):
        return _mask((x > min_val) & (x < max_val), x)


_SIXTH = float(np.float32(1 / 6))


class ThresholdBackward0(_Activation):
    """z = a where a > threshold, else value:  grad_a = grad where a > threshold, else 0."""

    rule = _r("z = where(a > threshold, a, value)", {"a": "self", "threshold": "threshold"},
              a="grad * (a > threshold)")

    second = "ThresholdBackwardBackward0"

    saved = ("self", "threshold")
    params = ("threshold", "value")

    @staticmethod
    def forward(x, threshold, value):
        above = _mask(x > threshold, x)
        return above * x + (1 - above) * value

    @staticmethod
    def slope(x, threshold, value):
        return _mask(x > threshold, x)


class HardsigmoidBackward0(_Activation):
    """z = clamp(a / 6 + 1 / 2, 0, 1):  grad_a = grad / 6 where -3 < a < 3, else 0."""

    rule = _r("z = clamp(a / 6 + 0.5, 0, 1)", {"a": "self"}, a="grad * ((a > -3) & (a < 3)) / 6")

    second = "NotImplemented"

    @staticmethod
    def forward(x):
        return (x / 6 + 0.5).clamp(0, 1)

    @staticmethod
    def slope(x):
        return _mask((x > -3) & (x < 3), x) * _SIXTH  # (PyTorch's float constant)


class HardswishBackward0(_Activation):
    """z = a * clamp(a + 3, 0, 6) / 6:  grad_a = grad * (0 where a < -3, a / 3 + 1 / 2 where
    a <= 3, else 1)."""

    rule = _r("z = a * clamp(a + 3, 0, 6) / 6", {"a": "self"},
              a="grad * where(a < -3, 0, where(a <= 3, a / 3 + 0.5, 1))")

    second = "HardswishBackwardBackward0"

    @staticmethod
    def forward(x):
        return x * (x + 3).clamp(0, 6) / 6

    @staticmethod
    def slope(x):
        middle = _mask((x >= -3) & (x <= 3), x)
        return middle * (x / 3 + 0.5) + _mask(x > 3, x)


# ---------------------------------------------------------------- exponential
class EluBackward0(_Activation):
    """z = scale * a where a > 0, else scale * alpha * (exp(a * input_scale) - 1):
    grad_a = grad * (scale where a > 0, else scale * alpha * input_scale * exp(a * input_scale))."""

    rule = _r("z = where(a > 0, s * a, s * alpha * (exp(a * i) - 1))  (s: scale, i: input_scale)",
              {"a": "self", "alpha": "alpha", "s": "scale", "i": "input_scale"},
              a="grad * where(a > 0, s, s * alpha * i * exp(a * i))")

    second = "EluBackwardBackward0"

    saved = ("alpha", "input_scale", "scale", "self")
    params = ("alpha", "input_scale", "scale")

    @staticmethod
    def forward(x, alpha, input_scale, scale):
        neg = ((x * input_scale).exp() - 1) * (alpha * scale)
        return _mask(x > 0, x) * x * scale + _mask(x <= 0, x) * neg

    @staticmethod
    def slope(x, alpha, input_scale, scale):
        neg = (x * input_scale).exp() * (alpha * scale * input_scale)
        return _mask(x > 0, x) * scale + _mask(x <= 0, x) * neg


class EluBackward1(EluBackward0):
    """The in-place elu_: the slope from the saved result z: input_scale * (z + alpha * scale)
    where z <= 0."""

    rule = _r("z = elu_(a, alpha, s, i)  (in place: z, kept, is a's new value)",
              {"z": "result", "alpha": "alpha", "s": "scale", "i": "input_scale"},
              a="grad * where(z > 0, s, i * (z + alpha * s))")

    saved = ("alpha", "input_scale", "result", "scale")
    saved_tensors_names = ("result",)
    keeps = "result"

    @staticmethod
    def slope(z, alpha, input_scale, scale):
        return _mask(z > 0, z) * scale + _mask(z <= 0, z) * (z + alpha * scale) * input_scale


class CeluBackward0(_Activation):
    """z = a where a > 0, else alpha * (exp(a / alpha) - 1):  grad_a = grad * (1 where a > 0,
    else exp(a / alpha))."""

    rule = _r("z = where(a > 0, a, alpha * (exp(a / alpha) - 1))", {"a": "self", "alpha": "alpha"},
              a="grad * where(a > 0, 1, exp(a / alpha))")

    second = "EluBackwardBackward0"

    saved = ("alpha", "self")
    params = ("alpha",)

    @staticmethod
    def forward(x, alpha):
        return _mask(x > 0, x) * x + _mask(x <= 0, x) * ((x / alpha).exp() - 1) * alpha

    @staticmethod
    def slope(x, alpha):
        return _mask(x > 0, x) + _mask(x <= 0, x) * (x / alpha).exp()


class CeluBackward1(CeluBackward0):
    """The in-place celu_: the slope from the saved result z: z / alpha + 1 where z <= 0."""

    rule = _r("z = celu_(a, alpha)  (in place: z, kept, is a's new value)",
              {"z": "result", "alpha": "alpha"}, a="grad * where(z > 0, 1, z / alpha + 1)")

    saved = ("alpha", "result")
    saved_tensors_names = ("result",)
    keeps = "result"

    @staticmethod
    def slope(z, alpha):
        return _mask(z > 0, z) + _mask(z <= 0, z) * (z / alpha + 1)


class SoftplusBackward0(_Activation):
    """z = log(1 + exp(beta * a)) / beta (a itself where beta * a > threshold):
    grad_a = grad * sigmoid(beta * a) (1 where beta * a > threshold)."""

    rule = _r("z = where(a * beta > threshold, a, log(1 + exp(a * beta)) / beta)",
              {"a": "self", "beta": "beta", "threshold": "threshold"},
              a="grad * where(a * beta > threshold, 1, sigmoid(a * beta))")

    second = "SoftplusBackwardBackward0"

    saved = ("beta", "self", "threshold")
    params = ("beta", "threshold")

    @staticmethod
    def forward(x, beta, threshold):
        big = _mask(x * beta > threshold, x)
        return big * x + (1 - big) * (x * beta).exp().log1p() / beta

    @staticmethod
    def slope(x, beta, threshold):
        big = _mask(x * beta > threshold, x)
        return big + (1 - big) * (x * beta).sigmoid()


class LogSigmoidBackward0(_Activation):
    """z = log(sigmoid(a)) = -softplus(-a):  grad_a = grad * sigmoid(-a)."""

    rule = _r("z = -log(1 + exp(-a))", {"a": "self"}, a="grad * sigmoid(-a)")

    second = "LogSigmoidBackwardBackward0"

    saved = ("buffer", "self")
    saved_tensors_names = ("buffer", "self")

    @staticmethod
    def forward(x):
        return x.clamp(max=0) - (-x.abs()).exp().log1p()

    @staticmethod
    def slope(x):
        return (-x).sigmoid()


# ---------------------------------------------------------------- smooth, self-gated
class GeluBackward0(_Activation):
    """z = a * Phi(a) (Phi: the standard normal's CDF; approximate='tanh': with
    0.5 (1 + tanh(sqrt(2 / pi) (a + 0.044715 a^3)))):  grad_a = grad * (Phi(a) + a phi(a))."""

    rule = _r("z = gelu(a, approximate)  (a * Phi(a), Phi: the standard normal CDF; "
              "approximate='tanh': a * 0.5 * (1 + tanh(sqrt(2 / pi) * (a + 0.044715 * a**3))))",
              {"a": "self", "approximate": "approximate"},
              np={"a": "grad * gelu_slope(a, approximate)"},
              a="grad * (Phi(a) + a * phi(a))  (phi: the normal density)")

    second = "GeluBackwardBackward0"

    saved = ("approximate", "self")
    params = ("approximate",)

    @staticmethod
    def forward(x, approximate):
        if approximate == "tanh":
            inner = (x + x * x * x * 0.044715) * math.sqrt(2 / math.pi)
            return x * 0.5 * (1 + inner.tanh())
        return x * 0.5 * (1 + (x * math.sqrt(0.5)).erf())

    @staticmethod
    def slope(x, approximate):
        if approximate == "tanh":
            k = math.sqrt(2 / math.pi)
            t = ((x + x * x * x * 0.044715) * k).tanh()
            return 0.5 * (1 + t) + x * 0.5 * (1 - t * t) * k * (1 + x * x * (3 * 0.044715))
        cdf = 0.5 * (1 + (x * math.sqrt(0.5)).erf())
        pdf = (x * x * -0.5).exp() * (1 / math.sqrt(2 * math.pi))
        return cdf + x * pdf


class SiluBackward0(_Activation):
    """z = a * sigmoid(a):  grad_a = grad * sigmoid(a) * (1 + a * (1 - sigmoid(a)))."""

    rule = _r("z = a * sigmoid(a)", {"a": "self"},
              a="grad * sigmoid(a) * (1 + a * (1 - sigmoid(a)))")

    @staticmethod
    def forward(x):
        return x * x.sigmoid()

    @staticmethod
    def slope(x):
        s = x.sigmoid()
        return s * (1 + x * (1 - s))

    @staticmethod
    def recorded(g, x):  # (PyTorch's infinitely_differentiable_silu_backward)
        s = x.sigmoid()
        return g * s * add_number(x * sub(1.0, s), 1.0)


class MishBackward0(_Activation):
    """z = a * tanh(softplus(a)):  grad_a = grad * (t + a * sigmoid(a) * (1 - t^2)),
    t = tanh(softplus(a))."""

    rule = _r("z = a * tanh(softplus(a))", {"a": "self"},
              a="grad * (tanh(softplus(a)) + a * sigmoid(a) * (1 - tanh(softplus(a)) ** 2))")

    @staticmethod
    def forward(x):
        return x * SoftplusBackward0.forward(x, 1, 20).tanh()

    @staticmethod
    def slope(x):
        t = SoftplusBackward0.forward(x, 1, 20).tanh()
        return t + x * x.sigmoid() * (1 - t * t)

    @staticmethod
    def recorded(g, x):  # (PyTorch's infinitely_differentiable_mish_backward)
        s = x.sigmoid()
        t = x.exp().log1p().tanh()
        return g * (t + x * s * sub(1.0, t * t))


# ---------------------------------------------------------------- the op
def activation(node_cls, input: Tensor, name: str, inplace: bool = False, **params) -> Tensor:
    """``node_cls.forward(input, **params)`` (computed outside any graph), recorded as one
    ``node_cls`` node that keeps ``params`` (in-place: ``input`` becomes the result)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if input._data.dtype.kind != "f":
        raise not_implemented(f"{name}_cpu" if name != "gelu" else "GeluKernelImpl",
                              input.dtype)
    token = quiet()
    try:
        with no_grad():
            data = node_cls.forward(Tensor._wrap(input._data), **params)._data
    finally:
        restore(token)
    data = (like_input if name == "hardtanh" else in_iterator_layout)(data.astype(
        input._data.dtype, copy=False), input._data)  # (laid out as PyTorch's)
    if inplace:
        return _inplace(node_cls, input, data, params)
    out = Tensor._wrap(data)
    if should_record(input):
        node = node_cls()
        for k, v in params.items():
            setattr(node, "_s_" + k, v)
        node._s_self = SavedTensor(input)
        if node_cls is LogSigmoidBackward0:
            node._s_buffer = SavedTensor(Tensor._wrap(np.exp(-np.abs(input._data))))
        record(node, out, input)
    return out


_RESULT_NODES = {LeakyReluBackward0: LeakyReluBackward1, EluBackward0: EluBackward1,
                 CeluBackward0: CeluBackward1}


def _inplace(node_cls, input: Tensor, data: np.ndarray, params: dict) -> Tensor:
    """``input`` overwritten with ``data``; recorded as PyTorch records the in-place op: a
    ``...Backward1`` node keeping the result, or (silu_, hardtanh_, ...) the same node keeping
    a copy of the input as it was (``apply_inplace`` makes both follow ``input``)."""
    from .._ops.inplace import apply_inplace

    def op(x):
        out = Tensor._wrap(data)
        if should_record(x):
            result_cls = _RESULT_NODES.get(node_cls)
            node = (result_cls or node_cls)()
            for k, v in params.items():
                setattr(node, "_s_" + k, v)
            if result_cls is None:
                node._s_self = SavedTensor(x)
            record(node, out, x)
            if result_cls is not None:
                node._s_result = SavedTensor(out, node)
        return out

    return apply_inplace(input, op)
