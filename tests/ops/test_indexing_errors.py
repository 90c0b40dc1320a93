"""Indexing's errors, against PyTorch: ``x[index]``, ``x[index] = value``, ``index_put`` and
``index_put_`` give PyTorch's exception type and message, in PyTorch's order of checks.

index_put(_) checks the number of indices, then (in place) the memory the values and the index
tensors share with the tensor written, then the indices (dtypes, masks, broadcasting, a
dimension of size 0), the values' shape, their dtype, and last each index value's bounds
(named by the index's place among the index tensors, and not checked when nothing is read).
The fuzzer found most of these (tests/fuzz/known_open/dtypes.txt, index_put/getitem/setitem).
"""

from __future__ import annotations

import warnings

import pytest
from helpers import assert_same_outcome

import minigrad as mg

pytestmark = pytest.mark.torch

T, F3 = "lib.tensor", "lib.ones(3)"


def put(x: str, index: str, value: str) -> str:
    """``x[index] = value``, then ``x``."""
    return f"(lambda x: (x.__setitem__({index}, {value}), x)[1])({x})"


COUNT = [  # too many indices: PyTorch's IndexError names the count
    f"{F3}.index_put(({T}([0]), {T}([0])), {T}(1.))",
    f"{F3}.index_put_(({T}([0]), {T}([0])), {T}(1.))",
    f"{F3}.index_put(({T}([0]), {T}([0])), {T}(1.), True)",
    f"{T}(1.).index_put(({T}([0]),), {T}(1.))",
    f"{T}(1.).index_put_(({T}(0),), {T}(2.))",
    f"{T}(1.).index_put_(({T}(True),), {T}(2.))",
    f"{T}(1.).index_put_(({T}(True), {T}(True)), {T}(2.))",
    f"{T}(1.).index_put_(({T}([True]),), {T}(2.))",
    f"{T}(1, dtype=lib.int64).index_put_(({T}(1.),), {T}(2.))",
    f"(lambda x: x.index_put_((x,), {T}(1)))({T}(1.))",
    f"lib.ones(2, 3).index_put((lib.ones(2, 3) > 0, {T}([0])), {T}(1.))",
    f"lib.ones(2, 3).index_put(({T}([0]), lib.ones(3, 2) > 0), {T}(1.))",
]

BOUNDS = [  # out of bounds: the first bad element, its first bad index, numbered among them
    f"{F3}.index_put_(({T}([5]),), {T}(1.))",
    f"{F3}.index_put_(({T}([-5]),), {T}(1.), True)",
    f"lib.ones(2, 3).index_put_(({T}([0, 5]), {T}([5, 0])), lib.ones(1))",
    f"lib.ones(2, 3).index_put_(({T}([0, 5]), {T}([5, 0])), lib.ones(1), True)",
    f"lib.ones(2, 3)[{T}([0, 5]), {T}([5, 0])]",
    f"lib.ones(2, 3)[:, {T}([5])]",
    f"lib.ones(2, 3, 4)[{T}([0, 1]), :, {T}([5, 0])]",
    f"lib.ones(2, 3, 4)[:, {T}([0, 1]), {T}([1, 7])]",
    f"lib.ones(2, 3, 4)[:, :, {T}([0, 7])]",
    f"lib.ones(2, 3, 4)[lib.ones(2, 3) > 0, {T}([0, 7, 1, 2, 3, 0])]",
    f"lib.ones(2, 3)[{T}([[0, 1], [0, 1]]), {T}([[0, 1], [4, 1]])]",
    f"lib.ones(0, 3)[:, {T}([5])]",  # nothing is read: no error
    f"lib.ones(2, 0, 3)[:, :, {T}([5])]",
    f"lib.ones(0, 3).index_put_((None, {T}([5])), lib.ones(1))",
    f"lib.ones(2, 0).index_put_(({T}([5]), {T}([0])), lib.ones(1))",  # size 0 comes first
    f"lib.ones(2, 0).index_put_(({T}([0]), {T}([0])), lib.ones(1, dtype=lib.float64))",
    f"lib.ones(2, 0).index_put_(({T}([0]), {T}([0])), lib.ones(3))",
    f"lib.ones(0, dtype=lib.bool).index_put_(({T}([0]),), {T}(1.))",
    f"lib.ones(0, dtype=lib.int64).index_put(({T}([0]),), {T}([1.]))",
    "lib.tensor(1.)[1]", "lib.tensor(1.)[-1]", "lib.tensor(1.)[0]", "lib.tensor(1.)[1,]",
    f"lib.tensor(1.)[{T}(1)]",
    # an int out of bounds: named by its place in the index tuple
    "lib.ones(2, 3, 1)[..., -2]", "lib.ones(2, 3)[0, 5]", "lib.ones(2, 3)[None, 0, 5]",
    "lib.ones(2, 3)[True, 0, 5]", "lib.ones(2, 3, 4)[0, ..., 9]", "lib.ones(2, 3, 4)[0, 0, 9]",
    "lib.ones(2, 3, 4)[lib.ones(2, 3) > 0, 9]", f"lib.ones(2, 3, 4)[0, {T}([0]), 9]",
    "lib.ones(2, 3)[..., None, 5]", put("lib.ones(2, 3, 1)", "(Ellipsis, -2)", "1."),
    # a transposed index tensor is read in its memory order (TensorIterator's order by the
    # index tensors' strides: fuzz seed 6013)
    f"(i := {T}([[2, 5, 4], [4, -2, -1]]).t(), lib.ones(3, 2)[i])",
    f"(i := {T}([[2, 5, 4], [4, -2, -1]], dtype=lib.int32).t(), i[i], i[:, i], i[i, i])",
    f"lib.ones(3, 3)[{T}([[0, 5], [7, 1]]).t(), {T}([[0, 1], [8, 1]])]",
    f"lib.ones(3, 3)[{T}([[0, 1], [1, 1]]), {T}([[0, 5], [7, 1]]).t()]",
    f"lib.ones(9, 9)[{T}([[0, 15], [17, 11]]).t()[None].expand(3, 2, 2)]",
    f"lib.ones(9, 9).index_put_(({T}([[0, 15], [17, 11]]).t(),), lib.ones(1))",
]

SHAPES = [  # the values must expand to the indexing result (after the index checks)
    f"lib.ones(3, 2).index_put(({T}([0, 1]),), lib.ones(3, 3))",
    f"lib.ones(3, 2).index_put_(({T}([0, 1]),), lib.ones(2, 2, 2), True)",
    f"lib.ones(3, 2).index_put_(({T}([0, 1]),), lib.ones(1, 2, 2))",
    f"lib.ones(3, 2).index_put_(({T}([0, 1]),), lib.ones(1, 2, 2), True)",
    f"lib.ones(1, 2).index_put(({T}([0]),), lib.ones(2, 2))",
    f"lib.ones(4).index_put(({T}([0]),), lib.ones(4))",
    f"lib.ones(2, 3, 1).index_put(({T}([0]),), lib.ones(2, 3, 1))",
    f"lib.ones(2, 3).index_put_(({T}([5]), {T}([0])), lib.ones(2))",
    f"lib.ones(2, 3, 4).index_put_(({T}([0, 1]), slice(None), {T}([0, 1])), lib.ones(3, 2))",
    f"lib.ones(2, 3).double().index_put_(({T}([0]),), lib.ones(3, 2))",
    f"lib.ones(3).index_put_(({T}([True, False, True]),), lib.ones(1, 1, dtype=lib.float64))",
    put("lib.ones(2, 3)", f"{T}([True, True])", "lib.ones(2, 0, dtype=lib.float64)"),
    put("lib.ones(2, 3)", f"{T}([True, True])", "lib.ones(2, 2, dtype=lib.float64)"),
    put("lib.ones(2, 3)", f"{T}([True, True])", "lib.ones(3, dtype=lib.float64)"),
    put("lib.ones(3, 2)", "[0, -1]", "lib.ones(6)"),
    put("lib.ones(3, 2)", "lib.ones(3, 2) > 0", "lib.ones(3, 2, 1)"),
]

MEMORY = [  # values or an index sharing the written tensor's memory (in place only)
    f"(lambda x: x.index_put_(({T}([0]),), x))({F3})",
    f"(lambda x: x.index_put(({T}([0]),), x))({F3})",
    f"(lambda x: x.index_put_(({T}([0]),), x[1]))({F3})",
    f"(lambda x: x.index_put_(({T}([0]),), x[:1]))({F3})",
    f"(lambda x: x.index_put_(({T}([0]),), x.detach()[2:]))({F3})",
    f"(lambda x: x.index_put_(({T}([0]),), x, True))({F3})",
    "(lambda x: x.index_put_((x,), x[:1]))(lib.tensor([0, 1]))",
    f"(lambda x: x.index_put_((x,), {T}([True, False])))(lib.tensor([0, 1], dtype=lib.int32))",
    f"(lambda x: x.index_put_((x,), {T}([1, 0])))(lib.tensor([True, False]))",
    f"(lambda x: x.index_put_((x[:1],), {T}(1)))(lib.tensor([0, 1]))",
    f"(lambda x: x.index_put_((x,), {T}(1.)))(lib.tensor([0., 1.]))",
    f"(lambda x: x.index_put_((x,), {T}(1.), True))(lib.tensor([0., 1.]))",
    "(lambda x: x.index_put_((x > 0,), x[:1]))(lib.tensor([0., 1.]))",  # one value: fills
    "(lambda x: x.index_put_((x.bool(),), x[:1]))(lib.tensor([0., 1.]))",
    put(F3, f"{T}([0, 1])", "lib.ones(2)"),
    put("lib.tensor(1.)", "None", "lib.tensor(2.)"),
    "(lambda x: (x.__setitem__(None, x), x)[1])(lib.ones(3))",
    "(lambda x: (x.__setitem__(None, x), x)[1])(lib.tensor(1.))",
    "(lambda x: (x.__setitem__([0, -1], x), x)[1])(lib.ones(3, 1))",
    "(lambda x: (x.fill_(x[1]), x)[1])(lib.arange(3.))",
    # into expanded memory only the indexed elements are written (aliases show the last write)
    f"(lambda v: (v.index_put_(({T}([0]),), {T}([1., 2.])), v)[1])(lib.ones(3, 2).expand(2, 3, 2))",
    f"(lambda v: (v.index_put_(({T}([0]),), {T}([1., 2.]), True), v)[1])"
    "(lib.ones(3, 2).expand(2, 3, 2))",
    f"(lambda v: (v.index_put_(({T}([0, 1]),), {T}([[1.], [2.]])), v)[1])(lib.ones(1, 2).expand(2, 2))",
    put("lib.ones(1, 2).expand(3, 2)", f"{T}([1])", "5."),
    put("lib.ones(1, 2).expand(3, 2)", f"{T}([True, False, False])", "5."),
    put("lib.ones(1, 2).expand(3, 2)", f"(slice(None), {T}([1]))", "5."),
    f"(lambda b: (b[0].expand(3, 2).index_put_(({T}([2]),), {T}(7.)), b)[1])(lib.zeros(2, 2))",
]

DTYPES = [  # index dtypes, lists as indices, one value through a mask, numbers set
    f"{F3}[{T}([1], dtype=lib.int16)]", f"{F3}[{T}([], dtype=lib.int16)]",
    f"{F3}[{T}([1], dtype=lib.int8)]", f"{F3}[{T}([1], dtype=lib.int32)]",
    f"lib.ones(2, 3)[{T}([1], dtype=lib.int16), 0]",
    f"lib.ones(2, 3)[0, {T}([1], dtype=lib.int16)]",
    f"lib.ones(2, 3)[{T}([1.]), 5]", f"lib.ones(2, 3)[{T}([1]), {T}([1], dtype=lib.int16)]",
    f"{F3}.index_put_(({T}([1], dtype=lib.int16),), {T}(1.))",
    f"{F3}.index_put_(({T}([1], dtype=lib.int8),), {T}(1.))",
    put(F3, f"{T}([1], dtype=lib.int16)", "2."),
    f"{F3}[{T}(1, dtype=lib.int16)]", f"{F3}[{T}(0, dtype=lib.uint8)]",
    f"lib.arange(3.)[{T}(1, dtype=lib.uint8)]", f"lib.arange(3.)[{T}(1, dtype=lib.uint8), 0]",
    f"lib.arange(6.).view(2, 3)[0, {T}(0, dtype=lib.uint8)]",
    f"lib.arange(6.).view(2, 3)[{T}(1, dtype=lib.uint8), 1]",
    "lib.arange(3.)[[1.7]]", "lib.arange(3.)[[1.7, 0]]", "lib.arange(3.)[[True, 1.5]]",
    "lib.arange(3.)[[]]", "lib.arange(3.)[[True, False, True]]",
    put(F3, f"{T}([0, 1])", "False"), put("lib.ones(3, dtype=lib.int64)", f"{T}([0, 1])", "True"),
    put("lib.ones(3, dtype=lib.int32)", "lib.ones(3) > 0", "True"),
    put("lib.ones(1)", f"{T}([0, 0])", "False"), put(F3, f"{T}([0, 1])", "2"),
    put("lib.ones(2, 3)", f"(slice(None), {T}([True, False, True]))", f"{T}(5., dtype=lib.float64)"),
    put("lib.ones(2, 3)", f"(slice(None), {T}([True, False, True]))", "lib.ones(1, 1, 1)"),
    f"{F3}.index_put_(({T}([True, False, True]),), lib.ones(1, dtype=lib.float64))",
    f"{F3}.index_put_(({T}([True, False, True]),), lib.ones(1, dtype=lib.float64), True)",
]

ZERO_D_MASKS = [  # given to index_put, a 0-d mask is dropped; one value fills all or nothing
    f"lib.ones(2, 2).index_put(({T}([-2]), {T}(True)), lib.ones(3, 3))",
    f"lib.ones(0).index_put_(({T}(True),), lib.ones(3, 2), True)",
    f"lib.ones(2, 2).index_put(({T}([-2, 1]), {T}(False)), {T}(5.))",
    f"lib.ones(3, 2).index_put(({T}([-2, -3]), {T}(False)), {T}(5.))",
    f"lib.arange(6.).view(3, 2).index_put(({T}(False),), {T}(5.))",
    f"lib.arange(6.).view(3, 2).index_put(({T}(True),), {T}([5.]))",
    f"lib.ones(1, 2, 1).index_put_(({T}([[0, 3], [3, -2]]), {T}(True), {T}(False)), {T}(1.))",
    # nothing is read: no error (NumPy's IndexError must not leak)
    f"lib.ones(1, 0, 3).index_put_(({T}([], dtype=lib.int32), {T}(-4, dtype=lib.int32)), "
    f"{T}(1.), True)",
    f"lib.ones(0, 2).index_put_(({T}(2), {T}([[]], dtype=lib.int64)), {T}(1.))",
    # one value: the mask met first is checked before another index's dtype
    f"lib.ones(1, 2, 1).index_put_((lib.ones(3, 1) > 2, {T}(-1, dtype=lib.int16)), {T}(1.))",
    f"lib.ones(1, 2, 1).index_put_((lib.ones(3, 1) > 2, {T}(-1, dtype=lib.int16)), lib.ones(2))",
    # the index shapes must broadcast before there may be too many dimensions
    f"lib.ones(0, 0, 1).index_put_((lib.ones(0, 0) > 0, {T}(-2), {T}([[4, 0], [4, 2]])), "
    "lib.ones(3, 2), True)",
]

ARGUMENTS = [  # index_put(_) takes a tuple of tensors (PyTorch's TypeErrors come first)
    f"{F3}.index_put_((None,), 5)", f"{F3}.index_put_(([0],), lib.ones(1))",
    f"{F3}.index_put_({T}([0]), lib.ones(1))", f"{F3}.index_put_(({T}([0]), 0), lib.ones(1))",
    "lib.ones(3, requires_grad=True).index_put_((None,), lib.ones(1))",
    f"{F3}.index_put([None], lib.ones(1))", f"lib.ones(2, 3).index_put((None, {T}([5])), {T}(1.))",
    f"{F3}.index_put_(({T}([0]),), 1.)",
]

ORDER = [  # a bad index of the basic part comes before the in-place checks
    put("lib.ones(0, 1, requires_grad=True)[..., None]", f"{T}(0)", "lib.ones(1)"),
    put("lib.ones(0, 1, requires_grad=True)", "0", "lib.ones(1)"),
    put("lib.ones(2, 1, requires_grad=True)[:]", "5", "lib.ones(1)"),
    put("lib.ones(2, 1, requires_grad=True)", "(0, 0, 0)", "lib.ones(1)"),
    put("lib.ones(2, 1, requires_grad=True)", f"(0, {T}([1.]))", "lib.ones(1)"),
    put("lib.ones(2, 1, requires_grad=True)", f"{T}([])", "1."),
    put("lib.ones(2, 1)", f"({T}([1.]), 5)", "lib.ones(1)"),
    f"lib.tensor(1., requires_grad=True).index_put_(({T}([0]),), {T}(1.))",
    f"lib.ones(2, requires_grad=True).index_put_(({T}([0]), {T}([0])), {T}(1.))",
    # copying into an integer or bool view records nothing: no view is refused
    put("lib.no_grad()(lambda: lib.tensor([0], dtype=lib.int32)[::2])()", "slice(0, None)",
        "lib.ones(1, dtype=lib.float64, requires_grad=True)"),
    "lib.no_grad()(lambda: lib.tensor([True, False])[::2])().copy_(lib.ones(1, requires_grad=True))",
    "lib.tensor([0, 1]).split(1)[0].copy_(lib.ones(1, requires_grad=True))",
    "lib.tensor([0, 1]).unbind(0)[0].copy_(lib.ones(2, requires_grad=True))",
    "lib.no_grad()(lambda: lib.tensor([0])[::2])().add_(lib.ones(1, requires_grad=True))",
    "lib.no_grad()(lambda: lib.ones(2)[::2])().copy_(lib.ones(1, requires_grad=True))",
] + [  # values: a view made in no_grad whose base then changed: refused before any index check
    "(lambda b, v: (b.mul_(2), " + call + "))(*(lambda b: (b, lib.no_grad()(lambda: b[:1])()))"
    "(lib.ones(2, requires_grad=True) * 1))"
    for call in (f"(lib.ones(3, requires_grad=True) * 1).index_put_(({T}([0]), {T}([0])), v)",
                 f"(lib.ones(3, requires_grad=True) * 1).index_put(({T}([0]),), v[:2])",
                 f"(lib.ones(3, requires_grad=True) * 1).index_put_(({T}([7]),), v)",
                 f"lib.ones(3).index_put_(({T}([7]),), v)")]


@pytest.mark.parametrize("code", COUNT + BOUNDS + SHAPES + MEMORY + DTYPES + ZERO_D_MASKS
                         + ARGUMENTS + ORDER)
def test_indexing_raises_what_pytorch_raises(torch, code):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (uint8 masks: PyTorch's deprecation warning)
        assert_same_outcome(torch, code)


def _warned(lib, code: str) -> list:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        eval(code, {"lib": lib})  # noqa: S307
    return [(w.category.__name__, str(w.message).split(" (Triggered")[0], w.filename)
            for w in seen]


@pytest.mark.parametrize("code", [
    "lib.zeros(3).expand(2, 3).index_put_((lib.tensor([0]),), lib.tensor(1.))",
    "lib.zeros(3).expand(2, 3).index_put_((lib.tensor([0]),), lib.ones(3), True)",
    "lib.zeros(3).expand(2, 3).index_put_((lib.tensor([True, False]),), lib.tensor(1.))",
    "lib.zeros(3).expand(2, 3).index_put((lib.tensor([0]),), lib.tensor(1.))",
    "lib.zeros(3).expand(2, 3).masked_fill_(lib.tensor(True), 1.)",
    "(lambda x: x.__setitem__(x == 0, 2.))(lib.zeros(3).expand(2, 3))",
    "(lambda x: x.__setitem__(lib.tensor([1]), 2.))(lib.zeros(3).expand(2, 3))",
])
def test_writes_into_expanded_memory_warn_as_pytorch(torch, code):
    """index_put_ into expanded memory is deprecated, not refused; one value through a mask
    also gives masked_fill_'s warning. The warning points at the caller's line."""
    assert _warned(mg, code) == _warned(torch, code)


@pytest.mark.parametrize("size, shape", [
    ((3,), (1, 3)), ((3,), (1, 1, 3)), ((3,), (2, 1, 3)), ((3,), (1, 2, 3)), ((1,), (1, 1, 4)),
    ((1,), (1, 4, 1)), ((3, 1), (1, 3, 1)), ((3, 1), (1, 3, 5)), ((), (1,)), ((), (1, 1)),
    ((), (2, 1)),
])
def test_expand_gives_new_dimensions_pytorch_strides(torch, size, shape):
    """A new dimension of size 1 has the stride of the dimensions after it (so that
    ``x[None] = x`` is a full overlap, allowed, and not a partial one)."""
    assert mg.ones(size).expand(shape).stride() == torch.ones(size).expand(shape).stride()
