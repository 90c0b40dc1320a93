"""What the stepper's panel says about one step, in the learner's language.

The panel is a dict the front end only draws (and :func:`minigrad_widgets.text.panel_text`
prints): a ``title``, ``lines`` (the gradients in and out), ``sections`` (the chain rule with
the step's numbers put in, the contributions summed at a fork, a numerical check, an error,
feedback on a prediction), and for an ``AccumulateGrad`` step ``accumulate`` (the update of
the leaf's ``.grad``). The rule comes from ``minigrad.autograd.derivatives``, the one table
the node classes' docstrings are made from; for PyTorch graphs it applies by node name.
"""

from __future__ import annotations

import re

import numpy as np

from minigrad.autograd.derivatives import CUSTOM, evaluate, rule_for, signed, sum_to

from ._format import PANEL_LIMIT, format_array, is_tensor, to_numpy
from .i18n import t

__all__ = ["read_saved", "step_panel", "section", "rule_lines", "contribution_lines"]

_NAME = re.compile(r"\b[A-Za-z_]\w*\b")
CONTRIB_LIMIT = 12  # contributions listed one by one at a node; the rest are counted


def section(kind: str, heading: str, lines: list, **extra) -> dict:
    """One block of the panel: ``kind`` styles it (``rule``, ``contrib``, ``check``,
    ``error``, ``predict``, ``flag``), ``heading`` and ``lines`` are shown."""
    return {"kind": kind, "heading": heading, "lines": list(lines), **extra}


# ---------------------------------------------------------------- saved values
def _plain(value):
    """A saved value as NumPy (tensors) or plain Python (numbers, sizes, dims)."""
    if is_tensor(value):
        return to_numpy(value)
    if isinstance(value, (list, tuple)) and value and all(is_tensor(v) for v in value):
        return None
    if isinstance(value, (list, tuple)):
        return signed(tuple(value))
    return signed(value)


def read_saved(node) -> dict:
    """The values the node's rule names (symbol -> value), read while they are still there."""
    rule = rule_for(node)
    values = {}
    for symbol, name in (rule.symbols.items() if rule is not None else ()):
        try:
            values[symbol] = _plain(getattr(node, "_saved_" + name))
        except (AttributeError, RuntimeError):  # not kept, or freed
            continue
    return values


# ---------------------------------------------------------------- the chain rule
def _show(value) -> str:
    if value is None:
        return "None"
    if isinstance(value, np.ndarray):
        return format_array(value)
    return str(value)


def _small(value) -> bool:
    return not isinstance(value, np.ndarray) or value.size <= PANEL_LIMIT


def _filled(expr: str, values: dict) -> str | None:
    """``expr`` with each symbol replaced by its value, or None if one is large or missing."""
    names = [n for n in _NAME.findall(expr) if n in values]
    if not names or not all(_small(values[n]) for n in names):
        return None
    return _NAME.sub(lambda m: _show(values[m.group()]) if m.group() in values else m.group(),
                     expr)


def _input_symbols(rule, count: int) -> list:
    keys = [k for k in rule.grads if k != "*"]
    return [keys[i] if i < len(keys) else "*" for i in range(count)]


def rule_lines(rec, describe, lang) -> list[str]:
    """The node's rule, one line per input: ``grad_b = grad * a = [1.] * [2.] = [2.]``."""
    node = rec.node
    rule = rule_for(node)
    if rule is None:
        return [t("rule.unknown", lang, name=node.name())]
    if rule is CUSTOM:
        lines = [t("rule.custom", lang, name=node._forward_cls.__name__)]
        for i, ((child, _), g) in enumerate(zip(node.next_functions, rec.grads_out)):
            lines.append(f"grad[{i}] → {_target(child, describe, lang)}: {_show(g)}")
        return lines
    grad = rec.grads_in[0] if len(rec.grads_in) == 1 else None
    values = dict(rec.saved, grad=grad) if grad is not None else dict(rec.saved)
    lines = [rule.forward]
    symbols = _input_symbols(rule, len(node.next_functions))
    for sym, (child, _), g in zip(symbols, node.next_functions, rec.grads_out):
        expr = rule.grads[sym]
        head = f"grad_{sym} = {expr}" if sym != "*" else f"grad = {expr}"
        filled = None if rule.words else _filled(expr, values)
        if filled is not None and filled != expr and not _NAME.fullmatch(expr):
            head += f" = {filled}"
        lines.append(f"{head} = {_show(g)}")
        lines.append(f"    → {_target(child, describe, lang)}")
    if grad is not None and not _small(grad):
        lines.append(t("rule.where", lang, values="; ".join(
            f"{k}: {_show(v)}" for k, v in values.items() if isinstance(v, np.ndarray))))
    return lines


def _target(child, describe, lang) -> str:
    return t("panel.no_grad", lang) if child is None else describe(child)


def check_rule(rec) -> list:
    """(symbol, what the rule computes, what the node sent) for each input it can compute."""
    rule = rule_for(rec.node)
    if rule is None or rule is CUSTOM or rule.words or len(rec.grads_in) != 1:
        return []
    out = []
    values = dict(rec.saved, grad=rec.grads_in[0])
    for sym, g in zip(_input_symbols(rule, len(rec.grads_out)), rec.grads_out):
        if sym == "*" or g is None:
            continue
        try:
            out.append((sym, sum_to(evaluate(rule, sym, **values), g.shape), g))
        except (NameError, TypeError, ValueError):  # a symbol the node did not keep
            continue
    return out


# ---------------------------------------------------------------- contributions
def contribution_lines(rec, describe, lang) -> list[str]:
    """Each gradient that arrived (from which node, along which edge) and, at a fork, their
    sum: gradients summed where paths meet, in the node's input buffer before it runs (not
    ``.grad`` accumulation, which only an ``AccumulateGrad`` step speaks of)."""
    lines = []
    several = len(rec.contribs) > 1
    for nr, entry in enumerate(rec.contribs):
        prefix = f"[{nr}] " if several else ""
        for k, (sender, edge, g) in enumerate(entry):
            if k == CONTRIB_LIMIT and len(entry) > CONTRIB_LIMIT + 1:
                lines.append(prefix + t("contrib.more", lang, n=len(entry) - k))
                break
            source = (t("contrib.start", lang) if sender is None
                      else t("contrib.from", lang, node=describe(sender), edge=edge))
            lines.append(f"{prefix}{_show(g)}  ← {source}")
        if len(entry) > 1:
            total = rec.grads_in[nr] if nr < len(rec.grads_in) else None
            lines.append(f"{prefix}{t('contrib.sum', lang, n=len(entry))} {_show(total)}")
    return lines


def check_lines(check: dict, lang) -> list:
    """A numerical check's result (see :mod:`minigrad_widgets.check`) as panel lines."""
    if check["ok"] is None:
        return [t(check["reason"], lang, index=check.get("index", 0))]
    how = {"custom": "", "fd": "fd_", "rule": "rule_"}[check["how"]]
    if check["ok"]:
        return [t(f"check.{how}ok", lang)]
    return [t(f"check.{how}mismatch", lang, sent=check["sent"], numerical=check["numerical"])]


# ---------------------------------------------------------------- the whole panel
def grads_lines(rec, describe, lang) -> list[str]:
    lines = [t("panel.grads_in", lang)]
    lines += [f"  [{i}] {_show(g)}" for i, g in enumerate(rec.grads_in)]
    lines.append(t("panel.grads_out", lang))
    for i, ((child, _), g) in enumerate(zip(rec.node.next_functions, rec.grads_out)):
        lines.append(f"  [{i}] → {_target(child, describe, lang)}: {_show(g)}")
    return lines


def _rows(a):
    """A small 2-D array as rows of strings (the panel draws it as a table), else None."""
    if a is None or a.ndim != 2 or a.size > PANEL_LIMIT:
        return None
    return [[format_array(np.asarray(v)) for v in row] for row in a]


def accumulate_block(rec, lang) -> tuple[list, dict]:
    name, variable, tensor, before, after = rec.acc
    incoming = rec.grads_in[0] if rec.grads_in else None
    same = tensor is variable if tensor is not None else None
    acc = {"variable_name": name, "variable_id": str(id(variable)),
           "tensor_id": str(id(tensor)) if tensor is not None else "n/a",
           "is_same": "n/a" if same is None else str(same),
           "grad_before": _show(before), "incoming": _show(incoming),
           "grad_after": _show(after),
           "equation": f"{name}.grad: {_show(before)} + {_show(incoming)} = {_show(after)}",
           "identity": t("acc.same" if same else "acc.unknown" if same is None
                         else "acc.different", lang, name=name),
           "ids": t("acc.ids", lang, a=id(variable), b="n/a" if tensor is None else id(tensor)),
           "tables": [_rows(before), _rows(incoming), _rows(after)]}
    if acc["tables"][2] is None:
        acc["tables"] = None
    lines = [t("acc.grad_in", lang, value=acc["incoming"]),
             t("acc.before", lang, name=name, value=acc["grad_before"]),
             t("acc.after", lang, name=name, value=acc["grad_after"]),
             t("acc.rule", lang, name=name)]
    return lines, acc


def step_panel(rec, index: int, total: int, describe, lang) -> dict:
    """The panel of a step that ran (``rec``), as step ``index`` of ``total``."""
    panel = {"title": t("panel.title", lang, index=index, total=total, name=rec.name)}
    sections = []
    if rec.acc is not None:
        panel["lines"], panel["accumulate"] = accumulate_block(rec, lang)
    else:
        panel["lines"] = grads_lines(rec, describe, lang)
        sections.append(section("rule", t("panel.rule", lang), rule_lines(rec, describe, lang)))
    contribs = contribution_lines(rec, describe, lang)
    if contribs:
        sections.append(section("contrib", t("panel.contrib", lang), contribs))
    if rec.check is not None:
        sections.append(section("check", t("panel.check", lang), check_lines(rec.check, lang),
                                ok=rec.check["ok"]))
    if rec.nonfinite:
        sections.append(section("flag", t("panel.flag", lang), [t("flag.nonfinite", lang)]))
    panel["sections"] = sections
    return panel
