"""Dimensions rearranged without copying: ``movedim`` (``moveaxis``) and ``unflatten``.

Both are other view ops underneath (``permute``, ``view``), so their graphs are PyTorch's:
``PermuteBackward0`` and ``ViewBackward0`` (a 0-d ``movedim``: ``AliasBackward0``).
"""

from __future__ import annotations

import math

from ._core import method
from .indexing import alias
from .movement import _infer_size, _size_args


@method("movedim", "moveaxis")
def movedim(input, source: int, destination: int):
    """Move dimension(s) ``source`` to position(s) ``destination`` (a ``permute``)."""
    src, dst = ([x] if isinstance(x, int) else list(x) for x in (source, destination))
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({src} dims) "
                           f"should contain the same number of dims as destination ({dst} dims)")
    s, d = [input._wrap_dim(i) for i in src], [input._wrap_dim(i) for i in dst]
    for name, given, dims in (("source", src, s), ("destination", dst, d)):
        if len(set(dims)) < len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({given})")
    if not input._data.ndim:
        return alias(input)  # PyTorch: an alias of a 0-d tensor, not a permute
    rest = iter(i for i in range(input._data.ndim) if i not in s)
    where = dict(zip(d, s))
    return input.permute(tuple(where[i] if i in where else next(rest)
                                for i in range(input._data.ndim)))


@method("unflatten", python=True)
def unflatten(input, dim: int, sizes):
    """Dimension ``dim`` split into ``sizes`` (one may be -1)."""
    if input.dim() == 0:  # (PyTorch's C++ error, without its stack trace)
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as "
                           f"{dim} but tensor has no dimensions")
    d = input._wrap_dim(dim)
    if not isinstance(sizes, (tuple, list)):
        raise TypeError("unflatten(): argument 'sizes' (position 2) must be tuple of ints, not "
                        f"{type(sizes).__name__}")
    shape, sizes = input._data.shape, _size_args("unflatten", tuple(sizes), "sizes")
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if min(sizes) < 0:
        try:  # (-1 is inferred within dim d: the other dimensions may hold no elements)
            sizes = _infer_size(sizes, shape[d])
        except RuntimeError as e:  # (a mismatch: PyTorch's own message below)
            if not str(e).startswith("shape '"):
                raise RuntimeError(f"unflatten got an unexpected error:\n{e}") from None
    known = math.prod(s for s in sizes if s != -1)
    if (known != shape[d]) if -1 not in sizes else (not known or shape[d] % known):
        raise RuntimeError(f"unflatten: Provided sizes [{', '.join(map(str, sizes))}] don't "
                           f"multiply up to the size of dim {d} ({shape[d]}) in the input tensor")
    return input.view(shape[:d] + sizes + shape[d + 1:])
