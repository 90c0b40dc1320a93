"""The course's exercise checker, shared by the English and Chinese lessons.

A lesson's first code cell says ``from course import check``; ``course.py`` (one per lesson
folder, written by ``notebooks/build.py``) sets the language and re-exports :func:`check`
from here. An exercise cell ends with ``check("L3.order", answer)``, which prints whether the
answer is right, or "think again" with a hint, in the lesson's language.

Each lesson defines its exercises in its own module, ``_course/exercises/lNN.py`` (see
:mod:`_course.registry` for how), imported the first time one of its exercises is checked.

>>> set_language("en")
>>> check("L0.demo", ...)
✏️ L0.demo: not answered yet. Replace the ... with your answer, then run this cell again.
>>> check("L0.demo", 41)
❌ L0.demo: think again. Hint: six times seven.
>>> check("L0.demo", 42)
✅ L0.demo: right!
>>> set_language("zh")
>>> check("L0.demo", 41)
❌ L0.demo：再想想。提示：六乘以七。
"""

from __future__ import annotations

from .registry import EXERCISES, Exercise, Text, exercise, lookup

__all__ = ["check", "judge", "set_language", "get_language", "Text", "exercise", "EXERCISES"]

LANGUAGES = ("en", "zh")
_language = ["en"]

MESSAGES = {
    "en": {
        "todo": "✏️ {id}: not answered yet. Replace the ... with your answer, "
                "then run this cell again.",
        "right": "✅ {id}: right!",
        "wrong": "❌ {id}: think again.",
        "hint": " Hint: ",
    },
    "zh": {
        "todo": "✏️ {id}：还没有作答。把 ... 换成你的答案，再运行这个单元格。",
        "right": "✅ {id}：答对了！",
        "wrong": "❌ {id}：再想想。",
        "hint": "提示：",
    },
}


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


def judge(exercise_id: str, answer, *, lang: str | None = None) -> tuple[bool | None, str]:
    """``(verdict, message)``: True if right, False if not, None if not answered (``...``)."""
    lang = lang or _language[0]
    words = MESSAGES[lang]
    ex: Exercise = lookup(exercise_id)
    if answer is Ellipsis:
        return None, words["todo"].format(id=exercise_id)
    try:
        verdict = ex.judge(answer)
    except Exception:  # an answer of the wrong kind (a string for a tensor...) is just wrong
        verdict = False
    if verdict is True:
        extra = ex.right.get(lang) if ex.right else ""
        return True, words["right"].format(id=exercise_id) + (f" {extra}" if extra else "")
    hint = verdict if isinstance(verdict, Text) else ex.hint
    return False, words["wrong"].format(id=exercise_id) + words["hint"] + hint.get(lang)


def check(exercise_id: str, answer) -> None:
    """Prints whether ``answer`` solves exercise ``exercise_id``, in the lesson's language."""
    print(judge(exercise_id, answer)[1])
