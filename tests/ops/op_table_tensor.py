"""A table of minigrad's shape, indexing, in-place, comparison and conversion ops.

The companion of tests/ops/op_table.py (same :class:`OpCase`: ``fn(lib, *inputs)`` written once
for both libraries, ``shapes`` of the float inputs, ``domain`` where they are drawn). In-place
entries work on a non-leaf copy (``x * 1``) so that both libraries allow them; several entries
return a tensor that went through ``CopySlices`` or ``AsStridedBackward0``. Every differentiable
entry passes ``gradcheck`` and ``gradgradcheck`` on float64 inputs. Used by
tests/ops/test_ops_tensor.py (values, gradients, graphs, saved attributes against torch) and meant
for gradcheck over every entry::

    from op_table import sample
    from op_table_tensor import TENSOR_OPS
"""

from __future__ import annotations

from op_table import OpCase, assert_same_value, nodes, saved_names

__all__ = ["TENSOR_OPS", "BY_NAME", "MASK", "assert_same_saved"]

MASK = [[True, False, True], [False, True, True]]  # a fixed (2, 3) boolean mask


def _op(name, fn, *shapes, domain="real", **kw) -> OpCase:
    return OpCase(name, fn, tuple(shapes), domain, **kw)


def _mask(L):
    return L.tensor(MASK)


# ---------------------------------------------------------------- in-place recipes
def _iadd(L, x, y):
    a = x * 1
    a += y
    return a


def _imul_then_isub(L, x, y):
    a = x * 1
    a *= y
    a -= 1
    return a


def _itruediv(L, x, y):
    a = x * 1
    a /= y
    return a


def _view_mul_(L, x, y):
    a = x * 1
    a[0].mul_(y)
    return a


def _view_of_view_add_(L, x, y):
    a = x * 1
    a.t()[1:].add_(y)
    return a


def _setitem_row(L, x, y):
    a = x * 1
    a[:, 1] = y
    return a


def _setitem_scalar(L, x):
    a = x * 1
    a[0, 1:] = 2.0
    return a


def _setitem_into_plain_tensor(L, x):
    a = L.zeros(3, 3, dtype=x.dtype)
    a[1:] = x
    return a


def _setitem_index_list(L, x, v):
    a = x * 1
    a[[1, 0]] = v  # (repeated indices: see test_repeated_index_assignment_gradient_matches_torch)
    return a


def _setitem_mask(L, x):
    a = x * 1
    a[_mask(L)] = 0.5
    return a


def _setitem_mixed(L, x, v):
    a = x * 1
    a[0, [1, 2], 1:] = v
    return a


def _setitem_ellipsis_broadcast(L, x, v):
    a = x * 1
    a[...] = v
    return a


def _view_after_base_changed(L, x, y):
    a = x * 1
    v = a[0]
    a.mul_(2)
    return v * y


def _sibling_view_after_view_changed(L, x, y):
    a = x * 1
    w = a[:, 1]
    a[1].mul_(y)
    return w


def _index_put_accumulate(L, x, v):
    return x.index_put((L.tensor([0, 2, 0]),), v, accumulate=True)


def _split_all(L, x):
    first, second = x.split(2, 1)
    return first * 2 + second


def _unbind_all(L, x):
    a, b, c = x.unbind(1)
    return a + 2 * b * c


# ---------------------------------------------------------------- the table
MOVEMENT = [
    _op("view", lambda L, x: x.view(3, 2), (2, 3)),
    _op("view_infer", lambda L, x: x.view(-1, 4), (2, 3, 4)),
    _op("view_0d", lambda L, x: x.view(1, 1), ()),
    _op("reshape", lambda L, x: L.reshape(x, (3, 2)), (2, 3)),
    _op("reshape_of_transposed_copies", lambda L, x: x.t().reshape(-1), (2, 3)),
    _op("flatten", lambda L, x: x.flatten(), (2, 3, 4)),
    _op("flatten_from_1", lambda L, x: L.flatten(x, 1), (2, 3, 4)),
    _op("flatten_0d", lambda L, x: x.flatten(), ()),
    _op("view_as", lambda L, x, y: x.view_as(y), (2, 3), (6,)),
    _op("transpose", lambda L, x: x.transpose(0, -1), (2, 3, 4)),
    _op("transpose_function", lambda L, x: L.transpose(x, 1, 0), (2, 3)),
    _op("swapaxes", lambda L, x: x.swapaxes(-1, -2), (2, 3)),
    _op("permute", lambda L, x: x.permute(2, 0, -2), (2, 3, 4)),
    _op("permute_tuple", lambda L, x: L.permute(x, (1, 0)), (2, 3)),
    _op("t", lambda L, x: x.t(), (2, 3)),
    _op("t_1d", lambda L, x: L.t(x), (3,)),
    _op("T", lambda L, x: x.T, (2, 3)),
    _op("mT", lambda L, x: x.mT, (2, 3, 4)),
    _op("movedim", lambda L, x: x.movedim(0, 2), (2, 3, 4)),
    _op("squeeze", lambda L, x: x.squeeze(), (2, 1, 3, 1)),
    _op("squeeze_dim", lambda L, x: x.squeeze(-1), (2, 3, 1)),
    _op("squeeze_dims", lambda L, x: L.squeeze(x, (1, -1)), (2, 1, 3, 1)),
    _op("squeeze_non_1_dim", lambda L, x: x.squeeze(0), (2, 3)),
    _op("unsqueeze", lambda L, x: x.unsqueeze(0), (2, 3)),
    _op("unsqueeze_negative", lambda L, x: L.unsqueeze(x, -1), (2, 3)),
    _op("expand", lambda L, x: x.expand(2, 3), (1, 3)),
    # repeat's backward as PyTorch's repeat_backward: leading copies summed one by one, a
    # reshape and sum only where a dimension was repeated
    _op("repeat_leading_and_ones", lambda L, x: x.repeat(3, 2, 1, 2), (2, 1, 3)),
    _op("repeat_ones", lambda L, x: x.repeat(1, 1), (2, 3)),
    _op("tile_leading_only", lambda L, x: x.tile(2, 1, 1), (2, 3)),
    _op("expand_new_dims", lambda L, x: x.expand(4, -1, 3), (2, 1)),
    _op("expand_as", lambda L, x, y: x.expand_as(y), (3,), (2, 3)),
    _op("contiguous_of_transposed", lambda L, x: x.t().contiguous(), (2, 3)),
    _op("clone", lambda L, x: x.clone(), (2, 3)),
    _op("clone_function", lambda L, x: L.clone(x), (3,)),
    _op("cat", lambda L, x, y: L.cat([x, y]), (2, 3), (1, 3)),
    _op("cat_negative_dim", lambda L, x, y: L.cat((x, y, x), -1), (2, 3), (2, 1)),
    _op("cat_skips_1d_empty", lambda L, x: L.cat([L.zeros(0), x]), (2, 3)),
    _op("cat_promotes", lambda L, x, y: L.cat([x, y.double()]), (2,), (3,)),
    _op("stack", lambda L, x, y: L.stack([x, y]), (2, 3), (2, 3)),
    _op("stack_last_dim", lambda L, x, y: L.stack([x, y, x], -1), (2, 3), (2, 3)),
    _op("split_piece", lambda L, x: x.split(2, 1)[1], (2, 3)),
    _op("split_all", _split_all, (2, 4)),
    _op("split_sizes", lambda L, x: L.split(x, [1, 2], -1)[1], (2, 3)),
    _op("chunk", lambda L, x: x.chunk(2)[0], (3, 2)),
    _op("unbind", lambda L, x: x.unbind(1)[2], (2, 3)),
    _op("unbind_all", _unbind_all, (2, 3)),
    _op("tensor_split_sections", lambda L, x: x.tensor_split(3, dim=1)[2], (2, 7)),
    _op("tensor_split_indices", lambda L, x: L.tensor_split(x, [1, -1])[1], (5, 2)),
    _op("tensor_split_all", lambda L, x: L.cat(x.tensor_split(L.tensor([1, 3]), 1)[::-1], 1),
        (2, 4)),
    _op("narrow", lambda L, x: x.narrow(1, 1, 2), (2, 3)),
]

INDEXING = [
    _op("select", lambda L, x: x[1], (2, 3)),
    _op("select_negative", lambda L, x: x[-1], (2, 3)),
    _op("select_method", lambda L, x: x.select(1, -2), (2, 3)),
    _op("select_two", lambda L, x: x[1, 2], (2, 3)),
    _op("select_0d_tensor_index", lambda L, x: x[L.tensor(1)], (2, 3)),
    _op("slice", lambda L, x: x[1:], (3, 2)),
    _op("slice_step", lambda L, x: x[::2], (5, 2)),
    _op("slice_negative_start", lambda L, x: x[:, -2:], (2, 3)),
    _op("slice_past_end", lambda L, x: x[:, 1:10], (2, 3)),
    _op("slice_all_alone", lambda L, x: x[:], (2, 3)),
    _op("slice_all_in_tuple", lambda L, x: x[:, :], (2, 3)),
    _op("ellipsis", lambda L, x: x[...], (2, 3)),
    _op("ellipsis_then_int", lambda L, x: x[..., 0], (2, 3, 4)),
    _op("select_then_slice", lambda L, x: x[0, 1:3], (2, 3, 4)),
    _op("slice_then_select", lambda L, x: x[1:2, ..., 0], (2, 3, 4)),
    _op("none", lambda L, x: x[None], (2, 3)),
    _op("none_inside", lambda L, x: x[0, None, 1], (2, 3, 4)),
    _op("python_bool", lambda L, x: x[True], (2, 3)),
    _op("int_list", lambda L, x: x[[0, 0, 1]], (2, 3)),
    _op("int_tensor", lambda L, x: x[L.tensor([2, 0, 2, 2])], (3, 2)),
    _op("negative_int_list", lambda L, x: x[[-1, 0]], (2, 3)),
    _op("two_int_lists", lambda L, x: x[[0, 1, 1], [2, 2, 0]], (2, 3)),
    _op("int_list_second_dim", lambda L, x: x[:, [2, 0, 2]], (2, 3)),
    _op("int_lists_apart", lambda L, x: x[[0, 1], :, [3, 3]], (2, 3, 4)),
    _op("int_lists_broadcast", lambda L, x: x[[[0], [1]], [1, 2, 1]], (2, 3)),
    _op("int_after_select", lambda L, x: x[0, [1, 1]], (2, 3)),
    _op("int_after_slice", lambda L, x: x[1:, [0, 2]], (3, 3)),
    _op("bool_mask", lambda L, x: x[_mask(L)], (2, 3)),
    _op("bool_mask_rows", lambda L, x: x[L.tensor([True, False, True])], (3, 2)),
    _op("bool_list", lambda L, x: x[:, [True, False, True]], (2, 3)),
    _op("mask_then_slice", lambda L, x: x[_mask(L), 1:3], (2, 3, 4)),
    _op("where", lambda L, x, y: L.where(_mask(L), x, y), (2, 3), (3,)),
    _op("where_scalar", lambda L, x: L.where(_mask(L), x, 0.0), (2, 3)),
    _op("where_scalar_first", lambda L, y: L.where(_mask(L), 1.5, y), (2, 3)),
    _op("where_method", lambda L, x, y: x.where(_mask(L), y), (2, 3), (2, 3)),
    _op("masked_fill", lambda L, x: x.masked_fill(_mask(L), 0.5), (2, 3)),
    _op("masked_fill_broadcast_mask", lambda L, x: x.masked_fill(L.tensor([True, False]), -1.0),
        (3, 2)),
    _op("masked_fill_tensor_value", lambda L, x, v: L.masked_fill(x, _mask(L), v), (2, 3), ()),
    _op("index_put", lambda L, x, v: x.index_put((L.tensor([1, 0]),), v), (3, 2), (2,)),
    _op("index_put_accumulate", _index_put_accumulate, (3, 2), (2,)),
    _op("index_fill", lambda L, x: x.index_fill(1, L.tensor([0, 2]), -1.0), (2, 3)),
    _op("index_fill_negative_dim", lambda L, x: L.index_fill(x, -2, L.tensor(1), 2), (3, 2)),
    _op("index_fill_tensor_value", lambda L, x, v: x.index_fill(0, L.tensor([2, 0, 2]), v),
        (3, 2), ()),
]

ROWS_INDEX = [[0, 1], [2, 0], [1, 1]]  # a (3, 2) index along dim 1 of a (3, 4) tensor
ROWS_WRITTEN = [[0, 3], [2, 0], [1, 2]]  # the same, each position once (scatter's src)


def _rows(L, rows=ROWS_INDEX):
    return L.tensor(rows)


GATHER_SCATTER = [
    _op("gather", lambda L, x: x.gather(1, _rows(L)), (3, 4)),
    _op("gather_function_negative_dim", lambda L, x: L.gather(x, -2, L.tensor([[0, 2, 2, 1]])),
        (3, 4)),
    _op("gather_0d", lambda L, x: L.gather(x, 0, L.tensor([0, 0])), ()),
    _op("gather_int32_index", lambda L, x: x.gather(0, _rows(L).int()), (3, 2)),
    _op("gather_dqn", lambda L, q: q.gather(1, L.tensor([1, 0, 1]).unsqueeze(1)), (3, 2)),
    _op("index_select", lambda L, x: x.index_select(1, L.tensor([2, 0, 2])), (3, 4)),
    _op("index_select_function_negative_dim",
        lambda L, x: L.index_select(x, -2, L.tensor([1], dtype=L.int32)), (3, 4)),
    _op("index_select_0d_index", lambda L, x: x.index_select(0, L.tensor(1)), (3, 2)),
    _op("scatter_value", lambda L, x: x.scatter(1, _rows(L), 0.5), (3, 4)),
    _op("scatter_src", lambda L, x, s: L.scatter(x, 1, _rows(L, ROWS_WRITTEN), s), (3, 4),
        (3, 2)),
    _op("scatter_src_larger",
        lambda L, x: x.scatter(0, L.tensor([[2, 0]]), L.arange(6.0).reshape(2, 3).to(x.dtype)),
        (3, 2)),
    _op("scatter_add", lambda L, x, s: x.scatter_add(1, _rows(L), s), (3, 4), (3, 2)),
    _op("scatter_add_function", lambda L, x, s: L.scatter_add(x, 0, L.tensor([[2, 2, 0]]), s),
        (3, 3), (1, 3)),
    _op("index_add", lambda L, x, s: x.index_add(1, L.tensor([0, 2, 0]), s, alpha=2), (3, 4),
        (3, 3)),
    _op("index_add_function", lambda L, x, s: L.index_add(x, 0, L.tensor([1]), s), (3, 2),
        (1, 2)),
    _op("scatter_", lambda L, x, s: (x * 1).scatter_(1, _rows(L, ROWS_WRITTEN), s), (3, 4),
        (3, 2)),
    _op("scatter_value_", lambda L, x: (x * 1).scatter_(0, L.tensor([[1, 0]]), -1.0), (2, 2)),
    _op("scatter_add_", lambda L, x, s: (x * 1).scatter_add_(1, _rows(L), s), (3, 4), (3, 2)),
    _op("index_add_", lambda L, x, s: (x * 1).index_add_(0, L.tensor([2, 2]), s), (3, 2),
        (2, 2)),
]

CONVERSION = [
    _op("double", lambda L, x: x.double(), (2, 3)),
    _op("to_dtype", lambda L, x: x.to(L.float64), (2, 3)),
    _op("to_other_tensor", lambda L, x: x.to(L.zeros(1, dtype=L.float64)), (3,)),
    _op("to_device_and_dtype", lambda L, x: x.to("cpu", L.float64), (3,)),
    _op("to_copy_same_dtype", lambda L, x: x.to(x.dtype, copy=True), (3,)),
    _op("double_then_back", lambda L, x: x.double().to(x.dtype), (2, 3)),
    _op("type_as", lambda L, x, y: x.type_as(y.double()) * y, (3,), (3,)),
    _op("long_is_not_differentiable", lambda L, x: x.long(), (2, 3), differentiable=False),
    _op("bool_is_not_differentiable", lambda L, x: x.bool(), (2, 3), differentiable=False),
]

INPLACE = [
    _op("add_", lambda L, x, y: (x * 1).add_(y, alpha=2), (2, 3), (3,)),
    _op("sub_", lambda L, x, y: (x * 1).sub_(y), (2, 3), (2, 3)),
    _op("mul_", lambda L, x, y: (x * 1).mul_(y), (2, 3), (3,)),
    _op("mul_scalar_", lambda L, x: (x * 1).mul_(3), (2, 3)),
    _op("div_", lambda L, x, y: (x * 1).div_(y), (2, 3), (2, 1), domain=("real", "nonzero")),
    _op("neg_", lambda L, x: (x + 1).neg_(), (3,)),
    _op("zero_", lambda L, x: (x * 1).zero_() + x, (2, 3)),
    _op("fill_", lambda L, x: (x * 1).fill_(2.5) * x, (2, 3)),
    _op("fill_tensor_", lambda L, x, v: (x * 1).fill_(v), (2, 3), ()),
    _op("copy_", lambda L, x, y: (x * 1).copy_(y), (2, 3), (3,)),
    _op("copy_into_plain_tensor", lambda L, y: L.zeros(2, 3, dtype=y.dtype).copy_(y), (3,)),
    _op("clamp_", lambda L, x: (x * 1).clamp_(-0.5, 0.5), (2, 3), domain="clamp"),
    _op("exp_", lambda L, x: (x * 1).exp_(), (2, 3)),
    _op("masked_fill_", lambda L, x: (x * 1).masked_fill_(_mask(L), 0.0), (2, 3)),
    _op("index_fill_", lambda L, x: (x * 1).index_fill_(0, L.tensor([1]), 2.0), (2, 3)),
    _op("index_put_", lambda L, x, v: (x * 1).index_put_((L.tensor([0, 0]),), v,
                                                         accumulate=True), (2, 3), (3,)),
    _op("iadd", _iadd, (2, 3), (3,)),
    _op("imul_then_isub", _imul_then_isub, (2, 3), (2, 3)),
    _op("itruediv", _itruediv, (2, 3), (3,), domain=("real", "nonzero")),
    _op("view_mul_", _view_mul_, (2, 3), (3,)),
    _op("view_of_view_add_", _view_of_view_add_, (2, 3), (2,)),
    _op("setitem_column", _setitem_row, (2, 3), (2,)),
    _op("setitem_scalar", _setitem_scalar, (2, 3)),
    _op("setitem_into_plain_tensor", _setitem_into_plain_tensor, (2, 3)),
    _op("setitem_index_list", _setitem_index_list, (2, 3), (2, 3)),
    _op("setitem_mask", _setitem_mask, (2, 3)),
    _op("setitem_mixed_index", _setitem_mixed, (2, 3, 4), (2, 3)),
    _op("setitem_ellipsis_broadcast", _setitem_ellipsis_broadcast, (2, 3), (3,)),
    _op("view_after_base_changed", _view_after_base_changed, (2, 3), (3,)),
    _op("sibling_view_after_view_changed", _sibling_view_after_view_changed, (2, 3), (3,)),
]

COMPARISON = [
    _op(name, fn, *shapes, differentiable=False) for name, fn, *shapes in [
        ("eq", lambda L, x: x == x[0], (2, 3)),
        ("ne_scalar", lambda L, x: x != 0.5, (2, 3)),
        ("lt", lambda L, x, y: x < y, (2, 3), (3,)),
        ("le_function", lambda L, x, y: L.le(x, y), (2, 3), (2, 3)),
        ("gt_reflected", lambda L, x: 0.1 < x, (2, 3)),
        ("ge_method", lambda L, x: x.ge(0), (2, 3)),
        ("all", lambda L, x: (x > -1).all(), (2, 3)),
        ("any_dim", lambda L, x: L.any(x > 0, 1), (2, 3)),
        ("all_dim_keepdim", lambda L, x: (x > 0).all(dim=0, keepdim=True), (2, 3)),
        ("logical_and", lambda L, x, y: L.logical_and(x > 0, y > 0), (2, 3), (3,)),
        ("and_or_xor_not", lambda L, x, y: ~((x > 0) & (y > 0) | (x > y) ^ (y < 0)), (2, 3),
         (2, 3)),
        ("isclose", lambda L, x: L.isclose(x, x + 1e-7), (2, 3)),
        ("where_condition_only", lambda L, x: L.where(x > 0)[1], (2, 3)),
    ]
]

TENSOR_OPS = MOVEMENT + INDEXING + GATHER_SCATTER + CONVERSION + INPLACE + COMPARISON
BY_NAME = {case.name: case for case in TENSOR_OPS}
assert len(BY_NAME) == len(TENSOR_OPS), "op names in the table must be unique"


# ---------------------------------------------------------------- comparing with torch
def _same_saved_value(torch, mv, tv, ts, ms, where) -> None:
    if isinstance(tv, tuple):  # e.g. `_saved_indices`: tensors and Nones
        assert isinstance(mv, tuple) and len(mv) == len(tv), (where, mv, tv)
        for m, t in zip(mv, tv):
            _same_saved_value(torch, m, t, ts, ms, where)
    elif tv is None:
        assert mv is None, (where, mv)
    else:
        assert_same_value(torch, mv, tv, ts, ms, where)


def assert_same_saved(torch, t_root, m_root, t_inputs, m_inputs) -> None:
    """On every node: the same ``_saved_*`` names and values (tuples of tensors included)."""
    for tn, mn in zip(nodes(t_root), nodes(m_root)):
        names = saved_names(tn)
        assert saved_names(mn) == names, tn.name()
        for name in names:
            _same_saved_value(torch, getattr(mn, name), getattr(tn, name), t_inputs, m_inputs,
                              f"{tn.name()}.{name}")
