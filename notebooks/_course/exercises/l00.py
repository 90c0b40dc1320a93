"""A demonstration exercise for the checker's own doctests (not part of any lesson)."""

from __future__ import annotations

from ..registry import Text, exercise


@exercise("L0.demo", hint=Text(en="six times seven.", zh="六乘以七。"), wrong=[41, "42"])
def demo(answer):
    return answer == 42 and not isinstance(answer, str)
