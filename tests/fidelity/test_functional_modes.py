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
