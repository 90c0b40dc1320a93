"""Printing tensors exactly as PyTorch 2.13 does.

``repr(t)`` is built in four steps:

1. Summarize: a tensor with more than ``threshold`` elements shows only ``edgeitems`` entries at
   each end of every dimension, with ``...`` in between.
2. Choose ONE style for all shown entries (``_Formatter``): integers and bools as Python prints
   them; floats with ``precision`` decimals, as ``2.`` when all are whole numbers, or in scientific
   notation when their magnitudes span more than 1000x or leave [1e-4, 1e8]. Every entry is
   padded to the widest one, so columns line up.
3. Lay out the nested lists: rows wrap at ``linewidth``; blocks of a 3-d tensor are separated by
   one blank line, of a 4-d tensor by two, and so on.
4. Append the suffixes (``size=``, ``dtype=``, ``grad_fn=<...>`` or ``requires_grad=True``),
   moving one to a new line when it would pass ``linewidth``.

>>> import minigrad as torch
>>> torch.tensor([[1.5, -2.0], [300.25, 4.0]], dtype=torch.float64)
tensor([[  1.5000,  -2.0000],
        [300.2500,   4.0000]], dtype=torch.float64)
>>> torch.tensor([1e-5, 1.0]), torch.tensor([], dtype=torch.int64)
(tensor([1.0000e-05, 1.0000e+00]), tensor([], dtype=torch.int64))
"""

from __future__ import annotations

import contextlib
import math

import numpy as np

from ._dtype import bool as _bool
from ._dtype import get_default_dtype, int64
from ._tensor import Tensor

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "tensor_repr"]


class _Options:
    """The current print options (class attributes, changed by ``set_printoptions``)."""

    precision = 4
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = None


_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None) -> None:
    """Set how tensors print, like ``torch.set_printoptions``.

    ``profile`` (``"default"``, ``"short"`` or ``"full"``) resets the first four options, then
    any option given overrides it. ``sci_mode`` is always set: ``None`` lets each tensor choose.

    >>> import minigrad as torch
    >>> torch.set_printoptions(precision=2)
    >>> torch.tensor([1.12345])
    tensor([1.12])
    >>> torch.set_printoptions(profile="default")
    """
    for name, value in _PROFILES.get(profile, {}).items():
        setattr(_Options, name, value)
    given = dict(precision=precision, threshold=threshold, edgeitems=edgeitems,
                 linewidth=linewidth)
    for name, value in given.items():
        if value is not None:
            setattr(_Options, name, value)
    _Options.sci_mode = sci_mode


def get_printoptions() -> dict:
    """The current options, as keyword arguments for ``set_printoptions``."""
    return {name: getattr(_Options, name)
            for name in ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")}


@contextlib.contextmanager
def printoptions(**options):
    """Change the print options inside a ``with`` block only."""
    old = get_printoptions()
    set_printoptions(**options)
    try:
        yield
    finally:
        set_printoptions(**old)


# ---------------------------------------------------------------------------- entry style
class _Formatter:
    """One style and width for every entry of a tensor, chosen from the entries shown."""

    def __init__(self, data: np.ndarray):
        self.floating = data.dtype.kind == "f"
        self.int_mode = True  # floats that are all whole numbers print as `2.`
        self.sci_mode = False
        self.width = 1
        if not self.floating:
            if data.size:  # the widest integer is the smallest or the largest
                self.width = max(len(str(data.min().item())), len(str(data.max().item())))
            return
        shown = data[np.isfinite(data) & (data != 0)].astype(np.float64)
        if shown.size == 0:  # only zeros, nan and inf: keep the defaults (sci_mode too)
            return
        mags = np.abs(shown)
        lo, hi = float(mags.min()), float(mags.max())
        self.int_mode = bool((shown == np.ceil(shown)).all())
        if _Options.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = _Options.sci_mode
        # The length of a formatted number only grows with its distance from 1 (exponent) or
        # from 0 (digits), so the widest entry is the smallest or largest of one sign.
        extremes = [v for part in (shown[shown > 0], shown[shown < 0]) if part.size
                    for v in (part.min().item(), part.max().item())]
        extra = 1 if self.int_mode and not self.sci_mode else 0  # the dot of `2.`
        self.width = max(len(self._text(v)) for v in extremes) + extra

    def _text(self, value) -> str:
        if not self.floating:
            return str(value)
        if self.sci_mode:
            return f"{value:.{_Options.precision}e}"
        if self.int_mode:
            return f"{value:.0f}"
        return f"{value:.{_Options.precision}f}"

    def format(self, value) -> str:
        text = self._text(value)
        if self.int_mode and self.floating and not self.sci_mode and math.isfinite(value):
            text += "."
        return text.rjust(self.width)


def _summarized(data: np.ndarray) -> np.ndarray:
    """The entries that a summarized print shows (``edgeitems`` at each end of each dim)."""
    edge = _Options.edgeitems
    for axis, n in enumerate(data.shape):
        if n > 2 * edge:
            data = data.take(np.r_[0:edge, n - edge:n], axis=axis)
    return data


# ---------------------------------------------------------------------------- layout
def _vector_str(data: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    edge, n = _Options.edgeitems, data.shape[0]
    if summarize and not edge:
        items = ["..."]
    elif summarize and n > 2 * edge:
        items = ([fmt.format(v) for v in data[:edge].tolist()] + [" ..."]
                 + [fmt.format(v) for v in data[n - edge:].tolist()])
    else:
        items = [fmt.format(v) for v in data.tolist()]
    per_line = max(1, math.floor((_Options.linewidth - indent) / (fmt.width + 2)))
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(data: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    """``data`` as nested brackets; ``indent`` is the column of its opening ``[``."""
    if data.ndim == 0:
        return fmt.format(data.item())
    if data.ndim == 1:
        return _vector_str(data, indent, summarize, fmt)
    edge, n = _Options.edgeitems, data.shape[0]
    rows = [*range(edge), None, *range(n - edge, n)] if summarize and n > 2 * edge else range(n)
    parts = ["..." if i is None else _nested_str(data[i], indent + 1, summarize, fmt)
             for i in rows]
    return "[" + ("," + "\n" * (data.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def _tensor_str(data: np.ndarray, indent: int) -> str:
    summarize = data.size > _Options.threshold
    fmt = _Formatter(_summarized(data) if summarize else data)
    return _nested_str(data, indent, summarize, fmt)


def _add_suffixes(text: str, suffixes: list, indent: int) -> str:
    # PyTorch counts the last line as 2 longer than it is (its quirk, kept for equal output).
    last_line_len = len(text) - text.rfind("\n") + 1
    out = [text]
    for suffix in suffixes:
        n = len(suffix)
        if last_line_len + n + 2 > _Options.linewidth:
            out.append(",\n" + " " * indent + suffix)
            last_line_len = indent + n
        else:
            out.append(", " + suffix)
            last_line_len += n + 2
    out.append(")")
    return "".join(out)


def _is_parameter(cls) -> bool:
    return cls.__name__ == "Parameter" and cls.__module__ == "minigrad.nn.parameter"


def tensor_repr(t, *, tensor_contents: str | None = None) -> str:
    """``repr(t)`` exactly as PyTorch prints it (``Parameter`` adds its own first line).

    ``tensor_contents`` replaces the printed numbers, as in ``Tensor.__repr__``.

    >>> import minigrad as torch
    >>> x = torch.tensor([2.0, 3.0], requires_grad=True)
    >>> x, x * 2
    (tensor([2., 3.], requires_grad=True), tensor([4., 6.], grad_fn=<MulBackward0>))
    """
    data = t._data
    # Tensor and Parameter print as `tensor(...)`, other subclasses by their own name.
    plain = type(t) is Tensor or _is_parameter(type(t))
    prefix = "tensor(" if plain else type(t).__name__ + "("
    indent = len(prefix)
    dtype = t.dtype
    suffixes = []
    if data.size == 0:
        text = "[]" if tensor_contents is None else tensor_contents
        if data.ndim != 1:
            suffixes.append(f"size={tuple(data.shape)}")
        if dtype is not get_default_dtype():
            suffixes.append(f"dtype={dtype}")
    else:
        if not _Options.edgeitems:
            suffixes.append(f"size={tuple(data.shape)}")
        if dtype is not get_default_dtype() and dtype is not int64 and dtype is not _bool:
            suffixes.append(f"dtype={dtype}")
        text = _tensor_str(data, indent) if tensor_contents is None else tensor_contents
    try:
        fn = t.grad_fn  # (the property: a view changed in place shows its new node)
        name = None if fn is None else type(fn).__name__
    except RuntimeError:  # a view made in no_grad mode whose base changed in place: as PyTorch
        name = "Invalid"
    if name is not None:
        suffixes.append(f"grad_fn=<{name}>")
    elif t.requires_grad:  # (a view made in no_grad mode: while its base requires grad)
        suffixes.append("requires_grad=True")
    text = _add_suffixes(prefix + text, suffixes, indent)
    if not plain and any(_is_parameter(c) for c in type(t).__mro__):
        text = f"Parameter({text})"
    return text
