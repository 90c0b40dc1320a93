"""The open differences the fuzzer finds, each masking only itself.

A key is (operation, conditions, aspect):
- operation: as ``fuzz_gen.operation`` names it ('floor_divide', 'sum', 'setitem', 'F.mse_loss',
  'backward(final)', ...);
- conditions: '+'-joined features that must all hold for the statement's inputs
  (``fuzz_compare.features``: float/int/bool, nan/inf/nonfinite/zero/negzero/huge, 0d/empty/size1,
  noncontig, grad, nonleaf, view, no_grad/enable_grad/inference_mode, scalar-nonfinite/
  scalar-bool/scalar-int/scalar-float), and for exceptions the types each library raised
  (mg:ValueError+pt:RuntimeError, mg:None = did not raise), for warnings the categories only
  minigrad gave (mg:RuntimeWarning); '' for any;
- aspect: what differs ('exception', 'warnings', 'value', 'dtype', 'shape', 'requires_grad',
  'is_leaf', 'grad_fn', 'contiguous', 'grad', 'alias', 'kind', 'type').
The entries live in one text file per area that owns the fix (known_open/views.txt,
dtypes.txt, pointwise.txt, api.txt, nn.txt), one per line: operation, conditions, aspect and a
short signature of the difference (exception types and PyTorch's message, or what differs),
tab-separated. When a fix lands, delete its lines: the brief run then guards the fix.
``python tests/fuzz/run.py --propose`` prints lines for whatever is new.
"""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).parent / "known_open"


def load(folder: Path = FOLDER) -> dict:
    """{(operation, conditions, aspect): (area, signature)} from the area files."""
    out = {}
    for path in sorted(folder.glob("*.txt")):
        for line in path.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                op, cond, aspect, sig = line.split("\t")
                out[(op, "" if cond == "-" else cond, aspect)] = (path.stem, sig)
    return out


KNOWN = load()


def match(m) -> str | None:
    """The KNOWN entry a mismatch falls under ('op | conditions | aspect'), or None."""
    for (op, cond, aspect), _ in KNOWN.items():
        if op == m.op and aspect == m.aspect and set(filter(None, cond.split("+"))) <= m.feats:
            return f"{op} | {cond} | {aspect}"
    return None


def area(m) -> str:
    """The helper area a difference most likely belongs to (a first guess for triage)."""
    code, detail = m.code, m.detail
    if m.op.startswith("F.") or m.op in ("one_hot", "embedding", "layer_norm"):
        return "nn"
    if m.op in ("unique", "einsum", "manual_seed"):
        return "api"
    if m.aspect in ("alias", "contiguous", "is_leaf") or "view" in detail or "in-place" in detail \
            or "inplace" in detail.lower() or m.op in ("setitem", "data", "detach_"):
        return "dtypes" if "Autograd not support dtype" in detail else "views"
    if m.aspect == "dtype" or "dtype=" in code or "int16" in detail or "int8" in detail \
            or "Autograd not support dtype" in detail or m.aspect in ("warnings", "kind"):
        return "dtypes"
    if m.aspect in ("value", "grad", "grad_fn", "requires_grad"):
        return "pointwise"
    return "dtypes"
