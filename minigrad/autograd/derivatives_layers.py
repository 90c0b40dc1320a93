"""The table of local rules, continued (see :mod:`minigrad.autograd.derivatives`): the layers
of a first CNN (convolution, pooling, padding, batch normalisation) and the activation
functions beyond relu/sigmoid/tanh (leaky_relu, elu, celu, gelu, silu, softplus, hardtanh,
logsigmoid, mish, hardswish, hardsigmoid, threshold).

The activations' rules are NumPy expressions (the stepper evaluates them); the layers' are
words: what goes where.

``LAYERS`` is merged into ``RULES``; ``HELPERS`` are the NumPy functions its rules use.

>>> LAYERS["LeakyReluBackward0"].grads["a"]
'grad * where(a > 0, 1, slope)'
>>> float(HELPERS["Phi"](np.array(0.0)))
0.5
"""

from __future__ import annotations

import math

import numpy as np

from ._rule import _r

__all__ = ["LAYERS", "HELPERS"]

_A = {"a": "self"}
_IN_PLACE = "  (in place: z, kept, is a's new value)"
_POOL = {"a": "self", "kernel_size": "kernel_size", "stride": "stride", "padding": "padding"}
_SECOND = "  (the gradient of {} as an op; linear in g)"

LAYERS = {
    # ---- convolution and padding
    "ConvolutionBackward0": _r(
        "z = conv(a, w) + b  (each filter of w slid over a, padded, with stride, dilation and "
        "groups)",
        {"a": "input", "w": "weight", "stride": "stride", "padding": "padding",
         "dilation": "dilation", "groups": "groups"}, words=True,
        a="each window's share grad * w, added back where the window was read (a transposed "
          "convolution of grad with w)",
        w="grad dotted with the windows of a it came from (a convolution of a with grad)",
        b="grad summed over the batch and every position"),
    "ConvolutionBackwardBackward0": _r(
        "z = (grad_a, grad_w, grad_b) of conv, computed from (g, a, w)"
        + _SECOND.format("conv's backward"),
        {"g": "grad_output", "a": "input", "w": "weight"}, words=True,
        g="conv(gg_a, w) + conv(a, gg_w) + gg_b", a="conv's grad_a of (g, gg_w)",
        w="conv's grad_w of (gg_a, g)"),
    "ConstantPadNdBackward0": _r(
        "z = pad(a, pad)  (zeros around a's last dimensions)", {"pad": "pad"}, words=True,
        a="grad with the padding cut off again"),
    # ---- pooling
    "MaxPool2DWithIndicesBackward0": _r(
        "z = the largest element of each window of a  (indices: where each was)",
        dict(_POOL, indices="result1", dilation="dilation"), words=True,
        a="zeros like a, with each window's grad added at its largest element (at indices)"),
    "MaxPool2DWithIndicesBackwardBackward0": _r(
        "z = max_pool2d_backward(g, a, indices)" + _SECOND.format("max pooling"),
        {"indices": "indices"}, words=True, g="grad read at the indices", a="zeros_like(a)"),
    "AvgPool2DBackward0": _r(
        "z = the mean of each window of a  (divided by the window's size, or divisor_override)",
        dict(_POOL, divisor_override="divisor_override"), words=True,
        a="each window's grad / its divisor, added to every element of the window"),
    "AvgPool2DBackwardBackward0": _r(
        "z = avg_pool2d_backward(g, a)" + _SECOND.format("average pooling"), words=True,
        g="avg_pool2d(grad) with the same arguments", a="zeros_like(a)"),
    "AdaptiveAvgPool2DBackward0": _r(
        "z = the mean of each of out_h x out_w regions of a", _A, words=True,
        a="each region's grad / its size, added to every element of the region"),
    "AdaptiveAvgPool2DBackwardBackward0": _r(
        "z = adaptive_avg_pool2d_backward(g, a)" + _SECOND.format("adaptive pooling"),
        words=True, g="adaptive_avg_pool2d(grad) to the same size", a="zeros_like(a)"),
    # ---- batch normalisation
    "NativeBatchNormBackward0": _r(
        "z = xhat * w + b,  xhat = (a - mean) * invstd per channel  (training: the batch's "
        "mean and invstd = 1 / sqrt(var + eps); eval: the running ones)",
        {"a": "input", "w": "weight", "mean": "result1", "invstd": "result2", "eps": "eps",
         "training": "training"}, words=True,
        a="training: invstd * (gw - mean(gw) - xhat * mean(gw * xhat)), gw = grad * w; eval: "
          "grad * w * invstd  (means over every dimension but the channels)",
        w="sum of grad * xhat over every dimension but the channels",
        b="sum of grad over every dimension but the channels"),
    "NativeBatchNormBackwardBackward0": _r(
        "z = (grad_a, grad_w, grad_b) of batch norm, computed from (g, a, w)  (its gradient "
        "as an op)", {"g": "grad_out", "a": "input", "w": "weight"}, words=True,
        g="the three gradients' own gradient with respect to g",
        a="... with respect to a (the batch's mean and invstd depend on a too)",
        w="... with respect to w", save_mean="None", save_invstd="None"),
    "NativeGroupNormBackward0": _r(
        "z = xhat * w + b,  xhat = (a - mean) * rstd over each sample's group of channels",
        {"a": "input", "w": "weight", "mean": "result1", "rstd": "result2", "groups": "group"},
        words=True,
        a="rstd * (gw - mean(gw) - xhat * mean(gw * xhat)) per group, gw = grad * w",
        w="sum of grad * xhat over samples and positions",
        b="sum of grad over samples and positions"),
    # ---- activations
    "LeakyReluBackward0": _r("z = where(a > 0, a, a * slope)",
                             {"a": "self", "slope": "negative_slope"},
                             a="grad * where(a > 0, 1, slope)"),
    "LeakyReluBackward1": _r("z = leaky_relu_(a, slope)" + _IN_PLACE,
                             {"z": "result", "slope": "negative_slope"},
                             a="grad * where(z > 0, 1, slope)"),
    "EluBackward0": _r("z = where(a > 0, s * a, s * alpha * (exp(a * i) - 1))  (s: scale, "
                       "i: input_scale)",
                       {"a": "self", "alpha": "alpha", "s": "scale", "i": "input_scale"},
                       a="grad * where(a > 0, s, s * alpha * i * exp(a * i))"),
    "EluBackward1": _r("z = elu_(a, alpha, s, i)" + _IN_PLACE,
                       {"z": "result", "alpha": "alpha", "s": "scale", "i": "input_scale"},
                       a="grad * where(z > 0, s, i * (z + alpha * s))"),
    "CeluBackward0": _r("z = where(a > 0, a, alpha * (exp(a / alpha) - 1))",
                        {"a": "self", "alpha": "alpha"},
                        a="grad * where(a > 0, 1, exp(a / alpha))"),
    "CeluBackward1": _r("z = celu_(a, alpha)" + _IN_PLACE, {"z": "result", "alpha": "alpha"},
                        a="grad * where(z > 0, 1, z / alpha + 1)"),
    "GeluBackward0": _r("z = gelu(a, approximate)  (a * Phi(a), Phi: the standard normal "
                        "CDF; approximate='tanh': a * 0.5 * (1 + tanh(sqrt(2 / pi) * "
                        "(a + 0.044715 * a**3))))",
                        {"a": "self", "approximate": "approximate"},
                        np={"a": "grad * gelu_slope(a, approximate)"},
                        a="grad * (Phi(a) + a * phi(a))  (phi: the normal density)"),
    "SiluBackward0": _r("z = a * sigmoid(a)", _A,
                        a="grad * sigmoid(a) * (1 + a * (1 - sigmoid(a)))"),
    "SoftplusBackward0": _r("z = where(a * beta > threshold, a, log(1 + exp(a * beta)) / beta)",
                            {"a": "self", "beta": "beta", "threshold": "threshold"},
                            a="grad * where(a * beta > threshold, 1, sigmoid(a * beta))"),
    "HardtanhBackward0": _r("z = clamp(a, lo, hi)", {"a": "self", "lo": "min_val",
                                                     "hi": "max_val"},
                            a="grad * ((a > lo) & (a < hi))"),
    "LogSigmoidBackward0": _r("z = -log(1 + exp(-a))", _A, a="grad * sigmoid(-a)"),
    "MishBackward0": _r("z = a * tanh(softplus(a))", _A,
                        a="grad * (tanh(softplus(a)) + a * sigmoid(a) * "
                          "(1 - tanh(softplus(a)) ** 2))"),
    "HardswishBackward0": _r("z = a * clamp(a + 3, 0, 6) / 6", _A,
                             a="grad * where(a < -3, 0, where(a <= 3, a / 3 + 0.5, 1))"),
    # ---- the activations' gradients as ops (create_graph=True)
    **{name: _r(f"z = {op}_backward(g, a)  (= g * slope(a), the gradient of {op})",
                words=True, g="grad * slope(a)",
                a="grad * g * slope'(a)" if smooth else "0  (the slope is flat)")
       for name, op, smooth in (
           ("LeakyReluBackwardBackward0", "leaky_relu", False),
           ("HardtanhBackwardBackward0", "hardtanh", False),
           ("ThresholdBackwardBackward0", "threshold", False),
           ("EluBackwardBackward0", "elu", True), ("GeluBackwardBackward0", "gelu", True),
           ("SoftplusBackwardBackward0", "softplus", True),
           ("LogSigmoidBackwardBackward0", "log_sigmoid", True),
           ("HardswishBackwardBackward0", "hardswish", True))},
    "ThresholdBackward0": _r("z = where(a > threshold, a, value)",
                             {"a": "self", "threshold": "threshold"},
                             a="grad * (a > threshold)"),
    "PreluKernelBackward0": _r("z = where(a > 0, a, w * a)", {"a": "self", "w": "weight"},
                               a="grad * where(a > 0, 1, w)", w="grad * where(a > 0, 0, a)"),
    "PreluKernelBackwardBackward0": _r(
        "z = (grad_a, grad_w) of prelu, computed from (g, a, w)  (its gradient as an op)",
        {"g": "grad_output", "a": "self", "w": "weight"}, words=True,
        g="grad_a's and grad_w's own gradient with respect to g", a="... with respect to a",
        w="... with respect to w"),
    "HardsigmoidBackward0": _r("z = clamp(a / 6 + 0.5, 0, 1)", _A,
                               a="grad * ((a > -3) & (a < 3)) / 6"),
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


HELPERS = {"tanh": np.tanh, "Phi": _phi_cdf, "gelu": _gelu, "gelu_slope": _gelu_slope}
