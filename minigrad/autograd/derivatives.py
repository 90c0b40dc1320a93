"""Every backward node's local rule, in one table keyed by node name (PyTorch keeps the same
facts in ``tools/autograd/derivatives.yaml``).

For each node: the forward op (``z = a * b``), the gradient each input gets from the incoming
gradient ``grad`` (``grad_a = grad * b``: one rule per entry of ``next_functions``, in order),
and where each symbol lives on the node: ``b`` is ``node._saved_other``. The node classes'
docstrings are made from this table (:func:`document_nodes`, called once by ``import
minigrad``), and the stepper of ``minigrad_widgets`` shows the same rules with the step's
numbers put in, for minigrad's graphs and, by node name, for PyTorch's.

A rule is written so that NumPy can evaluate it (:func:`evaluate`), except where it is
words (``words=True``), such as "grad put back where a[indices] was taken".

>>> rule = RULES["MulBackward0"]
>>> rule.forward, rule.grads, rule.symbols
('z = a * b', {'a': 'grad * b', 'b': 'grad * a'}, {'a': 'self', 'b': 'other'})
>>> import numpy as np
>>> evaluate(rule, "a", grad=np.array(1.), a=np.array(2.), b=np.array(3.))
array(3.)
"""

from __future__ import annotations

import textwrap

import numpy as np

from .._quiet import quietly
from ._rule import Rule, _r
from .derivatives_layers import HELPERS as LAYER_HELPERS
from .derivatives_layers import LAYERS
from .derivatives_more import HELPERS, MORE
from .derivatives_nn import HELPERS as NN_HELPERS
from .derivatives_nn import NN

__all__ = ["Rule", "RULES", "CUSTOM", "rule_for", "evaluate", "evaluate_forward", "sum_to",
           "signed",
           "document_nodes",
           "node_classes", "class_name"]


_AB = {"a": "self", "b": "other"}
_A = {"a": "self"}
_Z = {"z": "result"}
_AZ = {"a": "self", "z": "result"}
_SHAPE = {"shape": "self_sym_sizes"}
_DIM = {"shape": "self_sym_sizes", "dim": "dim", "keepdim": "keepdim"}
_ROWS = "grad.reshape(shape)"
_RESHAPE = {"a": "reshape(grad, shape)"}



def _softmax_like(op: str, formula: str) -> Rule:
    """softmax and log_softmax: the gradient is their ``<op>_backward_data(grad, z, dim)``."""
    return _r(f"z = {op}(a, dim)", {"z": "result", "dim": "dim"}, np={"a": formula},
              a=f"{op}_backward_data(grad, z, dim) = {formula}")


def _backward_data(op: str, formula: str, np_g=None, **grads) -> Rule:
    """The node of ``<op>_backward_data(g, y, dim)`` itself (in a second-order graph)."""
    return _r(f"z = {op}_backward_data(g, y, dim) = {formula}",
              {"g": "grad_output", "y": "output", "dim": "dim"},
              np={"g": np_g} if np_g else None, **grads)


RULES: dict[str, Rule] = {
    # ---- elementwise arithmetic
    "AddBackward0": _r("z = a + alpha * b", {"alpha": "alpha"}, a="grad", b="grad * alpha"),
    "SubBackward0": _r("z = a - alpha * b", {"alpha": "alpha"}, a="grad", b="-grad * alpha"),
    "RsubBackward0": _r("z = b - alpha * a", {"alpha": "alpha"}, a="-grad * alpha", b="grad"),
    "RsubBackward1": _r("z = c - alpha * a  (c a number)", {"alpha": "alpha"},
                        a="-grad * alpha"),
    "AddBackward1": _r("z = a + c  (c a number)", a="grad"),
    "SubBackward1": _r("z = a - c  (c a number)", a="grad"),
    "MulBackward0": _r("z = a * b", _AB, a="grad * b", b="grad * a"),
    "MulBackward1": _r("z = a * c  (c a number)", {"c": "other"}, a="grad * c"),
    "DivBackward0": _r("z = a / b", _AB, a="grad / b", b="-grad * ((a / b) / b)"),
    "DivBackward1": _r("z = a / c  (c a number)", {"c": "other"}, a="grad / c"),
    "DivBackward2": _r("z = a.div(b, rounding_mode)  (floor or trunc: piecewise constant)",
                       {"a": "self", "b": "other", "mode": "rounding_mode"},
                       np={"a": "0 * grad if mode else grad / b",
                           "b": "0 * grad if mode else -grad * ((a / b) / b)"},
                       a="zeros_like(grad)  (mode None: grad / b)",
                       b="zeros_like(grad)  (mode None: -grad * ((a / b) / b))"),
    "ReciprocalBackward0": _r("z = 1 / a", _Z, a="-grad * (z * z)"),
    "NegBackward0": _r("z = -a", a="-grad"),
    "PowBackward0": _r("z = a ** p  (p a number)", {"a": "self", "p": "exponent"},
                       np={"a": "grad * p * a ** (p - 1)"},
                       a="grad * (p * a.pow(p - 1))  (zeros_like(a) where p == 0)"),
    "PowBackward1": _r("z = a ** b", {"a": "self", "b": "exponent", "z": "result"},
                       np={"a": "where(b == 0, 0, grad * b * a ** (b - 1))",
                           "b": "grad * where((a == 0) & (b >= 0), 0, z * log(a))"},
                       a="where(b == 0, 0, grad * (b * a.pow(b - 1)))",
                       b="grad * where(a == 0 and b >= 0, 0, z * log(a))"),
    "PowBackward2": _r("z = c ** b  (c a number)", {"c": "self", "z": "result"},
                       np={"b": "grad * z * log(c)"},
                       b="grad * (z * log(c))  (0 where c == 0 and b >= 0)"),
    # ---- elementwise functions
    "ExpBackward0": _r("z = exp(a)", _Z, a="grad * z"),
    "LogBackward0": _r("z = log(a)", _A, a="grad / a"),
    "SqrtBackward0": _r("z = sqrt(a)", _Z, a="grad / (2 * z)"),
    "SinBackward0": _r("z = sin(a)", _A, a="grad * cos(a)"),
    "CosBackward0": _r("z = cos(a)", _A, a="-grad * sin(a)"),
    "AbsBackward0": _r("z = |a|", _A, np={"a": "grad * sgn(a)"}, a="grad * sgn(a)  (0 at NaN)"),
    "ReluBackward0": _r("z = relu(a) = max(a, 0)", _Z, np={"a": "where(z <= 0, 0, grad)"},
                        a="threshold_backward(grad, z, 0) = grad where not z <= 0, else 0"),
    "ThresholdBackwardBackward0": _r("z = threshold_backward(g, a, t) = g where not a <= t",
                                     {"a": "self", "t": "threshold"},
                                     np={"g": "where(a <= t, 0, grad)", "a": "0 * grad"},
                                     g="threshold_backward(grad, a, t)", a="zeros_like(grad)"),
    "SigmoidBackward0": _r("z = sigmoid(a) = 1 / (1 + exp(-a))", _Z,
                           np={"a": "grad * (1 - z) * z"},
                           a="sigmoid_backward(grad, z) = grad * (1 - z) * z"),
    "SigmoidBackwardBackward0": _r("z = sigmoid_backward(g, y) = g * (1 - y) * y",
                                   {"g": "grad_output", "y": "output"},
                                   np={"g": "grad * (1 - y) * y"},
                                   g="sigmoid_backward(grad, y)", y="grad * g * (-2 * y + 1)"),
    "TanhBackward0": _r("z = tanh(a)", _Z, np={"a": "grad * (1 - z**2)"},
                        a="tanh_backward(grad, z) = grad * (1 - z**2)"),
    "TanhBackwardBackward0": _r("z = tanh_backward(g, y) = g * (1 - y**2)",
                                {"g": "grad_output", "y": "output"},
                                np={"g": "grad * (1 - y**2)"},
                                g="tanh_backward(grad, y)", y="grad * (-2 * y * g)"),
    "SoftmaxBackward0": _softmax_like("softmax", "z * (grad - sum(grad * z, dim))"),
    "SoftmaxBackwardDataBackward0": _backward_data(
        "softmax", "y * (g - sum(g * y, dim))", np_g="y * (grad - sum(grad * y, dim))",
        g="softmax_backward_data(grad, y, dim)",
        y="g * grad - sum(y * g, dim) * grad - g * sum(grad * y, dim)"),
    "LogSoftmaxBackward0": _softmax_like("log_softmax", "grad - exp(z) * sum(grad, dim)"),
    "LogSoftmaxBackwardDataBackward0": _backward_data(
        "log_softmax", "g - exp(y) * sum(g, dim)", g="grad - sum(grad * exp(y), dim)",
        y="-sum(g, dim) * exp(y) * grad"),
    "ClampBackward1": _r("z = clamp(a, lo, hi)", {"a": "self", "lo": "min", "hi": "max"},
                         a="grad * inside(a, lo, hi)"),
    "ClampBackward0": _r("z = clamp(a, lo, hi)", {"a": "self", "lo": "min", "hi": "max"},
                         np={"lo": "grad * below(a, lo, hi)", "hi": "grad * above(a, lo, hi)"},
                         a="grad * inside(a, lo, hi)", lo="grad * (a < lo, where lo < hi)",
                         hi="grad * (a > hi or lo > hi)"),
    "ClampMinBackward0": _r("z = max(a, lo)  (lo a number)", {"a": "self", "lo": "min"},
                            a="grad * (a >= lo)"),
    "ClampMinBackward1": _r("z = max(a, lo)", {"a": "self", "lo": "min"},
                            a="grad * (a >= lo)", lo="grad * (a < lo)"),
    "ClampMaxBackward0": _r("z = min(a, hi)  (hi a number)", {"a": "self", "hi": "max"},
                            a="grad * (a <= hi)"),
    "ClampMaxBackward1": _r("z = min(a, hi)", {"a": "self", "hi": "max"},
                            a="grad * (a <= hi)", hi="grad * (a > hi)"),
    "MaximumBackward0": _r("z = maximum(a, b)", _AB, a="grad * ((a > b) + (a == b) / 2)",
                           b="grad * ((b > a) + (a == b) / 2)"),
    "MinimumBackward0": _r("z = minimum(a, b)", _AB, a="grad * ((a < b) + (a == b) / 2)",
                           b="grad * ((b < a) + (a == b) / 2)"),
    "WhereBackward0": _r("z = where(c, a, b)", {"c": "condition"}, a="where(c, grad, 0)",
                         b="where(c, 0, grad)"),
    "MaskedFillBackward0": _r("z = a.masked_fill(mask, number)", {"mask": "mask"},
                              a="where(mask, 0, grad)"),
    "MaskedFillBackward1": _r("z = a.masked_fill(mask, v)", {"mask": "mask"},
                              np={"v": "total(where(mask, grad, 0))"},
                              a="where(mask, 0, grad)", v="grad.masked_select(mask).sum()"),
    "ToCopyBackward0": _r("z = a.to(dtype)", a="grad"),
    "CloneBackward0": _r("z = a.clone()", a="grad"),
    "AliasBackward0": _r("z = a  (a view of the same memory)", a="grad"),
    # ---- reductions
    "SumBackward0": _r("z = a.sum()", _SHAPE, a="expand(grad, shape)"),
    "SumBackward1": _r("z = a.sum(dim, keepdim)", _DIM, a="expand(grad, shape, dim, keepdim)"),
    "MeanBackward0": _r("z = a.mean()", {"shape": "self_sym_sizes", "n": "self_sym_numel"},
                        a="expand(grad, shape) / n"),
    "MeanBackward1": _r("z = a.mean(dim, keepdim)", _DIM,
                        a="expand(grad, shape, dim, keepdim) / count(shape, dim)"),
    "ProdBackward0": _r("z = a.prod()", _AZ, a="grad * z / a"),
    "ProdBackward1": _r("z = a.prod(dim, keepdim)",
                        {"a": "self", "z": "result", "dim": "dim", "keepdim": "keepdim"},
                        a="expand(grad * z, a.shape, dim, keepdim) / a"),
    "LinalgVectorNormBackward0": _r(
        "z = norm(a, p, dim)  (p = 2: the length)",
        {"a": "self", "z": "result", "p": "ord", "dim": "dim", "keepdim": "keepdim"},
        np={"a": "norm_grad(grad, a, z, p, dim, keepdim)"},
        a="expand(grad * z ** (1 - p), a.shape, dim, keepdim) * sign(a) * abs(a) ** (p - 1)"),
    "MaxBackward1": _r("z = a.max()", _AZ, a="grad * (a == z) / total(a == z)"),
    "MinBackward1": _r("z = a.min()", _AZ, a="grad * (a == z) / total(a == z)"),
    "MaxBackward0": _r("(z, i) = a.max(dim)", words=True,
                       a="zeros like a, with grad put at index i along dim"),
    "MinBackward0": _r("(z, i) = a.min(dim)", words=True,
                       a="zeros like a, with grad put at index i along dim"),
    "AmaxBackward0": _r("z = a.amax(dim)", words=True,
                        a="grad shared evenly by the elements of a equal to z"),
    "AminBackward0": _r("z = a.amin(dim)", words=True,
                        a="grad shared evenly by the elements of a equal to z"),
    # ---- shapes and views
    "ViewBackward0": _r("z = a.view(new shape)", _SHAPE, np=_RESHAPE, a=_ROWS),
    "UnsafeViewBackward0": _r("z = a.reshape(new shape)", _SHAPE, np=_RESHAPE, a=_ROWS),
    "ReshapeAliasBackward0": _r("z = a.reshape(new shape)", _SHAPE, np=_RESHAPE, a=_ROWS),
    "SqueezeBackward0": _r("z = a.squeeze()", _SHAPE, np=_RESHAPE, a=_ROWS),
    "SqueezeBackward1": _r("z = a.squeeze(dim)", _SHAPE, np=_RESHAPE, a=_ROWS),
    "SqueezeBackward2": _r("z = a.squeeze(dims)", _SHAPE, np=_RESHAPE, a=_ROWS),
    "SqueezeBackward3": _r("a.squeeze_()  (in place)", _SHAPE, np=_RESHAPE, a=_ROWS),
    "SqueezeBackward4": _r("a.squeeze_(dim)  (in place)", _SHAPE, np=_RESHAPE, a=_ROWS),
    "SqueezeBackward5": _r("a.squeeze_(dims)  (in place)", _SHAPE, np=_RESHAPE, a=_ROWS),
    "UnsqueezeBackward0": _r("z = a.unsqueeze(dim)", {"dim": "dim"},
                             np={"a": "squeeze(grad, dim)"}, a="grad.squeeze(dim)"),
    "UnsqueezeBackward1": _r("a.unsqueeze_(dim)  (in place)", {"dim": "dim"},
                             np={"a": "squeeze(grad, dim)"}, a="grad.squeeze(dim)"),
    "ExpandBackward0": _r("z = a.expand(sizes)", _SHAPE, np={"a": "sum_to(grad, shape)"},
                          a="grad summed back to a's shape"),
    "TransposeBackward0": _r("z = a.transpose(d0, d1)", {"d0": "dim0", "d1": "dim1"},
                             np={"a": "swapaxes(grad, d0, d1)"}, a="grad.transpose(d0, d1)"),
    "TransposeBackward1": _r("a.transpose_(d0, d1)  (in place)", {"d0": "dim0", "d1": "dim1"},
                             np={"a": "swapaxes(grad, d0, d1)"}, a="grad.transpose(d0, d1)"),
    "PermuteBackward0": _r("z = a.permute(dims)", {"dims": "dims"},
                           np={"a": "transpose(grad, argsort(dims))"},
                           a="grad.permute(the inverse of dims)"),
    "TBackward0": _r("z = a.t()", np={"a": "grad.T"}, a="grad.t()"),
    "TBackward1": _r("a.t_()  (in place)", np={"a": "grad.T"}, a="grad.t()"),
    "SelectBackward0": _r("z = a.select(dim, index)", words=True,
                          a="zeros like a, with grad put at index along dim"),
    "SliceBackward0": _r("z = a[start:end:step] along dim", words=True,
                         a="zeros like a, with grad put in the slice"),
    "SelectBackwardBackward0": _r("z = grad_a of a select, put into zeros", words=True,
                                  a="grad.select(dim, index)"),
    "SliceBackwardBackward0": _r("z = grad_a of a slice, put into zeros", words=True,
                                 a="grad[start:end:step] along dim"),
    "IndexBackward0": _r("z = a[indices]", words=True,
                         a="zeros like a, with grad added where a[indices] was taken"),
    "IndexPutBackward0": _r("z = a with v put at indices", words=True,
                            a="grad, with zeros at indices (unless accumulate)",
                            v="grad[indices]"),
    "IndexPutImplBackward0": _r("z = a with v added at indices", words=True,
                                a="grad, with zeros at indices (unless accumulate)",
                                v="grad[indices]"),
    "AsStridedBackward0": _r("z = as_strided(a, size, stride, offset)", words=True,
                             a="grad added back to the memory each element was read from"),
    "torch::autograd::CopySlices": _r("a[view] = f(a[view], ...)  (in place on a view)", words=True,
                     a="grad outside the view; inside it, what f's backward sends",
                     **{"*": "what f's backward sends to its other inputs"}),
    # ---- in-place fills and copies
    "ZeroBackward0": _r("a.zero_()", a="0"),
    "FillBackward2": _r("a.fill_(number)", a="0"),
    "FillBackward3": _r("a.fill_(v)", np={"a": "0 * grad"}, a="0", v="total(grad)"),
    "torch::autograd::CopyBackwards": _r("a.copy_(b)", np={"a": "0 * grad"}, a="0", b="grad"),
    # ---- joining and splitting
    "CatBackward0": _r("z = cat([a0, a1, ...], dim)", words=True,
                       **{"*": "the slice of grad where that input sits"}),
    "StackBackward0": _r("z = stack([a0, a1, ...], dim)", words=True,
                         **{"*": "grad.select(dim, i) for input i"}),
    "SplitBackward0": _r("(z0, z1, ...) = a.split(size, dim)", words=True,
                         a="cat([grad_0, grad_1, ...], dim)  (zeros for a missing one)"),
    "SplitWithSizesBackward0": _r("(z0, z1, ...) = a.split(sizes, dim)", words=True,
                                  a="cat([grad_0, grad_1, ...], dim)  (zeros for a missing one)"),
    "UnbindBackward0": _r("(z0, z1, ...) = a.unbind(dim)", words=True,
                          a="stack([grad_0, grad_1, ...], dim)  (zeros for a missing one)"),
    # ---- matrix products
    "DotBackward0": _r("z = a · b", {"a": "self", "b": "tensor"}, a="grad * b", b="grad * a"),
    "MvBackward0": _r("z = A @ v", {"A": "self", "v": "vec"}, A="outer(grad, v)",
                      v="A.T @ grad"),
    "MmBackward0": _r("z = A @ B", {"A": "self", "B": "mat2"}, A="grad @ B.T", B="A.T @ grad"),
    "BmmBackward0": _r("z = A @ B  (per batch)", {"A": "self", "B": "mat2"},
                       np={"A": "grad @ mT(B)", "B": "mT(A) @ grad"},
                       A="grad @ B.mT", B="A.mT @ grad"),
    "AddmmBackward0": _r("z = beta * c + alpha * (A @ B)",
                         {"A": "mat1", "B": "mat2", "alpha": "alpha", "beta": "beta"},
                         c="beta * grad", A="alpha * grad @ B.T", B="alpha * A.T @ grad"),
    # ---- losses
    "MseLossBackward0": _r("loss = mean((a - t)**2)  (or sum, with reduction='sum')",
                           {"a": "self", "t": "target", "reduction": "reduction"},
                           np={"a": "grad * 2 * (a - t) / (a.size if reduction == 1 else 1)",
                               "t": "-grad * 2 * (a - t) / (a.size if reduction == 1 else 1)"},
                           a="grad * 2 * (a - t) / n", t="-grad * 2 * (a - t) / n"),
    "NllLossBackward0": _r("loss = -mean_i(w[t_i] * a[i, t_i])", words=True,
                           a="zeros like a, with -grad * w[t_i] / total weight at [i, t_i]",
                           **{"*": "None (targets and weights get no gradient)"}),
    "NllLoss2DBackward0": _r("loss = -mean_ij(w[t_ij] * a[i, t_ij, j])", words=True,
                             a="zeros like a, with -grad * w[t] / total weight at each target",
                             **{"*": "None (targets and weights get no gradient)"}),
    # ---- the engine's own nodes
    "torch::autograd::AccumulateGrad": _r("x  (a leaf tensor)", words=True,
                                          x="x.grad + grad  (x.grad = grad the first time)"),
    "torch::autograd::GraphRoot": _r("backward() of several outputs", words=True,
                                     **{"*": "the gradient given for that output"}),
    "torch::autograd::Error": _r("a gradient that cannot be differentiated again", words=True,
                                 **{"*": "raises an error if reached"}),
}
RULES.update(MORE)  # the rest of the table, by op family: derivatives_more.py
RULES.update(NN)  # and derivatives_nn.py
RULES.update(LAYERS)  # and derivatives_layers.py

#: The rule shown for the node of a custom ``Function``: its own ``backward``.
CUSTOM = _r("z = YourFunction.forward(ctx, ...)", words=True,
            **{"*": "your backward(ctx, grad) returns it"})


def rule_for(node) -> Rule | None:
    """The rule of a graph node (minigrad's or PyTorch's) by its name; ``CUSTOM`` for a custom
    ``Function``'s node; None for a name the table does not know."""
    if hasattr(node, "_forward_cls"):
        return CUSTOM
    return RULES.get(node.name())


# ---------------------------------------------------------------- evaluating a rule with NumPy
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


_FUNCTIONS = {
    "exp": np.exp, "log": np.log, "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos,
    "sign": np.sign, "abs": np.abs, "sgn": lambda a: np.nan_to_num(np.sign(a)),
    "where": np.where, "outer": np.outer, "reshape": np.reshape,
    "squeeze": np.squeeze, "swapaxes": np.swapaxes, "transpose": np.transpose,
    "argsort": np.argsort, "total": np.sum, "expand": _expand, "count": _count,
    "sum_to": sum_to, "inside": _inside, "norm_grad": _norm_grad, "below": _below,
    "above": _above, "mT": lambda m: np.swapaxes(m, -1, -2),
    "sum": lambda g, dim: np.sum(g, axis=dim, keepdims=True),
    **HELPERS, **NN_HELPERS, **LAYER_HELPERS,
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
    scope = dict(_FUNCTIONS)
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


# ---------------------------------------------------------------- docstrings
def node_classes() -> list:
    """Every built-in node class of minigrad (custom Functions' node classes and private base
    classes such as ``_Binary`` excluded)."""
    from .graph import Node

    seen, stack = {}, [Node]
    while stack:
        for sub in stack.pop().__subclasses__():
            if sub not in seen:
                seen[sub] = None
                stack.append(sub)
    return [c for c in seen if not (c._custom and "_forward_cls" in c.__dict__)
            and not class_name(c).startswith("_")]  # a private base (_Unary): not a node type


def class_name(cls) -> str:
    """The name a node of class ``cls`` gives itself (``name()``), without making one."""
    node = object.__new__(cls)
    try:
        return node.name()
    except Exception:  # noqa: BLE001 - a name() that needs state: the class name it is
        return cls.__name__


def document_nodes() -> None:
    """Make each node class's docstring from its rule (the first paragraph it had is replaced,
    the rest kept). Called once, by ``import minigrad``."""
    for cls in node_classes():
        rule = CUSTOM if cls.__dict__.get("_custom") else RULES.get(class_name(cls))
        if rule is None:
            continue
        doc = (cls.__dict__.get("__doc__") or "").strip()
        rest = textwrap.dedent(doc.partition("\n\n")[2])
        lines = [f"Backward of ``{rule.forward}``: the chain rule for each input.", ""]
        lines += ["    " + line for line in rule.lines()[1:]]
        if rule.symbols:
            lines += ["", "Symbols: " + ", ".join(f"``{k}`` is ``_saved_{v}``"
                                                  for k, v in rule.symbols.items()) + "."]
        lines += ["", "(From ``minigrad.autograd.derivatives.RULES``.)"]
        cls.__doc__ = "\n".join(lines + (["", rest] if rest else []))
