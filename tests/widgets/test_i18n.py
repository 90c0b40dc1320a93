"""English and Chinese: one catalogue, every key in both, and no English left in a Chinese
stepper."""

from __future__ import annotations

import re
import string

import minigrad_widgets
import pytest
from helpers import custom_functions, english_words
from minigrad_widgets import BackwardStepper
from minigrad_widgets.i18n import CATALOGUE, EN, ZH, get_language, set_language, t

import minigrad as mg

MulConstantWrong, TwoGrads = (custom_functions(mg)[name] for name in ("MulConstantWrong", "TwoGrads"))


def _fields(text: str) -> set:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_is_in_both_languages_with_the_same_placeholders():
    assert set(EN) == set(ZH)
    for key in EN:
        assert EN[key].strip() and ZH[key].strip(), key
        assert _fields(EN[key]) == _fields(ZH[key]), key


def test_chinese_strings_are_chinese():
    untranslated = [k for k in ZH if ZH[k] == EN[k] and re.search("[A-Za-z]{4}", EN[k])]
    assert untranslated == []


def test_set_language_changes_the_default_and_lang_overrides_it():
    assert get_language() == "en"
    minigrad_widgets.set_language("zh")
    try:
        x = mg.tensor(2., requires_grad=True)
        assert BackwardStepper(x * x).labels["step"] == "单步"
        assert BackwardStepper(x * x, lang="en").labels["step"] == "Step"
    finally:
        set_language("en")
    assert BackwardStepper(x * x).counter == "step 0 / 2"


def test_an_unknown_language_is_refused_with_the_choices():
    x = mg.tensor(2., requires_grad=True)
    with pytest.raises(ValueError, match="lang must be one of en, zh, got 'fr'"):
        BackwardStepper(x * x, lang="fr")
    with pytest.raises(ValueError, match="lang must be one of en, zh"):
        set_language("fr")


def _zh_outputs() -> list[str]:
    """Everything a Chinese learner reads in several situations: text forms, labels, counters."""
    out = []

    def seen(stepper):
        out.append(repr(stepper))
        out.extend(stepper.labels.values())
        out.append(stepper.counter)
        out.append(stepper.note)

    x = mg.tensor([1., 2.], requires_grad=True)
    w = mg.tensor([3., 4.], requires_grad=True)
    y = x * w
    s = BackwardStepper((y * y + x).sum(), names={"x": x, "w": w, "y": y}, lang="zh",
                        predict=True, check="all")
    seen(s)
    for guess in ("x", "AddBackward0", "SumBackward0", "y", "w", "x", "w"):
        s.predict(guess)
        seen(s)
    a = mg.tensor([0., 2.], requires_grad=True)
    s = BackwardStepper(MulConstantWrong.apply(a.sqrt(), 5).sum(), lang="zh", check=True)
    s.run(until="nonfinite")
    seen(s)
    s.run()
    seen(s)
    s = BackwardStepper(TwoGrads.apply(a * 1.0).sum(), lang="zh")
    s.run()
    rest = dict(s.panel)
    rest["sections"] = [dict(sec, lines=[ln for ln in sec["lines"] if "Error:" not in ln])
                        for sec in s.panel["sections"]]
    out.append("\n".join(minigrad_widgets.text.panel_text(rest)))
    out.append(s.counter)
    y = (a * a).sum()
    y.backward()
    seen(BackwardStepper(y, lang="zh"))
    return out


def test_a_chinese_stepper_shows_no_untranslated_string():
    leftovers = set()
    for text in _zh_outputs():
        leftovers |= english_words(text)
    assert leftovers == set()


def test_the_scan_above_would_catch_an_english_string(monkeypatch):
    monkeypatch.setitem(CATALOGUE["zh"], "panel.rule", "Chain rule")
    leftovers = set()
    for text in _zh_outputs():
        leftovers |= english_words(text)
    assert {"Chain", "rule"} <= leftovers


def test_the_string_function_fills_in_values():
    assert t("counter.failed", "zh", index=3, total=7) == "在第 3 步出错（共 7 步）"
    assert t("counter.failed", "en", index=3, total=7) == "failed at step 3 of 7"
