"""The brief fuzz run of ``make test`` (``make fuzz`` runs many more programs: run.py).

Every difference must fall under an entry of ``known.KNOWN`` (operation + condition + aspect,
each an open bug with the area that owns it), or follow an earlier difference in its program
(``after``: its inputs descend from a variable that already differed). Anything else fails the
test with the statement, both results and the seed to replay it
(``python tests/fuzz/run.py --seed N --show``). The counts are printed (``-s``).
"""

from __future__ import annotations

import collections

import fuzz_compare
import fuzz_gen
import fuzz_programs
import known
import pytest

PROGRAMS = 400  # random programs over the whole table
PROBE_PROGRAMS = 100  # programs where half the statements are bad-input probes


def _run(torch, seeds, probes):
    import minigrad

    totals, unexpected = collections.Counter(), []
    for seed in seeds:
        out = fuzz_programs.run_program(seed, minigrad, torch, probes=probes)
        totals.update(programs=1, statements=out.statements, probes=out.probes,
                      exceptions=out.errors_compared)
        for m in out.mismatches:
            kind = "after" if m.after else "known" if known.match(m) else "new"
            totals[kind] += 1
            if kind == "new":
                unexpected.append(m)
    return totals, unexpected


@pytest.mark.parametrize("seeds,probes", [(range(PROGRAMS), 0.08),
                                          (range(10**6, 10**6 + PROBE_PROGRAMS), 0.5)],
                         ids=["programs", "probes"])
def test_random_programs_behave_as_in_pytorch(torch, capsys, seeds, probes):
    totals, unexpected = _run(torch, seeds, probes)
    with capsys.disabled():
        print(f"\nfuzz: {totals['programs']} programs, {totals['statements']} statements "
              f"({totals['probes']} bad-input probes), {totals['exceptions']} exceptions "
              f"compared; differences: {totals['known']} known, {totals['after']} after an "
              f"earlier one, {len(unexpected)} new")
    assert not unexpected, "\n\n".join(
        f"seed {m.seed} [{m.index}] {m.op} / {m.aspect} / {'+'.join(sorted(m.feats))}\n"
        f"  {m.code}\n  {m.detail}" for m in unexpected)


@pytest.mark.parametrize("template,op", [
    ("{x}.clamp_({s}, {s2})", "clamp_"), ("{x} // {other}", "floor_divide"),
    ("lib.fmod({x}, {other})", "fmod"), ("{g}.sum().backward()", "sum"),
    ("{x}[{idx}]", "getitem"), ("{x}[{idx}] = {val}", "setitem"), ("{x} += {other}", "add_"),
    ("F.mse_loss({x}, {y})", "F.mse_loss"), ("{other} ** {x}", "pow"),
    ("lib.autograd.grad({g}.sum(), {leaf})", "grad"),
    ("lib.optim.SGD([{leaf}], lr=0.1).step() or {leaf}", "optim.SGD"),
    ("list(lib.utils.data.DataLoader(lib.utils.data.TensorDataset({x})))", "data.DataLoader")])
def test_the_operation_of_a_template_is_recognised(template, op):
    assert fuzz_gen.operation(template) == op


def test_known_entries_mask_only_their_own_condition():
    m = fuzz_programs.Mismatch(0, 0, "floor_divide", "value", frozenset({"float"}), "", "")
    entry = next(iter(known.KNOWN), None)
    if entry is None:
        pytest.skip("KNOWN is empty: nothing to mask")
    op, cond, aspect = entry
    hit = fuzz_programs.Mismatch(0, 0, op, aspect, frozenset(cond.split("+")) - {""}, "", "")
    assert known.match(hit)
    assert not known.match(fuzz_programs.Mismatch(0, 0, op, "no-such-aspect", hit.feats, "", ""))
    assert known.match(m) is None or ("floor_divide", "", "value") in known.KNOWN


def test_values_compare_nan_aware_and_sign_aware():
    import numpy as np

    assert fuzz_compare.close(np.array([np.nan, 1.0]), np.array([np.nan, 1.0]))
    assert not fuzz_compare.close(np.array([np.inf]), np.array([-np.inf]))
    assert not fuzz_compare.close(np.array([np.nan]), np.array([0.0]))
    assert not fuzz_compare.close(np.array([1.0], np.float32), np.array([1.0]))


def test_errors_compare_by_type_and_first_line_as_printed():
    """A first line that ends in a space (PyTorch's internal asserts end so, minigrad then
    adds a line of advice) is that line; another type or text is a difference."""
    def raising(exc):
        return lambda: (_ for _ in ()).throw(exc)

    ns = {"boom": raising(RuntimeError("PyTorch. \n(advice)")),
          "bare": raising(RuntimeError("PyTorch. ")), "other": raising(ValueError("PyTorch. "))}
    seen = [fuzz_compare.run(f"{name}()", ns)[0] for name in ("boom", "bare", "other")]
    assert seen[0] == seen[1] == ("RuntimeError", "PyTorch.") != seen[2]


def test_a_difference_is_reported(torch, monkeypatch):
    """The comparison can fail: make minigrad's sum 1% off and the fuzzer must notice it as new."""
    import minigrad

    real = minigrad.Tensor.sum
    monkeypatch.setattr(minigrad.Tensor, "sum", lambda self, *a, **k: real(self, *a, **k) * 1.01)
    found = [m for seed in range(20) for m in fuzz_programs.run_program(
        seed, minigrad, torch).mismatches if not m.after and not known.match(m)]
    assert any(m.op == "sum" for m in found)


def test_a_result_pytorch_reads_from_outside_the_tensor_is_told_apart(torch):
    # A selection op's result is a function of its input's values: when PyTorch's changes with
    # the layout alone, PyTorch read memory the tensor does not hold ('undefined', not silent).
    G, P = fuzz_gen, fuzz_programs
    ns = {"lib": torch, "v0": torch.tensor([3.0, 1.0, 2.0]).expand(2, 3)}
    moved = G.Statement("v1 = (v0 if v0.is_contiguous() else v0 + 1).median(1)", "median",
                        ["v0"], "v1")
    exec(moved.code, ns)
    assert P.layout_dependent(moved, ns)
    honest = G.Statement("v2 = v0.sort(1)", "sort", ["v0"], "v2")
    exec(honest.code, ns)
    assert not P.layout_dependent(honest, ns)
    assert not P.layout_dependent(G.Statement(moved.code, "add", ["v0"], "v1"), ns)
    import minigrad  # minigrad's result must be PyTorch's for the contiguous values
    mine = {"lib": minigrad, "v1": minigrad.tensor([3.0, 1.0, 2.0]).expand(2, 3).median(1)}
    assert P.layout_dependent(moved, ns, mine)
    mine["v1"] = minigrad.tensor([3.0, 1.0, 2.0]).expand(2, 3).max(1)
    assert not P.layout_dependent(moved, ns, mine)
