"""Devices and printed names, differentially against PyTorch (a CPU-only build).

Tutorials open with ``device = "cuda" if torch.cuda.is_available() else "cpu"`` and print
dtypes and shapes; all of that must read exactly as PyTorch's does.
"""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome, outcome

import minigrad as mg

DEVICE_ARGS = [("cpu",), ("cpu:0",), ("cuda",), ("cuda:1",), ("cuda", 0), ("mps",), ("meta",),
               ("gpu",), ("cpu:x",), ("cpu:0:1",), ("cpu", -1), ("cpu:0", 1), ("cpu", "x")]


@pytest.mark.parametrize("args", DEVICE_ARGS)
def test_device_constructor_matches_torch(torch, args):
    assert outcome(lambda: mg.device(*args)) == outcome(lambda: torch.device(*args))


@pytest.mark.parametrize("args", [("cpu",), ("cuda", 0), ("cpu:0",)])
def test_device_str_type_index_and_equality_match_torch(torch, args):
    m, t = mg.device(*args), torch.device(*args)
    assert (str(m), m.type, m.index) == (str(t), t.type, t.index)
    assert (m == mg.device("cpu"), m == "cpu") == (t == torch.device("cpu"), t == "cpu")
    assert mg.device(m) == m and hash(mg.device(*args)) == hash(m)


def test_availability_answers_are_those_of_a_cpu_only_build(torch):
    def answers(lib):
        return (lib.cuda.is_available(), lib.cuda.device_count(),
                lib.accelerator.is_available(), lib.accelerator.current_accelerator(),
                lib.backends.mps.is_available(), lib.backends.cudnn.is_available(),
                repr(lib.get_default_device()))

    assert answers(mg) == answers(torch)


@pytest.mark.parametrize("code", [
    "lib.ones(2, device='cpu').device",
    "lib.tensor([1., 2.], device=lib.device('cpu')).device",
    "lib.zeros(2, 3, device='cuda')",
    "lib.randn(2, device='cuda:0')",
    "lib.ones(2).to('cuda')",
    "lib.ones(2).to('mps')",
    "lib.ones(2).cuda()",
    "lib.ones(2).to('cpu').device",
    "lib.ones(2).cpu().is_cpu",
    "lib.nn.Linear(2, 2).cuda()",
    "lib.nn.Linear(2, 2).to('cuda')",
    "lib.cuda.current_device()",
    "lib.cuda.manual_seed(0)",
    "lib.cuda.manual_seed_all(0)",
    "lib.Generator(device='cpu').device",
])
def test_device_use_matches_torch(torch, code):
    assert_same_outcome(torch, code)  # (AssertionError is what PyTorch raises for CUDA)


def test_the_usual_device_line_runs_and_moves_a_model(torch):
    def program(lib):
        device = "cuda" if lib.cuda.is_available() else "cpu"
        model = lib.nn.Linear(3, 1).to(device)
        x = lib.ones(4, 3, device=device)
        return device, str(model(x).device), model.to(device) is model

    assert program(mg) == program(torch)


def test_set_default_device_cpu_is_accepted(torch):
    for lib in (mg, torch):
        lib.set_default_device("cpu")
        try:
            assert str(lib.ones(1).device) == "cpu"
        finally:
            lib.set_default_device(None)


@pytest.mark.parametrize("code", [
    "lib.float64", "lib.float32", "lib.int64", "lib.bool", "lib.uint8",
    "lib.ones(2, 3).shape", "lib.ones(1, 1000).size()", "lib.Size([2, 3])",
    "lib.tensor([1., 2.], dtype=lib.float64)", "lib.tensor([1, 2], dtype=lib.int32)",
    "lib.ones(2).type()", "lib.ones(2, dtype=lib.float64).dtype",
    "(lib.ones(2, 3).shape, lib.ones(2).dtype)",
])
def test_printed_names_are_torchs(torch, code):
    assert repr(eval(code, {"lib": mg})) == repr(eval(code, {"lib": torch}))
    assert str(eval(code, {"lib": mg})) == str(eval(code, {"lib": torch}))
