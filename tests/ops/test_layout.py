"""Memory layout a learner can see, against PyTorch: strides and ``is_contiguous()`` of the
results of movement, join and clone ops, of a leaf's ``.grad``, whether ``.view`` works on
them, and the refusal to write into memory that several elements share (``expand``)."""

from __future__ import annotations

import pytest
from helpers import assert_same_program

pytestmark = pytest.mark.torch

T = "torch.ones(3, 4).t()"  # a transposed (column-major) 4x3 tensor
E = "torch.ones(3).expand(2, 3)"  # an expanded one: every row is the same memory
RESULTS = [
    # join: always row-major
    f"a = {E}; r = torch.stack([a, a])", f"a = {E}; r = torch.cat([a, a])",
    f"a = {T}; r = torch.stack([a, a], 1)", f"a = {T}; r = torch.cat([a, a], 1)",
    f"a = {T}; r = torch.stack([a, a]).view(24)",
    # clone keeps a dense layout, makes expanded memory row-major
    f"r = {T}.clone()", f"r = {E}.clone()", f"r = {E}.contiguous()", f"r = {T}.contiguous()",
    f"r = {T}[:, ::2].clone()", f"r = {T}.flip(0)", f"r = {T}.flip(1)",
    # views
    f"r = {T}", f"r = {T}.unsqueeze(0)", f"r = {T}[1:]", f"r = {T}[:, 1:]",
    f"r = {T}.reshape(12)", f"r = {T}.flatten()", f"r = {T}.view(12)",
    "r = torch.ones(3, 3).t().diagonal()", "r = torch.ones(2, 3, 4).diagonal(1, 0, 2)",
    "r = torch.ones(2, 3, 4).diagonal(-1, 2, 1)", "r = torch.ones(2, 3).diagonal(5)",
    f"r = {E}", "r = torch.ones(2, 1).expand(2, 3)", "r = torch.ones(1, 3).expand(4, 2, 3)",
    f"r = {T}.permute(1, 0)", f"r = {T}.transpose(0, 1)", f"r = {T}.squeeze()",
    f"a = {T}.split(1, 1); r = [t.is_contiguous() for t in a]",
    # elementwise ops on one input keep its layout
    f"r = {T} * 2", f"r = {T} + {T}", f"r = -{T}", f"r = {T}.relu()", f"r = {T}.abs()",
    f"r = ({T} * 2).view(12)", f"r = {T}.tril()",
    # *_like keep the input's layout (preserve_format); expanded memory gives row-major
    *(f"torch.manual_seed(0); r = torch.{f}({a})"
      for f in ("zeros_like", "ones_like", "rand_like", "randn_like")
      for a in (T, E, f"{T}[::2]", "torch.ones(2, 3, 4).permute(2, 0, 1)")),
    f"e = torch.empty_like({T}); r = (e.stride(), e.is_contiguous())",
    f"r = torch.full_like({T}, 7, dtype=torch.int64)", f"r = torch.zeros_like({T}).view(12)",
    # the fuzzer's reproducers (issue 20; the layout rules: tests/ops/test_result_layout.py)
    "v4 = torch.tensor([[[[2, -2, -2, 1], [1, 1, 3, 0], [0, -1, 0, -2]]]]).mH; r = v4.prod(1)",
    "v0 = torch.tensor([[[1.], [-1.], [3.]], [[1.], [0.], [2.]]]); "
    "r = torch.isnan(v0.eq(v0).permute((1, 2, 0)))",
    "v0 = torch.ones(2, 4, 2, 3, dtype=torch.bool); r = torch.log1p(v0.expand(2, *v0.shape))",
    "v = torch.ones(3, 2).t() > 0; r = v.nan_to_num(nan=0.0, posinf=1.0)",
    "r = torch.ones(2, 3).t().sigmoid()", "r = torch.zeros(2, 0, 3).permute(0, 2, 1) * 2",
]
GRADS = [
    "x = torch.ones(2, 3, requires_grad=True); (x.t() * 2).sum().backward(); r = x.grad",
    "x = torch.ones(2, 3, requires_grad=True); (x.t() * torch.ones(3, 2)).sum().backward(); "
    "r = x.grad",
    "x = torch.ones(3, 2, requires_grad=True); (x.t() @ torch.ones(3, 4)).sum().backward(); "
    "r = x.grad",
    "x = torch.ones(3, requires_grad=True); x.expand(2, 3).sum().backward(); r = x.grad",
    "x = torch.ones(2, 3, requires_grad=True); (x[:, 1:] * 2).sum().backward(); r = x.grad",
    "x = torch.ones(2, 3, requires_grad=True); (x.t() * 2).sum().backward(); r = x.grad.view(6)",
    "x = torch.ones(3, 2).t().requires_grad_(); (x * 2).sum().backward(); r = x.grad",
    "x = torch.ones(2, 3, requires_grad=True); g, = torch.autograd.grad((x.t() ** 2).sum(), x, "
    "create_graph=True); r = g",
]
WRITES = [
    f"a = {E}; a.add_(1)", "a = torch.ones(1).expand(3); a.mul_(2)",
    "a = torch.ones(2, 1).expand(2, 3); a[0].add_(1)", f"a = {E}; a.copy_(torch.ones(2, 3))",
    f"a = {E}; a.zero_()", f"a = {E}; a.fill_(3.); r = a", f"a = {E}; a[0] = 5.; r = a",
    f"a = {E}; a.fill_(torch.tensor(3.))", "a = torch.ones(1).expand(1); a.add_(1); r = a",
    "b = torch.ones(3, 3); a = b.diagonal(); a.add_(1); r = b",
    "b = torch.ones(2, 2); a = b.diagonal(1); a.mul_(3); r = b",
    "b = torch.ones(1); a = b.expand(1, 1); a.add_(1); r = b",
]


@pytest.mark.parametrize("code", RESULTS + GRADS + WRITES)
def test_layout_as_pytorch(torch, code):
    assert_same_program(torch, code)


@pytest.mark.parametrize("make", ["torch.zeros(2, 1).expand(2, 3)", "torch.zeros(3).expand(2, 3)",
                                  "torch.zeros(1).expand(3)", "torch.zeros(3, 3).diagonal()"])
@pytest.mark.parametrize("op", ["zero_()", "fill_(3.)", "fill_(torch.tensor(3.))",
                                "__setitem__(0, 5.)", "__setitem__(slice(None), 5.)", "add_(1)",
                                "masked_fill_(torch.tensor(True), 2.)", "mul_(0)",
                                "masked_fill_(torch.tensor(True), torch.tensor(2.))",
                                "copy_(torch.tensor(1.))", "exp_()"])
def test_writes_into_expanded_memory_as_pytorch(torch, make, op):
    assert_same_program(torch, f"x = {make}; x.{op}; r = x")


# transpose of a 0-d tensor; as_strided; hstack/vstack of 0-d tensors
MORE = [
    "x = torch.tensor(2., requires_grad=True); y = x.transpose(0, -1); y.backward(); "
    "r = (y, x.grad, y._is_view(), y.grad_fn._saved_dim0, y.grad_fn._saved_dim1)",
    "r = torch.tensor(1.).swapaxes(0, 0)",
    "x = torch.arange(6.).requires_grad_(); v = x.as_strided((2, 2), (1, 2), 1); "
    "(v * torch.tensor([[1., 2.], [3., 4.]])).sum().backward(); "
    "r = (v, v._base is x, v.grad_fn._saved_size, v.grad_fn._saved_stride, "
    "v.grad_fn._saved_storage_offset, x.grad)",
    "x = torch.arange(6.).requires_grad_(); v = x.as_strided((3,), (0,)); v.sum().backward(); "
    "r = (v, x.grad)",
    "y = torch.arange(6.)[2:]; r = (y.as_strided((2,), (1,)), y.as_strided((2,), (1,), 0))",
    "r = torch.as_strided(torch.arange(4.), (2,), (2,))",
    "r = torch.arange(6.).as_strided((3,), (3,), 1)",
    "r = torch.arange(6.).as_strided((2,), (-1,))",
    "r = torch.ones(3).as_strided((3, 2), (1,))",
    "z = torch.ones(3).as_strided((3,), (0,)); z.add_(1)",
    "b = torch.zeros(6); b.as_strided((2,), (3,), 1).add_(1); r = b",
    "b = torch.zeros(2, 3).t(); r = b.as_strided((3,), (1,))",
    "r = torch.ones(3).expand(2, 3).as_strided((2, 2), (1, 1))",
    "a = torch.tensor(1., requires_grad=True); r = torch.hstack([a, a]); "
    "r = (r, r.grad_fn.next_functions)",
    "a = torch.tensor(1., requires_grad=True); r = torch.vstack([a, a]); "
    "r = (r, r.grad_fn.next_functions)",
]


@pytest.mark.parametrize("code", MORE)
def test_more_movement_programs_as_pytorch(torch, code):
    assert_same_program(torch, code)
