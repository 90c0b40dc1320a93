"""The course's exercise checker, shared by the English and Chinese lessons.

A lesson's first code cell says ``from course import check``; ``course.py`` (one per lesson
folder, written by ``notebooks/build.py``) sets the language and re-exports :func:`check`
from here. An exercise cell ends with ``check("L3.order", answer)``, which prints whether the
answer is right or, in the lesson's language, what to think about: a typical wrong answer
gets a message of its own; any other wrong answer gets the exercise's next hint, from a
nudge to a stronger hint. The solution is shown only on request,
``check("L3.order", answer, show=True)``, and only where the lesson sources are (the
repository; the hand-out made by ``make student`` has none).

Each lesson defines its exercises in its own module, ``_course/exercises/lNN.py`` (see
:mod:`_course.registry` for how), imported the first time one of its exercises is checked.

>>> set_language("en")
>>> check("L0.demo", ...)
✏️ L0.demo: not answered yet. Replace the ... with your answer, then run this cell again.
>>> check("L0.demo", 44)
❌ L0.demo: think again. 44 is one short.
>>> check("L0.demo", 40)
❌ L0.demo: think again. Hint 1 of 2: what is five times nine?
>>> check("L0.demo", 40)
❌ L0.demo: think again. Hint 2 of 2: 5 × 9 = ... Still stuck? check(...) shows the solution.
>>> check("L0.demo", "45")
✅ L0.demo: right!
>>> check("L0.demo", [4, 2])
❌ L0.demo: that is not an answer of the right kind. Give one number (such as ...
>>> set_language("zh")
>>> check("L0.demo", 44)
❌ L0.demo：再想想。44 差了一点。
>>> set_language("en")
"""

from __future__ import annotations

import re
from pathlib import Path

from .answers import Unreadable
from .registry import EXERCISES, Exercise, Text, exercise, lookup

__all__ = ["check", "judge", "solution", "set_language", "get_language", "Text", "exercise",
           "EXERCISES"]

LANGUAGES = ("en", "zh")
_language = ["en"]
SOURCES = Path(__file__).resolve().parent.parent / "_source"  # absent from the hand-out

MESSAGES = {
    "en": {
        "todo": "✏️ {id}: not answered yet. Replace the ... with your answer, "
                "then run this cell again.",
        "right": "✅ {id}: right!",
        "wrong": "❌ {id}: think again.",
        "kind": "❌ {id}: that is not an answer of the right kind.",
        "hint": " Hint {n} of {total}: ",
        "stuck": " Still stuck? check(\"{id}\", answer, show=True) shows the solution.",
        "solution": "Solution of {id} (from the solutions notebook):",
        "no_solution": "{id}: this copy of the course has no solutions; your teacher has "
                       "them (the solutions notebooks).",
    },
    "zh": {
        "todo": "✏️ {id}：还没有作答。把 ... 换成你的答案，再运行这个单元格。",
        "right": "✅ {id}：答对了！",
        "wrong": "❌ {id}：再想想。",
        "kind": "❌ {id}：答案的类型不对。",
        "hint": "提示（{n}/{total}）：",
        "stuck": "还是想不出来？运行 check(\"{id}\", answer, show=True) 查看参考答案。",
        "solution": "{id} 的参考答案（与参考答案笔记本相同）：",
        "no_solution": "{id}：这份课程材料不含参考答案；参考答案笔记本在老师那里。",
    },
}
_SPACE = {"en": " ", "zh": ""}


def set_language(lang: str) -> None:
    """Sets the language of the checker's messages and, where they support it, the widgets'."""
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    _language[0] = lang
    try:
        import minigrad_widgets
    except ImportError:  # the lessons that draw nothing still work without the widgets
        return
    widgets_set = getattr(minigrad_widgets, "set_language", None)
    if widgets_set is None:
        try:
            from minigrad_widgets.i18n import set_language as widgets_set
        except ImportError:
            return
    widgets_set(lang)


def get_language() -> str:
    """The language the checker speaks (``"en"`` or ``"zh"``)."""
    return _language[0]


def _verdict(ex: Exercise, answer) -> bool | Text | Unreadable:
    """True, False (no message of its own), a Text, or the Unreadable raised reading it."""
    if ex.expect is not None:
        unreadable = None
        try:
            if ex.expect.matches(ex.id, answer):
                return True
        except Unreadable as exc:
            unreadable = exc
        for wrong, message in ex.wrong:
            try:
                if not callable(wrong) and ex.expect.same(answer, wrong):
                    return message
            except Unreadable:
                continue
        return unreadable or False
    try:
        return ex.judge(answer)
    except Unreadable as exc:
        return exc
    except Exception:  # an answer the judge cannot use (a string for a class...) is wrong
        return False


def judge(exercise_id: str, answer, *, lang: str | None = None,
          misses: int = 0) -> tuple[bool | None, str]:
    """``(verdict, message)``: True if right, False if not, None if not answered (``...``).
    ``misses`` is how many hints the learner has had: a wrong answer gets the next one."""
    verdict, message, _ = _judged(lookup(exercise_id), answer, lang or _language[0], misses)
    return verdict, message


def _judged(ex: Exercise, answer, lang: str, misses: int) -> tuple[bool | None, str, bool]:
    """(verdict, message, whether a hint was given)."""
    words = MESSAGES[lang]
    if answer is Ellipsis:
        return None, words["todo"].format(id=ex.id), False
    verdict = _verdict(ex, answer)
    if verdict is True:
        extra = ex.right.get(lang) if ex.right else ""
        return True, words["right"].format(id=ex.id) + (f" {extra}" if extra else ""), False
    if isinstance(verdict, Unreadable):
        return False, words["kind"].format(id=ex.id) + _SPACE[lang] + \
            verdict.message.get(lang), False
    if isinstance(verdict, Text):
        return False, words["wrong"].format(id=ex.id) + _SPACE[lang] + verdict.get(lang), False
    n = min(misses + 1, len(ex.hints))
    message = words["wrong"].format(id=ex.id) + \
        words["hint"].format(n=n, total=len(ex.hints)) + ex.hints[n - 1].get(lang)
    if n == len(ex.hints):
        message += words["stuck"].format(id=ex.id)
    return False, message, True


def solution(exercise_id: str) -> str | None:
    """The solution cell of an exercise, from its lesson's source; None in the hand-out."""
    match = re.match(r"L(\d+)\.", exercise_id)
    lesson = int(match.group(1)) if match else -1
    for source in sorted(SOURCES.glob(f"{lesson:02d}_*.md")) if SOURCES.is_dir() else ():
        text = source.read_text(encoding="utf-8")
        found = re.search(rf"^<<< solution {re.escape(exercise_id)}\n(.*?)(?=^<<< |\Z)",
                          text, re.S | re.M)
        if found:
            return found.group(1).strip("\n")
    return None


def check(exercise_id: str, answer=..., *, show: bool = False) -> None:
    """Prints whether ``answer`` solves exercise ``exercise_id``, in the lesson's language;
    ``show=True`` prints the solution instead (where the course has its solutions)."""
    lang, ex = _language[0], lookup(exercise_id)
    if show:
        code = solution(exercise_id)
        words = MESSAGES[lang]
        print(words["no_solution"].format(id=exercise_id) if code is None
              else words["solution"].format(id=exercise_id) + "\n\n" + code)
        return
    verdict, message, hinted = _judged(ex, answer, lang, ex.misses)
    ex.misses += hinted
    print(message)
