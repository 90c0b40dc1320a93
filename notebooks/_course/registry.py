"""How a lesson defines its exercises: one module per lesson, ``_course/exercises/lNN.py``.

    from _course.registry import Text, exercise
    from _course.answers import close

    @exercise("L1.slope",
              hint=Text(en="Divide the change in f by the step h.", zh="用 f 的变化量除以步长 h。"),
              right=Text(en="6, as 2·x says at x = 3.", zh="6，正是 2·x 在 x = 3 处的值。"),
              wrong=[9.0, lambda: 5.999])
    def slope(answer):
        return close(answer, 6.0, tol=1e-2)

The judge gets the learner's answer and returns True (right), False (think again, with the
exercise's ``hint``) or a :class:`Text` (think again, with that more specific hint). If it
raises, the answer counts as wrong. ``right`` (optional) is said after a right answer.
``wrong`` lists typical wrong answers (values, or functions that make them) for the tests,
which check that each one is told to think again; the solution notebooks check the right one.
Exercise ids are ``L<lesson>.<name>``; ``L<n>`` is looked up in module ``exercises/l<nn>.py``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Text", "Exercise", "exercise", "lookup", "EXERCISES"]

ID = re.compile(r"^L(\d+)\.[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Text:
    """The same sentence in English and Chinese."""

    en: str
    zh: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass
class Exercise:
    id: str
    judge: Callable[[object], bool | Text]
    hint: Text
    right: Text | None = None
    wrong: list = field(default_factory=list)

    def wrong_answers(self) -> list:
        """The typical wrong answers, made now (functions among them are called)."""
        return [w() if callable(w) else w for w in self.wrong]


EXERCISES: dict[str, Exercise] = {}


def exercise(exercise_id: str, *, hint: Text, right: Text | None = None, wrong=()):
    """Registers the decorated function as the judge of exercise ``exercise_id``."""
    if not ID.match(exercise_id):
        raise ValueError(f"exercise ids look like 'L3.order', got {exercise_id!r}")
    if not wrong:
        raise ValueError(f"{exercise_id}: give at least one typical wrong answer (wrong=[...])")

    def register(judge):
        EXERCISES[exercise_id] = Exercise(exercise_id, judge, hint, right, list(wrong))
        return judge

    return register


def lookup(exercise_id: str) -> Exercise:
    """The exercise ``exercise_id``, importing its lesson's module the first time."""
    match = ID.match(exercise_id)
    if match is None:
        raise ValueError(f"exercise ids look like 'L3.order', got {exercise_id!r}")
    if exercise_id not in EXERCISES:
        module = f"{__package__}.exercises.l{int(match.group(1)):02d}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
    if exercise_id not in EXERCISES:
        raise KeyError(f"no exercise {exercise_id!r}: is it defined in {module}?")
    return EXERCISES[exercise_id]
