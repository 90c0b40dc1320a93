"""The brief fuzz run of ``make test``: programs 0..PROGRAMS-1 (about 20 s); ``make fuzz``
runs many more (tests/fuzz/run.py).

Every mismatch must be one of the open differences listed in ``KNOWN`` (each a bug to fix, named
by the statement's operation and what differs); anything else fails the test with the
statement, both results and the seed to replay it. The counts are printed (``-s``).
"""

from __future__ import annotations

import re

import fuzz_programs
import pytest

PROGRAMS = 150

# Open differences the fuzzer finds (fix, then delete the line): operation -> what differs.
KNOWN = {
    "clamp_": "PyTorch names the bool destination 'bool' in clamp_'s cast error",
    "backward": "in-place-modified saved tensors: PyTorch names Pow1/Prod1; float64 root grads",
    "floor_divide": "floor_divide of values at inf/nan",
    "//": "floor division of values at inf/nan",
    "%": "remainder of values at inf/nan",
    "remainder": "remainder of values at inf/nan",
    "fmod": "fmod of values at inf/nan, fmod(bool) errors",
    "@": "matmul of bool tensors: PyTorch's NotImplementedError",
    "norm": "norm of a dim with nan",
    "log_softmax": "log_softmax of a row with inf",
    "**": "pow at special values",
    "mul": "mul of bool by float",
    "atan2": "atan2 of integer tensors",
    "sign": "sign at nan",
    "median": "median with nan",
}


def operation(code: str) -> str:
    """The operation a statement performs: 'clamp_', 'transpose', '//', 'backward', ..."""
    if code.startswith("backward"):
        return "backward"
    rhs = code.split(" = ", 1)[-1]
    if re.match(r"v\d+\[", rhs):
        return "[]"
    m = re.match(r"lib\.(\w+)\(", rhs) or re.match(r"v\d+\.(\w+)", rhs)
    if m:
        return m.group(1)
    ops = re.findall(r" (\*\*|//|%|@|[+\-*/<>]=?|==) ", rhs)
    return ops[0] if ops else rhs


def test_random_programs_behave_as_in_pytorch(torch, capsys):
    import minigrad

    statements = errors = 0
    unexpected, known = [], []
    for seed in range(PROGRAMS):
        out = fuzz_programs.run_program(seed, minigrad, torch)
        statements += out.statements
        errors += out.errors_compared
        for s, code, problem in out.mismatches:
            (known if operation(code) in KNOWN else unexpected).append((s, code, problem))
    with capsys.disabled():
        print(f"\nfuzz: {PROGRAMS} programs, {statements} statements, {errors} exceptions "
              f"compared, {len(known)} known open differences, {len(unexpected)} new")
    assert not unexpected, "\n\n".join(f"seed {s}: {c}\n  {p}" for s, c, p in unexpected)


@pytest.mark.parametrize("code,op", [("v3 = v1.clamp_(-1, 1)", "clamp_"), ("v4 = v2 // v1", "//"),
                                     ("v5 = lib.fmod(v1, 2)", "fmod"), ("backward()", "backward"),
                                     ("v6 = v1[0]", "[]")])
def test_the_operation_of_a_statement_is_recognised(code, op):
    assert operation(code) == op


def test_a_difference_is_reported(torch, monkeypatch):
    """The comparison can fail: make minigrad's exp wrong and the fuzzer must notice."""
    import minigrad

    real = minigrad.Tensor.exp
    monkeypatch.setattr(minigrad.Tensor, "exp", lambda self: real(self) * 1.01)
    found = [m for seed in range(30) for m in fuzz_programs.run_program(
        seed, minigrad, torch).mismatches if "exp" in m[1]]
    assert found
