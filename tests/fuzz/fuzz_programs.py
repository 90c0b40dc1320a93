"""A differential fuzzer: random straight-line programs over the public API (``fuzz_table``),
run statement by statement on minigrad and on PyTorch, compared after every statement.

A program starts from leaf tensors made from the same NumPy arrays (float32/float64, int64,
int32, bool; 0-d, size-1 and empty shapes; 0, -0., +-inf, NaN, huge values; transposed,
expanded and strided layouts) and goes on with statements from ``fuzz_gen``: every public
op family, in-place forms, indexing and setitem, views then in-place, reductions with
dim/keepdim/dtype, creation with dtype/device, grad-mode blocks, backward with
gradient/retain_graph/create_graph, ``autograd.grad``, ``.grad`` resets, hooks, and bad-input
probes. Statements that raise are kept: both libraries must raise alike.

After each statement *every* variable is compared (``fuzz_compare``), so an in-place op that
changes a view, a base or an alias in one library and not the other shows up. A variable that
differs is no longer compared (quarantined) and the program goes on; a later difference whose
inputs descend from a quarantined variable is marked ``after`` (it may be a consequence of the
first). Statements are chosen from PyTorch's variables only, so a program is the same whatever
minigrad does. The program ends with a backward pass over every float root.

    python tests/fuzz/run.py --programs 2000    # make fuzz: counts and every difference class
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import fuzz_compare as C
import fuzz_gen as G
import numpy as np

FINISH = """\
_roots = [t for k, t in list(globals().items()) if k.startswith('v') and isinstance(t, lib.Tensor)
          and t.requires_grad and t.dtype.is_floating_point and t.grad_fn is not None]
if _roots:
    sum(r.double().sum() for r in _roots).backward()
"""


@dataclass
class Mismatch:
    seed: int
    index: int  # of the statement in the program
    op: str
    aspect: str  # 'exception', 'warnings', 'value', 'grad_fn', 'alias', ...
    feats: frozenset
    code: str
    detail: str
    after: bool = False  # its inputs descend from an earlier difference
    probe: bool = False
    sig: str = ""  # what tells classes of one (op, aspect) apart: exception types, message


def signature(aspect: str, e1, e2, detail: str) -> str:
    """A short, number-free summary of a difference, for grouping."""
    if aspect == "exception":
        text = f"{e1[0] if e1 else None}/{e2[0] if e2 else None}: {(e2 or e1)[1][:48]}"
    else:
        text = detail.split(": minigrad")[0].split(" ", 1)[-1][:48]
    return re.sub(r"\b(v)?\d+\b", "N", text)


@dataclass
class Outcome:
    statements: int = 0
    errors_compared: int = 0
    probes: int = 0
    mismatches: list = field(default_factory=list)
    lines: list = field(default_factory=list)  # the program, for replay
    data: list = field(default_factory=list)
    ops: dict = field(default_factory=dict)  # op -> statements run


class Program:
    """Both libraries' namespaces for one program, and the bookkeeping of differences."""

    def __init__(self, mg, torch, data: list):
        self.libs = {"mg": mg, "torch": torch}
        self.ns = {}
        for name, lib in self.libs.items():
            self.ns[name] = {"lib": lib, "F": lib.nn.functional, "DATA": [a.copy() for a in data],
                             "inf": float("inf"), "nan": float("nan")}
        self.ancestors: dict = {}
        self.quarantined: set = set()

    def vars(self) -> list:
        torch = self.libs["torch"]
        return [G.Var(n, tuple(v.shape), str(v.dtype).replace("torch.", ""), v.requires_grad,
                      C._attr(lambda v=v: v.is_leaf) is True) for n, v in self.ns["torch"].items()
                if re.fullmatch(r"v\d+", n) and isinstance(v, torch.Tensor)]

    def step(self, st: G.Statement, seed: int, index: int, out: Outcome) -> Mismatch | None:
        torch = self.libs["torch"]
        feats = frozenset(C.features(torch, self.ns["torch"], st.inputs, st.scalars, st.mode))
        results = {n: C.run(st.code, self.ns[n]) for n in self.libs}
        out.statements += 1
        out.probes += st.probe
        out.ops[st.op] = out.ops.get(st.op, 0) + 1
        after = any(a in self.quarantined for i in st.inputs
                    for a in self.ancestors.get(i, set()) | {i})
        self._track(st)
        (e1, w1), (e2, w2) = results["mg"], results["torch"]
        if e1 or e2:
            out.errors_compared += 1
        found = None
        if e1 != e2:
            found = ("exception", f"minigrad {e1}, torch {e2}")
        elif w1 != w2:
            found = ("warnings", f"minigrad {w1}, torch {w2}")
        bad = self._differing(st.target)
        if bad and not found:
            name, (aspect, detail) = bad[0]
            if name != st.target:
                aspect, detail = "alias", f"{name} ({aspect}) {detail}"
            found = (aspect, f"{name}: {detail}" if aspect != "alias" else detail)
            if aspect == "value" and name == st.target and layout_dependent(st, self.ns["torch"], self.ns["mg"]):
                found = ("undefined", f"{found[1]} (PyTorch's result changes when the same "
                         "values are contiguous: it read memory outside the tensor)")
        self.quarantined |= {name for name, _ in bad}
        if st.target and (e1 != e2):
            self.quarantined.add(st.target)
        if found:
            feats |= {f"mg:{e1[0] if e1 else None}", f"pt:{e2[0] if e2 else None}"} \
                if found[0] == "exception" else {f"mg:{w[0]}" for w in w1 if w not in w2}
            return Mismatch(seed, index, st.op, found[0], feats, st.code, found[1], after,
                            st.probe, signature(found[0], e1, e2, found[1]))
        return None

    def _track(self, st: G.Statement) -> None:
        seen = set(st.inputs)
        for i in st.inputs:
            seen |= self.ancestors.get(i, set())
        if st.target:
            self.ancestors[st.target] = self.ancestors.get(st.target, set()) | seen

    def _differing(self, target: str | None) -> list:
        names = [n for n in set(self.ns["torch"]) | set(self.ns["mg"])
                 if re.fullmatch(r"v\d+", n) and n not in self.quarantined]
        names.sort(key=lambda n: (n != target, int(n[1:])))
        out = []
        for n in names:
            a = C.describe(self.libs["mg"], self.ns["mg"].get(n, "<unset>"))
            b = C.describe(self.libs["torch"], self.ns["torch"].get(n, "<unset>"))
            d = C.diff(a, b)
            if d:
                out.append((n, d))
        return out


SELECTIONS = {"median", "nanmedian", "kthvalue", "mode", "min", "max", "amin", "amax", "sort",
              "msort", "topk"}


def layout_dependent(st: G.Statement, ns: dict, mine: dict | None = None) -> bool:
    """Whether PyTorch's result of a selection op changes when its input's values are laid out
    contiguously (and minigrad's, namespace ``mine``, is PyTorch's for the contiguous values):
    its values and indices are a function of the values alone, so PyTorch read memory the
    tensor does not hold (its median of an expanded tensor reads the one repeated element as
    a row of them, past its storage), a result no library can reproduce."""
    if st.op not in SELECTIONS or not st.inputs or not st.target or st.target not in ns:
        return False
    src = ns.get(st.inputs[0])
    if not hasattr(src, "contiguous") or src.is_contiguous():
        return False
    again = dict(ns)
    again[st.inputs[0]] = src.detach().contiguous()
    if C.run(st.code, again)[0]:
        return False
    torch = ns["lib"]
    fair = C.describe(torch, again[st.target])
    if mine is not None and C.diff(C.describe(mine["lib"], mine.get(st.target)), fair):
        return False
    return C.diff(C.describe(torch, ns[st.target]), fair) is not None


def run_program(seed: int, mg, torch, length: int = 30, probes: float = 0.08) -> Outcome:
    """Generate and run program ``seed`` on both libraries, comparing after each statement."""
    rng = random.Random(seed)
    data, stmts = G.leaf_data(rng, rng.randint(2, 4))
    prog = Program(mg, torch, data)
    out = Outcome(data=data)
    k = len(stmts)
    for i in range(len(stmts) + length + 1):
        if i < len(stmts):
            st = stmts[i]
        elif i == len(stmts) + length:
            st = G.Statement(FINISH, "backward(final)", [v.name for v in prog.vars()])
        else:
            st = G.next_statement(rng, prog.vars(), k, probes)
            k += 1
        out.lines.append(st.code)
        m = prog.step(st, seed, i, out)
        if m:
            out.mismatches.append(m)
    return out


def replay(lines: list, data: list, mg, torch) -> Mismatch | None:
    """Run ``lines`` on both libraries; the difference at the last line, if any."""
    prog = Program(mg, torch, data)
    out = Outcome()
    m = None
    for i, code in enumerate(lines):
        names = list(dict.fromkeys(re.findall(r"\bv\d+\b", code)))
        target = code.split(" = ")[0] if re.match(r"v\d+ = ", code) else (names[0] if names else None)
        m = prog.step(G.Statement(code, "?", names, target), -1, i, out)
    return m


def shrink(lines: list, data: list, mg, torch, aspect: str) -> list:
    """Drop statements before the last one while the last still differs in ``aspect``."""
    lines = list(lines)
    i = 0
    while i < len(lines) - 1:
        trial = lines[:i] + lines[i + 1:]
        m = replay(trial, data, mg, torch)
        if m is not None and m.aspect == aspect:
            lines = trial
        else:
            i += 1
    return lines


def reproducer(lines: list, data: list) -> str:
    """The statements as a PyTorch program with the data written in."""
    out = []
    for code in lines:
        for j in sorted(set(map(int, re.findall(r"DATA\[(\d+)\]", code)))):
            arr = data[j]
            lit = np.array2string(arr, separator=", ", threshold=100, floatmode="unique")
            lit = lit.replace("inf", "inf").replace("\n", "")
            code = code.replace(f"DATA[{j}]", f"np.array({lit}, dtype='{arr.dtype}')")
        out.append(code.replace("lib.", "torch."))
    return "\n".join(out)
