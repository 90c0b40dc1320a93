"""``BackwardStepper(check=True)``: is what a node's backward sent what its forward implies?

For the node of a custom ``Function`` the forward is run again in float64 on slightly moved
inputs (central differences), which gives the vector-Jacobian product the backward should
have sent; a mismatch is flagged on the node ("your backward sent [1., 1.]; the forward's
numerical VJP is [5., 5.]"). The inputs come from the node (it keeps weak references to
them); a stepper made with ``check=True`` holds them until the check ran, and an input changed
in place since the forward (its version counter moved) is reported, not used.

With ``check="all"``, every other node is checked too: by central differences of its forward
(``z = a * b`` from ``minigrad.autograd.derivatives``, computed by NumPy on the inputs the
node saved), and where the node did not keep its inputs or its forward is not one NumPy
expression, against its rule evaluated on the step's values.
"""

from __future__ import annotations

import numpy as np

from minigrad.autograd.derivatives import CUSTOM, rule_for
from minigrad.autograd.evaluate import evaluate_forward

from ._format import format_array, is_tensor, to_numpy
from .explain import check_rule

__all__ = ["keep_inputs", "keep_graph_inputs", "check_record", "numerical_vjp", "STEP",
           "MAX_ELEMENTS"]

STEP = 1e-6  # the finite-difference step, in float64
MAX_ELEMENTS = 2000  # inputs larger than this are not checked (two forwards per element)


def keep_inputs(node):
    """The forward's arguments of a custom Function's node, taken while they are alive:
    ``("tensor", t, version at the forward)``, ``("gone", None, None)`` or ``("value", None,
    v)`` each; None if the node is not a custom Function's."""
    if not hasattr(node, "_forward_args"):
        return None
    args = node._forward_args
    kept = []
    for ref, value in args:
        if ref is None:
            kept.append(("value", None, value))
        else:
            t = ref()
            kept.append(("gone", None, None) if t is None else ("tensor", t, value))
    return kept


def _forward64(node, args) -> list:
    import minigrad

    ctx = type(node)()
    with minigrad.no_grad():
        out = node._forward_cls.forward(ctx, *args)
    outs = out if isinstance(out, tuple) else (out,)
    return [np.asarray(to_numpy(o), dtype=np.float64) if is_tensor(o) else None for o in outs]


def numerical_vjp(node, kept, grads_in) -> list:
    """For each tensor argument: sum_k grads_in[k] * d out_k / d arg, by central differences."""
    import minigrad

    args = [minigrad.tensor(np.asarray(to_numpy(t), dtype=np.float64)) if kind == "tensor"
            else value for kind, t, value in kept]
    vs = [None if g is None else np.asarray(g, dtype=np.float64) for g in grads_in]
    result = []
    for i, (kind, _, _) in enumerate(kept):
        if kind != "tensor":
            continue
        data = args[i].numpy().reshape(-1)  # shares the tensor's memory
        vjp = np.zeros(data.shape)
        for j in range(data.size):
            old = data[j]
            data[j] = old + STEP
            plus = _forward64(node, args)
            data[j] = old - STEP
            minus = _forward64(node, args)
            data[j] = old
            vjp[j] = sum(float(np.sum(v * (p - m))) for v, p, m in zip(vs, plus, minus)
                         if v is not None and p is not None) / (2 * STEP)
        result.append(vjp.reshape(tuple(args[i].shape)))
    return result


def _custom_check(rec, kept) -> dict:
    if kept is None:
        return {"ok": None, "reason": "check.no_inputs"}
    for i, (kind, tensor, version) in enumerate(kept):
        if kind == "tensor" and tensor._version != version:
            return {"ok": None, "reason": "check.modified", "index": i}
        if kind == "gone":
            return {"ok": None, "reason": "check.gone", "index": i}
    if any(kind == "tensor" and t.numel() > MAX_ELEMENTS for kind, t, _ in kept):
        return {"ok": None, "reason": "check.too_large"}
    numerical = numerical_vjp(rec.node, kept, rec.grads_in)
    pairs = [(s, n) for s, n in zip(rec.grads_out, numerical)]
    return _compare(pairs)


def _compare(pairs) -> dict:
    bad = [(s, n) for s, n in pairs if s is not None and not np.allclose(
        np.asarray(s, dtype=np.float64), n, rtol=1e-4, atol=1e-5)]
    shown = bad[0] if bad else (pairs[0] if pairs else (None, None))
    return {"ok": not bad, "sent": format_array(shown[0]),
            "numerical": format_array(np.asarray(shown[1])) if shown[1] is not None else "None"}


def _fd_of_forward(rec) -> list | None:
    """(sent, numerical VJP) per input, by central differences of the table's forward."""
    rule = rule_for(rec.node)
    if rule is None or rule is CUSTOM or rule.words or len(rec.grads_in) != 1:
        return None
    grad = np.asarray(rec.grads_in[0], dtype=np.float64)
    values = {k: (np.asarray(v, dtype=np.float64) if isinstance(v, np.ndarray) else v)
              for k, v in rec.saved.items()}
    pairs = []
    try:
        for sym, sent in zip([k for k in rule.grads if k != "*"], rec.grads_out):
            if sent is None:
                continue
            x = values.get(sym)
            if not isinstance(x, np.ndarray) or x.size > MAX_ELEMENTS:
                return None
            flat, vjp = x.copy().reshape(-1), np.zeros(x.size)
            for j in range(x.size):
                old = flat[j]
                zs = []
                for delta in (STEP, -STEP):
                    flat[j] = old + delta
                    zs.append(evaluate_forward(rule, **dict(values, **{sym: flat.reshape(
                        x.shape)})))
                flat[j] = old
                vjp[j] = float(np.sum(grad * (zs[0] - zs[1]))) / (2 * STEP)
            pairs.append((sent, vjp.reshape(x.shape)))
    except (TypeError, ValueError, NameError, SyntaxError, IndexError, AttributeError):
        # an input the node did not keep, or a forward NumPy cannot run as written
        return None
    return pairs or None


def check_record(rec, mode, kept: dict) -> None:
    """Fill in ``rec.check`` for the step (custom Functions; every node if mode == "all")."""
    if hasattr(rec.node, "_forward_cls"):
        rec.check = _custom_check(rec, kept.pop(rec.node, None))
        rec.check["how"] = "custom"
    elif mode == "all" and rec.acc is None:
        pairs = _fd_of_forward(rec)
        if pairs is not None:
            rec.check = dict(_compare(pairs), how="fd")
            return
        pairs = [(sent, rule) for _, rule, sent in check_rule(rec)]
        rec.check = _compare(pairs) if pairs else {"ok": None, "reason": "check.no_rule"}
        rec.check["how"] = "rule"


def keep_graph_inputs(graph) -> dict:
    """Custom Function node -> its forward's inputs, taken now (they may be gone later)."""
    kept = {}
    for gnode in graph.nodes:
        inputs = keep_inputs(gnode.obj) if gnode.obj is not None else None
        if inputs is not None:
            kept[gnode.obj] = inputs
    return kept
