"""The reading path (docs/reading-backward.md, docs/zh/reading-backward.md): five stops in
order, each excerpt equal to the source at the lines its link names, the two languages
showing the same excerpts, lesson 10 linking to the pages, and the site turning each line link
into a page of the file with those lines marked."""

from __future__ import annotations

import os
import re
import shutil

import nbformat
import pytest
from docsite import DOCS, REPO, sphinx
from reading_path import (
    LESSON,
    LESSON_NOTEBOOKS,
    PAGES,
    excerpts,
    fix,
    problems,
    problems_in_source,
)

STOPS = ["minigrad/_tensor.py", "minigrad/_ops/", "minigrad/autograd/graph.py",
         "minigrad/autograd/schedule.py", "minigrad/autograd/engine.py"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_excerpt_is_the_source_at_its_linked_lines(page):
    assert len(excerpts(page)) >= 10
    assert problems(page) == []


@pytest.mark.parametrize("notebook", LESSON_NOTEBOOKS,
                         ids=lambda p: p.relative_to(REPO / "notebooks").as_posix())
def test_lesson_10s_excerpts_are_the_source_at_their_lines_and_walk_the_five_stops(notebook):
    found = excerpts(notebook)
    assert problems(notebook) == []
    files = [e.file.relative_to(REPO).as_posix() for e in found]
    first = [next(i for i, f in enumerate(files) if f.startswith(stop)) for stop in STOPS]
    assert first == sorted(first), files
    assert [(e.file, e.first, e.code) for e in found] == \
        [(e.file, e.first, e.code) for e in excerpts(LESSON_NOTEBOOKS[0])]


def test_lesson_10s_source_is_what_fix_edits_and_is_right_too():
    assert LESSON and problems_in_source(LESSON[0]) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_the_page_walks_the_five_stops_in_order(page):
    text = page.read_text(encoding="utf-8")
    stops = re.split(r"^## ", text, flags=re.M)[1:6]
    assert [s.split("\n")[0][:2] for s in stops] == ["1.", "2.", "3.", "4.", "5."]
    for stop, path in zip(stops, STOPS):
        assert f"]({'../' * (len(page.relative_to(DOCS).parts))}{path}" in stop, (page, path)
    first = [min(e.start for e in excerpts(page) if path in e.link) for path in STOPS]
    assert first == sorted(first)


def test_english_and_chinese_pages_show_the_same_excerpts():
    en, zh = (excerpts(p) for p in PAGES)
    assert [(e.file, e.first, e.last, e.code) for e in en] == \
        [(e.file, e.first, e.last, e.code) for e in zh]


def _page(tmp_path, body: str):
    """A page in tmp_path whose links reach the repository's files."""
    up = os.path.relpath(REPO, tmp_path)
    page = tmp_path / "page.md"
    page.write_text(body.replace("REPO", up), encoding="utf-8")
    return page


def _engine_excerpt():
    ex = next(e for e in excerpts(PAGES[0]) if e.link.endswith("engine.py"))
    return ex.first, ex.last, ex.code


def test_a_moved_excerpt_is_named_with_where_it_is_now_and_fix_moves_the_link(tmp_path):
    first, last, code = _engine_excerpt()
    page = _page(tmp_path, f"# P\n\n[`run`](REPO/minigrad/autograd/engine.py#L{first + 1}-L"
                           f"{last + 1})\n\n```python\n{code}\n```\n")
    (message,) = problems(page)
    assert "`run`" in message and "moved" in message and f"L{first}-L{last}" in message
    assert fix(page) == []
    assert problems(page) == []
    assert f"engine.py#L{first}-L{last})" in page.read_text(encoding="utf-8")


def test_an_excerpt_whose_code_changed_is_named_with_the_lines_that_differ(tmp_path):
    first, last, code = _engine_excerpt()
    changed = code.replace("while ready:", "while ready and True:")
    page = _page(tmp_path, f"# P\n\n[the loop](REPO/minigrad/autograd/engine.py#L{first}-L"
                           f"{last})\n\n```python\n{changed}\n```\n")
    (message,) = problems(page)
    assert "the loop" in message and "code changed" in message
    assert "while ready and True:" in message and "while ready:" in message
    (left,) = fix(page)
    assert "the loop" in left and "found 0 times" in left


@pytest.mark.parametrize("body, words", [
    ("[x](REPO/minigrad/autograd/engine.py#L5-L6)\n\nno code here\n", "not followed by"),
    ("[x](REPO/minigrad/autograd/engine.py#L9000-L9001)\n\n```python\na\nb\n```\n",
     "are not in"),
    ("[x](REPO/minigrad/autograd/no_such.py#L1)\n\n```python\na\n```\n",
     "not a file of the repository"),
])
def test_a_broken_link_is_reported(tmp_path, body, words):
    messages = problems(_page(tmp_path, "# P\n\n" + body))
    assert len(messages) == 1 and words in messages[0], messages


@pytest.mark.parametrize("folder", ["en", "zh", "en/solutions", "zh/solutions"])
def test_lesson_10_links_to_the_reading_path_in_its_language(folder):
    lang = folder[:2]
    (path,) = (REPO / "notebooks" / folder).glob("10_*.ipynb")
    text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells
                     if c.cell_type == "markdown")
    links = re.findall(r"\]\(([^)]*reading-backward\.md)\)", text)
    want = PAGES[0] if lang == "en" else PAGES[1]
    assert links and all((path.parent / link).resolve() == want for link in links), links
    sources = re.findall(r"\]\(([^)]*minigrad/[^)]*\.py)\)", text)
    files = {(path.parent / link).resolve() for link in sources}
    assert {f.relative_to(REPO).as_posix() for f in files if f.is_file()} >= {
        stop for stop in STOPS if stop.endswith(".py")}, sources


@pytest.mark.slow
def test_the_site_links_each_excerpt_to_a_page_of_its_file_with_line_anchors(tmp_path):
    source = tmp_path / "repo" / "docs"
    (source / "zh").mkdir(parents=True)
    for name in ("conf.py", "_ext", "_templates", "_static"):
        copy = shutil.copytree if (DOCS / name).is_dir() else shutil.copy
        copy(DOCS / name, source / name)
    shutil.copytree(REPO / "minigrad", tmp_path / "repo" / "minigrad")
    pages = ["reading-backward", "execution-order", "pytorch-engine"]
    for name in pages:
        shutil.copy(DOCS / f"{name}.md", source / f"{name}.md")
        shutil.copy(DOCS / "zh" / f"{name}.md", source / "zh" / f"{name}.md")
    toc = "\n".join(pages + [f"zh/{p}" for p in pages])
    (source / "index.md").write_text(f"# Home\n\n```{{toctree}}\n{toc}\n```\n")
    result = sphinx(source, tmp_path / "out")
    assert result.returncode == 0, result.stderr[-3000:]
    for page, prefix in ((PAGES[0], ""), (PAGES[1], "../")):
        name = page.relative_to(DOCS).with_suffix(".html")
        built = (tmp_path / "out" / name).read_text(encoding="utf-8")
        for ex in excerpts(page):
            rel = ex.file.relative_to(REPO).as_posix()
            anchor = f"#L{ex.first}" + (f"-L{ex.last}" if ex.last != ex.first else "")
            assert f'href="{prefix}_code/{rel}.html{anchor}"' in built, (name, rel, anchor)
            code = (tmp_path / "out" / "_code" / f"{rel}.html").read_text(encoding="utf-8")
            assert f'id="L{ex.first}"' in code and f'id="L{ex.last}"' in code
            assert f'id="{anchor[1:]}"' in code  # (a range is an id too: links lead to ids)
            lines = len(ex.file.read_text(encoding="utf-8").rstrip("\n").split("\n"))
            assert f'id="L{lines}"' in code and f'id="L{lines + 1}"' not in code


def test_a_lessons_link_to_a_docs_page_is_made_relative_to_its_place_in_the_site():
    import lessons

    static = {"output_type": "display_data",
              "data": {"text/html": f"<div {lessons.STATIC_VIEW}></div>"}}
    notebook = {"cells": [
        {"cell_type": "code", "source": "s", "outputs": [static]},  # (the first static view)
        {"cell_type": "markdown", "source": ["see [it](../../docs/reading-backward.md) and ",
                                             "[zh](../../../docs/zh/reading-backward.md), ",
                                             "read [`engine.py`](../../minigrad/autograd/engine.py#L2-L3)"]}]}
    lessons._clean(notebook)
    assert notebook["cells"][1]["source"] == (
        "see [it](../../reading-backward.md) and [zh](../../../zh/reading-backward.md), read "
        '<a class="reference external mg-source-link" href="../../_code/minigrad/autograd/'
        'engine.py.html#L2-L3"><code class="docutils literal notranslate"><span class="pre">'
        "engine.py</span></code></a>")
