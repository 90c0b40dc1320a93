"""Reading a learner's answer, and judging it against a fingerprint instead of the answer.

An answer may be a Python number or list, a string of a number, a NumPy array, a minigrad
tensor or a real PyTorch tensor (the lessons also run on PyTorch), so nothing here imports
either library. One rule for every exercise whose answer is a number: an ``int`` or
``float``, a string of one (``"7"``, ``"1e-3"``), or a tensor or array holding one number
(a 0-d tensor) are all read the same way; ``True`` and ``False`` are not numbers here.

The expected answers are not stored: an exercise keeps the SHA-256 of a canonical form of
its answer (the values rounded to a few significant digits, with the exercise id as salt),
so that opening ``_course/`` does not give the solution away. :meth:`Expected.of` makes
the line to paste into an exercise module:

>>> Number.of("L0.demo", 45, digits=4)
'Number("cc0f01c18a28f971df9666c8", digits=4)'
>>> expect = Number("cc0f01c18a28f971df9666c8", digits=4)
>>> [expect.matches("L0.demo", a) for a in (45, "45", 45.0001, "44", " 4.5e1 ")]
[True, True, True, False, True]
"""

from __future__ import annotations

import hashlib
import itertools
import math

import numpy as np

from .registry import Text

__all__ = ["Unreadable", "is_tensor", "array", "number", "close", "node_names",
           "fingerprint", "Expected", "Number", "Values", "Word", "Names", "Choice", "Flags"]

ONE_NUMBER = Text(en="Give one number (such as 7, 0.5 or \"2.5e-3\"), or a tensor holding one.",
                  zh="请给出一个数（例如 7、0.5 或 \"2.5e-3\"），或者只含一个数的张量。")
NUMBERS = Text(en="Give numbers: a list such as [1.0, 2.0], or a tensor.",
               zh="请给出一组数：例如列表 [1.0, 2.0]，或者一个张量。")
A_WORD = Text(en="Give a name as a string, such as \"AddBackward0\".",
              zh="请用字符串给出一个名字，例如 \"AddBackward0\"。")


class Unreadable(ValueError):
    """The answer is not of the kind asked for (a list where one number is wanted...)."""

    def __init__(self, message: Text):
        super().__init__(message.en)
        self.message = message


def is_tensor(answer) -> bool:
    """A minigrad or PyTorch tensor."""
    return hasattr(answer, "grad_fn") and hasattr(answer, "requires_grad")


def _plain(answer):
    """Tensors (also inside lists and tuples) as nested lists of floats."""
    if is_tensor(answer):
        return answer.detach().tolist()
    if isinstance(answer, (list, tuple)):
        return [_plain(a) for a in answer]
    return answer


def array(answer) -> np.ndarray:
    """The answer's values as a float NumPy array (a list, a tuple of tensors, a tensor)."""
    if answer is None or isinstance(answer, (str, bytes, bool, dict, set)):
        raise Unreadable(NUMBERS)
    try:
        return np.asarray(_plain(answer), dtype=float)
    except (TypeError, ValueError):
        raise Unreadable(NUMBERS) from None


def number(answer) -> float:
    """The answer as one float: a number, a string of a number, or a one-number tensor."""
    if isinstance(answer, (bool, np.bool_)) or answer is None:
        raise Unreadable(ONE_NUMBER)
    if isinstance(answer, str):
        try:
            return float(answer.strip().replace("_", ""))
        except ValueError:
            raise Unreadable(ONE_NUMBER) from None
    try:
        values = np.asarray(_plain(answer), dtype=float)
    except (TypeError, ValueError):
        raise Unreadable(ONE_NUMBER) from None
    if values.size != 1:
        raise Unreadable(ONE_NUMBER)
    return float(values.reshape(()))


def close(answer, expected, *, tol: float = 1e-4) -> bool:
    """Same shape, and every value within ``tol`` (relative and absolute) of ``expected``.

    >>> close([1.0, 2.0], [1.0, 2.00001]), close(3, [3.0])
    (True, False)
    """
    got, want = array(answer), np.asarray(expected, dtype=float)
    return got.shape == want.shape and bool(np.allclose(got, want, rtol=tol, atol=tol))


def node_names(answer) -> list[str]:
    """A list of node names, from strings or from nodes (``grad_fn`` objects)."""
    return [a if isinstance(a, str) else a.name() for a in answer]


def fingerprint(exercise_id: str, canonical: str) -> str:
    """The stored form of an answer: 24 hex digits of SHA-256, salted with the exercise id."""
    return hashlib.sha256(f"{exercise_id}|{canonical}".encode()).hexdigest()[:24]


def _rounded(x: float, digits: int) -> str:
    """``x`` to ``digits`` significant digits, one spelling for every way of writing it."""
    if x == 0 or not math.isfinite(x):
        return f"{0.0 if x == 0 else x:.{digits - 1}e}"
    return f"{x:.{digits - 1}e}"


def _near(x: float, digits: int) -> list[str]:
    """The rounded form of ``x`` and of its neighbours a little under one last digit away, so
    that a value on the edge of a rounding step (11.99999 for 12) is not judged wrong."""
    step = 0.45 * 10.0 ** (-(digits - 1))
    return list(dict.fromkeys(_rounded(v, digits) for v in (x, x * (1 - step), x * (1 + step))))


def _tuple_forms(values: np.ndarray, digits: int) -> list[str]:
    flat = [float(v) for v in values.reshape(-1)]
    spellings = ([_near(v, digits) for v in flat] if len(flat) <= 6
                 else [[_rounded(v, digits)] for v in flat])
    return [",".join(c) for c in itertools.product(*spellings)]


class Expected:
    """What a right answer looks like, kept as a fingerprint (see :func:`fingerprint`)."""

    def __init__(self, digest: str):
        self.digest = digest

    def read(self, answer):
        """The answer in this kind's terms; raises :class:`Unreadable` if it is not one."""
        raise NotImplementedError

    def forms(self, value) -> list[str]:
        """Canonical spellings of a read answer (more than one near a rounding edge)."""
        raise NotImplementedError

    def matches(self, exercise_id: str, answer) -> bool:
        return any(fingerprint(exercise_id, f) == self.digest
                   for f in self.forms(self.read(answer)))

    def same(self, a, b) -> bool:
        """Two answers spelled the same way (a learner's and a typical wrong one)."""
        return bool(set(self.forms(self.read(a))) & set(self.forms(self.read(b))))

    def _args(self) -> str:
        return ""

    @classmethod
    def of(cls, exercise_id: str, answer, **options) -> str:
        """The line that declares ``answer`` as the expected one (for an exercise module)."""
        kind = cls("", **options)
        digest = fingerprint(exercise_id, kind.forms(kind.read(answer))[0])
        return f'{cls.__name__}("{digest}"{kind._args()})'


class Number(Expected):
    """One number, to ``digits`` significant digits."""

    def __init__(self, digest: str, *, digits: int = 4):
        super().__init__(digest)
        self.digits = digits

    def read(self, answer):
        return number(answer)

    def forms(self, value):
        return _near(value, self.digits)

    def _args(self):
        return f", digits={self.digits}"


class Values(Expected):
    """An array of numbers of a given shape (the shape is no secret: it is in the question)."""

    def __init__(self, digest: str, *, shape: tuple, digits: int = 4):
        super().__init__(digest)
        self.shape, self.digits = tuple(shape), digits

    def read(self, answer):
        values = array(answer)
        if values.shape != self.shape:
            raise Unreadable(Text(
                en=f"The answer has shape {self.shape} ({int(np.prod(self.shape))} numbers); "
                   f"yours has shape {values.shape}.",
                zh=f"答案的形状是 {self.shape}（{int(np.prod(self.shape))} 个数）；"
                   f"你的答案形状是 {values.shape}。"))
        return values

    def forms(self, values):
        return [f"{self.shape}:{c}" for c in _tuple_forms(values, self.digits)]

    def same(self, a, b) -> bool:
        """Same shape and the same rounded values (either may have a shape of its own)."""
        got, want = array(a), array(b)
        return got.shape == want.shape and bool(set(
            _tuple_forms(got, self.digits)) & set(_tuple_forms(want, self.digits)))

    def _args(self):
        return f", shape={self.shape}, digits={self.digits}"


class Word(Expected):
    """A name: a string (spaces around it ignored), or a node whose ``name()`` it is."""

    def read(self, answer):
        if isinstance(answer, str):
            return answer.strip()
        if callable(getattr(answer, "name", None)):
            return answer.name()
        raise Unreadable(A_WORD)

    def forms(self, value):
        return [value]


class Names(Expected):
    """A set of names: a list of strings, in any order."""

    def read(self, answer):
        if isinstance(answer, str) or not hasattr(answer, "__iter__"):
            raise Unreadable(Text(en='Give a list of names, e.g. ["a"].',
                                  zh='请给出名字组成的列表，例如 ["a"]。'))
        return sorted({str(a).strip() for a in answer})

    def forms(self, value):
        return [",".join(value)]


class Choice(Expected):
    """One of the lettered options of a multiple-choice question: "B", "b" or "(b)"."""

    def __init__(self, digest: str, *, options: str = "abcd"):
        super().__init__(digest)
        self.options = options

    def read(self, answer):
        letter = answer.strip().strip("()").lower() if isinstance(answer, str) else None
        if letter is None or len(letter) != 1 or letter not in self.options:
            letters = ", ".join(f'"{o.upper()}"' for o in self.options)
            raise Unreadable(Text(en=f"Answer with one letter: {letters}.",
                                  zh=f"请用一个字母作答：{letters}。"))
        return letter

    def forms(self, value):
        return [value]

    def _args(self):
        return f', options="{self.options}"'


class Flags(Expected):
    """A tuple of ``n`` True/False values."""

    def __init__(self, digest: str, *, n: int):
        super().__init__(digest)
        self.n = n

    def read(self, answer):
        flags = tuple(answer) if isinstance(answer, (tuple, list)) else None
        if flags is None or len(flags) != self.n or not all(
                isinstance(f, (bool, np.bool_)) for f in flags):
            raise Unreadable(Text(en=f"Give {self.n} values, each True or False.",
                                  zh=f"请给出 {self.n} 个值，每个是 True 或 False。"))
        return "".join("T" if f else "F" for f in flags)

    def forms(self, value):
        return [value]

    def _args(self):
        return f", n={self.n}"
