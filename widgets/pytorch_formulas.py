"""PyTorch's own derivative formulas: the entry of ``derivatives.yaml`` behind a node.

PyTorch writes each op's backward once, as one formula per input in ``derivatives.yaml``,
and generates the C++ node (``MulBackward0``) from it. The torch wheel ships that file as
``torchgen/packaged/autograd/derivatives.yaml``; :func:`formula_for` finds the entry a node
was generated from, by the rule torchgen names nodes with (``load_derivatives.py``): the
op's base name in CamelCase (``max_pool2d_with_indices`` -> ``MaxPool2DWithIndices``), then
``Backward``, then how many entries of that base name with a derivative came before in the
file (``mul.Tensor`` -> ``MulBackward0``, ``mul.Scalar`` -> ``MulBackward1``). An entry gets a
node only if one of its inputs has a formula (not ``non_differentiable``); an entry split by
dispatch key names its other keys' nodes ``<Op>Backward<Key><n>``.

The file is read with the small parser below (the widgets do not depend on PyYAML), which
knows the part of YAML the file uses: a list of mappings, ``key: value`` lines, values
continued on more indented lines, double-quoted values, flow lists and ``#`` comments.

>>> text = '''
... - name: mul.Tensor(Tensor self, Tensor other) -> Tensor
...   self: mul_tensor_backward(grad, other, self.scalar_type())
...   other: mul_tensor_backward(grad, self, other.scalar_type())
...   result: other_t * self_p + self_t * other_p
... '''
>>> entry = node_names(parse_entries(text))["MulBackward0"]
>>> entry.inputs[0]
('self', 'mul_tensor_backward(grad, other, self.scalar_type())')
>>> entry.differentiable
('self', 'other')
"""

from __future__ import annotations

import importlib.util
import pathlib
import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Formula", "formula_for", "yaml_path", "parse_entries", "node_names", "arguments"]

_KEY = re.compile(r"^(\s*)([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*):(?:\s+(.*))?$")
_FIELDS = ("name", "dispatch", "output_differentiability")


@dataclass(frozen=True)
class Formula:
    """One node's entry: the op's schema (``name``), and ``(inputs, formula)`` for each key
    that is a backward formula, in the file's order (``inputs`` may name several:
    ``"self, other"``); ``differentiable`` are the inputs with a formula, in the schema's
    order: the order of the node's ``next_functions`` (a list, ``Tensor[] tensors``, has
    one edge per tensor: those are in ``lists``)."""

    node: str
    name: str
    inputs: tuple
    differentiable: tuple
    line: int
    lists: tuple = ()


def yaml_path() -> pathlib.Path | None:
    """Where the installed torch wheel keeps ``derivatives.yaml``, or None."""
    try:
        spec = importlib.util.find_spec("torchgen")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    path = pathlib.Path(spec.origin).parent / "packaged" / "autograd" / "derivatives.yaml"
    return path if path.is_file() else None


# ---------------------------------------------------------------- the small YAML parser
def _strip_comment(text: str) -> str:
    if text.startswith('"'):
        return text
    cut = text.find(" #")
    return text[:cut].rstrip() if cut >= 0 else text


def _scalar(text: str):
    text = text.strip()
    if text.startswith('"') and text.endswith('"') and len(text) > 1:
        return text[1:-1].replace('\\"', '"')
    if text.startswith("'") and text.endswith("'") and len(text) > 1:
        return text[1:-1].replace("''", "'")
    if text.startswith("[") and text.endswith("]"):
        return [_scalar(x) for x in text[1:-1].split(",") if x.strip()]
    return {"True": True, "False": False}.get(text, text)


def parse_entries(text: str) -> list:
    """The file's entries as dicts (nested for ``dispatch:``), each with its ``line``."""
    entries: list = []
    stack: list = []  # (indent, mapping) of the mappings being filled
    pending = None  # [mapping, key, indent, parts, quoted]: a value that may go on

    def close():
        nonlocal pending
        if pending is not None:
            mapping, key, _, parts, _ = pending
            mapping[key] = _scalar(" ".join(p.strip() for p in parts))
            pending = None

    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        in_string = pending is not None and pending[4] and not _closed(pending[3])
        if in_string:
            pending[3].append(stripped)
            continue
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip())
        if pending is not None and indent > pending[2]:  # a plain value going on
            pending[3].append(_strip_comment(stripped))
            continue
        close()
        if raw.startswith("- "):
            entry = {"line": number}
            entries.append(entry)
            stack = [(0, entry)]
            raw, indent = "  " + raw[2:], 2
        match = _KEY.match(raw)
        if match is None or not stack:
            continue
        while len(stack) > 1 and indent <= stack[-1][0]:
            stack.pop()
        mapping = stack[-1][1]
        key, value = match.group(2), _strip_comment(match.group(3) or "")
        if not value:
            child: dict = {}
            mapping[key] = child
            stack.append((indent, child))
        else:
            pending = [mapping, key, indent, [value], value.startswith('"')]
    close()
    return entries


def _closed(parts) -> bool:
    """Whether a double-quoted value is complete (its closing quote seen)."""
    text = " ".join(parts)
    return len(text) > 1 and text.rstrip().endswith('"') and not text.rstrip().endswith('\\"')


# ---------------------------------------------------------------- torchgen's names
def arguments(schema: str, types: bool = False) -> list:
    """The argument names of a schema: ``mul.Tensor(Tensor self, Tensor other)`` -> both
    (with ``types=True``: ``(type, name)`` pairs)."""
    inside = schema[schema.find("(") + 1:schema.rfind(")", 0, schema.find("->")
                                                       if "->" in schema else len(schema))]
    names, depth, part = [], 0, ""
    for ch in inside + ",":
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            part = part.split("=")[0].strip()
            if part and part != "*":
                words = part.split()
                names.append((" ".join(words[:-1]), words[-1]) if types else words[-1])
            part = ""
        else:
            part += ch
    return names


def _prefix(base: str) -> str:
    camel = "".join(p.title() for p in base.split("_"))
    return (camel + "Backward").replace("ForwardBackward", "Backward")


def _backward_keys(defn: dict, args: list) -> list:
    """(key, formula) of the backward formulas of one dispatch key's definition."""
    out = []
    for key, formula in defn.items():
        if key in _FIELDS or key == "line" or not isinstance(formula, str):
            continue
        names = [n.strip() for n in key.split(",")]
        if names[0] in args:  # (else a forward derivative, e.g. result:)
            out.append((key, formula))
    return out


def node_names(entries) -> dict:
    """Node name -> :class:`Formula`, for every entry that gets a node (torchgen's rule)."""
    counter: dict = {}
    out = {}
    for entry in entries:
        schema = entry.get("name", "")
        match = re.match(r"(\w+)(\.\w+)?\(", schema)
        if match is None:
            continue
        args = arguments(schema)
        dispatch = entry.get("dispatch") or {"Default": entry}
        for key, defn in dispatch.items():
            if not isinstance(defn, dict):
                continue
            formulas = _backward_keys(defn, args)
            with_grad = {n.strip() for k, f in formulas if f.strip().lower() !=
                         "non_differentiable" for n in k.split(",")}
            if not with_grad:
                continue
            prefix = _prefix(match.group(1)) + ("" if key == "Default" else key)
            node = f"{prefix}{counter.get(prefix, 0)}"
            counter[prefix] = counter.get(prefix, 0) + 1
            lists = tuple(n for kind, n in arguments(schema, types=True)
                          if n in with_grad and kind.endswith("[]"))
            out[node] = Formula(node, schema, tuple(formulas),
                                tuple(a for a in args if a in with_grad), entry["line"], lists)
    return out


@lru_cache(maxsize=2)
def _table(path: str) -> dict:
    text = pathlib.Path(path).read_text(encoding="utf-8")
    return node_names(parse_entries(text))


def formula_for(node_name: str) -> Formula | None:
    """The ``derivatives.yaml`` entry of a PyTorch node name (``"AddmmBackward0"``), or None
    (no such entry, or no torch wheel installed)."""
    path = yaml_path()
    if path is None:
        return None
    table = _table(str(path))
    if node_name.endswith("_copy") and node_name not in table:  # a view's copy variant
        return table.get(node_name[:-len("_copy")])
    return table.get(node_name)
