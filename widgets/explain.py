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

from minigrad.autograd.derivatives import CUSTOM, rule_for
from minigrad.autograd.evaluate import evaluate, signed, sum_to

from ._format import PANEL_LIMIT, format_array, format_shape, is_tensor, to_numpy
from .heat import heat_map, summary
from .i18n import t
from .operands import VARIADIC, argument_name, operand_names, rename

__all__ = ["read_saved", "step_panel", "section", "rule_lines", "contribution_lines", "line",
           "pictures_of"]

_NAME = re.compile(r"\b[A-Za-z_]\w*\b")
CONTRIB_LIMIT = 12  # contributions listed one by one at a node; the rest are counted
MATRIX_LIMIT = 6  # a matrix with more elements than this is drawn, and summarised in text


def section(kind: str, heading: str, lines: list, **extra) -> dict:
    """One block of the panel: ``kind`` styles it (``rule``, ``contrib``, ``check``,
    ``error``, ``predict``, ``flag``), ``heading`` and ``lines`` are shown; ``pictures``
    are the heat maps of the large tensors of the lines (see :func:`line`)."""
    out = {"kind": kind, "heading": heading, "lines": [str(x) for x in lines], **extra}
    pictures = pictures_of(lines)
    if pictures:
        out["pictures"] = pictures
    return out


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


# ---------------------------------------------------------------- values and pictures
class Line(str):
    """A panel line carrying the arrays drawn as heat maps under it (see :func:`section`)."""

    arrays: tuple = ()


def line(text: str, *values) -> Line:
    """``text`` as a panel line; each of ``values`` too large to read as numbers is drawn."""
    out = Line(text)
    out.arrays = tuple(v for v in values if isinstance(v, np.ndarray) and not _small(v))
    return out


def pictures_of(lines) -> list:
    """The heat maps of ``lines``: ``{"line": index, ...heat_map}`` for each large array."""
    out = []
    for i, text in enumerate(lines):
        for a in getattr(text, "arrays", ()):
            heat = heat_map(a)
            if heat is not None:
                out.append({"line": i, **heat})
    return out


def _show(value) -> str:
    if value is None:
        return "None"
    if isinstance(value, np.ndarray):
        return format_array(value) if _small(value) else summary(value)
    return str(value)


def _small(value) -> bool:
    """Few enough elements to read: a vector up to PANEL_LIMIT, a matrix up to MATRIX_LIMIT."""
    if not isinstance(value, np.ndarray):
        return True
    return value.size <= (PANEL_LIMIT if value.ndim < 2 else MATRIX_LIMIT)


# ---------------------------------------------------------------- the chain rule
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


def _raw(rule, sym, values, g):
    """What the rule computes for ``sym`` before any broadcast is undone, or None (also when
    the gradient sent has the incoming gradient's shape: then nothing was summed down)."""
    grad = values.get("grad")
    if rule.words or grad is None or g is None or np.shape(grad) == g.shape:
        return None
    try:
        return np.asarray(evaluate(rule, sym, **values))
    except Exception:  # noqa: BLE001 - a symbol the node did not keep, a shape it cannot take
        return None


def _summed(raw, g) -> tuple | None:
    """The dims a broadcast added, if ``g`` is ``raw`` summed back to ``g``'s shape."""
    if raw is None or g is None or raw.shape == g.shape or raw.ndim < g.ndim:
        return None
    lead = raw.ndim - g.ndim
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(g.shape)
                                      if s == 1 and raw.shape[lead + i] != 1)
    try:
        total = sum_to(raw, g.shape)
    except ValueError:
        return None
    if total.shape != g.shape or not np.allclose(total, g, rtol=1e-4, atol=1e-6,
                                                 equal_nan=True):
        return None
    return dims


def _scales(rule, expr: str, values: dict) -> list:
    """(symbol, value) of the scalars ``alpha``/``beta`` the rule multiplies by."""
    used = set(_NAME.findall(expr))
    return [(k, values[k]) for k in ("alpha", "beta") if k in used and k in values]


def _input_lines(rule, sym, position, expr, names, values, g, target, lang) -> list:
    """The lines of one input: the rule with its numbers, each implicit step, the target."""
    shown = names.get(sym, sym) if sym != "*" else f"{VARIADIC}[{position}]"
    head = f"grad_{shown} = {rename(expr, names)}"
    filled = None if rule.words else _filled(expr, values)
    if filled is not None and filled != expr and not _NAME.fullmatch(expr):
        head += f" = {filled}"
    raw = _raw(rule, sym, values, g)
    dims = _summed(raw, g)
    out = []
    if filled is None:
        out += [line("    " + t("rule.scale", lang, name=k, value=_show(v)))
                for k, v in _scales(rule, expr, values)]
    if dims is None:
        out.insert(0, line(f"{head} = {_show(g)}", g))
    else:
        out.insert(0, line(f"{head} = {_show(raw)}", raw))
        out.append(line("    " + t("rule.sum_to", lang, dims=", ".join(map(str, dims)),
                                   name=shown, shape=format_shape(g.shape),
                                   big=format_shape(raw.shape), value=_show(g)), g))
    out.append(line(f"    → {target}"))
    return out


def rule_lines(rec, describe, lang, name_of=None) -> list[str]:
    """The node's rule, one line per input, its operands named as the learner knows them:
    ``grad_x = grad * y = 1. * -5. = -5.``, then ``→ x (AccumulateGrad)``.

    ``name_of(node)`` is the learner's name for the tensor an autograd node stands for (a
    leaf, or the result a ``grad_fn`` made), or None.
    """
    node = rec.node
    rule = rule_for(node)
    if rule is None:
        return [t("rule.unknown", lang, name=node.name())]
    if rule is CUSTOM:
        lines = [t("rule.custom", lang, name=node._forward_cls.__name__)]
        for i, ((child, _), g) in enumerate(zip(node.next_functions, rec.grads_out)):
            lines.append(line(f"grad[{i}] → {_target(child, describe, lang)}: {_show(g)}", g))
        return lines
    name_of = name_of or (lambda _node: None)
    grad = rec.grads_in[0] if len(rec.grads_in) == 1 else None
    values = dict(rec.saved, grad=grad) if grad is not None else dict(rec.saved)
    children = [child for child, _ in node.next_functions]
    names = operand_names(rule, [name_of(c) if c is not None else None for c in children],
                          name_of(node))
    lines = [rename(rule.forward, names)]
    symbols = _input_symbols(rule, len(children))
    for i, (sym, child, g) in enumerate(zip(symbols, children, rec.grads_out)):
        if child is None:
            shown = (names.get(sym, argument_name(rule, sym, i)) if sym != "*"
                     else f"{VARIADIC}[{i}]")
            lines.append(t("rule.not_needed", lang, name=shown))
            continue
        lines += _input_lines(rule, sym, i, rule.grads[sym], names, values, g,
                              describe(child), lang)
    if rule.note:  # what a function of the formula computes (maybe_multiply, sigmoid_backward)
        lines.append(line(t("rule.where", lang, values=rename(rule.note, names))))
    for k, v in values.items():
        if k != "grad" and isinstance(v, np.ndarray) and not _small(v):
            lines.append(line(t("rule.where", lang, values=f"{names.get(k, k)} = {_show(v)}"),
                              v))
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
            lines.append(line(f"{prefix}{_show(g)}  ← {source}", g))
        if len(entry) > 1:
            total = rec.grads_in[nr] if nr < len(rec.grads_in) else None
            lines.append(line(f"{prefix}{t('contrib.sum', lang, n=len(entry))} {_show(total)}",
                              total))
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
    lines += [line(f"  [{i}] {_show(g)}", g) for i, g in enumerate(rec.grads_in)]
    lines.append(t("panel.grads_out", lang))
    for i, ((child, _), g) in enumerate(zip(rec.node.next_functions, rec.grads_out)):
        lines.append(line(f"  [{i}] → {_target(child, describe, lang)}: {_show(g)}", g))
    return lines


def _rows(a):
    """A small 2-D array as rows of strings (the panel draws it as a table), else None."""
    if a is None or a.ndim != 2 or not _small(a):
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
    lines = [line(t("acc.grad_in", lang, value=acc["incoming"]), incoming),
             line(t("acc.before", lang, name=name, value=acc["grad_before"]), before),
             line(t("acc.after", lang, name=name, value=acc["grad_after"]), after),
             line(t("acc.rule", lang, name=name), None)]
    return lines, acc


def step_panel(rec, index: int, total: int, describe, lang, name_of=None,
               label=None) -> dict:
    """The panel of a step that ran (``rec``), as step ``index`` of ``total``; ``describe``
    names a node (``MulBackward0 (y.grad_fn)``, ``x (AccumulateGrad)``), ``label`` gives
    its type as drawn (``MulBackward0 #2``), ``name_of`` the learner's name of the tensor a
    node stands for (see :func:`rule_lines`)."""
    name = label(rec.node) if label is not None else rec.name
    panel = {"title": t("panel.title", lang, index=index, total=total, name=name)}
    sections = []
    if rec.acc is not None:
        lines, panel["accumulate"] = accumulate_block(rec, lang)
    else:
        lines = grads_lines(rec, describe, lang)
        sections.append(section("rule", t("panel.rule", lang),
                                rule_lines(rec, describe, lang, name_of)))
    panel["lines"] = [str(x) for x in lines]
    pictures = pictures_of(lines)
    if pictures:
        panel["pictures"] = pictures
    contribs = contribution_lines(rec, describe, lang)
    if contribs:
        sections.append(section("contrib", t("panel.contrib", lang), contribs))
    if rec.check is not None:
        sections.append(section("check", t("panel.check", lang), check_lines(rec.check, lang),
                                ok=rec.check["ok"]))
    if rec.nonfinite:
        sections.append(section("flag", t("panel.flag", lang), [t("flag.nonfinite", lang)]))
    panel["sections"] = sections
    return share_pictures(panel)


def share_pictures(panel: dict) -> dict:
    """Each distinct heat map of a panel stored once, in ``panel["heat"]``, and drawn once:
    under the first line that names it, in the order the panel shows (sections, then the
    gradients in and out); the ``pictures`` of a block then name it: ``{"line": 2,
    "heat": 0}``. A later line naming the same tensor keeps its summary only."""
    heat, seen = [], set()
    for holder in [*panel.get("sections", []), panel]:
        refs = []
        for pic in holder.pop("pictures", []):
            pic = dict(pic)
            line_nr = pic.pop("line")
            key = (tuple(pic["shape"]), tuple(map(tuple, pic["values"])))
            if key in seen:
                continue
            seen.add(key)
            refs.append({"line": line_nr, "heat": len(heat)})
            heat.append(pic)
        if refs:
            holder["pictures"] = refs
    if heat:
        panel["heat"] = heat
    return panel
