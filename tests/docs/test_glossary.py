"""One term per widget and per idea: the glossary pages (docs/glossary.md, docs/zh/glossary.md)
are the list, and the lessons and the widgets' catalogue use only their terms.

Each page has a table ``| key | term | other language | avoid | meaning |``. The words under
*avoid* must not appear in that language's lesson text (the ``<<< en`` / ``<<< zh`` blocks of
notebooks/_source, and the Chinese strings of ``<<< strings zh`` blocks) or catalogue. A
``button.`` key is the catalogue's key: its term is the label the widget shows, so a Chinese
lesson names the buttons by the labels a Chinese learner sees.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from minigrad_widgets.i18n import CATALOGUE

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "notebooks"))

import build  # noqa: E402

PAGES = {"en": REPO / "docs" / "glossary.md", "zh": REPO / "docs" / "zh" / "glossary.md"}
SPLIT = re.compile(r"\s*[;；、]\s*")


def glossary(lang: str) -> dict[str, dict]:
    """key -> {"term", "other", "avoid"} from the table of the glossary page in ``lang``."""
    rows = {}
    lines = [ln for ln in PAGES[lang].read_text(encoding="utf-8").splitlines()
             if ln.startswith("| ")]
    assert lines[0].startswith("| key |"), f"{PAGES[lang]}: the table starts with a key column"
    for line in lines[1:]:
        key, term, other, avoid, _meaning = (c.strip() for c in line.strip().strip("|").split("|"))
        assert key not in rows, f"{PAGES[lang]}: {key} twice"
        rows[key] = {"term": term, "other": other,
                     "avoid": [w for w in SPLIT.split(avoid) if w]}
    return rows


def lesson_texts(lang: str) -> list[tuple[str, str]]:
    """(where, text) of every piece of lesson text in ``lang``, the Chinese printed strings too."""
    out = []
    for source in build.sources():
        for block in build.parse(source):
            where = f"{source.name}:{block.line}"
            if block.kind == lang:
                out.append((where, block.text))
            elif lang == "zh" and block.zh:
                out += [(where, new) for _, new in block.zh]
    return out


def _without_code(text: str) -> str:
    """Markdown without code (fenced blocks, inline spans): names in code are code."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    return re.sub(r"`[^`\n]*`", " ", text)


def uses(text: str, word: str, lang: str) -> bool:
    """Whether ``text`` uses ``word``: an ASCII word as a whole word outside code; Chinese
    anywhere, also across a line break (Chinese paragraphs break lines inside words)."""
    if word.isascii():
        return re.search(rf"(?<![\w.]){re.escape(word)}(?![\w(])", _without_code(text)) is not None
    return word in (text.replace("\n", "") if lang == "zh" else text)


def offenders(texts, rows, lang) -> list[str]:
    return [f"{where}: {word!r} (say {row['term']!r}, glossary key {key})"
            for where, text in texts for key, row in rows.items() for word in row["avoid"]
            if uses(text, word, lang)]


def test_both_glossaries_list_the_same_keys_and_name_each_other():
    en, zh = glossary("en"), glossary("zh")
    assert list(en) == list(zh)
    for key in en:
        assert en[key]["other"] == zh[key]["term"], key
        assert zh[key]["other"] == en[key]["term"], key


def test_the_glossary_has_the_widgets_and_ideas_the_course_names():
    keys = set(glossary("en"))
    assert {"widget.stepper", "widget.graphview", "button.reset", "button.back", "button.step",
            "button.run", "button.play", "idea.leaf", "idea.graph", "idea.paths_meet",
            "idea.accumulation", "idea.node", "idea.edge", "idea.input_buffer",
            "idea.ready_queue", "idea.snapshot", "idea.prediction_quiz"} <= keys
    zh = glossary("zh")
    assert zh["widget.stepper"]["term"] == "单步执行器"
    assert zh["idea.leaf"]["term"] == "叶子节点" and zh["idea.graph"]["term"] == "计算图"
    assert zh["idea.paths_meet"]["term"] == "多路径梯度相加"
    assert zh["idea.accumulation"]["term"] == "梯度累加"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_buttons_are_named_as_the_widget_shows_them(lang):
    buttons = {k: row for k, row in glossary(lang).items() if k.startswith("button.")}
    assert buttons
    for key, row in buttons.items():
        assert row["term"] == CATALOGUE[lang][key], key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lessons_use_only_the_glossary_terms(lang):
    assert offenders(lesson_texts(lang), glossary(lang), lang) == []


def doc_pages(lang: str) -> list[tuple[str, str]]:
    """(path, text) of the hand-written docs pages in ``lang``, the glossaries left out."""
    docs = REPO / "docs"
    pages = [p for p in docs.rglob("*.md") if "_build" not in p.parts and p.name != "glossary.md"
             and ("zh" in p.relative_to(docs).parts) == (lang == "zh")]
    return [(str(p.relative_to(REPO)), p.read_text(encoding="utf-8")) for p in sorted(pages)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_docs_and_the_teachers_kit_use_only_the_glossary_terms(lang):
    pages = doc_pages(lang)
    assert any("teachers" in path for path, _ in pages)
    assert offenders(pages, glossary(lang), lang) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_widget_catalogue_uses_only_the_glossary_terms(lang):
    texts = list(CATALOGUE[lang].items())
    assert offenders(texts, glossary(lang), lang) == []


def test_the_chinese_lessons_name_the_stepper_and_its_buttons_in_chinese():
    zh = glossary("zh")
    text = "".join(t for _, t in lesson_texts("zh"))
    assert zh["widget.stepper"]["term"] in text
    assert any(f"**{zh[k]['term']}**" in text or f"“{zh[k]['term']}”" in text
               for k in ("button.reset", "button.back", "button.step"))


def test_the_check_catches_a_variant_and_an_english_button_name():
    rows = glossary("zh")
    texts = [("a", "用单步器看看"), ("b", "**Back** 撤销一步"), ("c", "逐步执\n行器"),
             ("d", "调用 `stepper.back()` 或 `Back`"), ("e", "单步执行器的“后退”按钮")]
    found = offenders(texts, rows, "zh")
    assert [f.split(":")[0] for f in found] == ["a", "b", "c"]
    assert offenders([("f", "two gradients summed (梯度累加)")], rows, "zh") == []
    assert offenders([("g", "2 个梯度相加（梯度累加）")], rows, "zh") != []
