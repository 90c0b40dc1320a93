"""The seed tutorials run unchanged with ``import minigrad as torch`` and print what PyTorch prints.

Every Python code block of the five tutorials in ``../shared/seeds/`` is extracted (exactly as
written) into ``tests/lessons/seeds/<seed>.blocks``. Each tutorial's blocks then run as one sequence
sharing state, like notebook cells, twice, each time in a fresh interpreter
(``tests/lessons/seeds/runner.py``): once with real PyTorch 2.13, once with minigrad standing in for it
(an import hook makes ``import torch``, ``torch.autograd.function``, ``torch.nn``,
``torch.nn.functional`` and ``torch.optim`` give minigrad's modules). What each block prints
(stdout, warnings, any exception, and every bare expression shown as Jupyter shows it) must be
the same, once object addresses and ``id()`` values are normalised.

How the blocks were extracted, by seed (hand-curated where the text is not plain Markdown):

* 000, 004: fenced ```python blocks. In 004 the printed results are fenced as ```python too;
  a block right after the line "输出结果：" ("output:") is output, not code, and is left out.
* 001: the fenced ```py blocks, plus two runs of unfenced code under "Autograd 过程解析"
  (pasted from notebook cells), located by their first and last lines (``_UNFENCED``).
* 002: a Jupyter notebook: every non-empty code cell.
* 003: the code after "In [1]:" and "In [None]:" (located by first and last lines), and the
  indented code blocks.

What is changed, and only when the blocks run (the stored blocks stay as written):

* ``torch.rand(...)`` / ``torch.randn(...)`` (also as ``t.rand``) become
  ``torch.tensor(_fixed.rand(<same shape>, seed=k), <same keywords>)``: fixed float32 values
  from a seeded NumPy generator, the same in both runs.
* A tutorial that uses ``torch`` without importing it gets ``import torch`` first; 003 uses
  ``t.`` for torch (``import torch as t``) and gets that too (``PRELUDES``).
* A few blocks are split in two (``SPLITS``): where the tutorial's code raises half-way (003's
  ``set_grad_enabled`` block), the lines after the error still run and are compared too; and
  001's ``dir(z)`` is separated from the lines after it (see the next point).
* Where a block changes state but prints nothing, a probe block printing that state is added
  after it (``PROBES``; ids end in ``+probe``). Probes are this test's code, not the tutorial's.

Where exact equality is impossible, the comparison is explicit (``DIR_OF_TENSOR``): ``dir()`` of
a tensor lists hundreds of PyTorch methods minigrad does not have. For those blocks the test
checks that minigrad's list holds every tensor attribute the tutorials use or discuss, and that
each public name it lists is one PyTorch's tensor has too. ``dir()`` of a ``grad_fn`` node is
compared exactly.

Regenerate the stored blocks after a seed changes with ``python tests/lessons/test_seeds.py --update``.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
STORED = HERE / "seeds"
RUNNER = STORED / "runner.py"
SEEDS = Path(os.environ.get("MINIGRAD_SEEDS", HERE.parents[2] / "shared" / "seeds"))

SEED_FILES = {
    "000": "000_5b9393554eae6ec2.txt",
    "001": "001_fd105258ddf56a0b.txt",
    "002": "002_3dd16c8c51b142b4.txt",
    "003": "003_7c12740e9ec19160.txt",
    "004": "004_6e5b2d40b11eb475.txt",
}

# Code the tutorial takes for granted, run before its first block.
PRELUDES = {"000": "import torch", "001": "", "002": "", "003": "import torch as t",
            "004": "import torch"}

# ---------------------------------------------------------------------------------------------
# Extraction: seed text -> list of code blocks, exactly as written
# ---------------------------------------------------------------------------------------------

# 001's unfenced code, and 003's notebook-style code: (first line, last line) of each run.
_UNFENCED = {
    "001": [('dir(z)', 'print("z.is_leaf="+str(z.is_leaf))'),
            ('dir(z.grad_fn)', 'assert(id(x_leaf.variable)==id(x))')],
    "003": [('import torch', 'print(d.grad_fn)  # <SumBackward0 object at 0x7f7e8f272fd0>'),
            ('# torch.ones(c.size()) * 2创建了一个与c形状相同的张量，其中的元素值都为2。'
             '这个张量作为参数传递给backward()方法，表示将梯度乘以2进行加权处理。',
             'c.backward(torch.ones(c.size()) * 2)')],
}


def _tidy(code: str) -> str:
    """Dedent, drop trailing spaces and leading/trailing blank lines."""
    lines = [line.rstrip() for line in textwrap.dedent(code).splitlines()]
    return "\n".join(lines).strip("\n") + "\n"


def _fenced(text: str, languages: tuple[str, ...]) -> list[tuple[int, str]]:
    found = []
    for m in re.finditer(r"^```(\w*)[ \t]*\n(.*?)^```", text, re.M | re.S):
        before = text[:m.start()].rstrip().rsplit("\n", 1)[-1].strip()
        if m.group(1) in languages and not before.startswith("输出"):
            found.append((m.start(), m.group(2)))
    return found


def _between(text: str, first: str, last: str) -> tuple[int, str]:
    lines = text.splitlines(keepends=True)
    stripped = [line.rstrip() for line in lines]
    if first not in stripped:
        raise LookupError(f"first line not found in seed: {first!r}")
    start = stripped.index(first)
    if last not in stripped[start:]:
        raise LookupError(f"last line not found in seed: {last!r}")
    end = stripped.index(last, start)
    return len("".join(lines[:start])), "".join(lines[start:end + 1])


def _indented(text: str) -> list[tuple[int, str]]:
    """Markdown indented code blocks: runs of lines indented 4+ spaces (blank lines inside)."""
    found, run, pos, offset = [], [], 0, 0
    for line in text.splitlines(keepends=True) + ["\n"]:
        if line.startswith("    ") or (run and not line.strip()):
            if not run:
                pos = offset
            run.append(line)
        elif run:
            found.append((pos, "".join(run)))
            run = []
        offset += len(line)
    return found


def extract(seed: str, text: str) -> list[str]:
    """The Python code blocks of one seed tutorial, in reading order."""
    if seed == "002":
        notebook = json.loads(text[text.index("{"):])
        cells = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]
        return [_tidy(c) for c in cells if c.strip()]
    found = _fenced(text, ("python", "py"))
    found += [_between(text, first, last) for first, last in _UNFENCED.get(seed, [])]
    if seed == "003":
        found += _indented(text)
    return [_tidy(code) for _, code in sorted(found)]


# ---------------------------------------------------------------------------------------------
# Stored blocks: tests/lessons/seeds/<seed file>.blocks
# ---------------------------------------------------------------------------------------------

_MARK = "# %% "


def stored_path(seed: str) -> Path:
    return STORED / (SEED_FILES[seed].removesuffix(".txt") + ".blocks")


def write_blocks(seed: str, blocks: list[str]) -> None:
    head = (f"# Every Python code block of ../shared/seeds/{SEED_FILES[seed]}, as written there.\n"
            "# Generated by `python tests/lessons/test_seeds.py --update`; do not edit by hand.\n")
    parts = []
    for n, code in enumerate(blocks, 1):
        if any(line.startswith(_MARK) for line in code.splitlines()):
            raise ValueError(f"block {n} of {seed} contains the block marker {_MARK!r}")
        parts.append(f"{_MARK}{seed}.{n:02d}\n{code}")
    stored_path(seed).write_text(head + "\n".join(parts), encoding="utf-8")


def read_blocks(seed: str) -> dict[str, str]:
    text = stored_path(seed).read_text(encoding="utf-8")
    blocks, name = {}, None
    for line in text.splitlines(keepends=True):
        if line.startswith(_MARK):
            name = line[len(_MARK):].strip()
            blocks[name] = ""
        elif name is not None:
            blocks[name] += line
    return {name: code.rstrip("\n") + "\n" for name, code in blocks.items()}


# ---------------------------------------------------------------------------------------------
# Curation: splits, probes, the dir() blocks, the blocks that raise
# ---------------------------------------------------------------------------------------------

# block -> the line after which it is split into <block>a and <block>b:
# 001.02 so that `dir(z)` (compared by the dir rule) is apart from the prints after it;
# 003.04 because its first `z.backward()` raises, and the lines after it should run too.
SPLITS = {
    "001.02": "dir(z)",
    "003.04": "z.backward()  # 由于梯度计算被禁用，不会计算任何梯度",
}

# block -> code this test runs after it, to show state the tutorial changes but does not print
PROBES = {
    "003.02": "print(a.grad)\nprint(b.grad)",
    "003.04a": "print(torch.is_grad_enabled())",
    "003.04b": "print(torch.is_grad_enabled())",
    "003.06": "print(z)\nprint(z.grad_fn)\nprint(w.grad, b.grad, x.grad)",
}

# blocks that show dir() of a tensor (see the module docstring)
DIR_OF_TENSOR = {"000.05", "001.02a", "002.09"}

# blocks whose code raises under PyTorch (the tutorial's comments say "no gradient is
# computed"; PyTorch in fact raises): 003.03 and 003.04a call backward() on a result made
# without recording ("element 0 of tensors does not require grad ..."), 003.04b on a
# 5x5 result without `gradient` ("grad can be implicitly created only for scalar outputs").
RAISES = {"003.03", "003.04a", "003.04b"}

# Tensor attributes the tutorials discuss in prose without using them in code
DISCUSSED = {"is_leaf", "grad_fn", "grad", "requires_grad", "backward", "detach",
             "requires_grad_", "data"}


@dataclass
class Block:
    id: str
    code: str  # as run: random calls replaced by fixed values
    probe: bool = False


@dataclass
class Tutorial:
    seed: str
    prelude: str
    blocks: list[Block] = field(default_factory=list)


def fix_random(code: str, seed_counter: list[int]) -> str:
    """Replace ``torch.rand(...)``/``torch.randn(...)`` (or ``t.``) by fixed tensors, same shape."""
    tree = ast.parse(code)
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Attribute) and n.func.attr in ("rand", "randn")
                    and isinstance(n.func.value, ast.Name) and n.func.value.id in ("torch", "t")),
                   key=lambda n: (n.lineno, n.col_offset))
    lines = code.splitlines(keepends=True)

    def offset(lineno: int, col: int) -> int:  # ast columns count UTF-8 bytes
        return sum(map(len, lines[:lineno - 1])) + len(
            lines[lineno - 1].encode()[:col].decode())

    edits = []
    for call in calls:
        seed_counter[0] += 1
        shape = ", ".join(ast.get_source_segment(code, a) for a in call.args)
        keywords = "".join(", " + ast.get_source_segment(code, k) for k in call.keywords)
        module, fn = call.func.value.id, call.func.attr
        new = f"{module}.tensor(_fixed.{fn}({shape}, seed={seed_counter[0]}){keywords})"
        edits.append((offset(call.lineno, call.col_offset),
                      offset(call.end_lineno, call.end_col_offset), new))
    for start, end, new in reversed(edits):
        code = code[:start] + new + code[end:]
    return code


def _split(name: str, code: str) -> list[tuple[str, str]]:
    if name not in SPLITS:
        return [(name, code)]
    lines = code.splitlines(keepends=True)
    cut = [line.rstrip() for line in lines].index(SPLITS[name]) + 1
    return [(name + "a", "".join(lines[:cut])), (name + "b", "".join(lines[cut:]))]


def plan(seed: str) -> Tutorial:
    tutorial = Tutorial(seed, PRELUDES[seed])
    counter = [0]
    for name, code in read_blocks(seed).items():
        for part, part_code in _split(name, code):
            tutorial.blocks.append(Block(part, fix_random(part_code, counter)))
            if part in PROBES:
                tutorial.blocks.append(Block(part + "+probe", PROBES[part], probe=True))
    return tutorial


PLANS = {seed: plan(seed) for seed in SEED_FILES if stored_path(seed).exists()}
ALL_BLOCKS = [b.id for t in PLANS.values() for b in t.blocks]
EXACT_BLOCKS = [b for b in ALL_BLOCKS if b not in DIR_OF_TENSOR]

# ---------------------------------------------------------------------------------------------
# Running: one fresh interpreter per tutorial and engine
# ---------------------------------------------------------------------------------------------


def run(tutorial: Tutorial, engine: str) -> dict:
    request = {"engine": engine, "prelude": tutorial.prelude,
               "blocks": [{"id": b.id, "code": b.code} for b in tutorial.blocks]}
    proc = subprocess.run([sys.executable, str(RUNNER)], input=json.dumps(request),
                          capture_output=True, text=True, timeout=120, cwd=HERE.parents[1])
    if proc.returncode != 0:
        raise RuntimeError(f"runner failed for {tutorial.seed} under {engine}:\n{proc.stderr}")
    report = json.loads(proc.stdout)
    if report["prelude"]["error"]:
        raise RuntimeError(f"prelude failed under {engine}: {report['prelude']['error']}")
    report["by_id"] = {r["id"]: r for r in report["blocks"]}
    return report


def transcript(report: dict, block: str, engine: str) -> str:
    """What a block printed, in one string, normalised for comparison."""
    result = report["by_id"][block]
    text = result["stdout"]
    text += "".join(f"!! warning {w}\n" for w in result["warnings"])
    if result["error"]:
        text += f"!! raised {result['error']['type']}: {result['error']['message']}\n"
    text = re.sub(r"0x[0-9a-fA-F]+", "0x…", text)
    ids = {str(value): f"<id #{k}>" for k, value in enumerate(report["ids"])}
    text = re.sub(r"\d{5,}", lambda m: ids.get(m.group(), m.group()), text)
    return text


@pytest.fixture(scope="session")
def seed_runs(torch):
    """{seed: {"torch": report, "minigrad": report}}, all ten interpreters run two at a time."""
    jobs = [(seed, engine) for seed in PLANS for engine in ("torch", "minigrad")]
    with ThreadPoolExecutor(max_workers=2) as pool:
        reports = list(pool.map(lambda job: run(PLANS[job[0]], job[1]), jobs))
    runs: dict = {seed: {} for seed in PLANS}
    for (seed, engine), report in zip(jobs, reports):
        runs[seed][engine] = report
    return runs


def _both(seed_runs, block: str) -> tuple[str, str]:
    reports = seed_runs[block[:3]]
    return (transcript(reports["torch"], block, "torch"),
            transcript(reports["minigrad"], block, "minigrad"))


# ---------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the seed tutorials are not here ({SEEDS}); "
                    "the stored copies in tests/lessons/seeds/ are used")
@pytest.mark.parametrize("seed", sorted(SEED_FILES))
def test_stored_blocks_are_every_code_block_of_the_seed(seed):
    text = (SEEDS / SEED_FILES[seed]).read_text(encoding="utf-8")
    assert list(read_blocks(seed).values()) == extract(seed, text), (
        "tests/lessons/seeds/ is out of date: run `python tests/lessons/test_seeds.py --update`")


def test_every_block_is_compared_exactly_or_by_the_dir_rule():
    assert set(DIR_OF_TENSOR) <= set(ALL_BLOCKS)
    assert set(RAISES) <= set(ALL_BLOCKS)
    assert set(PROBES) <= set(ALL_BLOCKS)
    assert sorted(EXACT_BLOCKS + sorted(DIR_OF_TENSOR)) == sorted(ALL_BLOCKS)


def test_random_inputs_become_fixed_tensors_of_the_same_shape():
    code = "w = t.rand(1, requires_grad = True)\nx = torch.randn(5, 5)  # 注释 torch.rand(2)\n"
    assert fix_random(code, [0]) == (
        "w = t.tensor(_fixed.rand(1, seed=1), requires_grad = True)\n"
        "x = torch.tensor(_fixed.randn(5, 5, seed=2))  # 注释 torch.rand(2)\n")
    assert not any(re.search(r"\b(torch|t)\.randn?\(", b.code)
                   for t in PLANS.values() for b in t.blocks)


@pytest.mark.torch
@pytest.mark.parametrize("block", EXACT_BLOCKS)
def test_seed_block_prints_what_pytorch_prints(block, seed_runs):
    expected, got = _both(seed_runs, block)
    assert got == expected


@pytest.mark.torch
@pytest.mark.parametrize("block", sorted(RAISES))
def test_seed_block_raises_like_pytorch(block, seed_runs):
    expected, got = _both(seed_runs, block)
    assert "!! raised " in expected, "the curation says PyTorch raises here, but it did not"
    assert got.split("!! raised ")[-1] == expected.split("!! raised ")[-1]


@pytest.mark.torch
@pytest.mark.parametrize("block, shown", [("002.11", "Out: <AddBackward0 at 0x…>\n"),
                                          ("002.13", "Out: AccumulateGrad\n")])
def test_notebook_display_forms_are_the_ones_jupyter_showed(block, shown, seed_runs):
    """002 stored these displays (IPython's pretty printer); both libraries must give them."""
    expected, got = _both(seed_runs, block)
    assert (expected, got) == (shown, shown)


@pytest.mark.torch
def test_pytorch_raises_only_in_the_blocks_listed_as_raising(seed_runs):
    raised = {r["id"] for reports in seed_runs.values() for r in reports["torch"]["blocks"]
              if r["error"]}
    assert raised == RAISES


def _listed_names(text: str) -> list[str]:
    return ast.literal_eval(text.strip().removeprefix("Out:").strip())


def _names_used_on_tensors() -> set[str]:
    """Every attribute name the tutorials' code reads, e.g. ``is_leaf``, ``grad_fn``, ``norm``."""
    used = set()
    for t in PLANS.values():
        for b in t.blocks:
            if not b.probe:  # `torch.float`, `t.ones` are module attributes, not the tensor's
                used |= {n.attr for n in ast.walk(ast.parse(b.code)) if isinstance(n, ast.Attribute)
                         and not (isinstance(n.value, ast.Name) and n.value.id in ("torch", "t"))}
    return used


@pytest.mark.torch
@pytest.mark.parametrize("block", sorted(DIR_OF_TENSOR))
def test_dir_of_a_tensor_lists_what_the_tutorials_use(block, seed_runs):
    """Exact equality is impossible: PyTorch's tensor has ~700 methods, minigrad's a few dozen.

    So: minigrad lists every tensor attribute the tutorials use or discuss, and every public
    name it lists exists on PyTorch's tensor too (nothing invented).
    """
    expected, got = _both(seed_runs, block)
    torch_names, minigrad_names = set(_listed_names(expected)), _listed_names(got)
    needed = (_names_used_on_tensors() | DISCUSSED) & torch_names
    assert needed - set(minigrad_names) == set(), "missing from minigrad's dir(tensor)"
    public = {n for n in minigrad_names if not n.startswith("_")}
    assert public - torch_names == set(), "minigrad lists public names PyTorch's tensor lacks"
    assert minigrad_names == sorted(minigrad_names)


@pytest.mark.torch
def test_torch_modules_the_tutorials_import_resolve_to_minigrad(seed_runs):
    modules = seed_runs["000"]["minigrad"]["modules"]
    assert modules.pop("real torch loaded") is False
    assert modules == {name: "minigrad" + name[len("torch"):] for name in modules}


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/lessons/test_seeds.py --update   (re-extract tests/lessons/seeds/*.blocks)")
    for seed, name in SEED_FILES.items():
        write_blocks(seed, extract(seed, (SEEDS / name).read_text(encoding="utf-8")))
        print(f"{stored_path(seed).relative_to(HERE.parents[1])}: {len(read_blocks(seed))} blocks")
