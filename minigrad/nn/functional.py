"""``nn.functional``: the layers and losses as plain functions (``import ... as F``).

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> logits = torch.tensor([[2., 0., -1.]], requires_grad=True)
>>> loss = F.cross_entropy(logits, torch.tensor([0]))
>>> loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name()
('NllLossBackward0', 'LogSoftmaxBackward0')
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import _sampling
from .._creation import default_generator
from .._dtype import float32
from .._ops import activation as _activation
from .._ops import arithmetic as _arith
from .._ops._core import broadcast_error
from .._ops.errors import cant_cast
from .._tensor import Tensor
from . import (
    _activation_grads,  # noqa: F401  (the activations' second-order nodes)
    _conv,
)
from . import _loss_nodes as _loss
from ._activation_functions import (
    celu,
    elu,
    elu_,
    gelu,
    hardsigmoid,
    hardswish,
    hardtanh,
    hardtanh_,
    leaky_relu,
    leaky_relu_,
    logsigmoid,
    mish,
    relu6,
    selu,
    silu,
    softmin,
    softplus,
    softsign,
    tanhshrink,
    threshold,
)
from ._groupnorm import group_norm
from ._loss_nodes import reduction_enum
from ._nll_checks import check_nll_args as _check_nll_args
from ._norms_embeddings_losses import (  # (they call _broadcast, defined below, lazily)
    batch_norm,
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    embedding,
    huber_loss,
    l1_loss,
    layer_norm,
    normalize,
    one_hot,
    smooth_l1_loss,
)
from ._padding import pad
from ._pooling import adaptive_avg_pool2d, avg_pool2d
from ._pooling import max_pool2d as _max_pool2d
from ._pooling1d import adaptive_avg_pool1d, avg_pool1d, max_pool1d
from ._prelu import prelu

__all__ = ["relu", "tanh", "sigmoid", "softmax", "log_softmax", "dropout", "linear",
           "mse_loss", "nll_loss", "cross_entropy", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "huber_loss", "smooth_l1_loss", "l1_loss",
           "embedding", "layer_norm", "batch_norm", "one_hot", "conv1d", "conv2d", "conv3d",
           "max_pool2d", "max_pool2d_with_indices", "avg_pool2d", "adaptive_avg_pool2d", "pad",
           "dropout2d", "leaky_relu", "leaky_relu_", "elu", "elu_", "selu", "celu", "gelu",
           "silu", "softplus", "hardtanh", "hardtanh_", "relu6", "logsigmoid", "softmin",
           "mish", "hardswish", "hardsigmoid", "threshold", "softsign", "tanhshrink",
           "max_pool1d", "avg_pool1d", "adaptive_avg_pool1d", "dropout1d", "prelu", "normalize",
           "group_norm"]


# ---------------------------------------------------------------- activations
def _not_tensor(name: str, input) -> TypeError:
    """PyTorch's error for an ``input`` that is no tensor (callers test ``isinstance`` inline:
    it runs at every step)."""
    return TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                     f"{type(input).__name__}")


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(input, 0)`` elementwise."""
    if not isinstance(input, Tensor):
        raise _not_tensor("relu", input)
    return input.relu_() if inplace else input.relu()


def tanh(input: Tensor) -> Tensor:
    return input.tanh()


def sigmoid(input: Tensor) -> Tensor:
    return input.sigmoid()


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """``exp(x) / exp(x).sum(dim)``: each slice along ``dim`` becomes probabilities."""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim, dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype=None) -> Tensor:
    """``log(softmax(x, dim))``, computed without overflow."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim, dtype)


def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``.

    Only while ``training``; otherwise ``input`` itself is returned. As on PyTorch's CPU, it
    is recorded as a multiplication by the (scaled) mask, ``MulBackward0``.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    d = input._data
    if d.dtype.kind != "f":
        raise cant_cast(float32, input.dtype)
    if p == 1:
        mask = np.zeros((), d.dtype)
    else:
        keep = _sampling.bernoulli_scalar(default_generator, d.size, 1 - p).reshape(d.shape)
        mask = keep.astype(d.dtype) / d.dtype.type(1 - p)
    mask = Tensor._wrap(mask)
    return input.mul_(mask) if inplace else input * mask


# ---------------------------------------------------------------- linear
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``, recorded as PyTorch records it.

    With a bias and a 2-D input: ``addmm(bias, input, weight.t())`` (``AddmmBackward0``); with
    a contiguous bias of one dimension (after squeezing) and a contiguous input: the input
    flattened to 2-D first and the result shaped back (``ViewBackward0``). Otherwise
    ``input.matmul(weight.t())``, and the bias added in place (``AddBackward0``; the result
    keeps the product's dtype).
    """
    if not isinstance(input, Tensor):
        raise _not_tensor("linear", input)
    if input._data.ndim == 0 or weight._data.ndim == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are "
                           f"{input._data.ndim}D and {weight._data.ndim}D")
    if bias is not None and input._data.ndim == 2:
        return bias.addmm(input, weight.t())
    if bias is not None and _fusable(bias) and input.is_contiguous():
        shape = input._data.shape
        out = bias.addmm(input.reshape(int(np.prod(shape[:-1])), shape[-1]), weight.t())
        return out.view(shape[:-1] + (out._data.shape[-1],))
    out = input.matmul(weight.t())
    return out if bias is None else out.add_(bias)


def _fusable(bias: Tensor) -> bool:
    """PyTorch's test of a bias for linear's ``addmm``: contiguous, 1-D (or once squeezed)."""
    return (bias._data.ndim == 1 or sum(n != 1 for n in bias._data.shape) == 1) and \
        bias.is_contiguous()


# ---------------------------------------------------------------- losses
def mse_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
             reduction: str = "mean", weight: Tensor | None = None) -> Tensor:
    """Mean squared error ``((input - target)**2).mean()`` (or its sum, or per element)."""
    if input.size() != target.size():
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.", UserWarning, stacklevel=2)
    code = reduction_enum(size_average, reduce, reduction)
    if input.shape != target.shape:
        input, target = _broadcast(input, target)
    if weight is not None:
        return _weighted_mse(input, target, weight, code)
    return _loss.mse_loss(input, target, code)


def _broadcast(a: Tensor, b: Tensor):
    """Both tensors expanded to their common shape (``ExpandBackward0`` where recorded)."""
    try:
        shape = np.broadcast_shapes(a._data.shape, b._data.shape)
    except ValueError:
        raise broadcast_error(a, b) from None
    return (a if a._data.shape == shape else a.expand(shape),
            b if b._data.shape == shape else b.expand(shape))


def _weighted_mse(input, target, weight, code):
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    weighted = (input - target) ** 2 * weight
    if code == 0:
        return weighted
    if code == 2:
        return weighted.sum()
    return weighted.sum() / weight.sum()


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
             ignore_index: int = -100, reduce=None, reduction: str = "mean") -> Tensor:
    """Negative log-likelihood: ``-input[i, target[i]]`` averaged over the samples.

    ``input`` holds log-probabilities, shape (N, C) (or (C,), or (N, C, d1, ...)); ``target``
    holds class indices. Samples whose target is ``ignore_index`` do not count.
    """
    code = reduction_enum(size_average, reduce, reduction)
    _check_nll_args(input, target, weight)
    return _loss.nll_loss(input, target, weight, ignore_index, code)


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  size_average=None, ignore_index: int = -100, reduce=None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Cross-entropy of raw scores ``input`` against class indices (or class probabilities).

    For class indices it is ``nll_loss(log_softmax(input, 1), target)``, as in PyTorch;
    ``label_smoothing`` mixes in the loss against the uniform distribution over classes.
    """
    if not isinstance(input, Tensor):
        raise _not_tensor("cross_entropy_loss", input)
    code = reduction_enum(size_average, reduce, reduction)
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input._data.ndim == 1 else 1
    if target._data.shape == input._data.shape:  # class probabilities
        if target._data.dtype.kind != "f":
            raise RuntimeError("Expected floating point type for target with class "
                               f"probabilities, got {target.dtype._legacy_name[:-6]}")
        if input._data.ndim == 0:
            raise IndexError("Dimension specified as 1 but tensor has no dimensions")
        if label_smoothing > 0:
            n_classes = input._data.shape[class_dim]
            target = target * (1 - label_smoothing) + label_smoothing / n_classes
        return _cross_entropy_probs(input.log_softmax(class_dim), target, weight, code,
                                    class_dim)
    logp = _activation.log_softmax(input, class_dim)  # (class_dim is valid: no argument checks)
    _check_nll_args(input, target, weight)
    loss = _loss.nll_loss(logp, target, weight, ignore_index, code)
    if label_smoothing > 0:
        return _smoothed(loss, logp, target, weight, ignore_index, code, class_dim,
                         label_smoothing)
    return loss


def _class_shaped(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    """``weight`` (one value per class) shaped to broadcast along ``class_dim``."""
    shape = [1] * ndim
    shape[class_dim] = -1
    return weight.reshape(shape)


def _smoothed(loss, logp, target, weight, ignore_index, code, class_dim, smoothing):
    """``(1 - s) * loss + s / C * (the loss against uniform class probabilities)``."""
    n_classes = logp._data.shape[class_dim]
    ignored = target._data == ignore_index
    if weight is not None:
        logp = logp * _class_shaped(weight, logp.dim(), class_dim)
    uniform = -logp.sum(class_dim)
    uniform.masked_fill_(Tensor._wrap(ignored), 0.0)
    if code == 1:  # averaged over the samples that count
        if weight is None:
            count = np.asarray(np.count_nonzero(~ignored))
        else:
            count = np.asarray(weight._data[target._data[~ignored]].sum())
        uniform = uniform.sum() / Tensor._wrap(count)
    elif code == 2:
        uniform = uniform.sum()
    return _arith.mul_by_number(loss, 1 - smoothing) + \
        _arith.mul_by_number(uniform, smoothing / n_classes)


def _cross_entropy_probs(logp, target, weight, code, class_dim):
    """Cross-entropy against class probabilities: ``-(logp * target).sum(class_dim)``."""
    prod = logp * target
    if weight is not None:
        prod = prod * _class_shaped(weight, logp.dim(), class_dim)
    if code == 0:
        return -prod.sum(class_dim)
    if code == 1 and logp._data.size == 0:  # PyTorch: NaN, as -(sum().fill_(nan))
        return -prod.sum().fill_(float("nan"))
    total = -prod.sum()
    if code == 2:
        return total
    return _arith.div_by_number(total, logp._data.size // logp._data.shape[class_dim])



# ---------------------------------------------------------------- convolution and pooling
def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """Slide each filter of ``weight`` (out, in / groups, k) along (N, in, L) ``input``."""
    return _conv.conv(1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """Slide each filter of ``weight`` (out, in / groups, kh, kw) over (N, in, H, W)
    ``input``; one ``ConvolutionBackward0`` node."""
    return _conv.conv(2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """The 3-D convolution: (N, in, D, H, W) input, (out, in / groups, kd, kh, kw) filters."""
    return _conv.conv(3, input, weight, bias, stride, padding, dilation, groups)


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """The largest element of each window (with ``return_indices``: and where it was)."""
    return _max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool2d_with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode: bool = False, return_indices: bool = True):
    return _max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels (each with probability ``p``) and scale the rest by 1 / (1 - p):
    ``input * mask``, the mask of shape (N, C, 1, 1) drawn as PyTorch draws it."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    dims = input.dim()
    if dims not in (3, 4):
        warnings.warn(f"dropout2d: Received a {dims}-D input to dropout2d, which is deprecated "
                      "and will result in an error in a future release. To retain the behavior "
                      "and silence this warning, please use dropout instead. Note that dropout2d "
                      "exists to provide channel-wise dropout on inputs with 2 spatial "
                      "dimensions, a channel dimension, and an optional batch dimension (i.e. "
                      "3D or 4D inputs).", UserWarning, stacklevel=2)
    if dims == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that "
                      "channel-wise 1D dropout behavior is desired - input is interpreted as "
                      "shape (N, C, L), where C is the channel dim. This behavior will change in "
                      "a future release to interpret the input as one without a batch "
                      "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout "
                      "behavior, please switch to using dropout1d instead.", UserWarning,
                      stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, L) or (C, L) input, each with probability ``p``."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.dim() not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D "
                           "input. Note that dropout1d exists to provide channel-wise dropout on "
                           "inputs with 1 spatial dimension, a channel dimension, and an optional "
                           "batch dimension (i.e. 2D or 3D inputs).")
    if input.dim() == 3:
        return _feature_dropout(input, p, training, inplace)
    batched = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    out = _feature_dropout(batched, p, training, inplace)
    return out.squeeze_(0) if inplace else out.squeeze(0)


def _feature_dropout(input: Tensor, p: float, training: bool, inplace: bool) -> Tensor:
    """``input * mask``, the mask (N, C, 1, ...) drawn as PyTorch's feature dropout draws it."""
    if not training or p == 0:
        return input
    d = input._data
    if d.dtype.kind != "f":
        raise cant_cast(float32, input.dtype)
    shape = d.shape[:2] + (1,) * (d.ndim - 2)
    if p == 1:
        mask = np.zeros(shape, d.dtype)
    else:
        n = int(np.prod(shape))
        keep = _sampling.bernoulli_scalar(default_generator, n, 1 - p).reshape(shape)
        mask = keep.astype(d.dtype) / d.dtype.type(1 - p)
    mask = Tensor._wrap(mask)
    return input.mul_(mask) if inplace else input * mask
