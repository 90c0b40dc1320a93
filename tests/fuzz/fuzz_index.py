"""The fuzzer's index expressions: what goes between the brackets of ``x[...]`` (read, and write
by setitem) and the index tuples of ``index_put``/``index_put_``.

Basic forms (ints, slices, ``None``, ``...``, ``()``), masks and index tensors, and the forms
tutorials write: a Python ``range`` (``y_hat[range(len(y_hat)), y]``), lists, tuples of lists,
bool lists, all mixed with slices, ``None`` and ``...``; a negative step now and then (PyTorch
refuses it: its error is compared). Everything is drawn from ``rng`` and ``x``'s shape as
PyTorch has it.
"""

from __future__ import annotations


def index(rng, x) -> str:
    """An index expression for ``x`` (a ``fuzz_gen.Var``)."""
    if not x.shape or rng.random() < 0.12:
        return rng.choice(["...", "None", "()", "..., None"] + (["0"] if x.shape else []))
    r = rng.random()
    if r < 0.12:
        return rng.choice([f"{x.name} > 0", f"lib.tensor([{x.shape[0] - 1}, 0])",
                           f"lib.tensor([True] * {x.shape[0]})", "[0, -1]", "lib.tensor(0)"])
    if r < 0.45:
        return _advanced(rng, x.shape)
    return _basic(rng, x.shape)


def _basic(rng, shape: tuple) -> str:
    parts = []
    for size in shape[:rng.randint(1, len(shape))]:
        r = rng.random()
        if r < 0.35 and size:
            parts.append(str(rng.randrange(-size, size)))
        elif r < 0.75:
            a, b = rng.randrange(-1, size + 1), rng.randrange(0, size + 2)
            parts.append(rng.choice([f"{a}:", f":{b}", f"{a}:{b}", "::2", ":"]))
        elif r < 0.97:
            parts.append(rng.choice([":", "None", "...", "1:"]))
        else:
            parts.append("::-1")  # PyTorch: ValueError, step must be greater than zero
    if parts.count("...") > 1:
        parts = [p for p in parts if p != "..."]
    return ", ".join(parts)


def _positions(rng, size: int, n: int | None = None) -> list:
    """``n`` positions along a dim of ``size`` (negative ones too; one out of range rarely)."""
    n = n if n is not None else rng.randint(1, 3)
    if not size or rng.random() < 0.04:
        return [size] * n  # out of range: IndexError in both
    return [rng.randrange(-size, size) for _ in range(n)]


def _one_dim(rng, size: int, n: int | None = None) -> str:
    """An advanced index for one dim: a range, a list, a bool list or an index tensor."""
    r = rng.random()
    if r < 0.25 and n is None:
        return rng.choice([f"range({size})", f"range({size} - 1, -1, -1)",
                           f"range(0, {size}, 2)", "range(1)"])
    if r < 0.4 and n is None:
        bools = [rng.random() < 0.5 for _ in range(size if rng.random() < 0.9 else size + 1)]
        return str(bools)
    pos = _positions(rng, size, n)
    if r < 0.75:
        return str(pos)
    return f"lib.tensor({pos})"


def _advanced(rng, shape: tuple) -> str:
    """Lists, ranges, bool lists, tuples of lists, mixed with slices, None and Ellipsis."""
    nd = len(shape)
    form = rng.choice(["one", "one", "tuple", "mixed", "mixed", "ellipsis"])
    if form == "one":
        return _one_dim(rng, shape[0])
    if form == "tuple" and nd >= 2:  # x[[0, 1], [2, 0]]: paired positions
        n = rng.randint(1, 3)
        return ", ".join(_one_dim(rng, s, n) for s in shape[:rng.randint(2, nd)])
    if form == "ellipsis":
        return rng.choice([f"..., {_one_dim(rng, shape[-1])}", f"{_one_dim(rng, shape[0])}, ...",
                           f"None, ..., {_one_dim(rng, shape[-1])}"])
    parts = []
    for size in shape:
        r = rng.random()
        parts.append(_one_dim(rng, size, 2) if r < 0.4 else rng.choice([":", "1:", ":1"])
                     if r < 0.8 else "None")
    if rng.random() < 0.3:
        parts.insert(rng.randrange(len(parts) + 1), "None")
    return ", ".join(parts)


def index_tuple(rng, x) -> str:
    """The indices of ``index_put``: a tuple of index tensors (long or bool) for ``x``."""
    if not x.shape:
        return "(lib.tensor([0]),)" if rng.random() < 0.5 else "()"
    k = rng.randint(1, min(2, len(x.shape)))
    if rng.random() < 0.25:  # a mask over the first dim
        return f"(lib.tensor({[rng.random() < 0.5 for _ in range(x.shape[0])]}),)"
    n = rng.randint(1, 3)
    return "(" + ", ".join(f"lib.tensor({_positions(rng, s, n)})" for s in x.shape[:k]) + ",)"
