"""Normalisation, embeddings and more losses of ``nn.functional``: binary cross-entropy,
Huber/smooth L1, embedding, layer and batch normalisation (batch_norm: from ``_batchnorm``).
Imported into ``nn.functional``; the loss nodes live in ``_bce_huber_losses``.

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> x = torch.tensor([0.5, -1.0], requires_grad=True)
>>> F.binary_cross_entropy_with_logits(x, torch.tensor([1., 0.]))
tensor(0.3937, grad_fn=<BinaryCrossEntropyWithLogitsBackward0>)
"""

from __future__ import annotations

import warnings

import numpy as np

from .._ops import _formula as F
from .._ops.errors import cant_cast, not_implemented
from .._ops.movement import _infer_size
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.grad_mode import no_grad
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import INFERENCE_MESSAGE, check_saved
from . import _bce_huber_losses as _more
from ._batchnorm import batch_norm
from ._layer_norm import layer_norm
from ._loss_nodes import _UINT64, reduction_enum

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "huber_loss",
           "smooth_l1_loss", "l1_loss", "embedding", "layer_norm", "batch_norm", "one_hot",
           "normalize"]



def binary_cross_entropy(input: Tensor, target: Tensor, weight=None, size_average=None,
                         reduce=None, reduction: str = "mean") -> Tensor:
    """``-(t log x + (1 - t) log(1 - x))`` for probabilities ``x`` (logs clamped at -100)."""
    code = reduction_enum(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input "
                         f"size ({input.shape}) is deprecated. Please ensure they have the same "
                         "size.")
    if target.dtype != input.dtype:
        raise RuntimeError(f"Found dtype {target.dtype._cpp} but expected "
                           f"{input.dtype._cpp}")
    return _more.binary_cross_entropy(input, target, weight, code)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight=None,
                                     size_average=None, reduce=None, reduction: str = "mean",
                                     pos_weight=None) -> Tensor:
    """``binary_cross_entropy(sigmoid(x), t)``, computed stably from the logits ``x``."""
    code = reduction_enum(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    saved = (input, target, weight, pos_weight)  # (saved by autograd before the kernel runs)
    if should_record(*saved) and any(t is not None and t.is_inference() for t in saved):
        raise RuntimeError(INFERENCE_MESSAGE)
    if not input.dtype.is_floating_point:
        raise not_implemented("log_sigmoid_cpu", input.dtype)
    if target.dtype.name == "bool":
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if not target.dtype.is_floating_point:
        raise cant_cast(input.dtype, target.dtype)
    return _more.binary_cross_entropy_with_logits(input, target, weight, code, pos_weight)


def _same_size(input: Tensor, target: Tensor):
    if input.shape != target.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({input.shape}). This will likely lead to incorrect results due to "
                      "broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=3)
        from .functional import _broadcast

        return _broadcast(input, target)
    return input, target


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight=None) -> Tensor:
    """Squared error for small differences (below ``delta``), absolute error beyond."""
    code = reduction_enum(None, None, reduction)
    input, target = _same_size(input, target)
    return _more.huber_loss(input, target, code, delta)


def smooth_l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                   reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """Huber loss divided by ``beta``: squared error below ``beta``, absolute error beyond."""
    code = reduction_enum(size_average, reduce, reduction)
    if beta == 0.0:  # PyTorch then computes the L1 loss (and records its nodes)
        return l1_loss(input, target, reduction=reduction)
    input, target = _same_size(input, target)
    return _more.smooth_l1_loss(input, target, code, beta)


def l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
            reduction: str = "mean") -> Tensor:
    """Mean absolute error."""
    code = reduction_enum(size_average, reduce, reduction)
    input, target = _same_size(input, target)
    loss = (input - target).abs()
    return loss.mean() if code == 1 else (loss.sum() if code == 2 else loss)


# ---------------------------------------------------------------- embedding
class EmbeddingBackward0(Node):
    """z = weight[indices]:  d/dweight adds each row of the gradient into the row it was read
    from (rows at ``padding_idx`` get none)."""

    rule = _r("z = w[indices]  (rows of the weight w)",
              {"indices": "indices",
               "rows": "weight_sym_argsize_0",
               "pad": "padding_idx",
               "by_freq": "scale_grad_by_freq"},
              np={"w": "embedding_grad(grad, indices, rows, pad, by_freq)"},
              w="zeros(rows, grad.shape[-1]), with each row of grad added into row indices[i] "
                "(none into row pad; divided by how often indices[i] occurs, if by_freq)")

    saved = ("indices", "padding_idx", "scale_grad_by_freq", "sparse", "weight_sym_argsize_0")
    saved_tensors_names = ("indices",)

    def backward(self, g):
        check_saved(self)  # (the indices, freed or changed in place: PyTorch's errors)
        return (embedding_dense_backward(g, self._idx, self._s_weight_sym_argsize_0,
                                         self._pad, self._s_scale_grad_by_freq),)


class EmbeddingDenseBackwardBackward0(Node):
    """z = embedding_dense_backward(g, indices, ...):  d/dg = the rows of grad at the indices
    (0 at padding_idx; the frequency scaling was the first backward's)."""

    rule = _r("z = embedding_dense_backward(g, indices, rows, pad, by_freq)  (the gradient of "
              "embedding's weight)", words=True, g="grad[indices]  (0 where indices == pad)")

    saved = ("indices", "padding_idx")
    saved_tensors_names = ("indices",)

    @property
    def _s_indices(self):
        return Tensor._wrap(self._idx)

    def backward(self, gg):
        idx = self._idx.reshape(-1)
        rows = F.index(gg, (Tensor._wrap(idx),), idx)
        if self._pad >= 0:
            rows = F.masked_zero(rows, (idx == self._pad)[:, None])
        # PyTorch's formula reshapes to (*indices.shape, -1): no indices meet reshape's error
        return (rows.reshape(_infer_size(self._idx.shape + (-1,), rows.size)),)


def embedding_dense_backward(g, idx, rows: int, pad: int, by_freq: bool):
    """The gradient of the weight of ``embedding``: each row of ``g`` added into row
    ``idx[i]`` (none into ``pad``; divided by how often ``idx[i]`` occurs if ``by_freq``).
    On tensors an op of its own, as PyTorch's (``EmbeddingDenseBackwardBackward0``)."""
    flat = idx.reshape(-1)
    gd = F.data(g)
    gd = gd.reshape(flat.size, gd.shape[-1])  # (-1 fails for no indices)
    if by_freq:
        gd = gd / np.bincount(flat, minlength=rows)[flat][:, None].astype(gd.dtype)
    out = np.zeros((rows, gd.shape[-1]), gd.dtype)
    np.add.at(out, flat, gd)
    if pad >= 0:
        out[pad] = 0
    if not isinstance(g, Tensor):
        return out
    t = Tensor._wrap(out)
    if should_record(g):
        node = EmbeddingDenseBackwardBackward0()
        node._idx, node._pad, node._s_padding_idx = idx, pad, pad & _UINT64
        record(node, t, g)
    return t


def embedding(input: Tensor, weight: Tensor, padding_idx=None, max_norm=None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Tensor:
    """Rows of ``weight`` picked by the integer tensor ``input``; with ``max_norm``, the rows
    picked are first scaled down in place (outside any graph) to that ``norm_type`` norm."""
    if padding_idx:  # (weight.size(0) of a 0-d weight: PyTorch's IndexError)
        rows = weight.size(0)
        if not -rows <= padding_idx < rows:
            raise AssertionError("Padding_idx must be within num_embeddings")
    if max_norm is not None:
        _renorm(weight, input, max_norm, norm_type)
    for name, pos, arg in (("weight", 1, weight), ("indices", 2, input)):
        if not isinstance(arg, Tensor):
            raise TypeError(f"embedding(): argument '{name}' (position {pos}) must be Tensor, "
                            f"not {type(arg).__name__}")
    if should_record(weight):
        weight.size(0)  # (PyTorch saves the number of rows first: a 0-d weight's IndexError)
    idx = input._data
    if weight._data.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    if idx.dtype not in _INDEX_DTYPES:
        raise _index_dtype(input, 1, "embedding")
    rows = weight._data.shape[0]
    if not rows and idx.size:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if idx.size and (idx.min() < 0 or idx.max() >= rows):
        raise IndexError("index out of range in self")
    out = Tensor._wrap(weight._data[idx])
    if not should_record(weight):
        return out
    node = EmbeddingBackward0()
    node._idx, node._s_indices = idx.copy(), SavedTensor(input)
    node._s_weight_sym_argsize_0 = rows  # (PyTorch 2.13 keeps the number of rows so)
    pad = -1 if padding_idx is None else (padding_idx % rows)
    node._pad, node._s_padding_idx = pad, pad & _UINT64  # (PyTorch shows -1 unsigned)
    node._s_scale_grad_by_freq, node._s_sparse = scale_grad_by_freq, sparse
    return record(node, out, weight)


_INDEX_DTYPES = (np.dtype(np.int64), np.dtype(np.int32))


def _index_dtype(input: Tensor, arg: int, fn: str) -> RuntimeError:
    name = "CPUBoolType" if input._data.dtype.kind == "b" else f"torch.{input.dtype._legacy_name}"
    return RuntimeError(f"Expected tensor for argument #{arg} 'indices' to have one of the "
                        f"following scalar types: Long, Int; but got {name} instead (while "
                        f"checking arguments for {fn})")


def _renorm(weight: Tensor, input: Tensor, max_norm: float, norm_type: float) -> None:
    """PyTorch's ``embedding_renorm_``: each row ``input`` picks (once) whose norm is above
    ``max_norm`` is multiplied in place by ``max_norm / (norm + 1e-7)``."""
    if weight._data.ndim != 2:
        raise RuntimeError(f"Expected 2-dimensional tensor, but got {weight._data.ndim}-"
                           "dimensional tensor for argument #1 'self' (while checking "
                           "arguments for embedding_renorm_)")
    if input._data.dtype not in _INDEX_DTYPES:
        raise _index_dtype(input, 2, "embedding_renorm_")
    with no_grad():
        for i in np.unique(input._data):
            row = weight[int(i)]
            norm = float(row.norm(norm_type))
            if norm > max_norm:
                row.mul_(max_norm / (norm + 1e-7))


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Integer class indices as rows of zeros with a one at each index (int64)."""
    idx = tensor._data
    if idx.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if idx.size == 0 and num_classes == -1:
        raise RuntimeError("Can not infer total number of classes from empty tensor.")
    n = int(idx.max()) + 1 if num_classes == -1 else num_classes
    if idx.size and idx.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if idx.size and idx.max() >= n:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._wrap(np.eye(n, dtype=np.int64)[idx])


# ---------------------------------------------------------------- normalisation
def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out=None) -> Tensor:
    """Each slice along ``dim`` divided by its ``p``-norm (at least ``eps``): unit vectors.
    Recorded as PyTorch's ops: norm, ``clamp_min``, ``expand_as``, division."""
    if out is not None:
        raise NotImplementedError("F.normalize(out=...) is not in minigrad")
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom
