"""The shape and dtype each node recorded for its tensor, against PyTorch: a gradient sent to a
node is summed to that shape (or refused) and cast to that dtype, even after the tensor
changed since (``.data =``, ``unsqueeze_``/``squeeze_``/``t_``/``transpose_`` in no_grad
mode); a leaf whose dtype changed gets a new ``AccumulateGrad``; the gradients a backward
starts from are checked too. The fuzzer found these as silent differences of ``.grad``."""

from __future__ import annotations

import pytest
from helpers import assert_same_program

# (PyTorch warns once per process that a .grad of the leaf's old shape does not "obey the
# gradient layout contract"; minigrad does not warn: the results are compared, not warnings)
pytestmark = [pytest.mark.torch,
              pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph"),
              pytest.mark.filterwarnings("ignore:grad and param do not obey")]

X = "x = torch.tensor([1.5, -2.0], requires_grad=True); "
ROW = "x = torch.tensor([[1.5, -2.0]], requires_grad=True); "
DOUBLE = "torch.tensor([0.5, 3.0], dtype=torch.float64)"
GRAD = "; r = (x.grad, x.grad_fn, x.shape, x.dtype)"

PROGRAMS = {
    # `.data =` of another dtype: the graph recorded before sends the old dtype, and a leaf
    # gets a new AccumulateGrad (a graph recorded after sends the new one)
    "leaf_dtype_old_graph": X + f"y = x * 2; x.data = {DOUBLE}; y.sum().backward(); "
                                "(x * 3).sum().backward()" + GRAD,
    "leaf_dtype_new_graph_first": X + f"y = x * 2; x.data = {DOUBLE}; (x * 3).sum().backward()"
                                      "; y.sum().backward()" + GRAD,
    "leaf_dtype_and_shape": X + "y = x * 2; x.data = torch.ones(3, 2, dtype=torch.float64); "
                                "(x * 3).sum().backward(); y.sum().backward()" + GRAD,
    "leaf_dtype_create_graph": X + f"y = x * 2; x.data = {DOUBLE}; "
                                   "y.sum().backward(create_graph=True); "
                                   "(x * 3).sum().backward(create_graph=True)" + GRAD,
    "nonleaf_dtype": X + f"y = x * 2; y.data = {DOUBLE}; (y * y).sum().backward()" + GRAD,
    "nonleaf_dtype_create_graph": X + f"y = x * 2; y.data = {DOUBLE}; "
                                      "(y * y).sum().backward(create_graph=True); "
                                      "r = (x.grad, x.grad.grad_fn.next_functions[0][0])",
    "nonleaf_dtype_and_shape": X + "y = (x * 2).sum(); y.data = torch.ones(2, 3, 1, "
                                   "dtype=torch.float64); y.double().sum().backward()" + GRAD,
    "view_dtype": "b = torch.tensor(1.25, dtype=torch.float64).requires_grad_(); v = b[...]; "
                  "v.data = torch.tensor(2.5); v.double().sum().backward(); r = b.grad",
    # the gradients a backward starts from, checked against the recorded metadata
    "root_dtype": X + "y = (x * 2).sum(); y.data = torch.tensor(5., dtype=torch.float64); "
                      "y.backward()" + GRAD,
    "root_summed": X + "y = x * 2; y.data = torch.ones(3, 2, dtype=torch.float64); "
                       "y.backward(torch.ones(3, 2))" + GRAD,
    "root_unsqueezed_retains_grad": X + "y = x * 2; y.retain_grad()\nwith torch.no_grad(): "
                                        "y.unsqueeze_(0)\ny.backward(torch.ones(1, 2)); "
                                        "r = (x.grad, y.grad)",
    "root_transposed_refused": ROW + "y = x * 2\nwith torch.no_grad(): y.t_()\n"
                                     "y.backward(torch.ones(2, 1))",
    "root_squeezed_refused": ROW + "y = x * 2\nwith torch.no_grad(): y.squeeze_()\n"
                                   "y.backward(torch.ones(2))",
    "autograd_grad_root": X + "y = (x * 2).sum(); y.data = torch.tensor(5., dtype="
                              "torch.float64); r = torch.autograd.grad(y, x)",
    # an op recorded after the change broadcast the new shape: its gradient is checked against
    # the leaf's AccumulateGrad (the old shape) as the formula gave it (seed 5088)
    "broadcast_after_change_refused": "x = torch.tensor([[1.5, -2.0], [0.5, 1.0]], requires_"
                                      "grad=True); y = x * 2; x.data = torch.tensor(0.5); "
                                      "torch.fmin(torch.ones(2, 3), x).sum().backward()",
    "broadcast_after_change": X + "y = x * 2; x.data = torch.tensor([0.5]); "
                                  "(x * torch.ones(3, 2)).sum().backward()" + GRAD,
    "broadcast_after_change_new_dtype": X + "y = x * 2; x.data = torch.ones(1, dtype=torch."
                                            "float64); (x * torch.ones(3, 2)).sum().backward(); "
                                            "y.sum().backward()" + GRAD,
    # in-place shape ops in no_grad mode: the node keeps the shape it recorded
    "unsqueezed_nonleaf": X + "y = x * 2\nwith torch.no_grad(): y.unsqueeze_(0)\n"
                              "(y * 1).sum().backward()" + GRAD,
    "unsqueezed_product": "a = torch.tensor(-0.75, requires_grad=True); b = torch.tensor([[1.]], "
                          "dtype=torch.float64, requires_grad=True); c = torch.xlogy(a, b ** 2)"
                          "\nwith torch.no_grad(): c.unsqueeze_(0)\n"
                          "c.double().sum().backward(); r = (a.grad, b.grad)",
    "squeezed_nonleaf_refused": ROW + "y = x * 2\nwith torch.no_grad(): y.squeeze_()\n"
                                      "(y * 1).sum().backward()",
    "swapped_dims_refused": ROW + "y = x * 2\nwith torch.no_grad(): y.swapdims_(0, 1)\n"
                                  "(y * 1).sum().backward()",
    "unsqueezed_leaf": "x = torch.tensor([1.5, -2.0, 3.0], requires_grad=True); y = x * 2\n"
                       "with torch.no_grad(): x.unsqueeze_(0)\ny.sum().backward()" + GRAD,
    "squeezed_leaf_new_graph_refused": ROW + "y = x * 2\nwith torch.no_grad(): x.squeeze_()\n"
                                             "(x * 2).sum().backward()",
    "squeezed_leaf_with_grad": ROW + "x.grad = torch.zeros(1, 2)\nwith torch.no_grad(): "
                                     "x.squeeze_()\n(x * 2).sum().backward()" + GRAD,
    # the layout contract: a gradient with a stride 0 (a sum's, expanded) is copied into the
    # leaf's shape, broadcast (or copy_'s error), never kept as the leaf's .grad
    "expanded_gradient_unsqueezed_leaf": "x = torch.tensor([1.5], requires_grad=True); "
                                         "y = x.sum()\nwith torch.no_grad(): x.unsqueeze_(0)\n"
                                         "y.backward()" + GRAD,
    "expanded_gradient_squeezed_leaf": "x = torch.tensor([[1.5]], requires_grad=True); "
                                       "y = x.sum()\nwith torch.no_grad(): x.squeeze_()\n"
                                       "y.backward()" + GRAD,
    # a .grad of the leaf's old shape, added to in place: add_'s broadcast, or its errors
    "old_grad_other_size": X + "(x * 2).sum().backward(); x.data = torch.ones(3); "
                               "(x * 2).sum().backward()" + GRAD,
    "old_grad_broadcast_refused": X + "(x * 2).sum().backward(); x.data = torch.ones(3, 2); "
                                      "(x * 2).sum().backward()" + GRAD,
    "old_grad_broadcast": "x = torch.tensor([[1.5, -2.0]], requires_grad=True); "
                          "(x * 2).sum().backward(); x.data = torch.ones(2); "
                          "(x * 2).sum().backward()" + GRAD,
    # create_graph: the cast is recorded (seed 1115 of the fuzzer)
    "create_graph_cast": ROW + "y = torch.nn.functional.mse_loss(torch.log1p(x), x)\n"
                               "with torch.no_grad(): y.data = torch.tensor(0.5, "
                               "dtype=torch.float64)\ny.sum().backward(create_graph=True); "
                               "r = (x.grad, x.grad.grad_fn)",
    # fmax/fmin's backward compares the saved operands: one's .data swapped for a shape that
    # does not broadcast gives PyTorch's size error (seed 7028 of the fuzzer)
    **{f"{op}_operand_swapped": "x = torch.ones(2, 3, requires_grad=True); v = x.view(2, 3)\n"
                                f"y = v.{op}(x)\nv.data = torch.arange(160.)\ny.sum().backward()"
                                "; r = x.grad" for op in ("fmax", "fmin")},
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_gradient_fits_the_metadata_its_node_recorded(torch, name):
    assert_same_program(torch, PROGRAMS[name])


# an integer tensor given a history (a recorded fill of its view): an in-place shape op
# reshapes it, bumps its version and then fails to record, as in PyTorch
INT_HISTORY = ("a = torch.tensor([1], dtype=torch.int32); v = a.expand(2, 1); "
               "v[::2, -1:0] = torch.tensor(2., requires_grad=True)\n")


@pytest.mark.parametrize("op", ["unsqueeze_(0)", "squeeze_()", "t_()", "transpose_(0, -1)",
                                "squeeze_(0)"])
def test_integer_tensor_with_a_history_is_reshaped_then_refused(torch, op):
    assert_same_program(torch, INT_HISTORY + f"try:\n    a.{op}\nexcept RuntimeError as e:\n"
                               "    r = (str(e), a.shape, a._version, a.grad_fn.name())")


@pytest.mark.parametrize("code", [
    # dist of broadcast operands: each gradient summed to its operand (seed 2472)
    "a = torch.tensor(1.25, requires_grad=True); b = torch.tensor([-0.5, 0.25, 2.0], "
    "requires_grad=True); r = torch.autograd.grad(b.dist(a), (a, b))",
    "a = torch.tensor([1., 2.], requires_grad=True); b = torch.tensor([[1.], [3.]], "
    "dtype=torch.float64, requires_grad=True); a.dist(b, 3).backward(); r = (a.grad, b.grad)",
    "a = torch.tensor([[1.5, -0.25, 3.0]], requires_grad=True); b = torch.tensor(-2.5, "
    "dtype=torch.float64, requires_grad=True); a.dist(b, 3).backward(); r = (a.grad, b.grad)",
    # atan2 with a 0-d float64 first operand: other's gradient in its own dtype (seed 1551)
    "s = torch.tensor(0.75, dtype=torch.float64); x = torch.tensor([0.5, -1.5], "
    "requires_grad=True); torch.atan2(s, x).sum().backward(); r = x.grad",
    "s = torch.tensor(3, dtype=torch.int64); x = torch.tensor([0.5, -1.5], "
    "requires_grad=True); torch.atan2(s, x).sum().backward(); r = x.grad",
    # addcdiv/addcmul of 0-d operands with an integer one: the float32 tensor's gradient stays
    # float32 (NumPy's 0-d arithmetic gave a float64 scalar; seed 5435)
    "v = torch.tensor(-0.5, requires_grad=True); out = torch.tensor(7).addcdiv(torch.tensor(-5),"
    " v); out.double().backward(); r = (out, v.grad)",
    "v = torch.tensor(-0.5, requires_grad=True); out = torch.tensor(7).addcmul(torch.tensor(-5),"
    " v); out.double().backward(); r = (out, v.grad)",
])
def test_gradient_in_its_operands_shape_and_dtype(torch, code):
    assert_same_program(torch, code)
