"""Float sums added up in PyTorch's order, so that ``sum`` and ``mean`` match it bit for bit.

Floating-point addition is not associative: ``(a + b) + c`` and ``a + (b + c)`` can differ in
the last bit. NumPy and PyTorch both avoid adding a long row one element at a time (the error
would grow with the row), but they group the additions differently, so a float32 sum of a
few thousand numbers usually differs in its last digit. This module adds in PyTorch's CPU
order (its ``cascade_sum`` in ``aten/src/ATen/native/cpu/SumKernel.cpp``), with NumPy.

**The building blocks** (``n`` numbers in a row; each may stand for a whole vector of lanes):

- ``_seq``: one accumulator, starting at 0, adds the row left to right. (NumPy's own
  ``np.add.reduce`` does that when each "number" is a contiguous row of lanes: it then adds
  the rows one after another, lane by lane; along a single row it would add pairwise.)
- ``_cascade``: the row is cut into blocks of ``step = 2**p`` numbers (``p`` grows slowly with
  ``n``, at least 4). Each block is summed with ``_seq``; the block sums are summed ``step`` at
  a time into a second level, those into a third and a fourth: only numbers of a similar size
  meet. What is left over (the last partial block and partial groups) is added at the end.
- ``_row_sum``: four accumulators side by side (the row read as a ``(-1, 4)`` array, each
  column summed with ``_cascade``); the last ``n % 4`` numbers go into the first accumulator,
  then the four are added together.
- ``_inner``: a row that lies contiguous in memory is read eight floats at a time (one AVX2
  register of ``LANES`` lanes; PyTorch uses this kernel even on AVX512 CPUs): ``_row_sum`` of
  those vectors, then the leftover ``n % 8`` numbers and then the eight lanes, one by one.

**Which block runs** depends on how the tensor lies in memory, as in PyTorch's
``TensorIterator``: dimensions of size 1 are dropped, reduced dimensions are put innermost
(smallest stride first), dimensions that follow each other in memory are merged. The innermost
(reduced) dimension is then summed by ``_inner`` if it is contiguous, else column by column:
in groups of 32 (or 4) columns with ``_cascade``, the remaining columns with ``_row_sum``.
A second reduced dimension adds those results one by one. A sum over the leading dims of a
contiguous tensor (a bias's gradient over the batch) always comes out as rows of columns, so
it skips the layout (``_outer``); the common small cases run as a few whole-array NumPy calls.

``nll_loss`` sums its samples with a cascade of its own (8 levels of 16): ``nll_total``.

**Size**: tensors of more than ``EXACT_LIMIT`` elements are summed in NumPy's faster order.

**Threads**: PyTorch splits a reduction of 32768+ elements between its threads. A sum down to
one number is cut into one chunk per thread, each chunk summed as above, the chunk sums added;
that changes the result, so minigrad cuts at the same places, for the number of threads
PyTorch would use (``get_num_threads()``: ``MKL_NUM_THREADS`` or ``OMP_NUM_THREADS``, at
most the physical cores) or that ``minigrad.set_num_threads`` sets. Other splits (by output
element) change nothing here.

A row of 17 float32 numbers, by hand:

>>> import numpy as np
>>> x = np.full(17, 0.1, np.float32)
>>> lanes = x[:8] + x[8:16]  # two vectors of eight lanes, added lane by lane
>>> by_hand = x[16]  # then the 17th number, then the eight lanes one by one
>>> for lane in lanes:
...     by_hand = by_hand + lane
>>> bool(reduce_sum(x) == by_hand)
True
"""

from __future__ import annotations

import os

import numpy as np

__all__ = ["LANES", "get_num_threads", "nll_total", "reduce_sum", "set_num_threads",
           "sum_leading"]

LANES = 8  # floats in one AVX2 register (Vectorized<float>); 4 doubles
GRAIN = 32768  # PyTorch's at::internal::GRAIN_SIZE: smaller reductions run on one thread
# Larger tensors are summed in NumPy's own order: adding in PyTorch's takes NumPy about three
# times as long (a million floats: ~0.4 ms instead of ~0.13 ms), too slow for big training
# steps. None: PyTorch's order at every size.
EXACT_LIMIT = 1 << 17
_GROUP = 4  # rows summed side by side (ilp_factor / nrows in PyTorch)
_ZERO = {"f": np.zeros(1, np.float32), "d": np.zeros(1, np.float64)}
_add, _concatenate = np.add, np.concatenate  # (for _short: np.<name> is not cached, see _tensor)


# ---------------------------------------------------------------- threads
def _physical_cores() -> int:
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
        cores = {tuple(line.split(":")[1].strip() for line in block.splitlines()
                       if line.startswith(("physical id", "core id")))
                 for block in info.split("\n\n") if "core id" in block}
        if cores:
            return len(cores)
    except OSError:
        pass
    return os.cpu_count() or 1


def _default_threads() -> int:
    """PyTorch's default intra-op thread count, as measured: MKL_NUM_THREADS, else
    OMP_NUM_THREADS, else the physical cores; never more than the physical cores."""
    cores = _physical_cores()
    for name in ("MKL_NUM_THREADS", "OMP_NUM_THREADS"):
        env = os.environ.get(name, "")
        if env.isdigit() and int(env) > 0:
            return min(int(env), cores)
    return cores


_threads = [None]


def get_num_threads() -> int:
    """The number of threads PyTorch would split a large sum between (see the module doc)."""
    if _threads[0] is None:
        _threads[0] = _default_threads()
    return _threads[0]


def set_num_threads(n: int) -> None:
    """Set the thread count, as ``torch.set_num_threads`` does (it changes large sums)."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise RuntimeError(f"set_num_threads expects an int, but got {type(n).__name__}")
    if n <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _threads[0] = n


# ---------------------------------------------------------------- building blocks
# Every block sums axis 0 of ``a``; the other axes are independent lanes, summed at once.
def _seq(a: np.ndarray, axis: int = 0) -> np.ndarray:
    """Left to right from +0 along ``axis`` (``np.add.accumulate`` is strictly sequential;
    the final ``+ 0`` turns a -0 into +0, as PyTorch's accumulator that starts at +0 does)."""
    n = a.shape[axis]
    if n == 0:
        return np.zeros(a.shape[:axis] + a.shape[axis + 1:], a.dtype)
    if a.strides[-1] == a.itemsize < a.strides[axis] and a.shape[-1] > 1:
        # rows of a contiguous last axis: NumPy's reduce adds them one after the other, lane
        # by lane (it sums pairwise only when the summed axis is the one it walks innermost),
        # onto its ``initial`` +0
        return np.add.reduce(a, axis, None, None, False, 0)
    if n > 64 or a.size <= 4096:  # one call; its copy of ``a`` costs little here
        return np.add.accumulate(a, axis=axis).take(-1, axis) + a.dtype.type(0)
    at = (slice(None),) * axis  # a few whole-lane additions, no full-size copy
    acc = a[at + (0,)] + a.dtype.type(0)
    for k in range(1, n):
        acc += a[at + (k,)]
    return acc


def _groups(a: np.ndarray, size: int):
    """(sums of the full groups of ``size`` along axis 0, sum of the partial group left)."""
    full = a.shape[0] // size * size
    if full == 0:
        return a[:0], _seq(a)
    blocks = a[:full].reshape((full // size, size) + a.shape[1:])
    return _seq(blocks, 1), _seq(a[full:])


def _cascade(a: np.ndarray) -> np.ndarray:
    """PyTorch's multi-level sum (``multi_row_sum``): blocks of ``step``, then four levels."""
    n = a.shape[0]
    if n <= 16:  # one block at most: just the block
        return _seq(a)
    if n < 256 and a.strides[-1] == a.itemsize and a.shape[-1] > 1 and a.ndim > 1:
        # (quicker, rows of a contiguous last axis) level 0, then level 1 holds everything
        full = n - n % 16  # (no +0 on the way: only the sign of a zero could change)
        blocks = np.add.reduce(a[:full].reshape((full // 16, 16) + a.shape[1:]), 1)
        if full == n:  # the block sums onto +0 (NumPy's ``initial``), one call
            return np.add.reduce(blocks, 0, None, None, False, 0)
        left1 = blocks[0] if full == 16 else np.add.reduce(blocks, 0)
        return (np.add.reduce(a[full:], 0) + left1) + a.dtype.type(0)
    step = 1 << max(4, (n - 1).bit_length() // 4)
    blocks, tail = _groups(a, step)  # level 0: each block from 0
    level1, left1 = _groups(blocks, step)  # level 1 takes ``step`` block sums at a time
    if not len(level1):
        return tail + left1
    level2, left2 = _groups(level1, step)
    left3 = _seq(level2)  # level 3 keeps everything else
    return ((tail + left1) + left2) + left3


def _row_sum(a: np.ndarray) -> np.ndarray:
    """Four accumulators side by side, then the leftovers, then the four added together."""
    n4 = a.shape[0] // _GROUP * _GROUP
    if n4 == 0:
        return _seq(a)
    four = _cascade(a[:n4].reshape((n4 // _GROUP, _GROUP) + a.shape[1:]))
    return _seq(np.concatenate([four[:1], a[n4:], four[1:]]) if n4 < a.shape[0] else four)


def _inner(a: np.ndarray, lanes: int) -> np.ndarray:
    """A contiguous row, ``lanes`` numbers at a time: vector sum, leftovers, then the lanes."""
    nv = a.shape[0] // lanes * lanes
    vectors = _row_sum(a[:nv].reshape((nv // lanes, lanes) + a.shape[1:]))
    return _seq(np.concatenate([a[nv:], vectors]))


def _short(row: np.ndarray, lanes: int) -> np.ndarray:
    """``_inner`` (or ``_row_sum``) of a 1-D row of fewer than ``4 * lanes`` numbers, quickly:
    no block is full there, so each stage is a plain left-to-right sum."""
    n, zero = row.shape[0], _ZERO[row.dtype.char]  # (from +0: PyTorch's -0 + 0 is +0)
    if n >= lanes:  # one to three vectors, lane by lane, then the leftovers and the lanes
        nv = n - n % lanes  # (a -0 on the way changes nothing but the final sign)
        vectors = _add.reduce(row[:nv].reshape(-1, lanes), 0)  # (row after row, see _seq)
        row = _concatenate((zero, row[nv:], vectors))
    elif n >= _GROUP:  # four accumulators of one number each: first, leftovers, the other three
        row = _concatenate((zero, row[:1], row[_GROUP:], row[1:_GROUP]))
    else:
        row = _concatenate((zero, row))
    return _add.accumulate(row)[-1:]


def _columns(a: np.ndarray, group: int) -> np.ndarray:
    """Each column (last axis) on its own: full groups of ``group`` columns by ``_cascade``,
    the columns left over by ``_row_sum`` (PyTorch's outer-dimension sums)."""
    cut = a.shape[-1] // group * group
    if cut == a.shape[-1]:
        return _cascade(a)
    if cut == 0:  # (no full group: nothing for _cascade)
        return _row_sum(a)
    return np.concatenate([_cascade(a[..., :cut]), _row_sum(a[..., cut:])], axis=-1)


# ---------------------------------------------------------------- the iteration
def _layout(shape, strides, axes):
    """PyTorch's iteration order: [(size, input stride, reduced, original axes)], inner first."""
    out, step = {}, 1
    for i in reversed(range(len(shape))):  # the result is contiguous in its own shape
        out[i] = 0 if i in axes else step
        step *= 1 if i in axes else shape[i]
    dims = [i for i in reversed(range(len(shape))) if shape[i] != 1]

    def swap(d0, d1):  # TensorIterator's reorder_dimensions, output first, then input
        if (out[d0] == 0) != (out[d1] == 0):
            return out[d1] == 0
        for s0, s1 in ((out[d0], out[d1]), (strides[d0], strides[d1])):
            if s0 and s1 and s0 != s1:
                return s0 > s1
            if s0 and s1 and shape[d0] > shape[d1]:
                return True
        return False

    for i in range(1, len(dims)):  # insertion sort, as PyTorch's
        j = i
        while j > 0 and swap(dims[j - 1], dims[j]):
            dims[j - 1], dims[j] = dims[j], dims[j - 1]
            j -= 1
    merged = []
    for d in dims:  # coalesce: a dim that continues the previous one in memory
        if merged:
            size, stride, red, group = merged[-1]
            if (d in axes) == red and strides[d] == size * stride:
                merged[-1] = (size * shape[d], stride, red, [d] + group)
                continue
        merged.append((shape[d], strides[d], d in axes, [d]))
    return merged


def _contributions(v: np.ndarray, in0: int, in1: int, lanes: int) -> np.ndarray:
    """For ``v`` of shape (n, ..., size1): the sum of each column over axis 0, in the block
    PyTorch picks from the strides of the two inner dims (``in0`` reduced, ``in1`` next)."""
    size0, size1 = v.shape[0], (v.shape[-1] if v.ndim > 1 else 1)
    if in0 == 1 and size0 >= lanes:
        return _inner(v, lanes)
    if in1 == 1 and size1 >= lanes:
        return _columns(v, _GROUP * lanes)
    if in0 < in1 or v.ndim == 1:
        return _row_sum(v)
    return _columns(v, _GROUP)


def _lanes(x: np.ndarray) -> int:
    return LANES * 4 // x.itemsize


def _serial(x: np.ndarray, dims, cuts=None) -> np.ndarray:
    """The sums of a whole iteration, each output on one thread. ``cuts``: the pieces of the
    second dim that threads take (PyTorch's blocks of columns restart in each)."""
    order = [a for d in reversed(dims) for a in d[3]]
    v = x.transpose(order + [a for a in range(x.ndim) if a not in order])
    v = np.moveaxis(v.reshape([d[0] for d in reversed(dims)]), -1, 0)
    in1 = dims[1][1] if len(dims) > 1 else 0
    if cuts is None:
        c = _contributions(v, dims[0][1], in1, _lanes(x))
    else:
        c = np.concatenate([_contributions(v[..., b:e], dims[0][1], in1, _lanes(x))
                            for b, e in cuts], axis=-1)
    reduced = sum(d[2] for d in dims[1:])  # further reduced dims: added one by one
    if reduced:
        c = c.reshape(c.shape[:c.ndim - reduced] + (-1,))
        c = _seq(np.moveaxis(c, -1, 0))
    return c


def _chunks(n: int, threads: int, grain: int = GRAIN):
    """PyTorch's (OpenMP) split of ``range(n)`` into one piece per thread."""
    threads = min(threads, -(-n // grain))
    size = -(-n // threads)
    return [(b, min(n, b + size)) for b in range(0, n, size)], threads


def _split_total(x: np.ndarray, dims, threads: int) -> np.ndarray:
    """A sum down to one number on several threads: one chunk each, then the chunk sums."""
    flat = x.transpose([a for d in reversed(dims) for a in d[3]]).reshape(-1)
    s0, in0 = dims[0][0], dims[0][1]
    in1 = dims[1][1] if len(dims) > 1 else 0
    pieces, used = _chunks(flat.size, threads)
    parts = np.zeros(max(threads, used), x.dtype)
    for t, (b, e) in enumerate(pieces):
        calls, off = [], b
        while off < e:  # PyTorch's DimCounter: a partial row, whole rows, a partial row
            step0 = min(s0 - off % s0, e - off)
            rows = max(1, (e - off) // s0) if off % s0 == 0 else 1
            rows = min(rows, (dims[1][0] - off // s0 % dims[1][0]) if len(dims) > 1 else 1)
            block = flat[off:off + step0] if rows == 1 else flat[off:off + rows * s0]
            block = block if rows == 1 else block.reshape(rows, s0).T
            calls.append(_contributions(block, in0, in1, _lanes(x)).reshape(-1))
            off += step0 * rows
        parts[t] = _seq(np.concatenate(calls))
    return _contributions(parts, 1, 0, _lanes(x))


def _column_cuts(dims, threads: int, itemsize: int):
    """Where PyTorch's threads cut the second dim of a sum over dims (None: nowhere that
    matters). It splits the outermost kept dim of at least ``threads`` elements."""
    kept = [i for i, d in enumerate(dims) if not d[2]]
    split = next((i for i in reversed(kept) if dims[i][0] >= threads),
                 max(reversed(kept), key=lambda i: dims[i][0]))
    if split != 1:
        return None
    size, stride = dims[1][0], dims[1][1]
    pieces, _ = _chunks(size, threads, 1)
    if stride == 1:  # whole 128-byte lines per thread
        line = 128 // itemsize
        pieces = [(b - b % line, e if e == size else e - e % line) for b, e in pieces]
    return [(b, e) for b, e in pieces if b < e]


_LEADING = [tuple(range(k)) for k in range(65)]  # (NumPy has at most 64 dims)


def _outer(x: np.ndarray, k: int, keepdims: bool) -> np.ndarray:
    """A sum over the ``k`` leading dims of a contiguous ``x`` (a bias's gradient, ``(64, 128)``
    to ``(128,)``): PyTorch's layout is then always rows of ``m`` columns summed column by
    column, so ``_columns`` runs at once, without ``_layout``."""
    shape = x.shape
    if k == 1 and len(shape) == 2 and not keepdims and shape[0] > 1 and shape[1] > 1:
        m, a = shape[1], x  # (the common case, a bias over a batch: already rows of columns)
    else:
        n = 1
        for s in shape[:k]:
            n *= s
        m = x.size // n
        kept = (1,) * k + shape[k:] if keepdims else shape[k:]
        if n == 1:  # only dims of size 1 summed: each element is 0 + itself
            return (x + x.dtype.type(0)).reshape(kept)
        if m == 1:  # every kept dim of size 1: one contiguous row
            return reduce_sum(x.reshape(-1)).reshape(kept)
        return _outer(x.reshape(n, m), 1, False).reshape(kept)
    lanes = LANES * 4 // x.itemsize
    if m % (_GROUP * lanes) == 0:  # (whole groups of columns: _columns' first case, at once)
        return _cascade(a)
    return _columns(a, _GROUP * lanes if m >= lanes else _GROUP)


def sum_leading(x: np.ndarray, k: int) -> np.ndarray:
    """``reduce_sum(x, (0, ..., k - 1))``: a bias's gradient summed over the batch, with
    :func:`_outer` reached at once for a small contiguous ``x``."""
    if x.flags.c_contiguous and 0 < x.size < GRAIN:
        return _outer(x, k, False)
    return reduce_sum(x, _LEADING[k])


def reduce_sum(x: np.ndarray, axes=None, keepdims=False) -> np.ndarray:
    """``np.add.reduce(x, axes)`` for float32/float64 ``x`` in PyTorch's order of additions."""
    if axes is None and x.size < 16 << (x.itemsize == 4) and x.flags.c_contiguous and x.size:
        out = _short(x.reshape(-1), LANES * 4 // x.itemsize)  # (quicker: under 4 vectors)
        return out.reshape((1,) * x.ndim if keepdims else ())
    keepdims = bool(keepdims)
    if type(axes) is int:
        axes = (axes,)
    if EXACT_LIMIT is not None and x.size > EXACT_LIMIT:  # NumPy's order (see EXACT_LIMIT)
        return np.add.reduce(x, axes if axes is None else tuple(axes), keepdims=keepdims)
    if type(axes) is tuple and x.flags.c_contiguous and 0 < len(axes) < x.ndim and \
            axes == _LEADING[len(axes)] and x.size < GRAIN and x.size:
        return _outer(x, len(axes), keepdims)
    threads = get_num_threads()
    if axes is None and x.flags.c_contiguous and (x.size < GRAIN or threads == 1) and x.size:
        flat, lanes = x.reshape(-1), _lanes(x)  # the common case: one contiguous row
        out = _short(flat, lanes) if x.size < 4 * lanes else _inner(flat, lanes)
        return out.reshape((1,) * x.ndim if keepdims else ())
    axes = set(range(x.ndim)) if axes is None else {a % max(x.ndim, 1) for a in axes}
    if any(s < 0 for s in x.strides):  # (PyTorch never has negative strides)
        x = np.ascontiguousarray(x)
    shape = tuple(s for i, s in enumerate(x.shape) if i not in axes)
    kept = tuple(1 if i in axes else s for i, s in enumerate(x.shape)) if keepdims else shape
    if x.size == 0 or not axes or x.ndim == 0:
        return np.add.reduce(x, tuple(axes), keepdims=keepdims) + x.dtype.type(0)
    dims = _layout(x.shape, [s // x.itemsize for s in x.strides], axes)
    if not dims or not dims[0][2]:  # only dims of size 1 reduced: each element is 0 + itself
        return (x + x.dtype.type(0)).reshape(kept)
    if x.size < GRAIN or threads == 1:
        return np.asarray(_serial(x, dims)).reshape(kept)
    if all(d[2] for d in dims):
        return _split_total(x, dims, threads).reshape(kept)
    return np.asarray(_serial(x, dims, _column_cuts(dims, threads, x.itemsize))).reshape(kept)


# ---------------------------------------------------------------- nll_loss's own sum
_NLL_LEVELS = 8  # nll_loss (LossNLL.cpp) sums its samples with a cascade of its own


def _nll_level(u: np.ndarray):
    """One level of nll_loss's cascade: (what it passes up, what it keeps). A level passes its
    first value up at once, then every 16 values as one sum (summed left to right)."""
    rest = u[1:]
    full = rest.shape[0] // 16 * 16
    groups = _seq(rest[:full].reshape(-1, 16), 1) if full else rest[:0]
    return np.concatenate([u[:1] + u.dtype.type(0), groups]), _seq(rest[full:])


def nll_total(values: np.ndarray, kept=None) -> np.ndarray:
    """The sum of nll_loss's per-sample ``values`` (one per row of a 1-D or 2-D input) in its
    order: sample ``b`` is added to level 0, and where ``b`` is a multiple of 16, 256, 4096, ...
    levels pass their sums one level up. An ignored sample (``kept`` False) passes nothing up.
    """
    if kept is not None and not kept.all():  # ignored samples: simulate it sample by sample
        acc = [values.dtype.type(0)] * _NLL_LEVELS
        for b in np.flatnonzero(kept).tolist():
            acc[0] = acc[0] + values[b]
            for j in range(_NLL_LEVELS - 1):
                if b & (15 << (4 * j)):
                    break
                acc[j + 1], acc[j] = acc[j + 1] + acc[j], values.dtype.type(0)
        return _seq(np.array(acc, values.dtype))
    n = values.shape[0]
    if 0 < n <= 256:  # (quicker) sample 0 goes to the top; the 16s; what is left; then sample 0
        k = (n - 1) // 16 * 16
        sixteens = np.add.accumulate(values[1:1 + k].reshape(-1, 16), axis=1)[:, -1]
        row = np.concatenate([values[1 + k:], np.add.accumulate(sixteens)[-1:], values[:1]])
        return np.add.accumulate(row)[-1] + _ZERO[row.dtype.char][0]
    kept_levels, u = [], values
    while len(kept_levels) < _NLL_LEVELS - 1 and u.shape[0] > 1:
        u, left = _nll_level(u)
        kept_levels.append(left)  # (a level's first value goes straight up to the top)
    return _seq(np.array(kept_levels + [_seq(u)], values.dtype))
