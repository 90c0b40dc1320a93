"""What the matrix products refuse before checking their arguments, against PyTorch: they read
their operands' histories (a view made in no_grad mode whose base changed in place since is
refused) and save each operand for the other's gradient (an inference tensor is refused)
before any shape or dtype check. ``.data = t`` brings along whether ``t`` is an inference
tensor.

Each case is a snippet run with ``lib`` bound to minigrad and to torch; ``out`` (or the
exception raised) must be the same.
"""

from __future__ import annotations

import pytest
from helpers import cases, snippet_outcome

import minigrad as mg

pytestmark = pytest.mark.torch

INFERENCE = """
x = lib.ones(2, 3, requires_grad=True)
with lib.inference_mode():
    y = {make}
out = {op}
"""
PRODUCTS = [line.split(" | ") for line in cases("products_inference")]
NO_GRAD_VIEW = """
v2 = lib.tensor([[-0.5484020025026515]], dtype=lib.float64).t().requires_grad_()
v10 = v2.prod(-2)
v13 = v10.double()
with lib.no_grad():
    v15 = v10.transpose(0, 0)
v10.lerp_(v15, 0.5)
out = {op}
"""
VIEW_OPS = ["v15 * 2", "v15.mm(v13)", "v15.matmul(v13)", "lib.mm(v15, v13)", "v15.bmm(v13)",
            "v15.dot(v13)", "v15.mv(v13)", "lib.addmm(v13, v15, v13)", "v13.mm(v15)"]
DATA = [
    "a = lib.ones(2)\nwith lib.inference_mode():\n    b = lib.ones(2)\na.data = b\n"
    "out = a.is_inference()",
    "a = lib.ones(2, requires_grad=True)\nwith lib.inference_mode():\n    b = lib.ones(2)\n"
    "a.data = b\nout = (a.is_inference(), a.requires_grad)",
    "with lib.inference_mode():\n    a = lib.ones(2)\na.data = lib.ones(2)\nout = a.is_inference()",
    "x = lib.ones(3, requires_grad=True)\nwith lib.inference_mode():\n"
    "    b = lib.ones(3, dtype=lib.int32)\na = lib.ones(3)\na.data = b\nout = a.mul(x)",
]
CASES = ([INFERENCE.format(make=m, op=op) for m, op in PRODUCTS]
         + [NO_GRAD_VIEW.format(op=op) for op in VIEW_OPS] + DATA)


@pytest.mark.parametrize("code", CASES)
def test_products_refuse_histories_and_inference_tensors_first(torch, code):
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)


DATA_VERSIONS = [
    "with lib.inference_mode():\n    a = lib.ones(2)\na.data = lib.ones(2)\na.add_(1)\nout = a",
    "with lib.inference_mode():\n    a = lib.ones(2)\na.data = lib.ones(2)\n"
    "x = lib.ones(2, requires_grad=True)\nout = a * x",
    "with lib.inference_mode():\n    b = lib.ones(2)\na = lib.ones(2)\na.data = b\na.add_(1)\n"
    "out = (a, a._version)",
    "with lib.inference_mode():\n    a = lib.ones(2)\na.data = lib.ones(2)\nout = a._version",
]


@pytest.mark.parametrize("code", DATA_VERSIONS)
def test_data_moves_is_inference_but_not_the_version_counter(torch, code):
    """``.data = t``: ``is_inference()`` (and what saving refuses) follows ``t``'s data; the
    version counter (or an inference tensor's lack of one) stays with the tensor."""
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)
