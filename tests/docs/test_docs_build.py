"""The docs site: it builds strictly, holds every page and lesson in both languages, and the
language switch pairs each page with its twin."""

from __future__ import annotations

import html
import json
import posixpath
import re
import shutil

import language_switch
import lessons
import pytest
from docsite import DOCS, REPO, sphinx

pytestmark = pytest.mark.slow


def test_the_site_builds_with_warnings_as_errors(site, record_property):
    record_property("sphinx build (-W)", f"{site.seconds:.1f} s")
    for page in ("index", "zh/index", "reference", "search", "genindex"):
        assert (site.root / f"{page}.html").is_file(), page


def test_every_hand_written_page_is_in_the_site(site):
    pages = [p.relative_to(DOCS).with_suffix(".html") for p in DOCS.rglob("*.md")
             if not p.relative_to(DOCS).parts[0].startswith(("_", "lessons"))
             and p.name != "README.md"]
    assert len(pages) >= 18
    assert [p for p in pages if not (site.root / p).is_file()] == []


@pytest.mark.parametrize("language", lessons.LANGUAGES)
def test_every_lesson_is_a_page_with_its_stored_outputs(site, language):
    found = lessons.sources(REPO, language)
    if language == "en":
        assert len(found) >= 4
    else:  # before the Chinese lessons exist, there is no Chinese lesson page either
        assert bool(found) == (REPO / "notebooks" / "zh").is_dir()
    for name, path in found.items():
        page = site.root / "lessons" / language / name.replace(".ipynb", ".html")
        html = page.read_text(encoding="utf-8")
        notebook = json.loads(path.read_text(encoding="utf-8"))
        if not any(c["cell_type"] == "code" for c in notebook["cells"]):
            continue  # a course index: links only (the page was read above)
        outputs = [o for c in notebook["cells"] for o in c.get("outputs", [])]
        assert outputs and html.count('class="output') >= len(outputs) // 2, name
        text = next(("".join(o["text"]) for o in outputs if o.get("output_type") == "stream"),
                    None)
        if text:  # a stored printed output appears on the page, escaped as HTML
            first = text.strip().splitlines()[0].strip()
            first = first.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            assert first in html, (name, first)


def _words(html_text: str) -> str:
    text = html.unescape(re.sub("<[^>]+>", " ", html_text)).replace("\u2019", "'")
    return " ".join(re.findall(r"[\w']+", text))


def test_the_api_reference_comes_from_the_docstrings(site):
    page = _words((site.root / "reference.html").read_text(encoding="utf-8"))
    import minigrad_widgets

    from minigrad.autograd import grad_mode

    for docstring in (grad_mode.no_grad.__doc__, minigrad_widgets.GraphView.__doc__):
        first = _words(docstring.strip().splitlines()[0].replace("``", ""))
        assert first in page, first
    assert 'id="minigrad.autograd.grad_mode.no_grad"' in (site.root / "reference.html").read_text()


def test_no_page_points_outside_the_repository_or_loads_from_a_network(site):
    for page in site.root.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "shared/seeds" not in html, page
        loads = re.findall(r'<(?:script|link|img|iframe)[^>]+(?:src|href)="(https?:|//)', html)
        assert loads == [], page


def test_a_warning_fails_the_build(tmp_path):
    source = tmp_path / "docs"
    source.mkdir()
    for name in ("conf.py", "_ext", "_templates", "_static"):
        copy = shutil.copytree if (DOCS / name).is_dir() else shutil.copy
        copy(DOCS / name, source / name)
    (source / "index.md").write_text("# Home\n\nSee [a page](no-such-page.md).\n")
    result = sphinx(source, tmp_path / "out")
    assert result.returncode != 0
    assert "no-such-page" in result.stderr


@pytest.mark.parametrize(("page", "twin"), [
    ("index", "zh/index"), ("running", "zh/running"), ("classroom/offline",
                                                       "zh/classroom/offline"),
    ("lessons/en/01_x", "lessons/zh/01_x"), ("lessons/en/solutions/01_x",
                                             "lessons/zh/solutions/01_x"),
    ("teachers/en/setup", "teachers/zh/setup")])
def test_the_language_switch_pairs_each_page_with_its_twin(page, twin):
    assert language_switch.twin(page) == twin and language_switch.twin(twin) == page
    assert language_switch.language_of(page) == "en"
    assert language_switch.language_of(twin) == "zh"


def test_a_page_without_a_twin_switches_to_the_other_home_page(site):
    # the generated coverage table is English only; the benchmarks page has a Chinese twin
    assert not (DOCS / "zh" / "coverage.md").exists()
    html = (site.root / "coverage.html").read_text(encoding="utf-8")
    assert 'class="nav-link mg-language-switch" href="zh/index.html"' in html
    html = (site.root / "benchmarks.html").read_text(encoding="utf-8")
    assert 'class="nav-link mg-language-switch" href="zh/benchmarks.html"' in html


def _top_navigation(page: str) -> list[tuple[str, str]]:
    """(href, title) of each link of a page's top navigation bar."""
    nav = re.search(r'<ul class="bd-navbar-elements navbar-nav">(.*?)</ul>', page, re.S).group(1)
    return [(href, html.unescape(title.strip())) for href, title in
            re.findall(r'<a class="nav-link[^"]*" href="([^"]+)"[^>]*>\s*(.*?)\s*</a>', nav, re.S)]


@pytest.mark.parametrize("name", ["zh/index", "zh/running", "zh/glossary",
                                  "teachers/zh/index", "lessons/zh/03_backward_node_by_node"])
def test_a_chinese_page_has_a_chinese_top_navigation_and_theme(site, name):
    page = (site.root / f"{name}.html").read_text(encoding="utf-8")
    links = _top_navigation(page)
    assert len(links) >= 3
    for href, title in links:
        assert re.search("[\u4e00-\u9fff]", title) or title.startswith("API"), (href, title)
        target = posixpath.normpath(posixpath.join(posixpath.dirname(name), href))
        assert language_switch.language_of(target.removesuffix(".html")) == "zh", href
    chrome = re.sub(r'<article class="bd-article">.*?</article>', "", page, flags=re.S)
    for english in ("Search the docs", "Color mode", "Section Navigation", "On this page"):
        assert english not in chrome, english
    assert 'class="nav-link mg-language-switch"' in page


def test_an_english_page_keeps_its_english_navigation(site):
    links = _top_navigation((site.root / "running.html").read_text(encoding="utf-8"))
    assert ("lessons.html", "Lessons") in links
    # the one Chinese word: the link to the Chinese home page (index.md's hidden toctree)
    assert [t for _, t in links if re.search("[\u4e00-\u9fff]", t)] == ["中文"]


MATHJAX_SCRIPT = re.compile(r"<script[^>]*\bsrc=\"([^\"]*mathjax[^\"]*)\"", re.I)


def mathjax_sources(page_html: str) -> list[str]:
    """The MathJax scripts a page loads.

    >>> mathjax_sources('<script defer src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js"></script>')
    ['https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js']
    """
    return MATHJAX_SCRIPT.findall(page_html)


def test_maths_render_offline_with_the_mathjax_shipped_in_the_site(site):
    assert (site.root / "_static" / "mathjax" / "tex-chtml.js").is_file()
    remote = {}
    for page in site.root.rglob("*.html"):
        for src in mathjax_sources(page.read_text(encoding="utf-8")):
            if "://" in src or src.startswith("//"):
                remote[str(page.relative_to(site.root))] = src
            else:
                assert (page.parent / src).resolve().is_file(), (page, src)
    assert remote == {}, f"pages that fetch MathJax from another host: {remote}"


def test_the_mathjax_check_sees_a_cdn_script():
    cdn = '<script defer="defer" src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js">'
    assert mathjax_sources(cdn) == ["https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js"]
    assert mathjax_sources('<script src="../_static/mathjax/tex-chtml.js">') == [
        "../_static/mathjax/tex-chtml.js"]
