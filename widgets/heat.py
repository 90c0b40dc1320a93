"""Tensors as pictures: a heat map of a tensor too large to read as numbers.

:func:`heat_map` turns an array into what the front end draws: a grid of cells (a 1-D
tensor is one row; a tensor of more dimensions is flattened to rows of its last dimension),
each coloured on a diverging scale symmetric about zero (white at zero, red above, blue
below; the same colours in light and dark themes, inside a frame of their own), the exact
value of each cell as text (shown on hover and in the table it can open), and the tensor's
shape, norm, minimum and maximum. Colours are decided here, so the browser only paints.

>>> import numpy as np
>>> h = heat_map(np.array([[-2.0, 0.0], [1.0, 2.0]]))
>>> h["shape"], h["rows"], h["cols"], h["scale"]
([2, 2], 2, 2, [-2.0, 2.0])
>>> h["colors"]
[['#2166ac', '#ffffff'], ['#f4a582', '#b2182b']]
>>> h["values"][0]
['-2.0', '0.0']
>>> summary(np.arange(12.).reshape(3, 4) - 5)
'shape [3, 4], norm 12.08, min -5, max 6'
"""

from __future__ import annotations

import numpy as np

from ._format import format_shape

__all__ = ["heat_map", "summary", "color_of", "node_pictures", "HEAT_LIMIT", "DRAWING_CELLS",
           "NEGATIVE", "POSITIVE"]

HEAT_LIMIT = 4096  # elements: above this a tensor is only summarised, not drawn
# ColorBrewer's RdBu, from zero (white) outwards: a colour-blind-safe diverging scale
POSITIVE = ("#ffffff", "#fddbc7", "#f4a582", "#d6604d", "#b2182b")
NEGATIVE = ("#ffffff", "#d1e5f0", "#92c5de", "#4393c3", "#2166ac")
NOT_FINITE = "#7f7f7f"
DRAWING_CELLS = 20_000  # cells drawn beside the nodes of one drawing, at most


def _rgb(hex_: str) -> np.ndarray:
    return np.array([int(hex_[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)


def color_of(value: float, vmax: float) -> str:
    """The colour of ``value`` on the scale from ``-vmax`` (dark blue) through 0 (white) to
    ``vmax`` (dark red), interpolated between the scale's stops."""
    if not np.isfinite(value):
        return NOT_FINITE
    if vmax <= 0 or value == 0:
        return POSITIVE[0]
    stops = POSITIVE if value > 0 else NEGATIVE
    x = min(abs(value) / vmax, 1.0) * (len(stops) - 1)
    lo = int(np.floor(x))
    hi = min(lo + 1, len(stops) - 1)
    rgb = _rgb(stops[lo]) + (_rgb(stops[hi]) - _rgb(stops[lo])) * (x - lo)
    return "#" + "".join(f"{int(round(c)):02x}" for c in rgb)


def _number(x: float) -> str:
    return f"{x:.4g}"


def summary(a: np.ndarray) -> str:
    """Shape, norm, minimum and maximum of an array, on one line (NaN and inf counted)."""
    a64 = np.asarray(a, dtype=np.float64)
    finite = a64[np.isfinite(a64)]
    text = f"shape {format_shape(a.shape)}, norm {_number(float(np.linalg.norm(a64.ravel())))}"
    if finite.size:
        text += f", min {_number(float(finite.min()))}, max {_number(float(finite.max()))}"
    bad = a64.size - finite.size
    if bad:
        text += f", nan/inf ×{bad}"
    return text


def _grid(a: np.ndarray) -> np.ndarray:
    if a.ndim == 0:
        return a.reshape(1, 1)
    if a.ndim == 1:
        return a.reshape(1, -1)
    return a.reshape(-1, a.shape[-1])


def heat_map(a, label: str = "") -> dict | None:
    """What the front end draws for array ``a`` (see the module docstring); None for an
    array too large to draw (:data:`HEAT_LIMIT`) or one that is not numeric."""
    a = np.asarray(a)
    if a.size == 0 or a.size > HEAT_LIMIT or a.dtype.kind not in "biuf":
        return None
    grid = _grid(a)
    as_float = np.asarray(grid, dtype=np.float64)
    finite = as_float[np.isfinite(as_float)]
    vmax = float(np.abs(finite).max()) if finite.size else 0.0
    return {"label": label, "shape": [int(s) for s in a.shape], "rows": int(grid.shape[0]),
            "cols": int(grid.shape[1]), "scale": [-vmax, vmax], "summary": summary(a),
            "values": [[str(v) for v in row] for row in grid],
            "colors": [[color_of(v, vmax) for v in row] for row in as_float.tolist()]}


def node_pictures(view) -> dict:
    """Node id -> heat map, for the tensors of a graph model (leaves, outputs, saved tensors)
    with more elements than a node's label shows; in walk order, up to
    :data:`DRAWING_CELLS` cells in all."""
    from ._format import LABEL_LIMIT, to_numpy

    out, cells = {}, 0
    for node in view.nodes:
        t = node.tensor
        if t is None or node.kind not in ("leaf", "output", "saved") or t.numel() <= LABEL_LIMIT:
            continue
        if cells + t.numel() > DRAWING_CELLS:
            break
        heat = heat_map(to_numpy(t))
        if heat is not None:
            out[node.id] = heat
            cells += t.numel()
    return out
