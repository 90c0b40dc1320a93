"""The strides PyTorch gives a view that adds or regroups dimensions (``view``/``reshape``,
``unsqueeze`` and so ``x[None]``), size-1 dimensions included.

A size-1 dimension's stride never changes which element is read, so NumPy picks its own,
but PyTorch's are part of the tensor: ``stride()`` shows them, and the ops that lay out a new
result from their operands' strides (``_layout``: elementwise ops, indexing, ``clone``) and
the channels-last test of pooling read them. A view keeps PyTorch's strides in its NumPy
array (NumPy lets a size-1 dimension have any stride), so every op made from it inherits them:

- ``unsqueeze(d)``: the new dimension's stride is ``size[d] * stride[d]`` of the dimension it
  is put before, 1 at the end (``x.t().unsqueeze(1)`` of a 1x3 ``x``: strides (1, 3, 3));
- ``view``: PyTorch's ``computeStride``: the old dimensions are grouped into chunks of
  contiguous memory, each chunk is split into the new sizes row-major from its last stride.
"""

from __future__ import annotations

__all__ = ["unsqueezed_strides", "view_strides"]


def unsqueezed_strides(shape: tuple, strides: tuple, d: int, item: int) -> tuple:
    """The strides (in bytes, as ``strides``) after ``unsqueeze(d)`` of a tensor of ``shape``."""
    new = shape[d] * strides[d] if d < len(shape) else item
    return strides[:d] + (new,) + strides[d:]


def view_strides(shape: tuple, strides: tuple, new_shape: tuple, item: int):
    """The strides (in bytes) of ``view(new_shape)`` of a non-empty tensor of ``shape`` and
    ``strides`` (in bytes), or None if the memory does not allow that view (PyTorch's
    ``computeStride``)."""
    if not shape:
        shape, strides = (1,), (item,)
    out = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    base = strides[-1]  # (the stride each subspace of the chunk is counted in)
    tensor_numel = view_numel = 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[d]
        if d == 0 or shape[d - 1] != 1 and strides[d - 1] != tensor_numel * base:
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                out[view_d] = view_numel * base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d:
                base, tensor_numel, view_numel = strides[d - 1], 1, 1
    return tuple(out) if view_d == -1 else None
