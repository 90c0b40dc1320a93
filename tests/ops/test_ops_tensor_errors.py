"""Errors and warnings of the shape, indexing, comparison and conversion ops, against torch.

Each case is written once for both libraries (``L`` is ``torch`` or ``minigrad``, ``x`` a
(2, 3, 4) float tensor, ``i`` a (3,) int64 tensor, ``b`` a (3,) bool tensor); the exception
type and message must match, with ``torch.`` read as ``minigrad.``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import assert_same_outcome
from op_table import assert_same_error

import minigrad as mg

pytestmark = pytest.mark.torch

ERRORS = {
    # movement
    "view_incompatible_strides": lambda L, x, i, b: x.transpose(0, 1).view(-1),
    "view_wrong_size": lambda L, x, i, b: x.view(5, 5),
    "view_two_inferred": lambda L, x, i, b: x.view(-1, -1),
    "reshape_cannot_infer": lambda L, x, i, b: x.reshape(5, -1),
    "view_float_size": lambda L, x, i, b: x.view(2, 3, 4.0),
    "transpose_out_of_range": lambda L, x, i, b: x.transpose(0, 3),
    "permute_too_few": lambda L, x, i, b: x.permute(0, 1),
    "permute_duplicate": lambda L, x, i, b: x.permute(0, 1, 1),
    "t_of_3d": lambda L, x, i, b: x.t(),
    "mT_of_1d": lambda L, x, i, b: i.mT,
    "squeeze_out_of_range": lambda L, x, i, b: x.squeeze(5),
    "squeeze_duplicate_dims": lambda L, x, i, b: x[:, :1].squeeze((1, -2)),
    "unsqueeze_out_of_range": lambda L, x, i, b: x.unsqueeze(-5),
    "expand_mismatch": lambda L, x, i, b: x.expand(3, 3, 4),
    "expand_too_few_sizes": lambda L, x, i, b: x.expand(3, 4),
    "expand_minus_one_new_dim": lambda L, x, i, b: x.expand(-1, 2, 3, 4),
    "flatten_start_after_end": lambda L, x, i, b: x.flatten(2, 1),
    "cat_sizes": lambda L, x, i, b: L.cat([x, L.zeros(2, 2, 4)], 0),
    "cat_ndim": lambda L, x, i, b: L.cat([x, L.zeros(2, 3)], 0),
    "cat_empty_list": lambda L, x, i, b: L.cat([], 0),
    "cat_dim_out_of_range": lambda L, x, i, b: L.cat([x, x], 3),
    "stack_sizes": lambda L, x, i, b: L.stack([x, L.zeros(2, 2, 4)]),
    "stack_empty_list": lambda L, x, i, b: L.stack([]),
    "stack_dim_out_of_range": lambda L, x, i, b: L.stack([x, x], 4),
    "split_sizes_sum": lambda L, x, i, b: x.split([1, 1], 1),
    # indexing
    "index_out_of_range": lambda L, x, i, b: x[2],
    "negative_index_out_of_range": lambda L, x, i, b: x[-3],
    "too_many_indices": lambda L, x, i, b: x[0, 0, 0, 0],
    "index_0d_tensor": lambda L, x, i, b: x[0, 0, 0][0],
    "select_0d_tensor": lambda L, x, i, b: x[0, 0, 0].select(0, 0),
    "slice_0d_tensor": lambda L, x, i, b: x[0, 0, 0][:],
    "float_index": lambda L, x, i, b: x[1.5],
    "dict_index": lambda L, x, i, b: x[{}],
    "float_tensor_index": lambda L, x, i, b: x[L.tensor([1.0])],
    "list_index_out_of_range": lambda L, x, i, b: x[[0, 5]],
    "second_list_index_out_of_range": lambda L, x, i, b: x[[0, 1], [1, 5]],
    "mask_shape_mismatch": lambda L, x, i, b: x[b],
    "mask_after_ellipsis_mismatch": lambda L, x, i, b: x[..., b],
    "index_lists_do_not_broadcast": lambda L, x, i, b: x[[0, 1], [1, 2, 0]],
    "negative_step": lambda L, x, i, b: x[::-1],
    "zero_step": lambda L, x, i, b: x[:, ::0],
    "where_float_condition": lambda L, x, i, b: L.where(x, x, x),
    "where_shapes": lambda L, x, i, b: L.where(L.tensor([True, False]), x, 0.0),
    "masked_fill_int_mask": lambda L, x, i, b: x.masked_fill(L.ones(2, 3, 4, dtype=L.int64), 0),
    "masked_fill_float_mask": lambda L, x, i, b: x.masked_fill(x, 0),
    "masked_fill_1d_value": lambda L, x, i, b: x.masked_fill(x > 0, L.tensor([0.0])),
    "index_put_dtype": lambda L, x, i, b: x.index_put((i,), L.ones(3, 4, dtype=L.float64)),
    "index_put_shape": lambda L, x, i, b: x.index_put((i[:2] * 0,), L.ones(3, 3, 4)),
    # comparison and logic
    "compare_shapes": lambda L, x, i, b: x > L.ones(5),
    "allclose_dtypes": lambda L, x, i, b: L.allclose(x, x.double()),
    "bitwise_and_float": lambda L, x, i, b: x[0, :, 0] & b,
    "invert_float": lambda L, x, i, b: ~x,
    "logical_or_number": lambda L, x, i, b: L.logical_or(b, 0),
    # in place
    "add_broadcast_shape": lambda L, x, i, b: x[0].add_(L.ones(2, 3, 4)),
    "int_iadd_float": lambda L, x, i, b: i.__iadd__(1.5),
    "int_mul_float_": lambda L, x, i, b: i.mul_(1.5),
    "bool_add_int_": lambda L, x, i, b: b.add_(i),
    "fill_1d_tensor": lambda L, x, i, b: x.fill_(L.ones(2)),
    "copy_broadcast": lambda L, x, i, b: x.copy_(L.ones(5)),
    "in_place_on_expanded": lambda L, x, i, b: x[:, :1].expand(2, 3, 4).add_(1),
    "setitem_value_does_not_fit": lambda L, x, i, b: x.__setitem__(0, L.ones(5)),
    "setitem_list_value": lambda L, x, i, b: x.__setitem__(0, [1.0, 2.0, 3.0]),
    "setitem_numpy_value": lambda L, x, i, b: x.__setitem__(0, np.ones(4)),
    "setitem_index_put_dtype": lambda L, x, i, b: x.__setitem__((0, [1]), L.ones(4).double()),
    "setitem_index_put_shape": lambda L, x, i, b: x.__setitem__([0, 1], L.ones(3, 3)),
    # conversion
    "to_cuda": lambda L, x, i, b: x.to("cuda"),
    "long_requires_grad": lambda L, x, i, b: x.long().requires_grad_(),
    "split_view_in_place": lambda L, x, i, b: (x.requires_grad_() * 1).split(1)[1].mul_(2),
    "unbind_view_in_place": lambda L, x, i, b: (x.requires_grad_() * 1).unbind(2)[3].add_(1),
}


def _inputs(lib):
    x = lib.tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 11.5)
    return x, lib.tensor([0, 2, 1]), lib.tensor([True, False, True])


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_matches_torch(torch, name):
    fn = ERRORS[name]
    assert_same_error(lambda: fn(torch, *_inputs(torch)), lambda: fn(mg, *_inputs(mg)))


WARNINGS = {
    "T_of_3d": lambda L, x: x.T,
    "T_of_0d": lambda L, x: x[0, 0, 0].T,
    "nested_list_index": lambda L, x: x[[[0, 1]]],
    "uint8_mask": lambda L, x: x[L.tensor([1, 0], dtype=L.uint8)],
}


def _warning(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn()
    messages = [str(w.message).split(" (Triggered internally")[0].replace("torch.", "minigrad.")
                for w in caught]
    return tuple(out.shape), [w.category for w in caught], messages


@pytest.mark.parametrize("name", sorted(WARNINGS))
def test_warning_matches_torch(torch, name):
    fn = WARNINGS[name]
    t = _warning(lambda: fn(torch, _inputs(torch)[0]))
    m = _warning(lambda: fn(mg, _inputs(mg)[0]))
    assert t[1], "torch warned nothing"
    assert m == t


_SCALAR_WARNINGS = """
import re, sys, warnings
import {lib} as L
x, seen = L.tensor(1.5, requires_grad=True), []
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for step in {steps}:
        try:
            exec(step)
        except ValueError as e:
            seen.append((step, "ValueError", str(e)))
        seen += [(step, w.category.__name__, re.sub(r" \\(Triggered.*", "", str(w.message),
                  flags=re.S), w.filename) for w in caught]
        caught.clear()
print(seen)
"""


_SCALAR_STEPS = [
    ("int(x)", "float(x.detach())", "with L.no_grad(): float(x)", "float(x * 2)", "float(x)",
     "float(L.ones(1, requires_grad=True))"),
    # the warning comes before the error for a tensor of several elements (then not again)
    ("float(L.ones(2, requires_grad=True))", "float(x)"),
]


@pytest.mark.parametrize("steps", _SCALAR_STEPS)
def test_float_of_a_tensor_requiring_grad_warns_once_per_process_as_pytorch(torch, steps):
    """PyTorch's UserWarning for ``float(t)`` with grad enabled comes once per process (its
    TORCH_WARN_ONCE): each library runs in a fresh interpreter."""
    import subprocess
    import sys
    out = [subprocess.run([sys.executable, "-c", _SCALAR_WARNINGS.format(lib=lib, steps=steps)],
                          text=True, capture_output=True, check=True).stdout
           for lib in ("minigrad", "torch")]
    assert "Converting a tensor with requires_grad=True" in out[1]
    assert out[0] == out[1]


@pytest.mark.parametrize("args", [(0, -2, -1), (1, 0, 2), (-1, -1, -3), (2, 2, 0)])
def test_diag_embed_values_and_gradients_match_torch(torch, args):
    """diag_embed of a (2, 3) tensor in any planes: values, node, first and second gradients."""
    out = []
    for L in (mg, torch):
        x = L.tensor(np.arange(1., 7.).reshape(2, 3), requires_grad=True)
        y = L.diag_embed(x, *args)
        w = L.tensor(np.arange(float(y.numel())).reshape(tuple(y.shape)))
        g, = L.autograd.grad((y * y * w).sum(), x, create_graph=True)
        g.sum().backward()
        out.append((y.detach().numpy(), y.grad_fn.name(), g.detach().numpy(), x.grad.numpy()))
    for a, b in zip(*out):
        np.testing.assert_array_equal(a, b)


def test_mse_loss_of_nothing_backpropagates_as_torch(torch):
    """A 'mean' over no elements: NaN loss, and a gradient (0 for a broadcast 0-d input) without
    Python's ZeroDivisionError or a NumPy warning."""
    out = []
    for L in (mg, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # (the target size warning)
            warnings.simplefilter("error", RuntimeWarning)
            a, b = L.zeros((), requires_grad=True), L.zeros(0, requires_grad=True)
            for x in (a, b):
                L.nn.functional.mse_loss(x, L.ones(0)).backward()
        out.append((a.grad.numpy(), b.grad.numpy()))
    for got, want in zip(*out):
        np.testing.assert_array_equal(got, want)


# the fuzzer's findings (tests/fuzz): each op's checks in PyTorch's order
ORDERED_CHECKS = [
    # index_fill_: autograd's refusal first (of a leaf, or of a view of one), then the index
    "lib.ones(2, 3, requires_grad=True).index_fill_(0, lib.tensor([0]), 1.)",
    "lib.ones(2, 3, requires_grad=True).index_fill_(3, lib.tensor([0]), 1.)",
    "lib.ones(2, 3, requires_grad=True).index_fill_(0, lib.tensor([0.]), 1.)",
    "lib.ones(2, 3, requires_grad=True)[0].index_fill_(0, lib.tensor([0]), 1.)",
    "lib.tensor(1., requires_grad=True).index_fill_(0, lib.tensor([0]), 1.)",
    "lib.zeros(3, dtype=lib.int64).expand(2, 3).index_fill_(1, lib.tensor([0.]), 1.)",
    # index_fill of an empty dimension: PyTorch's view of the storage fails before the bounds
    *[f"lib.zeros{shape}.index_fill{u}({d}, lib.tensor([0]), 2)" for shape, d in (
        ("(0,)", 0), ("(0, 3)", 0), ("(0, 3)", 1), ("(3, 0)", -1), ("(2, 0, 3)", 1),
        ("(2, 0, 3)", 0), ("(2, 3)[:, :0]", 1), ("(0, 3).t()", 1)) for u in ("", "_")],
    "lib.zeros(0, 3).index_fill_(0, lib.tensor([5]), 2)",
    "lib.zeros(0, 3).index_fill(0, lib.tensor([], dtype=lib.int64), 2.)",
    "lib.zeros(0, 3, requires_grad=True).index_fill(0, lib.tensor([0]), lib.tensor(2.))",
    # baddbmm: the sizes it reads, input's expansion and dtype, then the batches
    *[f"lib.baddbmm({a}, {b}, {c})" for a, b, c in (
        ("lib.ones(())", "lib.ones(())", "lib.ones(())"), ("lib.ones(2)", "lib.ones(2)", "lib.ones(2)"),
        ("lib.ones(2, 2, 2)", "lib.ones(2, 2, 2)", "lib.ones(())"),
        ("lib.ones(2, 2, 2)", "lib.ones(2, 2, 2)", "lib.ones(2)"),
        ("lib.ones(2, 2, 4, 4, dtype=lib.bool)", "lib.ones(2, 2, 4, 4, dtype=lib.bool)",
         "lib.ones(2, 4, 4)"),
        ("lib.ones(2, 2, 2, dtype=lib.bool)", "lib.ones(2, 2, 2)", "lib.ones(2, 2, 2)"),
        ("lib.ones(2, 2, 2)", "lib.ones(2, 2, 2)", "lib.ones(2, 2, 2, dtype=lib.float64)"),
        ("lib.ones(3)", "lib.ones(2, 2, 2)", "lib.ones(2, 3, 2)"),
        ("lib.ones(2, 2, 2)", "lib.ones(2, 2, 2, 2)", "lib.ones(2, 2, 2)"),
        ("lib.ones(2, 2, 2)", "lib.ones(2, 2, 2)", "lib.ones(2, 2, 2, 2)"),
        ("lib.ones(2, 2, 2, dtype=lib.int64)", "lib.ones(2, 2, 2, dtype=lib.int64)",
         "lib.ones(2, 2, 2)"))],
    # tril_/triu_: the dimensions before expanded memory (which they allow)
    "lib.tensor([1.]).expand(3).triu_()", "lib.ones(3).tril_()", "lib.ones(2, 2).triu_(1.5)",
    "lib.ones(2, requires_grad=True).triu_()",
    # lerp_: the dtypes before expanded memory
    "lib.arange(3.).reshape(3, 1).expand(3, 3).lerp_(lib.ones(3, 3, dtype=lib.float64), 0.5)",
    "lib.arange(3.).reshape(3, 1).expand(3, 3).lerp_(lib.ones(3, 3), 0.5)",
    # torch.index_put, the function: its arguments counted from input
    "lib.index_put(lib.ones(3), (lib.tensor([0]),), 1.0)",
    "lib.index_put(lib.ones(3), lib.tensor([0]), lib.tensor(1.0))",
    "lib.index_put(lib.ones(3), [lib.tensor([0])], lib.tensor(2.0), True)",
    "lib.index_put(lib.ones(3), (1,), lib.tensor(1.0))",
    "lib.index_put(lib.tensor(1.), (lib.tensor([0]),), lib.tensor(1.0))",
    "lib.ones(3).index_put((lib.tensor([0]),), 1.0)",
]


@pytest.mark.parametrize("code", ORDERED_CHECKS)
def test_checks_come_in_pytorchs_order(torch, code):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # (index_fill_ of expanded memory)
        assert_same_outcome(torch, code)


@pytest.mark.parametrize("attr", ["mH", "mT", "H", "T"])
def test_the_0d_transpose_warning_comes_once_per_process(torch, attr):
    """PyTorch warns once per process (TORCH_WARN_ONCE): at most the first use warns, in both
    libraries alike (run on both, so that neither has warned where the other has not)."""
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            getattr(lib.tensor(1.), attr), getattr(lib.tensor(2), attr)
        return [str(w.message).split(" (Triggered internally")[0] for w in caught]

    mine, theirs = run(mg), run(torch)
    assert mine == theirs and len(mine) <= 1
