"""Every string the widgets show, in one catalogue per language (English and Simplified Chinese).

``t(key, **values)`` looks a string up in the current language (``set_language("zh")`` sets the
default; each widget's ``lang=`` overrides it) and fills in ``{placeholders}``.

>>> t("button.step", lang="zh")
'单步'
>>> t("button.step", lang="en")
'Step'
"""

from __future__ import annotations

from .strings_en import EN  # the catalogues, one per language
from .strings_zh import ZH

__all__ = ["LANGUAGES", "CATALOGUE", "t", "set_language", "get_language", "front_end_strings"]

LANGUAGES = ("en", "zh")

CATALOGUE = {"en": EN, "zh": ZH}

_default = ["en"]


def set_language(lang: str) -> None:
    """Sets the language of every widget made from now on (``"en"`` or ``"zh"``)."""
    _check(lang)
    _default[0] = lang


def get_language() -> str:
    """The language widgets use when none is given."""
    return _default[0]


def _check(lang: str) -> None:
    if lang not in CATALOGUE:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, got {lang!r}")


def t(key: str, lang: str | None = None, **values) -> str:
    """The string ``key`` in ``lang`` (default: the current language), formatted with ``values``."""
    lang = lang or _default[0]
    _check(lang)
    return CATALOGUE[lang][key].format(**values)


def front_end_strings(lang: str | None = None) -> dict[str, str]:
    """The strings the browser side shows (the ``view.`` ones), for a widget's ``strings``."""
    lang = lang or _default[0]
    _check(lang)
    return {key: text for key, text in CATALOGUE[lang].items() if key.startswith("view.")}
