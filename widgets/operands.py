"""The names a rule's operands get in the panel: what the learner can see, never a letter.

The rule table (``minigrad.autograd.derivatives``) writes each rule with short symbols:
``z = a * b``, ``grad_a = grad * b``. Shown as they are, they collide with the learner's
names (a leaf called ``b`` beside a rule's ``b`` that means ``x``). So the panel renames
them, here, in the widget layer:

- an input is called by the learner's name for it where the graph knows one (the leaf ``x``,
  the tensor ``y`` whose ``grad_fn`` it is), else by PyTorch's name for that argument
  (``self``, ``other``, ``mat1``...: the name of its ``_saved_*`` attribute where the node
  keeps it);
- ``z``, the result, by the learner's name for it, else ``result``;
- another one-letter symbol by the name PyTorch saves it under (``c`` of ``x * 2`` is
  ``other``, ``p`` of ``x ** 3`` is ``exponent``);
- where two operands would get the same name (``x * x``), or a learner's name is also a word
  of the rule (``grad``, ``alpha``...), both keep PyTorch's names.

>>> from minigrad.autograd.derivatives import RULES
>>> rule = RULES["MulBackward0"]
>>> names = operand_names(rule, ["y", "x"], "loss")
>>> names
{'a': 'y', 'b': 'x', 'z': 'loss'}
>>> rename("grad * b", names), rename(rule.forward, names)
('grad * x', 'loss = y * x')
>>> operand_names(rule, ["x", "x"], None)
{'a': 'self', 'b': 'other', 'z': 'result'}
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["operand_names", "rename", "argument_name", "VARIADIC"]

VARIADIC = "tensors"  # PyTorch's name for the list of inputs of cat and stack

_TOKEN = re.compile(r"(?<![.\w])[A-Za-z_]\w*\b")
# PyTorch's names of the arguments whose symbol the table does not tie to a saved value
_ARGUMENT = {"a": "self", "b": "other", "c": "self", "A": "self", "B": "mat2", "v": "value",
             "g": "grad_output", "y": "output", "lo": "min", "hi": "max", "t": "target",
             "w": "weight", "e": "end", "x": "self"}
# after the article "a", these words show that it is not the symbol a
_NOUNS = ("number", "view", "select", "slice", "missing", "leaf", "gradient", "NaN", "diagonal",
          "matrix", "vector", "copy", "tensor")
_ARTICLE = re.compile(r"\ba(?= (?:" + "|".join(_NOUNS) + r")\b)")


def argument_name(rule, symbol: str, position: int) -> str:
    """PyTorch's name for the input ``symbol`` (the ``position``-th of the node)."""
    saved = rule.symbols.get(symbol)
    if saved is not None:
        return saved
    if symbol in _ARGUMENT:
        return _ARGUMENT[symbol]
    return f"input{position}"


_BASE: dict = {}  # id(rule) -> (rule, input symbols, PyTorch's names, the rule's other words)


def _base(rule) -> tuple:
    """What :func:`operand_names` needs of a rule, worked out once per rule."""
    hit = _BASE.get(id(rule))
    if hit is not None and hit[0] is rule:
        return hit[1:]
    inputs = [k for k in rule.grads if k != "*"]
    names = {sym: argument_name(rule, sym, i) for i, sym in enumerate(inputs)}
    for sym, saved in rule.symbols.items():
        if sym not in names and len(sym) == 1 and sym != "z":
            names[sym] = saved
    texts = [rule.forward, *rule.grads.values(), *rule.np.values(), rule.note]
    tokens = {m.group() for text in texts for m in _TOKEN.finditer(text)}
    for k in range(2):  # cat([a0, a1, ...]), (z0, z1, ...) = a.split(...): PyTorch's lists
        for sym, name in ((f"a{k}", f"{VARIADIC}[{k}]"), (f"z{k}", f"result[{k}]")):
            if sym in tokens:
                names[sym] = name
    words = tokens - set(names) - {"z"}
    _BASE[id(rule)] = (rule, inputs, names, frozenset(words))
    return inputs, names, words


def operand_names(rule, learner: list, result: str | None) -> dict:
    """symbol -> the name shown, for the inputs (``learner``: the learner's name of each
    input, None where unknown), the result ``z`` and the one-letter saved symbols."""
    inputs, base, words = _base(rule)
    names = dict(base)
    chosen = {}
    for i, sym in enumerate(inputs):
        own = learner[i] if i < len(learner) else None
        if own and own.isidentifier():
            chosen[sym] = own
    if result and result.isidentifier():
        chosen["z"] = result
    taken = list(chosen.values())
    kept = {k: v for k, v in chosen.items()
            if taken.count(v) == 1 and v not in words and v not in base.values()}
    if len(kept) < len(chosen):  # a clash: PyTorch's names for the inputs, the learner's for z
        kept = {"z": kept["z"]} if "z" in kept else {}
    names.update(kept)
    names.setdefault("z", "result")
    if len(set(names.values())) < len(names):  # still two operands with one name: symbols
        return {k: k for k in names}
    return names


def rename(text: str, names: dict) -> str:
    """``text`` with every symbol of ``names`` replaced (not the article "a", not after a dot:
    ``B.T`` becomes ``mat2.T``, ``grad.T`` stays)."""
    if not names:
        return text
    return _rename(text, tuple(sorted(names.items())))


@lru_cache(maxsize=4096)
def _rename(text: str, pairs: tuple) -> str:
    names = dict(pairs)
    articles = {m.start() for m in _ARTICLE.finditer(text)}
    return _TOKEN.sub(lambda m: m.group() if m.start() in articles
                      else names.get(m.group(), m.group()), text)
