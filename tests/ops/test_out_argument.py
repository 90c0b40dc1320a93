"""``out=`` (minigrad/_ops/out.py) against PyTorch: the result written into the given tensor,
which is returned; resized (with PyTorch's warning when it had elements), its strides kept
otherwise; PyTorch's dtype rules by kind of function (cast, computed in out's dtype, the same
dtype, the factories' dtype); its refusals (a tensor requiring grad, memory shared partly, the
methods); and the tutorials' ``torch.add(x, y, out=result)``."""

from __future__ import annotations

import warnings

import pytest
from helpers import cases, outcome

import minigrad as mg
from minigrad._ops.out import KINDS


def _run(lib, code: str):
    """What the snippet gives (its ``out``) and the warnings it raised (their text as
    minigrad gives it: without PyTorch's "(Triggered internally at ...)")."""
    def run():
        ns = {"lib": lib, "x": lib.tensor([[1., 2., 3.], [4., 5., 6.]]),
              "y": lib.tensor([1., 0., -1.]), "i": lib.tensor([[1, 2, 3], [4, 5, 6]])}
        exec(code, ns)  # noqa: S102 - the tests' own snippets
        return ns["out"]

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = outcome(run)
    if result[0] != "ok":  # (an error's first line: PyTorch's overload lists follow it)
        result = result[0], result[1].split("\n")[0]
    return result, [str(w.message).split(" (Triggered internally")[0] for w in caught]


@pytest.mark.parametrize("code", cases("out_argument"))
def test_out_as_pytorch(torch, code):
    assert _run(mg, code) == _run(torch, code)


def test_the_blitz_addition_into_a_result_tensor(torch):
    """PyTorch's 60-minute blitz: ``result = torch.empty(5, 3); torch.add(x, y, out=result)``."""
    def run(lib):
        x, y = lib.ones(5, 3), lib.arange(15.).reshape(5, 3)
        result = lib.empty(5, 3)
        returned = lib.add(x, y, out=result)
        return repr(result), returned is result

    assert run(mg) == run(torch)


@pytest.mark.parametrize("name", sorted(n for n in KINDS if hasattr(mg, n)))
def test_every_function_given_out_has_it_in_pytorch_too(torch, name):
    """Each function minigrad gives ``out=`` has it in PyTorch: an ``out`` overload among its
    operator's schemas (``aten::add.out``...)."""
    schemas = torch._C._jit_get_schemas_for_operator(f"aten::{name}")
    assert any("out" in s.overload_name.lower() for s in schemas), name
