"""A differential fuzzer: random straight-line programs over the public API, run statement by
statement on minigrad and on PyTorch, compared after every statement.

A program starts from a few leaf tensors made from fixed NumPy data (float32/float64, int64,
bool; some requiring grad) and appends statements drawn from ``TEMPLATES``: elementwise,
reductions, movement, indexing, comparisons, conversions, in-place ops, ``detach``... The
next statement is chosen from what the variables are *in PyTorch* at that point (their shape,
dtype and requires_grad), so the choice depends only on the seed. Statements that raise are
kept: both libraries must raise the same exception type and message. At the end each program
calls ``backward`` on a scalar made from every float tensor that requires grad, and compares
the leaves' ``.grad``.

What is compared for each new variable: the value (NaN positions equal, floats within a
tolerance: float32 kernels round differently), dtype, shape, requires_grad, is_leaf, the
``grad_fn`` name; plus the exception (type name and message) and the warnings (category and
message) of each statement.

Run ``python tests/fuzz/run.py --programs 500`` (``make fuzz``) for a long run.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass, field

import numpy as np

FLOAT_UNARY = ["exp", "sin", "cos", "tanh", "sigmoid", "relu", "neg", "abs", "square",
               "floor", "ceil", "round", "trunc", "sign", "atan", "sinh", "cosh", "erf",
               "expm1", "reciprocal", "frac", "clone", "exp().log1p", "abs().sqrt",
               "abs().add(1).log", "abs().add(1).log2", "abs().add(1).rsqrt", "tanh().asin",
               "sigmoid().acos", "clamp(-0.5, 0.5).tan", "t().contiguous"]
BINARY = ["add", "sub", "mul", "div", "maximum", "minimum", "atan2", "hypot", "fmax", "fmin",
          "eq", "gt", "le", "ne", "remainder", "fmod", "floor_divide"]
OPERATORS = ["+", "-", "*", "/", "**", "//", "%", "<", ">=", "=="]
REDUCE = ["sum", "mean", "amax", "amin", "prod", "std", "var", "logsumexp", "cumsum",
          "cumprod", "softmax", "log_softmax", "argmax", "norm", "median", "all", "any"]
MOVEMENT = ["t()", "reshape(-1)", "flatten()", "unsqueeze(0)", "squeeze()", "flip(0)",
            "roll(1, 0)", "transpose(0, -1)", "[0]", "[..., :1]", "[1:]", "contiguous()",
            "detach()", "float()", "double()", "long()", "bool()", "repeat(2, *[1] * (x.dim() - 1))",
            "tril()", "triu()", "diagonal()", "sort(0).values", "topk(1, 0).values",
            "cumsum(0)", "view(-1)", "expand(2, *x.shape)", "clamp(min=0)",
            "nan_to_num()", "isnan()", "isfinite()", "masked_fill(x > 0, 0.5)"]
# Not drawn: x.T and x.mT (PyTorch warns once per process for non-2-D tensors, so whether a
# statement warns depends on what ran before it).
INPLACE = ["mul_(2)", "add_(1)", "sub_(0.5)", "exp_()", "clamp_(-1, 1)", "zero_()",
           "fill_(0.25)", "neg_()", "abs_()", "sigmoid_()", "tanh_()", "div_(3)"]


@dataclass
class Var:
    name: str
    shape: tuple
    dtype: str  # PyTorch's name: 'float32', 'int64', 'bool', ...
    requires_grad: bool


@dataclass
class Program:
    seed: int
    lines: list = field(default_factory=list)


def _leaf_data(rng: random.Random, n: int):
    """``n`` NumPy arrays to start from (the same on both libraries) and their statements."""
    shapes = [(), (3,), (2, 3), (3, 1), (1, 3), (2, 3, 1), (4,)]
    data, lines = [], []
    for i in range(n):
        shape = rng.choice(shapes)
        kind = rng.choices(["f32", "f64", "i64", "bool"], [6, 1, 2, 1])[0]
        arr = np.random.default_rng(rng.randrange(2**31)).normal(size=shape) * 2
        if rng.random() < 0.15:  # special values: PyTorch's conventions must hold there too
            flat = arr.reshape(-1)
            if flat.size:
                flat[rng.randrange(flat.size)] = rng.choice([0.0, np.inf, -np.inf, np.nan])
        if kind == "i64":
            arr = np.nan_to_num(arr, posinf=5, neginf=-5).round().astype(np.int64)
        elif kind == "bool":
            arr = np.nan_to_num(arr) > 0
        else:
            arr = arr.astype(np.float32 if kind == "f32" else np.float64)
        rg = kind.startswith("f") and rng.random() < 0.7
        data.append(arr)
        lines.append(f"v{i} = lib.tensor(DATA[{i}], requires_grad={rg})")
    return data, lines


def next_statement(rng: random.Random, vars_: list, k: int) -> str:
    """A new statement assigning ``v<k>``, chosen from the variables as PyTorch has them."""
    x = rng.choice(vars_)
    y = rng.choice(vars_)
    name = f"v{k}"
    kind = rng.choices(["unary", "binary", "op", "reduce", "move", "inplace", "where", "mm"],
                       [5, 4, 3, 4, 5, 2, 1, 1])[0]
    if kind == "unary":
        return f"{name} = {x.name}.{rng.choice(FLOAT_UNARY)}()"
    if kind == "binary":
        other = y.name if rng.random() < 0.7 else repr(rng.choice([2, 0.5, -1.5, 0, True]))
        return f"{name} = lib.{rng.choice(BINARY)}({x.name}, {other})"
    if kind == "op":
        other = y.name if rng.random() < 0.6 else repr(rng.choice([2, 0.5, -3, 1.5]))
        left, right = (x.name, other) if rng.random() < 0.8 else (other, x.name)
        return f"{name} = {left} {rng.choice(OPERATORS)} {right}"
    if kind == "reduce":
        op = rng.choice(REDUCE)
        if x.shape and rng.random() < 0.7 or op in ("cumsum", "cumprod", "softmax", "log_softmax",
                                                     "logsumexp"):
            dim = rng.randrange(-len(x.shape), len(x.shape)) if x.shape else 0
            keep = ", keepdim=True" if rng.random() < 0.3 and op not in (
                "cumsum", "cumprod", "softmax", "log_softmax", "all", "any") else ""
            tail = ".values" if op in ("median",) else ""
            return f"{name} = {x.name}.{op}({dim}{keep}){tail}"
        return f"{name} = {x.name}.{op}()"
    if kind == "move":
        expr = rng.choice(MOVEMENT).replace("x.", f"{x.name}.")
        expr = expr.replace("*x.shape", f"*{x.name}.shape")
        return f"{name} = {x.name}.{expr}" if not expr.startswith("[") else f"{name} = {x.name}{expr}"
    if kind == "inplace":
        return f"{name} = {x.name}.{rng.choice(INPLACE)}"
    if kind == "where":
        return f"{name} = lib.where({x.name} > 0, {x.name}, {y.name})"
    return f"{name} = {x.name} @ {y.name}"


FINISH = """\
_roots = [t for t in NS.values() if isinstance(t, lib.Tensor) and t.requires_grad
          and t.dtype.is_floating_point and t.grad_fn is not None]
if _roots:
    sum(r.double().sum() if r.numel() else r.sum().double() for r in _roots).backward()
"""


def close(a: np.ndarray, b: np.ndarray, rtol: float = 2e-3, atol: float = 1e-4) -> bool:
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind not in "fc":
        return bool(np.array_equal(a, b))
    with np.errstate(all="ignore"):
        return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True)) or \
            bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))
                        | (np.abs(a - b) <= atol + rtol * np.abs(b))
                        | (np.abs(b) > 1e6)))  # huge values: the order of float ops shows


def describe(lib, value):
    """What is compared of a value."""
    if isinstance(value, lib.Tensor):
        fn = value.grad_fn
        return {"kind": "tensor", "dtype": str(value.dtype), "shape": tuple(value.shape),
                "requires_grad": value.requires_grad, "is_leaf": value.is_leaf,
                "grad_fn": None if fn is None else fn.name(),
                "data": value.detach().numpy().copy()}
    if isinstance(value, (int, float, bool, type(None), str)):
        return {"kind": "python", "value": value}
    return {"kind": type(value).__name__}


def run_statement(lib, code: str, ns: dict):
    """Run one statement; (error, warnings)."""
    error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, ns)
        except Exception as e:  # compared with the other library's
            error = (type(e).__name__, str(e).split("\n")[0])
    ws = sorted({(w.category.__name__, str(w.message).split(" (Triggered internally")[0])
                 for w in caught})
    return error, ws


def diff(a: dict, b: dict) -> str | None:
    """How two descriptions differ (None if they agree)."""
    if a.keys() != b.keys():
        return f"{a.get('kind')} vs {b.get('kind')}"
    for key in a:
        if key == "data":
            if not close(a[key], b[key]):
                return f"values differ:\n  minigrad {a[key]!r}\n  torch    {b[key]!r}"
        elif a[key] != b[key]:
            return f"{key}: minigrad {a[key]!r}, torch {b[key]!r}"
    return None


@dataclass
class Outcome:
    statements: int = 0
    errors_compared: int = 0
    mismatches: list = field(default_factory=list)


def run_program(seed: int, mg, torch, length: int = 25) -> Outcome:
    """Generate and run program ``seed`` on both libraries, comparing as it goes."""
    rng = random.Random(seed)
    data, lines = _leaf_data(rng, rng.randint(2, 4))
    nss = {"mg": {"lib": mg, "DATA": data}, "torch": {"lib": torch, "DATA": data}}
    for ns in nss.values():
        ns["NS"] = ns
    out = Outcome()
    k = len(lines)
    for i in range(len(lines) + length):
        if i < len(lines):
            code = lines[i]
        else:
            code = next_statement(rng, _vars(nss["torch"], torch), k)
            k += 1
        results = {name: run_statement(lib, code, nss[name]) for name, lib in
                   (("mg", mg), ("torch", torch))}
        out.statements += 1
        if results["mg"][0] is not None or results["torch"][0] is not None:
            out.errors_compared += 1
        problem = _compare(results, nss, code.split(" = ")[0], mg, torch)
        if problem:
            out.mismatches.append((seed, code, problem))
            return out  # later statements would only repeat the difference
    final = {name: run_statement(lib, FINISH, nss[name]) for name, lib in
             (("mg", mg), ("torch", torch))}
    problem = _compare_grads(final, nss, mg, torch)
    if problem:
        out.mismatches.append((seed, "backward()", problem))
    return out


def _vars(ns: dict, torch) -> list:
    return [Var(n, tuple(v.shape), str(v.dtype), v.requires_grad) for n, v in ns.items()
            if n.startswith("v") and isinstance(v, torch.Tensor)]


def _compare(results, nss, target, mg, torch) -> str | None:
    (e1, w1), (e2, w2) = results["mg"], results["torch"]
    if e1 != e2:
        return f"exception: minigrad {e1}, torch {e2}"
    if w1 != w2:
        return f"warnings: minigrad {w1}, torch {w2}"
    if e1 is not None:
        return None
    names = [target] + [n for n in nss["torch"] if n.startswith("v") and n != target]
    for n in names:  # the new variable, and every other (in-place ops change views and bases)
        a = describe(mg, nss["mg"].get(n))
        b = describe(torch, nss["torch"].get(n))
        d = diff(a, b)
        if d:
            return f"{n}: {d}"
    return None


def _compare_grads(final, nss, mg, torch) -> str | None:
    (e1, _), (e2, _) = final["mg"], final["torch"]
    if e1 != e2:
        return f"exception: minigrad {e1}, torch {e2}"
    if e1 is not None:
        return None
    for n, t in nss["torch"].items():
        if not (n.startswith("v") and isinstance(t, torch.Tensor) and t.is_leaf):
            continue
        m = nss["mg"][n]
        gm, gt = m._grad, t.grad
        if (gm is None) != (gt is None):
            return f"{n}.grad: minigrad {gm}, torch {gt}"
        if gm is not None:
            d = diff(describe(mg, gm), describe(torch, gt))
            if d:
                return f"{n}.grad: {d}"
    return None
