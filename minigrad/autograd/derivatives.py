"""Every node type's local rule, read from the node classes that declare them (PyTorch keeps
the same facts in ``tools/autograd/derivatives.yaml``).

Each node class declares its rule beside its ``backward``, e.g. ``MulBackward0`` in
``minigrad/_ops/arithmetic.py``::

    rule = _r("z = a * b", {"a": "self", "b": "other"}, a="grad * b", b="grad * a")

the forward op (``z = a * b``), the gradient each input gets from the incoming gradient
``grad`` (``grad_a = grad * b``: one rule per entry of ``next_functions``, in order), and where
each symbol lives on the node: ``b`` is ``node._saved_other``. ``RULES`` is made from those
declarations (nothing is written here), keyed by node name; the stepper of
``minigrad_widgets`` shows the rules with the step's numbers put in
(:mod:`minigrad.autograd.evaluate`), for minigrad's graphs and, by node name, for PyTorch's.

>>> rule = RULES["MulBackward0"]
>>> rule.forward, rule.grads, rule.symbols
('z = a * b', {'a': 'grad * b', 'b': 'grad * a'}, {'a': 'self', 'b': 'other'})
"""

from __future__ import annotations

from collections.abc import Mapping

from ._rule import Rule, _r

__all__ = ["Rule", "RULES", "CUSTOM", "rule_for", "node_classes", "class_name"]


#: The rule shown for the node of a custom ``Function``: its own ``backward``.
CUSTOM = _r("z = YourFunction.forward(ctx, ...)", words=True,
            **{"*": "your backward(ctx, grad) returns it"})


def rule_for(node) -> Rule | None:
    """The rule of a graph node: a minigrad node's own class's ``rule``; for a PyTorch node,
    the rule of minigrad's node class of the same name; ``CUSTOM`` for a custom ``Function``'s
    node; None for a name minigrad does not know."""
    if hasattr(node, "_forward_cls"):
        return CUSTOM
    rule = getattr(type(node), "rule", None)
    return rule if isinstance(rule, Rule) else RULES.get(node.name())


class _Rules(Mapping):
    """Node name -> the ``rule`` its class declares; collected from the classes on first use
    (after ``import minigrad`` has defined them all)."""

    _table: dict | None = None

    def _rules(self) -> dict:
        if self._table is None:
            table = {}
            for cls in node_classes():
                rule = cls.__dict__.get("rule")
                if isinstance(rule, Rule):
                    table.setdefault(class_name(cls), rule)
            type(self)._table = table
        return self._table

    def __getitem__(self, name: str) -> Rule:
        return self._rules()[name]

    def __iter__(self):
        return iter(self._rules())

    def __len__(self) -> int:
        return len(self._rules())


RULES: Mapping[str, Rule] = _Rules()


def node_classes() -> list:
    """Every built-in node class of minigrad (custom Functions' node classes and private base
    classes such as ``_Binary`` excluded)."""
    from .graph import Node

    seen, stack = {}, [Node]
    while stack:
        for sub in stack.pop().__subclasses__():
            if sub not in seen:
                seen[sub] = None
                stack.append(sub)
    return [c for c in seen if not (c._custom and "_forward_cls" in c.__dict__)
            and not class_name(c).startswith("_")]  # a private base (_Unary): not a node type


def class_name(cls) -> str:
    """The name a node of class ``cls`` gives itself (``name()``), without making one."""
    node = object.__new__(cls)
    try:
        return node.name()
    except Exception:  # noqa: BLE001 - a name() that needs state: the class name it is
        return cls.__name__
