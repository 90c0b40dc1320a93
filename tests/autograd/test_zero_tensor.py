"""PyTorch's ZeroTensor (minigrad/autograd/zero_tensor.py): ``sgn``'s backward gives its
efficient zeros, and ``.grad`` (or ``autograd.grad``'s result) may be one. Each program runs on
both libraries; what a learner sees (values, or the error) must be the same. The fuzzer found
the first ones (a ``.grad`` PyTorch cannot turn into NumPy)."""

from __future__ import annotations

import pytest
from helpers import assert_same_program

SGN = "x = torch.tensor([-2., 3.], requires_grad=True)\nx.sgn().sum().backward()\n"

PROGRAMS = [
    # .grad is a ZeroTensor: printed as zeros, refused as NumPy and to in-place changes
    SGN + "r = x.grad",
    SGN + "r = (x.grad._is_zerotensor(), x.grad.clone()._is_zerotensor(), x._is_zerotensor())",
    SGN + "r = repr(x.grad)",
    SGN + "r = x.grad.numpy()",
    SGN + "import numpy as np\nr = np.asarray(x.grad)",
    SGN + "r = x.grad.numpy(force=True).tolist()",
    SGN + "r = x.grad.tolist()",
    SGN + "r = x.grad.zero_()",
    SGN + "r = x.grad.add_(1)",
    SGN + "r = x.grad.copy_(torch.ones(2))",
    SGN + "x.grad[0] = 1.\nr = x.grad",
    SGN + "r = x.grad.detach().numpy()",
    SGN + "r = x.grad.clone().zero_()",
    SGN + "r = (x.grad + 1, x.grad.sum(), x.grad[0].item())",
    # a second backward adds into it in place: refused; into an ordinary .grad it adds
    SGN + "x.sgn().sum().backward()\nr = x.grad",
    SGN + "(x * 2).sum().backward()\nr = x.grad",
    "x = torch.tensor([-2., 3.], requires_grad=True)\n(x * 2).sum().backward()\n"
    "x.sgn().sum().backward()\nr = x.grad",
    # with create_graph .grad is a copy (an ordinary tensor), and adding is out of place
    "x = torch.tensor([-2., 3.], requires_grad=True)\nx.sgn().sum().backward(create_graph=True)"
    "\nx.sgn().sum().backward(create_graph=True)\nr = x.grad",
    # the optimizers read it; zero_grad(set_to_none=False) zeroes it in place: refused
    SGN + "opt = torch.optim.SGD([x], lr=0.1, momentum=0.9)\nopt.step()\nr = x",
    SGN + "torch.optim.SGD([x], lr=0.1).zero_grad(set_to_none=False)\nr = x.grad",
    SGN + "torch.optim.SGD([x], lr=0.1).zero_grad()\nr = x.grad",
    # autograd.grad gives it too; it survives * and / (even by NaN) but not indexing or a cast
    "x = torch.tensor([-2., 3.], requires_grad=True)\n"
    "r = torch.autograd.grad(x.sgn().sum(), x)[0]",
    "x = torch.tensor([-2., 3.], requires_grad=True)\n"
    "r = torch.autograd.grad((x.exp() * 3).sgn().sum() * float('nan'), x)[0]",
    "x = torch.tensor([-2., 3.], requires_grad=True)\n"
    "r = torch.autograd.grad(x.sgn().sum() + x.sum(), x)[0]",
    "x = torch.tensor([-2., 3.], requires_grad=True)\n"
    "r = torch.autograd.grad(x[0].sgn(), x)[0]",
    "x = torch.tensor([-2., 3.], dtype=torch.float64, requires_grad=True)\n"
    "r = torch.autograd.grad(x.float().sgn().sum(), x)[0]",
    "x = torch.tensor([-2., 3.], requires_grad=True)\n"
    "r = torch.autograd.grad(x.sign().sum(), x)[0]",
    "x = torch.tensor([-2., 3.], requires_grad=True)\n"
    "r = torch.autograd.grad(x.sgn().sum(), x, create_graph=True)[0]",
    # a hook sees it as PyTorch's does
    "x = torch.tensor([-2., 3.], requires_grad=True)\nseen = []\n"
    "x.register_hook(lambda g: seen.append(g.tolist()))\n"
    "x.sgn().sum().backward()\nr = seen",
]


@pytest.mark.parametrize("code", PROGRAMS)
def test_a_zero_tensor_gradient_behaves_as_in_torch(torch, code):
    assert_same_program(torch, code)
