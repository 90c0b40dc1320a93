"""How a lesson defines its exercises: one module per lesson, ``_course/exercises/lNN.py``.

An exercise whose answer is a value names the kind of value and the fingerprint of the right
one (:mod:`_course.answers`; ``Number.of("L1.step", 0.01, digits=3)`` makes the line)::

    exercise("L1.step", expect=Number("…", digits=3),
             hints=[Text(en="a nudge", zh="…"), Text(en="a stronger hint", zh="…")],
             wrong=[(1e-12, Text(en="why this typical answer is wrong", zh="…"))],
             right=Text(en="said after a right answer", zh="…"))

An exercise judged by a property (a class that passes gradcheck, a finished quiz) decorates
its judge instead; the judge returns True (right), False (think again, with the next hint)
or a :class:`Text` (think again, with that message)::

    @exercise("L7.square", hints=[...], wrong=[(make_wrong_class, Text(...))])
    def square(answer): ...

``hints`` go from a nudge to a stronger hint: each wrong answer without a message of its own
gets the next one, and after the last, ``check(id, answer, show=True)`` shows the solution.
``wrong`` pairs each typical wrong answer (a value, or a function that makes it) with what
the learner is told; for a value the checker finds the message itself, a judge must return
it. Tests check every pair, in both languages. No hint, message or module holds a right
answer in readable form (a test builds the hand-out and searches it).
Exercise ids are ``L<lesson>.<name>``; ``L<n>`` is looked up in module ``exercises/l<nn>.py``.
"""

from __future__ import annotations

import importlib
import re
import sys
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
    hints: tuple[Text, ...]
    wrong: list[tuple[object, Text]]
    expect: object = None                   # an answers.Expected, or None with a judge
    judge: Callable[[object], bool | Text] | None = None
    right: Text | None = None
    module: str = ""                        # where it is defined: _course.exercises.lNN
    misses: int = field(default=0, compare=False)  # wrong answers given a hint, this session

    def wrong_answers(self) -> list[tuple[object, Text]]:
        """The typical wrong answers, made now (functions among them are called), with
        their messages."""
        return [(w() if callable(w) else w, message) for w, message in self.wrong]


EXERCISES: dict[str, Exercise] = {}


def _checked(exercise_id, hints, wrong, right) -> tuple[tuple[Text, ...], list]:
    if not ID.match(exercise_id):
        raise ValueError(f"exercise ids look like 'L3.order', got {exercise_id!r}")
    hints = tuple(hints)
    if len(hints) < 2 or not all(isinstance(h, Text) for h in hints):
        raise ValueError(f"{exercise_id}: give at least two hints, a nudge then a stronger "
                         "one: hints=[Text(en=..., zh=...), Text(en=..., zh=...)]")
    wrong = list(wrong)
    if not wrong or not all(isinstance(w, tuple) and len(w) == 2 and isinstance(w[1], Text)
                            for w in wrong):
        raise ValueError(f"{exercise_id}: give each typical wrong answer with what the learner "
                         "is told: wrong=[(answer, Text(en=..., zh=...)), ...]")
    if right is not None and not isinstance(right, Text):
        raise TypeError(f"{exercise_id}: right must be a Text")
    return hints, wrong


def exercise(exercise_id: str, *, hints, wrong, right: Text | None = None, expect=None):
    """Registers an exercise: at once if ``expect`` is given, else the decorated judge."""
    hints, wrong = _checked(exercise_id, hints, wrong, right)
    if expect is not None:
        module = sys._getframe(1).f_globals.get("__name__", "")
        EXERCISES[exercise_id] = Exercise(exercise_id, hints, wrong, expect=expect, right=right,
                                          module=module)
        return EXERCISES[exercise_id]

    def register(judge):
        EXERCISES[exercise_id] = Exercise(exercise_id, hints, wrong, judge=judge, right=right,
                                          module=judge.__module__)
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
