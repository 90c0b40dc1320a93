"""One node type's local rule (see :mod:`minigrad.autograd.derivatives`).

>>> rule = _r("z = a * c  (c a number)", {"c": "other"}, a="grad * c")
>>> rule.lines()
['z = a * c  (c a number)', 'grad_a = grad * c']
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Rule"]


@dataclass(frozen=True)
class Rule:
    """The local rule of one node type (see the module docstring)."""

    forward: str
    grads: dict  # input symbol -> rule (in next_functions order); "*" marks any number of them
    symbols: dict = field(default_factory=dict)  # symbol -> saved name: node._saved_<name>
    words: bool = False  # the rules are words, not NumPy expressions
    np: dict = field(default_factory=dict)  # a NumPy spelling of a rule, where it differs
    numbers: tuple = ()  # symbols that are no tensors (numbers, sizes, dims): read as they are
    note: str = ""  # a short explanation the panel shows after the formula

    @property
    def variadic(self) -> bool:
        return "*" in self.grads

    def lines(self) -> list[str]:
        """The rule as text: the forward, then one ``grad_<input> = ...`` line per input."""
        return [self.forward] + [f"grad_{k} = {v}" if k != "*" else f"grad of each input = {v}"
                                 for k, v in self.grads.items()]


def _r(forward: str, symbols=None, *, words=False, np=None, numbers=(), note="",
       **grads) -> Rule:
    if isinstance(numbers, str):
        numbers = tuple(numbers.split())
    return Rule(forward, grads, dict(symbols or {}), words, dict(np or {}), tuple(numbers), note)
