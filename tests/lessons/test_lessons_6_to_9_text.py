"""Lessons 6 to 9: the two languages keep the same sections, and the tutorials' three wrong
claims are named and corrected where the issue asks (lesson 6: backward after no_grad;
lesson 7: the optional __init__ and the MulConstant whose backward forgets the constant)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "notebooks"))
import build  # noqa: E402

SOURCES = {p.name[:2]: p for p in (ROOT / "notebooks" / "_source").glob("0[6-9]_*.md")}


def _headings(text: str) -> list[str]:
    """Heading levels and section numbers: '## 3.' -> '##3', '## Summary' -> '##'."""
    return [m.group(1) + (m.group(2) or "")
            for m in re.finditer(r"^(#+) *(\d+)?", text, re.M)]


@pytest.mark.parametrize("number", sorted(SOURCES))
def test_each_english_block_and_its_chinese_twin_have_the_same_sections(number):
    blocks = build.parse(SOURCES[number])
    pairs = [(a, b) for a, b in zip(blocks, blocks[1:]) if (a.kind, b.kind) == ("en", "zh")]
    assert len(pairs) >= 10
    for en, zh in pairs:
        assert _headings(en.text) == _headings(zh.text), f"line {en.line}: {en.text[:60]}"


@pytest.mark.parametrize("number, code, english, chinese", [
    ("06", "z.backward()", "computes no gradient", "不会计算任何梯度"),
    ("07", "def __init__(self, constant):", "never called", "根本不会被调用"),
    ("07", "return grad_output, None", "nothing fails, the gradient is wrong", "不报错，但梯度是错的"),
])
def test_the_tutorials_wrong_claims_are_shown_and_corrected(number, code, english, chinese):
    blocks = build.parse(SOURCES[number])
    assert any(b.kind == "code" and code in b.text for b in blocks)
    assert any(b.kind == "en" and english in b.text for b in blocks)
    assert any(b.kind == "zh" and chinese in b.text for b in blocks)


@pytest.mark.parametrize("number", sorted(SOURCES))
def test_the_chinese_lesson_ends_with_a_glossary(number):
    last_zh = [b for b in build.parse(SOURCES[number]) if b.kind == "zh"][-1]
    assert "**术语表**" in last_zh.text and last_zh.text.count("\n|") >= 5
