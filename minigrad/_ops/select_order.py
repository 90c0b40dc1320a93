"""The order in which PyTorch's CPU ``topk``, ``sort`` and ``median()`` return tied values (equal
values, ``0.0`` and ``-0.0``, several NaNs): that of libstdc++'s ``std::nth_element``
(introselect) on (value, index) pairs, then ``std::sort`` (introsort) of the first ``k - 1``,
with PyTorch's comparator (NaN counts as the largest). Neither is stable, so ties do not come
in index order: the top 2 of ``[1., 1., 1., 1.]`` are at 2 and 3. Slices without ties take
NumPy's argsort (the same order). ``sort`` (not ``stable=True``) is ``std::sort`` of the pairs.
Also ``max()``/``min()`` of all elements: the last of ties.
"""

from __future__ import annotations

import numpy as np

__all__ = ["topk_indices", "sort_indices", "median_index", "last_extreme", "std_sort"]


def _insertion_sort(a: list, first: int, last: int, less) -> None:
    for i in range(first + 1, last):
        val = a[i]
        if less(val, a[first]):
            a[first + 1:i + 1] = a[first:i]
            a[first] = val
            continue
        j = i
        while less(val, a[j - 1]):
            a[j] = a[j - 1]
            j -= 1
        a[j] = val


def _partition_pivot(a: list, first: int, last: int, less) -> int:
    """The median of three moved to ``first``, then Hoare's unguarded partition around it."""
    i, j, k = first + 1, first + (last - first) // 2, last - 1
    if less(a[i], a[j]):
        m = j if less(a[j], a[k]) else k if less(a[i], a[k]) else i
    else:
        m = i if less(a[i], a[k]) else k if less(a[j], a[k]) else j
    a[first], a[m] = a[m], a[first]
    lo, hi, pivot = first + 1, last, a[first]
    while True:
        while less(a[lo], pivot):
            lo += 1
        hi -= 1
        while less(pivot, a[hi]):
            hi -= 1
        if lo >= hi:
            return lo
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1


def _nth_element(a: list, nth: int, less) -> None:
    first, last = 0, len(a)
    depth = 2 * ((last - first).bit_length() - 1)
    while last - first > 3:
        if depth == 0:  # (libstdc++ turns to a heap select: not reached by small slices)
            a.sort(key=_Key(less))
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        first, last = (cut, last) if cut <= nth else (first, cut)
    _insertion_sort(a, first, last, less)


def std_sort(a: list, last: int, less) -> None:
    """``std::sort(a, a + last)``: introsort down to runs of 16, then insertion sort."""
    def loop(first, end, depth):
        while end - first > 16:
            if depth == 0:
                a[first:end] = sorted(a[first:end], key=_Key(less))
                return
            depth -= 1
            cut = _partition_pivot(a, first, end, less)
            loop(cut, end, depth)
            end = cut
    if last > 1:
        loop(0, last, 2 * (last.bit_length() - 1))
        _insertion_sort(a, 0, last, less)


class _Key:
    def __init__(self, less):
        self.less = less

    def __call__(self, x):
        less = self.less

        class K:
            def __lt__(self, other):
                return less(x, other.x)
        k = K()
        k.x = x
        return k


def _largest(x, y) -> bool:
    return (x[0] != x[0] and y[0] == y[0]) or x[0] > y[0]


def _smallest(x, y) -> bool:
    return (x[0] == x[0] and y[0] != y[0]) or x[0] < y[0]


def _has_ties(rows: np.ndarray) -> bool:
    s = np.sort(rows, axis=-1)
    return bool((s[..., 1:] == s[..., :-1]).any()) or (
        rows.dtype.kind == "f" and bool((np.isnan(rows).sum(-1) > 1).any()))


_MOST = 1 << 16  # (more elements with ties: NumPy's stable order, not reproduced)


def topk_indices(x: np.ndarray, k: int, axis: int, largest: bool, stable: np.ndarray):
    """The indices of PyTorch's ``topk`` along ``axis`` (``stable``: NumPy's stable order of
    the whole axis, used where a slice has no ties or is long: ``k * 64 <= n`` takes
    ``std::partial_sort``, not reproduced)."""
    n = x.shape[axis]
    first = np.take(stable, np.arange(k), axis=axis)
    if k == 0 or k * 64 <= n or not 0 < x.size <= _MOST:
        return first
    rows = np.moveaxis(x, axis, -1).reshape(-1, n)
    if not _has_ties(rows):
        return first
    less = _largest if largest else _smallest
    out = np.empty((rows.shape[0], k), np.int64)
    for r, row in enumerate(rows.tolist()):
        q = [(v, i) for i, v in enumerate(row)]
        _nth_element(q, k - 1, less)
        std_sort(q, k - 1, less)
        out[r] = [i for _, i in q[:k]]
    shape = np.moveaxis(x, axis, -1).shape[:-1] + (k,)
    return np.moveaxis(out.reshape(shape), -1, axis)


def sort_indices(x: np.ndarray, axis: int, descending: bool, stable: np.ndarray) -> np.ndarray:
    """The indices of PyTorch's ``sort`` (``stable=False``) along ``axis``: ``std::sort`` of
    (value, index) pairs where a slice has ties (``stable``: NumPy's stable order)."""
    n = x.shape[axis]
    if n < 2 or not 0 < x.size <= _MOST:
        return stable
    rows = np.moveaxis(x, axis, -1).reshape(-1, n)
    if not _has_ties(rows):
        return stable
    less = _largest if descending else _smallest
    out = np.empty(rows.shape, np.int64)
    for r, row in enumerate(rows.tolist()):
        q = [(v, i) for i, v in enumerate(row)]
        std_sort(q, n, less)
        out[r] = [i for _, i in q]
    return np.moveaxis(out.reshape(np.moveaxis(x, axis, -1).shape), -1, axis)


def median_index(flat: np.ndarray) -> int:
    """The position of ``flat``'s lower median as PyTorch's ``median()`` picks it among ties
    (``std::nth_element`` of the values: of ``[0., -0., 0., -0.]`` the 0.0 at 2); NaN-free."""
    k = (flat.size - 1) // 2
    if not _has_ties(flat[None]):
        return int(np.argsort(flat, kind="stable")[k])
    q = [(v, i) for i, v in enumerate(flat.tolist())]
    _nth_element(q, k, _smallest)
    return q[k][1]


def last_extreme(d: np.ndarray, largest: bool) -> np.ndarray:
    """``max()``/``min()`` of all of ``d`` as PyTorch's CPU reduction gives it: a NaN if there is
    one (negative, as its vector unit makes it, for two elements or more), else the extreme,
    the last of equal ones (``[0., -0.]``: -0.0; 8 to 15 elements combine otherwise)."""
    v = d.max() if largest else d.min()
    if d.dtype.kind != "f" or d.size == 1:  # (one element: itself)
        return np.asarray(v)
    if np.isnan(v):
        return np.negative(np.abs(np.asarray(v)))
    if v == 0:
        flat = d.reshape(-1)
        return np.asarray(flat[flat == 0][-1])
    return np.asarray(v)
