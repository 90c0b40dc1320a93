"""Real tutorial programs (tests/fidelity/tutorials/), each run twice in a fresh interpreter:
with PyTorch, and with ``import torch`` giving minigrad (the seeds runner's import hook).
minigrad must print what PyTorch prints.

Object addresses are masked. Every line is compared exactly, except the lines named in
``TOLERANT``: the losses, accuracies and perplexities of programs that train in float32. Those
may differ from PyTorch's in the last digits, for reasons minigrad cannot copy: PyTorch's BLAS
(matrix products) and its convolution kernels sum in a blocked, vectorised order of their own,
and its vectorised ``exp``/``log`` routines round differently from NumPy's in the last bit; a few
training steps carry such a difference into the printed digits. On those lines the text around
the numbers must still be equal, and each number may differ by 1e-4 of its value or by one unit
in its last printed digit (a rounding boundary), whichever is larger.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
TUTORIALS = sorted(p.stem for p in (HERE / "tutorials").glob("*.py"))
# program -> the lines (a regular expression matched at the line's start) compared with the
# tolerance above; each program's header comment says the same.
TOLERANT = {
    "pt_first_network": r"loss: | Accuracy: ",
    "lenet_cnn": r"first loss|step \d+: loss",
    "d2l_linear_regression": r"epoch \d+, loss",
    "pt_blitz_network": r"loss",
    "d2l_softmax_scratch": r"epoch \d+",
    "d2l_mlp_dropout_bn": r"epoch \d+|running mean",
    "cn_legacy_regression_classification": r"第|预测",
    "pt_custom_function_polynomial": r"\d+ |Result",
    "d2l_rnn_scratch": r"困惑度|梯度范数",
    "cn_optimizer_comparison": r"第|最终",
    "pt_save_load_state_dict": r"loss",
    "pt_what_is_nn": r"\d+ \d+\.\d+$|tensor\(\d+\.\d+(, grad_fn|\))",
    "cn_tensor_autograd_basics": r"第|w =",
    "d2l_lenet_training": r"epoch|loss",
}

RUN = """
import contextlib, io, json, os, sys, runpy
sys.path.insert(0, {seeds!r})
if {minigrad!r}:
    import runner
    sys.meta_path.insert(0, runner.TorchIsMinigrad())
os.chdir({tmp!r})
out = io.StringIO()
error = None
with contextlib.redirect_stdout(out):
    try:
        runpy.run_path({path!r}, run_name="__main__")
    except Exception as e:
        error = type(e).__name__ + ": " + str(e)
loaded = [m for m in sys.modules if m == "torch" or m.startswith("torch.")]
real = any(getattr(sys.modules[m], "__file__", "") and "minigrad" not in
           (sys.modules[m].__file__ or "") for m in loaded)
json.dump({{"stdout": out.getvalue(), "error": error, "real_torch": real}}, sys.stdout)
"""


def run(name: str, minigrad: bool, tmp: Path) -> dict:
    code = RUN.format(seeds=str(HERE.parent / "lessons" / "seeds"), minigrad=minigrad, tmp=str(tmp),
                      path=str(HERE / "tutorials" / f"{name}.py"))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


NUMBER = re.compile(r"-?\d+\.(\d+)(?:e([-+]?\d+))?")


def close_numbers(mine: str, theirs: str) -> bool:
    """Equal text around the numbers; each number within 1e-4 of PyTorch's value or one unit
    in PyTorch's last printed digit."""
    if NUMBER.sub("#", mine) != NUMBER.sub("#", theirs):
        return False
    for a, b in zip(NUMBER.finditer(mine), NUMBER.finditer(theirs)):
        decimals, exponent = len(b.group(1)), int(b.group(2) or 0)
        unit = 10.0 ** (exponent - decimals)
        if abs(float(a.group()) - float(b.group())) > max(1e-4 * abs(float(b.group())),
                                                          unit * 1.000001):
            return False
    return True


def same_text(mine: str, theirs: str, tolerant: str | None) -> bool:
    """Line by line: exactly, or with ``close_numbers`` where PyTorch's line matches
    ``tolerant``."""
    if tolerant is None:
        return mine == theirs
    mine_lines, their_lines = mine.split("\n"), theirs.split("\n")
    if len(mine_lines) != len(their_lines):
        return False
    pattern = re.compile(tolerant)
    return all(a == b or (pattern.match(b) is not None and close_numbers(a, b))
               for a, b in zip(mine_lines, their_lines))


@pytest.mark.parametrize("name", TUTORIALS)
def test_tutorial_prints_what_pytorch_prints(torch, name, tmp_path):
    theirs = run(name, False, tmp_path)
    mine = run(name, True, tmp_path)
    assert theirs["error"] is None, theirs["error"]
    assert mine["error"] is None, mine["error"]
    assert not mine["real_torch"], "real PyTorch was imported in the minigrad run"
    mask = re.compile(r"0x[0-9a-fA-F]+")
    a, b = mask.sub("0x…", mine["stdout"]), mask.sub("0x…", theirs["stdout"])
    if name in TOLERANT:  # the pattern still names lines PyTorch prints (and not all of them)
        hits = [bool(re.match(TOLERANT[name], line)) for line in b.splitlines()]
        assert any(hits) and not all(hits), TOLERANT[name]
    if not same_text(a, b, TOLERANT.get(name)):
        assert a == b  # shows the difference


def test_the_tolerant_comparison_still_compares_text_and_numbers():
    assert same_text("loss: 0.693147  [ 64/192]", "loss: 0.693150  [ 64/192]", "loss")
    assert same_text("epoch 3, loss 0.000050", "epoch 3, loss 0.000049", "epoch")  # last digit
    assert same_text("99 24804.92", "99 24804.93", r"\d+ ")
    assert same_text("c = 0.0000", "c = -0.0000", "c")
    assert not same_text("loss: 0.693147", "loss: 0.712345", "loss")
    assert not same_text("epoch 3, loss 0.000051", "epoch 3, loss 0.000049", "epoch")
    assert not same_text("loss: 0.693147", "Loss: 0.693147", "loss")
    assert not same_text("w 1.2345e-02", "w 1.2347e-02", "w")


def test_only_the_named_lines_are_compared_with_a_tolerance():
    text = "loss 0.500000\nweight 0.500000"
    assert same_text("loss 0.500001\nweight 0.500000", text, "loss")
    assert not same_text("loss 0.500000\nweight 0.500001", text, "loss")
    assert not same_text("loss 0.5\nextra\nweight 0.5", "loss 0.5\nweight 0.5", "loss")


def test_every_tolerant_program_exists():
    assert set(TOLERANT) <= set(TUTORIALS)
