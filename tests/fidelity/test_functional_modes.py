"""``torch.autograd.functional`` under each grad mode, against PyTorch: its functions run with
grad mode on (a Hessian under ``no_grad`` is the Hessian), in inference mode nothing is
recorded and each derivative is zeros, and an empty output meets ``stack``'s error.

Each case is a snippet run with ``lib`` bound to minigrad and to torch; ``out`` (or the
exception raised) must be the same.
"""

from __future__ import annotations

import itertools

import pytest
from helpers import snippet_outcome

import minigrad as mg

pytestmark = pytest.mark.torch

MODES = ["inference_mode", "no_grad", "enable_grad"]
POINTS = ["lib.tensor(2.5)", "lib.tensor([2.5, 1.])", "lib.tensor([])"]
CALLS = ["hessian(lambda t: (t * t * t).sum(), x)", "jacobian(lambda t: t * t * t, x)",
         "vjp(lambda t: t * t * t, x, lib.ones_like(x))",
         "jvp(lambda t: t * t * t, x, lib.ones_like(x))",
         "hvp(lambda t: (t * t * t).sum(), x, lib.ones_like(x))",
         "vhp(lambda t: (t * t * t).sum(), x, lib.ones_like(x))",
         "hessian(lambda t: (t * t * t).sum(), x, create_graph=True)",
         "jacobian(lambda t: t.sum(), x)"]


@pytest.mark.parametrize(("mode", "point", "call"), list(itertools.product(MODES, POINTS, CALLS)))
def test_functional_in_each_grad_mode_as_pytorch(torch, mode, point, call):
    code = f"x = {point}\nwith lib.{mode}():\n    out = lib.autograd.functional.{call}"
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("call", [
    "AF.jvp(f, v, lib.ones_like(v), create_graph=cg)[1]",
    "AF.vjp(f, v, lib.ones_like(v), create_graph=cg)[1]",
    "AF.jacobian(f, v, create_graph=cg)[0, 0]",
    "AF.hvp(lambda t: f(t).sum(), v, lib.ones_like(v), create_graph=cg)[1]",
    "AF.hessian(lambda t: f(t).sum(), v, create_graph=cg)[0, 0]"])
def test_the_callers_tensor_hooks_stay_out_of_functional(torch, call, create_graph):
    """PyTorch differentiates fresh tensors (a new leaf, or with create_graph a view_as of an
    input that requires grad): a hook on the caller's tensor does not run (a fuzz finding:
    jvp ran it, and gave twice the product under a doubling hook)."""
    code = ("AF = lib.autograd.functional\nseen = []\n"
            "v = lib.tensor([[1.5, 0.5], [0.4, -2.]], requires_grad=True)\n"
            "v.register_hook(lambda g: seen.append(1) or g * 2)\n"
            "f = lambda t: t * t * t\ncg = " + repr(create_graph) + "\n"
            f"r = {call}\nout = r.detach(), r.requires_grad, seen, v.grad")
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)
