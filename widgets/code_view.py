"""The code on screen: the source of the backward a step ran, beside the chain rule.

For a minigrad graph the stepper's panel can show (``code=True``, or the Code button) the
real source of the function that computed this step's gradients, found through the node's
class (:func:`~minigrad_widgets.code_trace.backward_function`), highlighted, with the lines
that ran marked, the values its names held after each line, the lines whose result is each
gradient marked with where that gradient goes; and the lines of minigrad's engine that
called it (``run``, ``_execute``), read from the live source with their numbers. For a
PyTorch graph, whose nodes are C++, it shows PyTorch's formula for the node from
``derivatives.yaml`` (:mod:`minigrad_widgets.pytorch_formulas`).

The view is one panel section of kind ``code``: its ``lines`` are the text form, its
``blocks`` what the front end draws (``{"title", "lines": [{"n", "spans", "mark", "notes"}],
"message"?, "wrap"?}``).

>>> import minigrad as torch
>>> from minigrad_widgets import BackwardStepper
>>> a = torch.tensor([2.], requires_grad=True)
>>> b = torch.tensor([3.], requires_grad=True)
>>> stepper = BackwardStepper((a * b).sum(), code=True, lang="en")
>>> stepper.run(until="MulBackward0"); stepper.step()
>>> code = next(s for s in stepper.panel["sections"] if s["kind"] == "code")
>>> [line["mark"] for line in code["blocks"][0]["lines"]][-1]
'grad'
"""

from __future__ import annotations

import linecache
import os
import re
import sys

import numpy as np

from ._format import format_array, is_leaf_node, short_repr
from .code_trace import Opaque, backward_function, highlight, source_of
from .i18n import t
from .pytorch_formulas import formula_for, yaml_path

__all__ = ["code_section", "show", "where"]

NOTE_LIMIT = 8  # elements of an array shown as numbers in a note; a larger one as its shape
_MARKS = {"grad": "▶", "ran": "•", "head": " ", "": " "}


def show(value) -> str:
    """A value in a note, short: ``[1., 1.]``, ``shape [64, 10], norm 3.2``, ``<SavedTensor>``."""
    if value is None:
        return "None"
    if isinstance(value, Opaque):
        return f"<{value.type_name}>"
    if isinstance(value, np.ndarray):
        return format_array(value, NOTE_LIMIT)
    if isinstance(value, tuple):
        inner = ", ".join(show(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return short_repr(value)


def where(path: str) -> str | None:
    """A source file as the learner can find it (``minigrad/_ops/arithmetic.py``): relative
    to the folder holding ``minigrad`` or ``minigrad_widgets``; None for any other file (the
    learner's own code, whose path would say nothing)."""
    for package in ("minigrad", "minigrad_widgets"):
        module = sys.modules.get(package)
        folder = os.path.dirname(getattr(module, "__file__", "") or "")
        if folder and os.path.abspath(path).startswith(folder + os.sep):
            rel = os.path.relpath(os.path.abspath(path), os.path.dirname(folder))
            return rel.replace(os.sep, "/")
    return None


def _same(a, b) -> bool:
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
                and a.dtype == b.dtype and bool(np.array_equal(a, b, equal_nan=True)))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - a value that does not compare
        return False


# ---------------------------------------------------------------- which lines make which gradient
def _gradient_lines(src, ran, count: int) -> dict:
    """Line -> gradient indices (``None``: all of them) for the ``return`` statements that
    ran (all of them, without a trace): each element of a returned tuple is one gradient;
    a name returned marks the lines that assigned it too (without an index)."""
    out: dict = {}
    for (first, last), elts in src.returns:
        if ran and not any(n in ran for n in range(first, last + 1)):
            continue
        if elts is None or (len(elts) == 1 and count != 1):
            for n in range(first, last + 1):
                out.setdefault(n, [])
            out.setdefault(last, []).append(None if count != 1 else 0)
            continue
        for i, (a, b, name) in enumerate(elts):
            for n in range(a, b + 1):
                out.setdefault(n, [])
            out.setdefault(b, []).append(i)
            for n in src.assigned.get(name, ()):  # `return grad_x, grad_y`: where they were made
                if not ran or n in ran:
                    out.setdefault(n, [])
    return out


def _grad_note(i, rec, trace, describe, lang) -> str:
    children = [child for child, _ in rec.node.next_functions]
    returned = trace.returned if trace is not None else None
    if i is None:
        value = returned if isinstance(returned, tuple) else tuple(rec.grads_out)
        return t("code.returns", lang, value=show(value))
    if isinstance(returned, tuple) and i < len(returned):
        value = returned[i]
    elif trace is not None and not isinstance(returned, tuple) and i == 0:
        value = returned
    else:
        value = rec.grads_out[i] if i < len(rec.grads_out) else None
    target = (describe(children[i]) if i < len(children) and children[i] is not None
              else t("panel.no_grad", lang))
    sent = rec.grads_out[i] if i < len(rec.grads_out) else None
    if (isinstance(value, np.ndarray) and isinstance(sent, np.ndarray)
            and value.shape != sent.shape):  # the engine sums a broadcast back
        return t("code.grad_summed", lang, index=i, target=target, value=show(value),
                 sent=show(sent))
    return t("code.grad", lang, index=i, target=target, value=show(value))


def _value_notes(values: dict, shown: dict) -> list:
    """``["s = [2.], o = [3.]"]``: the names of a line whose values are new (an attribute
    equal to a name shown beside it is left out: ``s, o = self._s_self, self._s_other``)."""
    parts, here = [], []
    for key, value in values.items():
        if key in shown and _same(shown[key], value):
            continue
        shown[key] = value
        if "." in key and any(_same(v, value) for v in here):
            continue
        here.append(value)
        parts.append(f"{key} = {show(value)}")
    return [", ".join(parts)] if parts else []


def source_block(fn, rec, trace, describe, lang) -> dict:
    """The highlighted source of ``fn`` with this step's marks and values."""
    name = fn.__qualname__
    try:
        src = source_of(fn)
    except (OSError, TypeError) as error:
        return {"title": name, "lines": [], "message": t(
            "code.no_source", lang, name=name, error=type(error).__name__)}
    ran = set(trace.ran) if trace is not None else set()
    count = 0 if is_leaf_node(rec.node) else len(rec.node.next_functions)
    grads = _gradient_lines(src, ran, count)
    shown: dict = {}
    lines = []
    for i, spans in enumerate(src.spans):
        n = src.start + i
        if src.doc is not None and src.doc[0] < n <= src.doc[1]:  # a docstring: its first line
            if n == src.doc[0] + 1:
                lines.append({"n": None, "spans": [["com", "…"]], "mark": "", "notes": []})
            continue
        mark = "grad" if n in grads else "ran" if n in ran or (
            trace is not None and n == src.def_line) else ""
        notes = _value_notes(trace.values.get(n, {}), shown) if trace is not None else []
        notes += [_grad_note(k, rec, trace, describe, lang) for k in grads.get(n, ())]
        lines.append({"n": n, "spans": [list(s) for s in spans], "mark": mark,
                      "notes": notes})
    written = re.match(r"<(\w+)\.rule in (.+), written as code", src.file or "")
    file = (t("code.written", lang, name=written[1], file=written[2]) if written
            else where(src.file) or t("code.yours", lang))
    return {"title": t("code.source", lang, name=name, file=file, line=src.def_line),
            "lines": lines}


def engine_block(trace, lang) -> dict:
    """The engine's lines that called the step's function, read from the file now."""
    lines = []
    for path, func, n in trace.stack:
        linecache.checkcache(path)
        text = linecache.getline(path, n).strip()
        lines.append({"n": n, "spans": [list(s) for s in highlight([text])[0]],
                      "mark": "ran", "notes": [t("code.in_function", lang, name=func)]})
    file = where(trace.stack[0][0]) if trace.stack else None
    return {"title": t("code.engine", lang, file=file or "engine.py"), "lines": lines}


# ---------------------------------------------------------------- PyTorch: derivatives.yaml
def _formula_block(rec, describe, lang) -> dict:
    name = rec.node.name()
    if is_leaf_node(rec.node):
        return {"title": name, "lines": [], "message": t("code.torch_accumulate", lang)}
    if yaml_path() is None:
        return {"title": name, "lines": [], "message": t("code.no_yaml", lang)}
    entry = formula_for(name)
    if entry is None:
        return {"title": name, "lines": [], "message": t("code.no_formula", lang, name=name)}
    children = [child for child, _ in rec.node.next_functions]
    order = list(entry.differentiable)
    lines = [{"n": None, "spans": [list(s) for s in highlight([f"name: {entry.name}"])[0]],
              "mark": "head", "notes": []}]
    if order == list(entry.lists):  # one list of tensors (cat, stack): an edge per tensor
        edges = {order[0]: range(len(children))} if order else {}
    else:
        edges = {a: [i] for i, a in enumerate(order)} if len(order) == len(children) else {}
    for key, formula in entry.inputs:
        notes = []
        for arg in (n.strip() for n in key.split(",")):
            for i in edges.get(arg, ()):
                target = (describe(children[i]) if children[i] is not None
                          else t("panel.no_grad", lang))
                value = rec.grads_out[i] if i < len(rec.grads_out) else None
                notes.append(t("code.grad", lang, index=i, target=target, value=show(value)))
        lines.append({"n": None, "spans": [list(s) for s in highlight([f"{key}: {formula}"])[0]],
                      "mark": "grad" if notes else "head", "notes": notes})
    grad = rec.grads_in[0] if len(rec.grads_in) == 1 else None
    if grad is not None:
        lines[0]["notes"].append(f"grad = {show(grad)}")
    return {"title": t("code.yaml", lang, line=entry.line), "lines": lines, "wrap": True}


# ---------------------------------------------------------------- the section
def _text(blocks) -> list:
    out = []
    for block in blocks:
        out.append(block["title"])
        for line in block["lines"]:
            text = "".join(s[1] for s in line["spans"])
            number = f"{line['n']:>4} " if line["n"] is not None else ""
            out.append(f"{number}{_MARKS[line['mark']]} {text}".rstrip())
            pad = " " * (len(number) + 2)
            out += [f"{pad}# {note}" for note in line["notes"]]
        if block.get("message"):
            out.append(block["message"])
    return out


def code_section(rec, describe, lang, minigrad: bool) -> dict:
    """The panel section showing the code of step ``rec`` (see the module's docstring)."""
    fn = backward_function(rec.node)
    trace = getattr(rec, "trace", None)
    if minigrad or (fn is not None and not is_leaf_node(rec.node)):  # a custom Function
        if fn is None:
            blocks = [{"title": rec.node.name(), "lines": [],
                       "message": t("code.no_function", lang, name=rec.node.name())}]
        else:
            blocks = [source_block(fn, rec, trace, describe, lang)]
        if minigrad and trace is None:
            blocks[0].setdefault("message", t("code.not_traced", lang))
        elif minigrad and trace.stack:
            blocks.append(engine_block(trace, lang))
    else:
        blocks = [_formula_block(rec, describe, lang)]
    return {"kind": "code", "heading": t("panel.code", lang), "lines": _text(blocks),
            "blocks": blocks}
