"""The docs site in chromium (offline: only 127.0.0.1): a lesson page in each language shows
its graphs, the search box finds pages in both languages, the language switch works, and
every link of every page leads somewhere that exists. Nothing is fetched from another host."""

from __future__ import annotations

import json
import re
from urllib.parse import urldefrag, urljoin, urlparse

import lessons
import pytest
from docsite import REPO
from labserver import OfflinePage

pytestmark = [pytest.mark.browser, pytest.mark.slow]
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def offline(browser):
    page = OfflinePage(browser)
    yield page
    assert page.take_errors() == []  # no console error, no request to another host
    page.close()


def _is_widget(data: dict) -> bool:
    """A widget's output: its model reference, or its text form (``GraphView: 8 nodes``)."""
    text = "".join(data.get("text/plain", ""))
    return WIDGET_MIME in data or re.match(r"(GraphView|BackwardStepper)\b", text) is not None


def _widget_outputs(path) -> list[dict]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [o["data"] for c in notebook["cells"] for o in c.get("outputs", [])
            if _is_widget(o.get("data", {}))]


def _graph_lessons() -> list[tuple[str, str]]:
    """(language, page name) of the first lesson with widget outputs, in each language."""
    found = []
    for language in lessons.LANGUAGES:
        for name, path in lessons.sources(REPO, language).items():
            if _widget_outputs(path):
                found.append((language, name))
                break
    return found


def test_there_is_a_lesson_with_graphs_in_each_language_that_has_lessons():
    languages = [language for language, _ in _graph_lessons()]
    assert "en" in languages
    assert ("zh" in languages) == bool(lessons.sources(REPO, "zh"))


@pytest.mark.parametrize(("language", "name"), _graph_lessons())
def test_a_rendered_lesson_shows_each_of_its_graphs(site, offline, language, name):
    widgets = _widget_outputs(REPO / "notebooks" / (language if language != "en" or (
        REPO / "notebooks" / "en").is_dir() else "") / name)
    page = offline.page
    page.goto(f"{site.url}/lessons/{language}/{name.replace('.ipynb', '.html')}")
    outputs = page.locator("div.cell_output")
    static = [w for w in widgets if "text/html" in w]
    if static:  # the widgets' static HTML: each draws its graph as an SVG, offline
        page.wait_for_function("n => document.querySelectorAll('div.cell_output svg').length"
                               " >= n", arg=len(static), timeout=30_000)
    texts = [("".join(w["text/plain"]).strip().splitlines() or [""])[0] for w in widgets
             if "text/html" not in w]
    body = outputs.all_inner_texts()
    for first_line in texts:  # the text form of the others
        assert any(first_line in text for text in body), first_line
    assert len(static) + len(texts) == len(widgets) > 0
    page.screenshot(path=str(REPO / "test-artifacts" / f"docs-lesson-{language}.png"))


@pytest.mark.parametrize(("start", "query", "expected"), [
    ("index.html", "AccumulateGrad", "lessons/en/"),
    ("zh/index.html", "叶子节点", "zh/"),
])
def test_the_search_box_finds_pages(site, offline, start, query, expected):
    page = offline.page
    page.goto(f"{site.url}/{start}")
    page.locator("button.search-button__button").first.click()
    box = page.locator("#pst-search-dialog input[name='q']")
    box.fill(query)
    box.press("Enter")
    page.wait_for_url("**/search.html?q=*")
    results = page.locator("#search-results ul.search li a")
    results.first.wait_for(timeout=30_000)
    hrefs = [a.get_attribute("href") for a in results.all()]
    assert any(expected in href for href in hrefs), hrefs


def test_the_language_switch_leads_to_the_twin_page(site, offline):
    page = offline.page
    page.goto(f"{site.url}/classroom/offline.html")
    page.locator("a.mg-language-switch").first.click()
    page.wait_for_url("**/zh/classroom/offline.html")
    assert page.locator("h1").first.inner_text().startswith("离线机房")
    page.locator("a.mg-language-switch").first.click()
    page.wait_for_url("**/classroom/offline.html")
    assert page.locator("html").get_attribute("lang") == "en"


LINKS_JS = """() => [...document.querySelectorAll('a[href]')].map(a => a.href)"""
IDS_JS = """() => [...document.querySelectorAll('[id]')].map(e => e.id)"""


def test_every_link_of_every_page_leads_somewhere(site, offline):
    page = offline.page
    host = urlparse(site.url).netloc
    queue, seen, ids, links = [f"{site.url}/index.html"], set(), {}, []
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        response = page.goto(url)
        assert response is not None and response.ok, url
        ids[url] = set(page.evaluate(IDS_JS))
        for href in page.evaluate(LINKS_JS):
            target, fragment = urldefrag(urljoin(url, href))
            if urlparse(target).netloc != host:
                continue  # a link out (nbgitpuller's docs): followed by the reader, not here
            links.append((url, target, fragment))
            if target.endswith(".html") and target not in seen:
                queue.append(target)
    assert len(seen) > 25
    broken = [(source, target, fragment) for source, target, fragment in links
              if target not in ids and not target.endswith(("/", ".html"))
              or (fragment and target in ids and fragment not in ids[target])]
    assert broken == []
