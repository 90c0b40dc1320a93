"""In a Chinese lesson after Run All, a learner reads no English UI word: not in the widgets'
text forms and HTML, not in the labels the code prints (the stored outputs of every notebook
in notebooks/zh/, the solutions too).

The words looked for are every English word the widgets show (their English catalogue) and
every word of the English strings a lesson's code prints where its Chinese copy prints another
(``<<< strings zh``), plus the words of the lessons' plots. Code is allowed: a word joined to
code (``grad_fn=``, ``tensor(``, ``x.grad``, ``requires_grad``) is a name, not a word; so are
PyTorch's and Python's own messages: error outputs and stderr are not read, a printed
``SomeError: ...`` or ``SomeWarning: ...`` line or ``<...>`` repr is skipped, and so is each
warning the lessons print whose text PyTorch itself gives (asked in :func:`pytorch_messages`).
"""

from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path

import nbformat
import pytest
from helpers import english_ui_words, english_words, html_texts

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "notebooks"))

import build  # noqa: E402

ZH = sorted((REPO / "notebooks" / "zh").glob("*.ipynb")) + \
    sorted((REPO / "notebooks" / "zh" / "solutions").glob("*.ipynb"))
LESSONS = [p for p in ZH if p.stem[:2].isdigit()]
PLOT_WORDS = {"epoch", "training", "with", "without"}
NAMES = {"loss", "minigrad"}  # names: a graph's node is named after its variable
# A word inside code: after a dot, a quote or an identifier character, or before "(", "=",
# "_" or ".name" (``tensor(``, ``grad_fn``, ``x.grad``, ``'name'``, ``Score(right=1)``).
WORD = re.compile(r"(?<![\w.'])[A-Za-z]{3,}(?![\w(=]|\.\w)")
PYTHON_TEXT = re.compile(r"^.*\b\w*(?:Error|Warning|Exception): .*$"  # a message with its type
                         r"|<[A-Za-z_][\w.]*(?: [^<>\n]*)?>", re.M)  # a repr: <Figure ...>


def ui_words() -> set[str]:
    printed = set()
    for source in build.sources():
        for block in build.parse(source):
            for old, _ in block.zh or ():
                if not old.startswith("#"):  # a comment is not printed
                    printed |= {w.lower() for w in english_words(old)}
    return (english_ui_words() | printed | PLOT_WORDS) - NAMES


def shown(output) -> list[str]:
    """The texts of one output a learner reads (errors and stderr are Python's and PyTorch's)."""
    if output.output_type == "stream":
        return [output.text] if output.name == "stdout" else []
    if output.output_type == "error":
        return []
    data = output.get("data", {})
    page = data.get("text/html", "")
    texts = [data.get("text/plain", "")]
    if "mg-static-text" in page:
        texts += html_texts(page)
    return texts


def english_ui_left(nb, words: set[str], messages: list[str]) -> list[str]:
    found = []
    for n, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            for text in shown(output):
                text = re.sub(r"\{\w+\}", "", without_pytorch_messages(text, messages))
                hits = sorted({w for w in WORD.findall(text) if w.lower() in words})
                if hits:
                    found.append(f"cell {n}: {hits} in {text[:80]!r}")
    return found


@pytest.fixture(scope="module")
def pytorch_messages(torch) -> list[str]:
    """The warnings PyTorch gives in the lessons (lesson 8 prints them), from PyTorch itself."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = torch.tensor([1., 2.], requires_grad=True)
        _ = (x * 2).grad
        a, b = (torch.tensor([1., 2.], requires_grad=True) for _ in range(2))
        with torch.autograd.detect_anomaly():
            try:  # lesson 8's NaN: the sqrt of a zero distance
                ((a - b) ** 2).sum().sqrt().backward()
            except RuntimeError:
                pass
    return [str(w.message) for w in caught]


def without_pytorch_messages(text: str, messages: list[str]) -> str:
    for message in messages:
        for line in filter(None, (ln.strip() for ln in message.splitlines())):
            text = text.replace(line, " ")
    return PYTHON_TEXT.sub(" ", text)


def test_every_chinese_lesson_is_checked():
    assert len(LESSONS) == 2 * len(build.sources())


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_chinese_lesson_shows_no_english_ui_word(path, pytorch_messages):
    nb = nbformat.read(path, as_version=4)
    assert english_ui_left(nb, ui_words(), pytorch_messages) == []


def test_the_scan_finds_english_in_a_printed_label_and_in_a_widget(pytorch_messages):
    """The same lessons in English show the words the scan looks for."""
    english = nbformat.read(REPO / "notebooks" / "en" / "09_a_first_network.ipynb", as_version=4)
    found = "\n".join(english_ui_left(english, ui_words(), pytorch_messages))
    assert "lowest" in found and "leaf" in found and "training" not in found  # (a PNG)
    english = nbformat.read(REPO / "notebooks" / "en" / "03_backward_node_by_node.ipynb",
                            as_version=4)
    found = "\n".join(english_ui_left(english, ui_words(), pytorch_messages))
    assert "nodes" in found and "Step" in found


def test_pytorch_messages_are_left_out_and_nothing_else(pytorch_messages):
    assert any("Anomaly Detection" in m for m in pytorch_messages)
    assert any(m.startswith("Error detected in PowBackward0") for m in pytorch_messages)
    text = "\n".join(pytorch_messages) + "\nUserWarning: the leaf\nfreed leaf nodes"
    assert WORD.findall(without_pytorch_messages(text, pytorch_messages)) == ["freed", "leaf",
                                                                               "nodes"]


def test_code_and_pytorch_reprs_are_not_words():
    text = ("tensor([2., 4.], grad_fn=<MulBackward0>) x.grad Linear(in_features=2, "
            "out_features=8, bias=True) requires_grad=True")
    assert [w for w in WORD.findall(text) if w.lower() in ui_words()] == []


def test_every_chinese_lesson_folder_gives_matplotlib_a_chinese_font():
    for folder in {p.parent for p in LESSONS}:
        rc = (folder / "matplotlibrc").read_text(encoding="utf-8")
        assert rc == build.MATPLOTLIBRC["zh"]
        assert "font.sans-serif: Noto Sans CJK SC," in rc


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_chinese_plot_was_drawn_with_chinese_glyphs(path):
    """Matplotlib warns "Glyph ... missing from font(s)" when it draws a Chinese label
    without a Chinese font: no stored output of a Chinese lesson has that warning."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            assert "missing from font" not in output.get("text", ""), path.name
            if output.get("output_type") == "display_data" and "image/png" in output.data:
                assert any(re.search("[\u4e00-\u9fff]", s) for s in re.findall(
                    r'"([^"]*)"', cell.source)), "a plot without Chinese labels"


DOC = ('"""', "'''")  # a docstring's quotes


def english_comments(code: str) -> list[str]:
    """The comments and docstrings of one code cell written in English: one with no Chinese
    character and a word that is not code (a word joined to code, ``WORD`` above, or a name
    the cell uses, ``SumRowsFixed``, ``self``)."""
    tokens = list(build._tokens(code))
    names = {t.string for t in tokens if t.type == build.tokenize.NAME}
    return [t.string for t in tokens if (t.type == build.tokenize.COMMENT or t.type ==
                                         build.tokenize.STRING and t.string[:3] in DOC)
            and not re.search(r"[\u4e00-\u9fff]", t.string)
            and set(WORD.findall(t.string)) - names]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_chinese_lesson_has_no_english_comment_or_docstring(path):
    nb = nbformat.read(path, as_version=4)
    assert [c for cell in nb.cells if cell.cell_type == "code"
            for c in english_comments(cell.source)] == []


def test_the_comment_scan_finds_english_prose_and_leaves_code_alone():
    english = nbformat.read(REPO / "notebooks" / "en" / "10_build_an_engine_then_read_ours.ipynb",
                            as_version=4)
    found = [c for cell in english.cells if cell.cell_type == "code"
             for c in english_comments(cell.source)]
    assert "# the gate" in found and "# mul swaps the factors" in found
    assert any(c.startswith(DOC[0] + 'A number that remembers') for c in found)
    code = "class SumRowsFixed:\n    pass\n# SumRowsFixed\nz = 1  # z.sum().backward()\n" \
           "y = 2  # d tanh(a) / da = 1 - tanh(a)²\nw = 3  # 门\n"
    assert english_comments(code) == []
