"""Gradient values, ``.grad`` and version checks the fuzzer (tests/fuzz) found different from
PyTorch's, each fixed and kept here against PyTorch: a p = 0 norm gives no gradient, ``dist``
checks its saved result, a full max/min/median share the gradient by a masked fill (an
infinite gradient leaves the other elements 0), ``True ** x`` fails in backward as PyTorch's
does, ``.grad`` keeps a view of the caller's gradient (PyTorch steals it), and an expanded
leaf's ``.grad`` under ``create_graph`` is a clone; ``copy_`` gives the tensor it
overwrites zeros (no NaN from an infinite gradient)."""

from __future__ import annotations

import pytest
from helpers import assert_same_program

PROGRAMS = [
    # norm and vector_norm with p = 0: PyTorch's norm_backward gives an undefined gradient
    "x = torch.tensor([1., 0., 2.], requires_grad=True)\nx.norm(0).backward()\nr = x.grad",
    "x = torch.tensor([[1., 0., 2.]], requires_grad=True)\nx.norm(0, dim=1).sum().backward()\n"
    "r = x.grad",
    "x = torch.tensor([], requires_grad=True)\nx.norm(0).backward()\nr = x.grad",
    "x = torch.tensor([1., 0., 2.], requires_grad=True)\n"
    "r = torch.autograd.grad(x.norm(0) + x.sum(), x, create_graph=True)",
    "x = torch.tensor([1., 0., 2.], requires_grad=True)\n"
    "r = torch.autograd.grad(x.norm(0), x, allow_unused=True, materialize_grads=True)",
    "x = torch.tensor([1., 0., 2.], requires_grad=True)\nr = torch.autograd.grad(x.norm(0), x)",
    # the norm of one element is its magnitude (no overflow of a huge one's square), whatever
    # the shape, p (but 0) or keepdim, and so is its gradient's denominator
    *[f"x = torch.tensor({v}, requires_grad=True)\nn = x.norm({p}, keepdim={k})\n"
      f"r = (n, torch.autograd.grad(n.sum(), x))"
      for v in ("1e30", "[1e30]", "[[-1e30]]") for p in (2, 0.5, "float('inf')")
      for k in (False, True)],
    # dist's saved result is checked for in-place changes, whatever p
    *[f"x = torch.tensor(1.5, requires_grad=True)\nd = torch.dist(x, torch.tensor([]), {p})\n"
      f"d[..., None] = torch.tensor(2., requires_grad=True)\nd.sum().backward()\nr = x.grad"
      for p in (0, 2)],
    # max() / min() / median(): zeros, with grad / count filled in where the mask holds
    *[f"x = torch.tensor([3., 1., 3., 2.], requires_grad=True)\n"
      f"x.{f}().backward(torch.tensor(-float('inf')))\nr = x.grad"
      for f in ("max", "min", "median", "amax", "amin")],
    "x = torch.tensor([3., 1., 3.], requires_grad=True)\n"
    "r = torch.autograd.grad(x.max(), x, create_graph=True)",
    "x = torch.tensor([1., float('nan'), 3., float('nan')], requires_grad=True)\n"
    "x.median().backward(torch.tensor(float('inf')))\nr = x.grad",
    # a bool base: PyTorch records PowBackward2, whose backward always fails
    *[f"x = torch.tensor([0.5, 2.], requires_grad=True)\ny = {e}\n"
      f"r = (y.grad_fn.name(), torch.autograd.grad(y.sum(), x))"
      for e in ("torch.pow(True, x)", "False ** x", "2 ** x")],
    # .grad keeps the view of the caller's gradient: a later backward adds into its memory
    "v = torch.zeros(2, 3, requires_grad=True)\ng = torch.arange(6.).reshape(2, 3, 1)\n"
    "v[..., None].backward(g)\nv.sum().backward()\nr = (g, v.grad)",
    "v = torch.zeros(1, 6, dtype=torch.float64, requires_grad=True)\n"
    "g = torch.arange(6.).double().reshape(1, 1, 6)\nv[None].backward(g)\n"
    "v.backward(v.grad)\nr = (g, v.grad)",
    # copy_'s overwritten tensor gets zeros (PyTorch's zeros_like(grad)): an infinite or NaN
    # gradient does not reach it (CopyBackwards, and CopySlices around it)
    "x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x * 1\ny[0] = 5.\n"
    "r = torch.autograd.grad(y, x, torch.tensor([float('nan'), float('nan'), 1.]))",
    "x = torch.tensor([[0.685]], requires_grad=True)\ny = x @ x\ny.t().copy_(y)\n"
    "y *= float('inf')\ny.sum().backward()\nr = x.grad",
    "x = torch.tensor([[-3.6]], requires_grad=True)\ny = x.t() @ x\ny.t().copy_(y)\n"
    "x.add(y, alpha=float('inf')).backward(torch.ones(1, 1))\nr = x.grad",
    "a = torch.zeros(3, requires_grad=True)\nb = a * 1\n"
    "b.copy_(torch.tensor([1., 2., 3.], requires_grad=True))\n"
    "r = torch.autograd.grad(b, a, torch.tensor([float('inf'), 1., float('nan')]))",
    # a view made in no_grad mode of a tensor not requiring grad, then requires_grad_(): a leaf
    # of its own that gets gradients, even after its base starts requiring grad (a view of a
    # base requiring grad made in no_grad mode leads nowhere)
    "b = torch.ones(2, 3, 1)\nwith torch.no_grad():\n    v = b.unsqueeze(-2).squeeze(-2)\n"
    "v.requires_grad_()\nv.amin().backward()\nr = (v.grad, v.is_leaf)",
    "b = torch.ones(3)\nwith torch.no_grad():\n    v = b[:]\nv.requires_grad_()\n"
    "v.sum().backward()\n(v * 2).sum().backward()\nb.requires_grad_()\n"
    "(v * 2).sum().backward()\nr = (v.grad, b.grad, v[1:].grad_fn)",
    "b = torch.ones(3, requires_grad=True)\nwith torch.no_grad():\n    v = b[:]\n"
    "v.requires_grad_()\nv.sum().backward()\nr = (v.grad, b.grad)",
    # the gradient of a sum reaching a one-element leaf is minigrad's read-only broadcast: .grad
    # is a copy of it, which later passes add into in place (a NumPy view of it sees them)
    "x = torch.tensor(-1.16, requires_grad=True)\nx.sum().backward()\nr = x.grad.zero_()",
    "x = torch.tensor([[-2.6]], requires_grad=True)\nx.sum().backward()\na = x.grad.numpy()\n"
    "(x * 3).sum().backward()\nr = (x.grad, a.tolist())",
    # the norm of a 0-d tensor over dim 0 is computed (|x| ** p overflows to 0 for a huge p)
    "r = torch.tensor(0.6931).norm(1e30, 0)",
    # retain_grad on a view changed in place follows its new history (AsStridedBackward0)
    "x = torch.tensor([[1.6, 0.9, -3.2]], dtype=torch.float64, requires_grad=True)\n"
    "v = torch.tensordot(x, x.sinh(), 0)\nv.retain_grad()\nv.trunc_()\n"
    "(v * torch.arange(9.).reshape(1, 3, 1, 3)).sum().backward()\nr = (v.grad, v.grad_fn, x.grad)",
    "x = torch.ones(2, 3, requires_grad=True)\nv = (x * 2)[0]\nv.retain_grad()\nv.mul_(3)\n"
    "v.sum().backward()\nr = (v.grad, x.grad)",
    # ... and so when its base changed in place in no_grad mode (the view's grad_fn is made
    # again when next read: fuzz seed 1347), also for a view of a view
    "x = torch.tensor([[-3.8, 0.2], [-4.5, 1.7]], requires_grad=True)\n"
    "with torch.no_grad(): x.round_()\nv = x.unflatten(0, (1, -1))\nv.retain_grad()\n"
    "with torch.no_grad(): x.clamp_(-9., -1.5)\nv.double().sum().backward()\n"
    "r = (v.grad, v.grad_fn, x.grad)",
    "x = torch.ones(2, 3, requires_grad=True)\nb = x * 2\nv = b[0][1:]\nv.retain_grad()\n"
    "with torch.no_grad(): b.mul_(3)\n(v * v).sum().backward()\nr = (v.grad, x.grad)",
    # create_graph: an expanded leaf's .grad is a row-major clone, a dense leaf's a copy
    "x = torch.tensor([float('nan')]).expand(3).requires_grad_()\n"
    "x.exp().sum().backward(create_graph=True)\nr = x.grad",
    "x = torch.tensor([[1., 2.]]).expand(3, 2).requires_grad_()\n"
    "(x * x).sum().backward(create_graph=True)\nr = (x.grad, x.grad.grad_fn)",
    "x = torch.tensor([[1., 2.]], requires_grad=True)\n"
    "(x * x).sum().backward(create_graph=True)\nr = x.grad",
]


@pytest.mark.parametrize("code", PROGRAMS)
def test_the_gradient_is_what_torch_gives(torch, code):
    assert_same_program(torch, code)
