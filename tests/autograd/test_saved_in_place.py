"""Saved tensors against in-place changes, ``detach_()`` and freeing, program by program against
PyTorch: the same exception type and message (the tensor's type string, shape, "output 0 of
X", versions, hint), or the same gradients where PyTorch raises nothing.

Each program ends in a backward (or an access to a ``_saved_*`` value); ``r`` is the result
compared when nothing raises.
"""

from __future__ import annotations

import pytest
from helpers import assert_same_program

_X = "x = torch.tensor([[0.3, 0.7, 0.5], [0.9, 0.2, 0.4]], requires_grad=True)\n"

# ---------------------------------------------------------------- a saved input, detached in place
DETACH = {
    # PyTorch reads the very tensor it saved: its history gone, a backward refuses it
    "non_leaf_input_detached": "y = x * 1; z = y.sin(); y.detach_()\n"
                               "z.sum().backward(); r = x.grad",
    "detached_then_modified_says_detached_first": "y = x * 1; z = y.sin(); y.detach_(); "
                                                  "y.add_(1)\nz.sum().backward(); r = x.grad",
    "detached_under_create_graph": "y = x * 1; z = y * y; y.detach_()\n"
                                   "r = torch.autograd.grad(z.sum(), x, create_graph=True)",
    "detached_through_autograd_grad": "y = x.exp(); z = y.cos(); y.detach_()\n"
                                      "r = torch.autograd.grad(z.sum(), x)",
    "detached_saved_other_of_mul": "c = (x * 2).sum(0); z = x * c; c.detach_()\n"
                                   "z.sum().backward(); r = x.grad",
    # a leaf when saved: detaching it is no error (it had no history to lose)
    "leaf_input_detached_is_fine": "c = torch.tensor([1., 2., 3.]); z = x * c; c.detach_()\n"
                                   "z.sum().backward(); r = x.grad",
    # reading `_saved_self` is no backward: no error; changed since, the node is named
    "saved_self_of_detached_input_reads": "y = x * 1; z = y.sin(); y.detach_()\n"
                                          "r = z.grad_fn._saved_self",
    "saved_self_of_detached_and_modified_input": "y = x * 1; z = y.sin(); y.detach_(); "
                                                 "y.add_(1)\nr = z.grad_fn._saved_self",
    # a saved output detached: the node that saved it is its history, nothing is lost
    "saved_output_detached": "y = x.relu(); z = y * 1; y.detach_()\n"
                             "z.sum().backward(); r = x.grad",
}

# ---------------------------------------------------------------- what the message names
MESSAGE = {
    # a saved input is described as it is now: shape after unsqueeze_, its new grad_fn
    "input_unsqueezed_in_place": "y = x * 1; z = y * y; y.unsqueeze_(0)\nz.sum().backward()",
    "input_transposed_in_place": "y = x + 0; z = y.sin(); y.t_()\nz.sum().backward()",
    "leaf_constant_then_recorded_in_place": "c = torch.ones(2, 3); z = x * c\n"
                                            "c.add_(x)\nz.sum().backward()",
    # a saved output is described as it was saved: its shape then, the node that saved it
    "output_unsqueezed_in_place": "y = x.exp(); y.unsqueeze_(0)\ny.sum().backward()",
    "output_changed_in_no_grad": "y = x.tanh()\nwith torch.no_grad(): y.mul_(2)\n"
                                 "y.sum().backward()",
    # "output 0" for a saved input even where it is output 1 of its node
    "second_output_saved_as_input": "v, i = x.max(1); z = v.sin()\n"
                                    "with torch.no_grad(): v.add_(1)\nz.sum().backward()",
    "double_tensor_type": "y = x.double() * 1; z = y.cos(); y.add_(1)\nz.sum().backward()",
}


@pytest.mark.parametrize("code", list(DETACH.values()), ids=list(DETACH))
def test_a_saved_input_detached_in_place_raises_as_in_pytorch(torch, code):
    assert_same_program(torch, _X + code)


@pytest.mark.parametrize("code", list(MESSAGE.values()), ids=list(MESSAGE))
def test_the_modified_message_describes_the_tensor_as_pytorch_does(torch, code):
    assert_same_program(torch, _X + code)
