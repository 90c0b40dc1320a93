"""DOT output: golden files with stable ids, and labels that hostile names cannot break.

Regenerate the golden files (after a deliberate change of the drawing) with
``MINIGRAD_UPDATE_GOLDEN=1 pytest tests/widgets/test_dot_output.py``, and review the diff.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from helpers import chain
from minigrad_widgets import draw
from minigrad_widgets.dot import escape_text

import minigrad as mg

GOLDEN = pathlib.Path(__file__).parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = ['"]; evil [', "<b>", "<<b>bold</b>>", "\\", '\\"]; n9 [label="x', "a\nb", "\\N",
           "&amp;", "]]>", "node", "}", "-- n0", "\x00\x1b", "é ∑ 🙂", "'; alert(1); '"]


def _cases():
    def square_plus_x():
        x = mg.tensor(2., requires_grad=True)
        return draw(x * x + x, names={"x": x})

    def vector_with_saved():
        x = mg.tensor([1., 2.], requires_grad=True)
        w = mg.tensor([3., 4.], requires_grad=True)
        return draw((x * w).sum(), names={"x": x, "w": w}, show_saved=True)

    def constant_inputs():
        x = mg.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        h = x * 2.0 - 1.0
        return draw(h.mean(), names={"x": x, "h": h})

    def two_outputs():
        x = mg.tensor(2., requires_grad=True)
        a, b = x * 3.0, x + 1.0
        return draw(a, b, names={"x": x, "a": a, "b": b})

    def collapsed_chain():
        x, y = chain(200)
        return draw(y, names={"x": x, "y": y})

    def truncated_wide():
        xs = [mg.tensor(float(i), requires_grad=True) for i in range(40)]
        total = xs[0]
        for a, b in zip(xs, xs[1:]):
            total = total + a * b
        return draw(total, names={f"x{i}": t for i, t in enumerate(xs)}, max_nodes=30)

    def hostile_names():
        xs = [mg.tensor(float(i), requires_grad=True) for i in range(4)]
        return draw((xs[0] * xs[1]) + (xs[2] * xs[3]), names=dict(zip(HOSTILE, xs)))

    return {f.__name__: f for f in (square_plus_x, vector_with_saved, constant_inputs,
                                    two_outputs, collapsed_chain, truncated_wide,
                                    hostile_names)}


CASES = _cases()


@pytest.mark.parametrize("case", sorted(CASES))
def test_drawing_matches_its_golden_file(case):
    source = CASES[case]().source
    path = GOLDEN / f"{case}.dot"
    if os.environ.get("MINIGRAD_UPDATE_GOLDEN"):
        path.write_text(source, encoding="utf-8")
    assert source == path.read_text(encoding="utf-8")


def test_drawing_is_the_same_every_time():
    assert CASES["vector_with_saved"]().source == CASES["vector_with_saved"]().source


# ---------------------------------------------------------------- escaping, by parsing
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|->|[\[\]{};=,]|[^\s\[\]{};=,"]+', re.S)


def _statements(source: str) -> list[list[str]]:
    """The DOT source as statements of tokens (quoted strings kept quoted)."""
    body = source[source.index("{") + 1: source.rindex("}")]
    statements, current, depth = [], [], 0
    for tok in _TOKEN.findall(body):
        current.append(tok)
        depth += tok == "["
        depth -= tok == "]"
        if depth == 0 and tok == "]":
            statements.append(current)
            current = []
    assert current == [] and depth == 0, f"unbalanced DOT: {current}"
    return statements


def _unquote(tok: str) -> str:
    assert tok.startswith('"') and tok.endswith('"') or '"' not in tok
    text = tok[1:-1] if tok.startswith('"') else tok
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\":
            nxt = text[i + 1]
            out.append("\n" if nxt == "n" else nxt)
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out).replace("&amp;", "&")


def _labels(source: str) -> dict[str, str]:
    labels = {}
    for st in _statements(source):
        if st[0] in ("graph", "node", "edge") or "->" in st:
            continue
        assert re.fullmatch(r"n\d+|more", st[0]), f"unexpected statement {st}"
        attrs = st[2:-1]
        assert all(attrs[k + 1] == "=" for k in range(0, len(attrs), 3)), st
        labels[st[0]] = _unquote(attrs[attrs.index("label") + 2])
    return labels


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_name_is_one_literal_label_in_the_dot_source(name):
    x = mg.tensor(2., requires_grad=True)
    labels = _labels(draw(x * x, names={name: x}).source)
    assert list(labels) == ["n0", "n1", "n2"]
    shown = name.encode("unicode_escape").decode() if not name.isprintable() else name
    assert labels["n2"] == f"{shown}\n[]\n2."


def test_escape_text_doubles_backslashes_and_escapes_quotes_and_ampersands():
    assert escape_text('a"b') == 'a\\"b'
    assert escape_text("\\n") == "\\\\n"
    assert escape_text("&lt;") == "&amp;lt;"
    assert escape_text("tab\there") == "tab\\\\there"


# ---------------------------------------------------------------- escaping, by rendering
DOT = shutil.which("dot")


@pytest.mark.skipif(DOT is None, reason="Graphviz's `dot` is not installed (apt-get install "
                    "graphviz); the parsing test above still checks the escaping")
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_name_renders_as_itself_in_the_svg(name):
    x = mg.tensor(2., requires_grad=True)
    w = mg.tensor(3., requires_grad=True)
    source = draw(x * w, names={name: x, "w": w}).source
    svg = subprocess.run([DOT, "-Tsvg"], input=source.encode(), capture_output=True, check=True)
    root = ET.fromstring(svg.stdout)
    groups = {g.get("id"): g for g in root.iter(SVG + "g") if g.get("class", "").startswith(
        ("node", "edge"))}
    assert sorted(groups) == ["e0", "e1", "e2", "n0", "n1", "n2", "n3"]
    texts = [t.text for t in groups["n2"].iter(SVG + "text")]
    shown = name.encode("unicode_escape").decode() if not name.isprintable() else name
    assert texts == [shown, "[]", "2."]


@pytest.mark.skipif(DOT is None, reason="Graphviz's `dot` is not installed")
@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_drawings_render_with_graphviz(case):
    source = (GOLDEN / f"{case}.dot").read_text(encoding="utf-8")
    svg = subprocess.run([DOT, "-Tsvg"], input=source.encode(), capture_output=True, check=True)
    root = ET.fromstring(svg.stdout)
    ids = {g.get("id") for g in root.iter(SVG + "g")}
    assert set(re.findall(r"\bid=(n\d+|e\d+)\b", source)) <= ids
