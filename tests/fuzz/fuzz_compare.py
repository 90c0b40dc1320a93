"""What the fuzzer compares, and how: a description of every value (tensors with their dtype,
shape, requires_grad, is_leaf, grad_fn name, contiguity, ``.grad`` and values; Python values;
tuples of them), the exception of a statement (type and first line of the message) and its
warnings (category and first line; a NumPy RuntimeWarning escaping is one of them).

Also the *features* of a statement's inputs (dtype kinds, special values, 0-d/empty shapes,
non-contiguous layouts, requires_grad, views, grad mode), which name the condition of a
difference in ``known.KNOWN``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

ASPECTS = ("kind", "type", "dtype", "shape", "requires_grad", "is_leaf", "grad_fn",
           "contiguous", "value", "grad")


def close(a: np.ndarray, b: np.ndarray, rtol: float = 2e-3, atol: float = 1e-4) -> bool:
    """Equal values: NaN where NaN, the sign of infinities, floats within a tolerance (float32
    kernels round differently; huge magnitudes show the order of float operations)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind not in "fc":
        return bool(np.array_equal(a, b))
    with np.errstate(all="ignore"):
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        same = (a64 == b64) | (np.isnan(a64) & np.isnan(b64))
        near = np.isfinite(a64) & np.isfinite(b64) & (
            (np.abs(a64 - b64) <= atol + rtol * np.abs(b64)) | (np.abs(b64) > 1e6))
        return bool(np.all(same | near))


def describe(lib, value, depth: int = 0):
    """What is compared of a value, as plain data."""
    try:
        return _describe(lib, value, depth)
    except Exception as e:  # a tensor minigrad cannot even describe (a NumPy dtype it lacks)
        return {"kind": "broken", "value": f"{type(e).__name__}: {str(e).splitlines()[0][:80]}"}


def _describe(lib, value, depth: int):
    if isinstance(value, lib.Tensor):
        return _describe_tensor(lib, value, depth)
    if isinstance(value, float) and math.isnan(value):
        return {"kind": "float", "value": "nan"}
    if isinstance(value, (bool, int, float, str, type(None))):
        return {"kind": type(value).__name__, "value": value}
    if isinstance(value, np.ndarray):
        return {"kind": "ndarray", "value": value.copy()}
    if isinstance(value, lib.dtype) or type(value).__name__ in ("device", "Size"):
        return {"kind": type(value).__name__, "value": str(value)}
    if isinstance(value, (tuple, list)) and depth < 3:
        return {"kind": type(value).__name__, "len": len(value),
                "items": [describe(lib, v, depth + 1) for v in value[:8]]}
    if hasattr(value, "name") and hasattr(value, "next_functions"):
        return {"kind": "Node", "value": value.name()}
    return {"kind": type(value).__name__}


def _attr(read):
    """An attribute's value, or the exception reading it raises (compared too)."""
    try:
        return read()
    except Exception as e:
        return f"{type(e).__name__}: {str(e).splitlines()[0][:80]}"


def _describe_tensor(lib, t, depth: int) -> dict:
    fn = _attr(lambda: t.grad_fn)
    out = {"kind": "Tensor", "dtype": str(t.dtype), "shape": tuple(t.shape),
           "requires_grad": t.requires_grad, "is_leaf": _attr(lambda: t.is_leaf),
           "grad_fn": fn if fn is None or isinstance(fn, str) else fn.name(),
           "contiguous": t.is_contiguous()}
    try:
        out["value"] = t.detach().numpy().copy()
    except Exception as e:  # e.g. inference tensors: compared too
        out["value"] = type(e).__name__
    if depth == 0 and _attr(lambda: t.is_leaf or t.retains_grad) is True:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            grad = t.grad
        out["grad"] = None if grad is None else _describe_tensor(lib, grad, 1)
    return out


def diff(a: dict, b: dict, path: str = "") -> tuple[str, str] | None:
    """The first difference between two descriptions: (aspect, detail), or None."""
    for key in ASPECTS + ("len", "items"):
        if key not in a and key not in b:
            continue
        va, vb = a.get(key, "<missing>"), b.get(key, "<missing>")
        if key == "items":
            for i, (ia, ib) in enumerate(zip(va, vb)):
                d = diff(ia, ib, f"{path}[{i}]")
                if d:
                    return d
        elif key == "grad" and isinstance(va, dict) and isinstance(vb, dict):
            d = diff(va, vb, path + ".grad")
            if d:
                return ("grad", f"{d[0]} {d[1]}")
        elif key == "value" and isinstance(va, np.ndarray) and isinstance(vb, np.ndarray):
            if not close(va, vb):
                return ("value", f"{path}: minigrad {_short(va)} torch {_short(vb)}")
        elif not _same(va, vb):
            aspect = "grad" if key == "grad" else key
            return (aspect, f"{path}{'.' + key if key != 'value' else ''}: minigrad "
                    f"{_short(va)} torch {_short(vb)}")
    return None


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and close(a, b)
    if isinstance(a, float) and isinstance(b, float):
        return a == b or abs(a - b) <= 1e-4 + 2e-3 * abs(b) or abs(b) > 1e6
    return type(a) is type(b) and a == b


def _short(v) -> str:
    text = np.array2string(v, precision=4, threshold=12) if isinstance(v, np.ndarray) else repr(v)
    return " ".join(text.split())[:160]


def run(code: str, ns: dict):
    """Run one statement in ``ns``: (exception as (type, first line) or None, warnings)."""
    error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, ns)
        except Exception as e:  # compared with the other library's
            lines = str(e).strip().split("\n")  # (the first line as printed: PyTorch's own
            error = (type(e).__name__, lines[0].rstrip())  # may end in a space, as its asserts)
    ws = sorted({(w.category.__name__, str(w.message).split(" (Triggered internally")[0]
                  .split("\n")[0]) for w in caught})
    return error, ws


def features(torch, ns: dict, names: list, scalars: list, mode: str) -> set:
    """The conditions of a statement: what its inputs (as PyTorch has them) and scalars are."""
    out = {mode} if mode else set()
    for name in names:
        t = ns.get(name)
        if not isinstance(t, torch.Tensor):
            continue
        out |= _tensor_features(torch, t)
    for s in scalars:
        out.add("scalar-nonfinite" if s in ("inf", "-inf", "nan", "1e30") else
                "scalar-bool" if s in ("True", "False") else
                "scalar-float" if "." in s else "scalar-int")
    return out


def _tensor_features(torch, t) -> set:
    kind = "bool" if t.dtype == torch.bool else "float" if t.dtype.is_floating_point else "int"
    out = {kind}
    if t.dim() == 0:
        out.add("0d")
    if t.numel() == 0:
        out.add("empty")
    elif t.numel() == 1:
        out.add("size1")
    if not t.is_contiguous():
        out.add("noncontig")
    if t.requires_grad:
        out.add("grad")
    if not _attr(lambda: t.is_leaf):
        out.add("nonleaf")
    if t._is_view():
        out.add("view")
    if kind == "float" and t.numel():
        v = t.detach().double().numpy()
        if np.isnan(v).any():
            out |= {"nan", "nonfinite"}
        if np.isinf(v).any():
            out |= {"inf", "nonfinite"}
        if (v == 0).any():
            out.add("zero")
            if np.signbit(v[v == 0]).any():
                out.add("negzero")
        if (np.abs(v) > 1e20).any():
            out.add("huge")
    elif t.numel() and (t == 0).any():
        out.add("zero")
    return out
