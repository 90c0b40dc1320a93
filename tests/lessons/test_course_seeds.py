"""Every code example and idea of the five seed tutorials is taught by a lesson cell.

The seeds (``../shared/seeds/``, their code blocks extracted in ``tests/lessons/seeds/*.blocks``) are the
Chinese tutorials the learners already read. ``TABLE`` maps each of their code blocks, each
concept the course promises (issue 9's list), and each of the three wrong claims the seeds make,
to the lesson cell that teaches (or corrects) it: a lesson number and a piece of text that must
appear in one cell of that lesson's source (a code cell, or the English text of a Markdown
cell; the Chinese cell is its pair). No row may be empty, no seed block may be left out, and
every cell named must exist in the built English and Chinese notebooks.

The seeds' claims that are wrong, outdated or left unexplained have their own table, in the
teacher's kit (``docs/teachers/{en,zh}/seed-claims.md``): the tests at the end of this file
read it and check that every row is still there and that its lesson cell still shows the point.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
sys.path.insert(0, str(NOTEBOOKS))

import build  # noqa: E402

BLOCKS = sorted(re.findall(r"^# %% (\d{3}\.\d{2})$",
                           "\n".join(p.read_text(encoding="utf-8")
                                     for p in (REPO / "tests" / "lessons" / "seeds").glob("*.blocks")),
                           re.M))

# seed block or concept -> [(lesson, text found in the cell that teaches it), ...]
TABLE: dict[str, list[tuple[int, str]]] = {
    # --- seed 000 ---
    "000.01 x, y with requires_grad; z = torch.sum(x + y)": [(1, "z = torch.sum(x + y)")],
    "000.02 z.backward(); x.grad and y.grad are ones": [(1, "print(y.grad)")],
    "000.03 z = x ** 2 + y ** 3; z.backward(torch.ones_like(x))":
        [(4, "z2.backward(torch.ones_like(x2))"), (2, "z = x ** 2 + y ** 3")],
    "000.04 no_grad: (x + y * 2).requires_grad is False": [(6, "with torch.no_grad():")],
    "000.05 dir(z)": [(2, "dir(z)")],
    "000.06 x.is_leaf, z.is_leaf": [(2, "print(z.is_leaf, z.requires_grad)")],
    "000.07 z.grad_fn": [(2, "print(z.grad_fn)")],
    "000.08 dir(z.grad_fn)": [(2, "dir(z.grad_fn)")],
    "000.09 z.grad_fn.next_functions": [(2, "z.grad_fn.next_functions")],
    "000.10 xg = next_functions[0][0]; dir(xg)": [(2, "xg = z.grad_fn.next_functions[0][0]")],
    "000.11 type(x_leaf) is AccumulateGrad": [(2, "print(type(x_leaf))")],
    "000.12 x_leaf.variable": [(2, "x_leaf.variable is x")],
    "000.13 id(x_leaf.variable) == id(x)": [(2, "id(x_leaf.variable)")],
    "000.14 MulConstant(Function), ctx.constant, .apply": [(7, "class MulConstant(Function):")],
    # --- seed 001 ---
    "001.01 sum(x + y).backward(); (x**2 + y**3).backward(ones_like)":
        [(1, "z = torch.sum(x + y)"), (4, "z2.backward(torch.ones_like(x2))")],
    "001.02 dir(z); is_leaf": [(2, "dir(z)"), (2, "print(z.is_leaf, z.requires_grad)")],
    "001.03 next_functions -> AccumulateGrad -> .variable, same id":
        [(2, "x_leaf = xg.next_functions[0][0]"), (2, "id(x_leaf.variable)")],
    "001.04 MulConstant whose backward returns grad_output (wrong)":
        [(7, "class MulConstantWrong(Function):")],
    # --- seed 002 ---
    "002.01 x = torch.ones(2, 2, requires_grad=True)":
        [(1, "x = torch.ones(2, 2, requires_grad=True)")],
    "002.02 y = x + 2; y.grad_fn": [(1, "print(x.grad_fn, y.grad_fn)")],
    "002.03 z = y * y * 3; out = z.mean()": [(1, "out = z.mean()")],
    "002.04 requires_grad_(True) on a = (a * 3) / (a - 1)": [(6, "a.requires_grad_(True)")],
    "002.05 out.backward(); x.grad": [(1, "out.backward()")],
    "002.06 while y.data.norm() < 1000: y = y * 2": [(6, "while y.data.norm() < 1000:")],
    "002.07 y.backward(gradients) with [0.1, 1.0, 0.0001]":
        [(6, "y.backward(torch.tensor([0.1, 1.0, 0.0001]))"),
         (4, "y.backward(torch.tensor([0.1, 1.0, 0.0001]))")],
    "002.08 (x ** 2).requires_grad inside no_grad": [(6, "with torch.no_grad():")],
    "002.09 dir(z)": [(2, "dir(z)")],
    "002.10 is_leaf": [(2, "print(z.is_leaf, z.requires_grad)")],
    "002.11 z.grad_fn is AddBackward0": [(2, "print(z.grad_fn)")],
    "002.12 dir(z.grad_fn), next_functions, xg": [(2, "xg = z.grad_fn.next_functions[0][0]")],
    "002.13 type(x_leaf)": [(2, "print(type(x_leaf))")],
    "002.14 x_leaf.variable": [(2, "x_leaf.variable is x")],
    "002.15 id(x_leaf.variable), id(x)": [(2, "id(x_leaf.variable)")],
    "002.16 from torch.autograd.function import Function":
        [(7, "from minigrad.autograd import Function")],
    "002.17 MulConstant returning grad_output (wrong)": [(7, "class MulConstantWrong(Function):")],
    "002.18 MulConstant.apply(a, 5)": [(7, "MulConstantWrong.apply(a, 5)")],
    "002.19 torch.ones_like(a)": [(7, "torch.ones_like(a)")],
    "002.20 b.backward(torch.ones_like(a)); a.grad": [(7, "b.backward(torch.ones_like(a))")],
    # --- seed 003 ---
    "003.01 c = a + b; d = torch.sum(c); requires_grad and grad_fn": [(2, "d = torch.sum(c)")],
    "003.02 c.backward(torch.ones(c.size()) * 2)": [(4, "c.backward(torch.ones(c.size()) * 2)")],
    "003.03 z computed under no_grad; z.backward()": [(6, "z.backward()")],
    "003.04 torch.set_grad_enabled(False) / (True)": [(6, "torch.set_grad_enabled(False)")],
    "003.05 MultiplyAdd, ctx.save_for_backward, ctx.saved_tensors":
        [(7, "class MultiplyAdd(Function):")],
    "003.06 MultiplyAdd.apply(w, x, b); z.backward()": [(7, "z = MultiplyAdd.apply(w, x, b)")],
    # --- seed 004 ---
    "004.01 torch.ones(3, 3); torch.ones(2, 2, requires_grad=True)":
        [(1, "x = torch.ones(2, 2, requires_grad=True)"), (2, "c = torch.ones(2, 2)")],
    "004.02 y = x + 2": [(1, "y = x + 2")],
    "004.03 x.grad_fn is None, y.grad_fn": [(1, "print(x.grad_fn, y.grad_fn)")],
    "004.04 z = y * y * 3; out = z.mean()": [(1, "out = z.mean()")],
    "004.05 requires_grad_(True)": [(6, "a.requires_grad_(True)")],
    "004.06 out.backward(); x.grad": [(1, "out.backward()")],
    "004.07 no_grad": [(6, "with torch.no_grad():")],
    "004.08 x.detach(); x.eq(y).all()": [(6, "x.eq(d).all()")],
    # --- concepts the course promises (issue 9) ---
    "finite-difference slope, then requires_grad and a first backward()":
        [(1, "(f(3 + h) - f(3 - h)) / (2 * h)"), (1, "y.backward()")],
    "requires_grad spreads from inputs to results": [(2, "(c * x).requires_grad")],
    "grad_fn, is_leaf, next_functions, AccumulateGrad, .variable is x beside a live GraphView":
        [(2, "GraphView(z)"), (2, "x_leaf.variable is x")],
    "_saved_* found with dir()": [(2, 'name.startswith("_saved")')],
    "exploring with dir()": [(2, "dir(z.grad_fn)")],
    "backward() node by node with BackwardStepper, chain rule on screen":
        [(3, "stepper = BackwardStepper(loss)")],
    "patterns: add passes the gradient on, mul swaps the factors, a fork adds":
        [(3, "mul swaps the factors"), (3, "add passes the gradient on"), (3, "A fork adds")],
    "predict the order before stepping (prediction mode)": [(3, "predict=True")],
    "backward() is not a recursive walk (seed 001 says 递归)": [(3, "not a recursive walk")],
    "the gradient argument: non-diagonal Jacobian, y.backward(v) == v @ J == (y * v).sum()":
        [(4, "J = torch.tensor([[2., 8., 0.],"), (4, "(A @ x ** 2 * v).sum().backward()")],
    "how to choose gradient (seed 001's author does not see it)": [(4, "the gradient of the *scalar*")],
    "z.backward() is z.backward(torch.tensor(1.))": [(4, "z.backward(torch.tensor(1.))")],
    ".grad accumulates (梯度累加)": [(5, "for step in range(3):")],
    "x.grad.zero_() versus x.grad = None": [(5, "x.grad.zero_()")],
    "retain_graph, the freed _saved_* shown on the graph": [(5, "view.refresh()"),
                                                            (5, "retain_graph=True")],
    "the 'backward a second time' error": [(5, "Trying to backward through the graph")],
    "create_graph and second derivatives (高阶求导)": [(5, "create_graph=True")],
    "no_grad, with torch.set_grad_enabled(...), inference_mode":
        [(6, "with torch.set_grad_enabled(training):"), (6, "torch.inference_mode()")],
    "requires_grad_()": [(6, "a.requires_grad_(True)")],
    "detach and the shared storage of a detached tensor": [(6, "d[0] = 100.")],
    ".data versus .detach()": [(6, "y.data.zero_()")],
    "u = y.detach(); z = u * x blocks a gradient": [(6, "u = y.detach()")],
    "in-place errors and version counters": [(6, "x._version")],
    "the dynamic graph with a while loop": [(6, "while y.data.norm() < 1000:")],
    "your own Function: MulConstant and MultiplyAdd, ctx.save_for_backward":
        [(7, "class MultiplyAdd(Function):")],
    "needs_input_grad in code": [(7, "ctx.needs_input_grad[0]")],
    "a non-leaf .grad that is None, and its warning": [(8, "print(h.grad)")],
    "retain_grad": [(8, "h.retain_grad()")],
    "register_hook (hook方法)": [(8, "h.register_hook(")],
    "a NaN hunted down with run(until='nonfinite'), anomaly mode":
        [(8, 'run(until="nonfinite")'), (8, "detect_anomaly()")],
    "a first network: nn.Linear, a loss, optim.SGD": [(9, "nn.Linear"), (9, "SGD")],
    # --- the seeds' three wrong claims, named and corrected ---
    "WRONG (seed 003): backward() after no_grad 'computes nothing' -- it raises":
        [(6, "z.backward()")],
    "WRONG (seeds 000-002): a Function's 'optional __init__'":
        [(7, "class MulConstantWithInit(Function):")],
    "WRONG (seeds 001, 002): MulConstant.backward returning grad_output":
        [(7, "gradcheck(MulConstantWrong.apply"), (7, "check=True")],
}


def _cell_of(lesson: int, text: str) -> tuple[str, int]:
    """(lesson stem, index of the cell of the built English notebook (solutions version, which
    holds every cell) that contains ``text``); a code cell must be in the Chinese one too."""
    sources = [s for s in build.sources() if s.stem.startswith(f"{lesson:02d}_")]
    assert sources, f"lesson {lesson} has no source in notebooks/_source/"
    blocks = build.parse(sources[0])
    block = next((b for b in blocks if b.kind in ("code", "exercise", "solution", "en")
                  and text in b.text), None)
    assert block is not None, f"{sources[0].name}: no cell contains {text!r}"
    stem = sources[0].stem
    cells = {lang: nbformat.read(NOTEBOOKS / lang / "solutions" / f"{stem}.ipynb",
                                 as_version=4).cells for lang in build.LANGS}
    index = next((n for n, c in enumerate(cells["en"]) if text in c.source), None)
    assert index is not None, f"en/solutions/{stem}.ipynb: no cell contains {text!r}"
    if block.kind != "en":
        assert text in cells["zh"][index].source, f"zh/solutions/{stem}.ipynb, cell {index}"
    return stem, index


def test_every_code_block_of_the_seeds_has_a_row():
    assert len(BLOCKS) > 50
    rows = {key.split()[0] for key in TABLE}
    assert [b for b in BLOCKS if b not in rows] == []


def test_every_row_names_at_least_one_lesson_cell():
    assert all(TABLE.values()) and all(text for targets in TABLE.values() for _, text in targets)


def test_the_three_wrong_claims_of_the_seeds_are_named_and_corrected():
    wrong = [key for key in TABLE if key.startswith("WRONG")]
    assert len(wrong) == 3


@pytest.mark.parametrize("row", list(TABLE), ids=[k.split(" ")[0] if k[0].isdigit() else
                                                  re.sub(r"\W+", "-", k)[:40] for k in TABLE])
def test_the_lesson_cell_named_in_the_table_teaches_the_row(row):
    for lesson, text in TABLE[row]:
        stem, index = _cell_of(lesson, text)
        assert index >= 0, (row, stem)


def test_the_table_can_fail_on_a_cell_no_lesson_has():
    with pytest.raises(AssertionError, match="no cell contains"):
        _cell_of(1, "this text is in no lesson")


# --------------------------------------------------------------------------- the seeds' claims
# The teacher's kit names every wrong, outdated or unexplained claim of the seeds in a table
# (docs/teachers/{en,zh}/seed-claims.md): the claim, the truth, and a lesson cell that shows it
# running. Each row names the lesson, a piece of code found in that cell, and a piece of text
# its stored output contains. The ids below are the rows the table must keep (with a word the
# seed's claim must contain), so that no row can be dropped or quietly replaced.
CLAIMS_REQUIRED: dict[str, str] = {
    "S01": "requires_grad_()",        # defaults to True, not False
    "S02": "gradient参数为None",       # None only for a scalar output
    "S03": "retain_graph参数为False",  # None: the value of create_graph
    "S04": "标签",                    # the scalar is the loss, not the label
    "S05": "雅可比行列",               # 矩阵, and functional.jacobian exists
    "S06": "0.41",                    # Variable deprecated in 0.4.0
    "S07": "Function使用autograd",     # forward runs without recording
    "S08": "detach",                  # returns a new tensor; the original stays
    "S09": "tuple of tuple",          # input_nr
    "S10": "forward返回值的个数",       # one gradient per forward output
    "S11": "非循环图",                 # the graph is acyclic
    "S12": "torch.Tensor()",          # torch.tensor vs torch.Tensor
    "S13": "递归",                    # backward is not recursive
    "S14": "no_grad",                 # backward after no_grad raises
    "S15": "set_grad_enabled(True)",  # z.backward() on a 5 x 5 z raises
    "S16": "__init__",                # never instantiated
    "S17": "return grad_output, None",  # the missing constant
    "S18": "手动创建",                 # every tensor not requiring grad is a leaf
    "S19": "requires_grad都是True",    # requires_grad does not always spread
    "S20": "所有操作",                 # not every op has a gradient
    "S21": "AccumulateGrad",          # paths also end at None
    "S22": "保存到",                   # .grad is added to
    "S23": "a和b",                    # names from another example
    "S24": "grad_fn",                 # the backward node, not the forward function
    "S25": "临时",                    # set_grad_enabled as a call is not temporary
    "S26": "t.ones(1)",               # t never imported
    "S27": "torch.Function",          # torch.autograd.Function
    "S28": "积累到 .grad",             # only leaves keep .grad
}
_ROW = re.compile(r"^\| (S\d\d) \| ([^|]*) \| (.*) \| (\w+) \| .* \| (\d+) \| `([^`]+)` \| `([^`]+)` \|$")


def _claim_rows(lang: str) -> dict[str, tuple[str, int, str, str]]:
    """id -> (the seed's claim, lesson, the cell's code, what its output shows)."""
    path = REPO / "docs" / "teachers" / lang / "seed-claims.md"
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("| S"):
            match = _ROW.match(line)
            assert match, f"{path.name}: a row the test cannot read: {line[:60]}"
            key, _, said, _, lesson, code, shows = match.groups()
            assert key not in rows, f"{path.name}: {key} twice"
            rows[key] = (said, int(lesson), code, shows)
    return rows


def _output_text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        parts.append(out.get("text", ""))
        parts.append(out.get("data", {}).get("text/plain", ""))
        parts.append(f"{out.get('ename', '')}: {out.get('evalue', '')}")
    return "\n".join(parts)


def _claim_shown(lang: str, lesson: int, code: str, shows: str) -> None:
    """The first code cell of the lesson (solutions notebook) containing ``code`` exists and
    its stored output contains ``shows``."""
    sources = [s for s in build.sources() if s.stem.startswith(f"{lesson:02d}_")]
    assert sources, f"lesson {lesson} has no source"
    nb = nbformat.read(NOTEBOOKS / lang / "solutions" / f"{sources[0].stem}.ipynb", as_version=4)
    cell = next((c for c in nb.cells if c.cell_type == "code" and code in c.source), None)
    assert cell is not None, f"{lang} lesson {lesson}: no code cell contains {code!r}"
    assert shows in _output_text(cell), (
        f"{lang} lesson {lesson}: the cell with {code!r} does not show {shows!r}")


def test_the_seed_claims_table_keeps_every_row_in_both_languages():
    for lang in build.LANGS:
        rows = _claim_rows(lang)
        assert sorted(rows) == sorted(CLAIMS_REQUIRED), lang
        for key, word in CLAIMS_REQUIRED.items():
            assert word in rows[key][0], f"{lang} {key}: the seed's claim should quote {word!r}"
    en, zh = _claim_rows("en"), _claim_rows("zh")
    assert {k: v[1:3] for k, v in en.items()} == {k: v[1:3] for k, v in zh.items()}


@pytest.mark.parametrize("key", sorted(CLAIMS_REQUIRED))
@pytest.mark.parametrize("lang", build.LANGS)
def test_each_seed_claim_is_shown_running_in_its_lesson_cell(lang, key):
    _, lesson, code, shows = _claim_rows(lang)[key]
    _claim_shown(lang, lesson, code, shows)


def test_the_seed_claims_check_fails_on_a_missing_cell_or_a_wrong_output():
    with pytest.raises(AssertionError, match="no code cell contains"):
        _claim_shown("en", 2, "this code is in no cell", "True")
    with pytest.raises(AssertionError, match="does not show"):
        _claim_shown("en", 6, "e.requires_grad_()", "requires_grad is False")


def test_the_kit_links_the_seed_claims_table():
    for lang in build.LANGS:
        index = (REPO / "docs" / "teachers" / lang / "index.md").read_text(encoding="utf-8")
        assert "(seed-claims.md)" in index, lang
