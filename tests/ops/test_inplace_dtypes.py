"""In-place writes into integer and bool tensors from tensors that require grad, against
PyTorch: ``copy_`` (and ``x[i] = t``, ``x[a:b] = t``, which copy) keeps them out of the graph;
PyTorch's other in-place ops (``fill_``, ``masked_fill_``, a boolean-mask assignment) record
their node on any dtype, and so does minigrad."""

from __future__ import annotations

import pytest
from helpers import assert_same_program, snippet_outcome

import minigrad as mg

pytestmark = pytest.mark.torch

GRAD = "t = torch.ones({shape}, requires_grad=True); "
PROGRAMS = {
    "copy_": ("(2)", "a.copy_(t)"),
    "copy_of_result": ("(2)", "a.copy_(t * 2)"),
    "copy_into_slice": ("(2)", "a[0:1].copy_(t[0:1])"),
    "setitem_select": ("()", "a[0] = t"),
    "setitem_slice": ("(2)", "a[:] = t"),
    "setitem_slice_of_view": ("(1)", "v = a[1:]; a[1:] = t; r2 = (v.grad_fn, v.requires_grad)"),
    "setitem_0d_fills": ("()", "a[:] = t"),
    "setitem_mask": ("(1)", "a[torch.tensor([True, False])] = t"),
    "setitem_index_dtype_error": ("(1)", "a[torch.tensor([0])] = t"),
    "fill_": ("()", "a.fill_(t)"),
    "masked_fill_": ("()", "a.masked_fill_(torch.tensor([True, False]), t)"),
    "masked_fill_out_of_place": ("()", "a.masked_fill(torch.tensor([True, False]), t)"),
    "index_put_": ("(1)", "a.index_put_((torch.tensor([0]),), t.long())"),
    "add_": ("(2)", "a.add_(t)"),
    "zero_": ("(2)", "a.zero_()"),
}


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_in_place_write_into_integer_tensor_as_pytorch(torch, name, dtype):
    shape, code = PROGRAMS[name]
    program = (f"a = torch.zeros(2, dtype=torch.{dtype}); r2 = None; " + GRAD.format(shape=shape)
               + code + "; r = (a, a.grad_fn, a.requires_grad, r2)")
    assert_same_program(torch, program)


@pytest.mark.parametrize("code", [
    "a = torch.zeros(2, dtype=torch.float64); t = torch.ones(2, requires_grad=True); "
    "a.copy_(t); (a * a).sum().backward(); r = (a, t.grad)",
    "a = torch.zeros(2); t = torch.ones(2, requires_grad=True); a[0] = t[1]; "
    "a.sum().backward(); r = (a, t.grad)",
    "a = torch.zeros(2, dtype=torch.int64); t = torch.ones(2, requires_grad=True); "
    "a.copy_(t); r = (a * t).sum()",
])
def test_float_copies_still_record(torch, code):
    assert_same_program(torch, code)


@pytest.mark.parametrize("op", ["c.mul_(b)", "c.add_(b, alpha=2)", "c.addcmul_(b, b)",
                                "c.div_(b)", "c.sub_(b)"])
def test_an_operands_gradient_has_its_own_dtype_after_an_in_place_op(torch, op):
    """The op computes in float64 and writes float32 in place; the float64 operand's .grad is
    float64, as PyTorch's engine casts it (a fuzz finding: minigrad gave float32)."""
    code = ("a = lib.tensor([1., 2.], requires_grad=True)\n"
            "b = lib.tensor([3., 4.], dtype=lib.float64, requires_grad=True)\n"
            f"c = a * 1\n{op}\nc.sum().backward()\nout = a.grad, b.grad")
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)
