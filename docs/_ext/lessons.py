"""Copies the lessons from notebooks/ into docs/lessons/<language>/ before Sphinx reads them.

The site is built from the notebooks' stored outputs (``nb_execution_mode = "off"``), so a
copy is all it needs; docs/lessons/ is a build product (git-ignored). Layout:

    notebooks/en/*.ipynb, notebooks/en/solutions/*.ipynb  -> docs/lessons/en/...
    notebooks/zh/*.ipynb, notebooks/zh/solutions/*.ipynb  -> docs/lessons/zh/...

Notebooks directly in notebooks/ (the layout before the two language folders) count as English.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

LANGUAGES = ("en", "zh")


def sources(repo: Path, language: str) -> dict[str, Path]:
    """Lesson notebooks of one language: relative name in the site -> notebook file."""
    folder = repo / "notebooks" / language
    found = {str(p.relative_to(folder)): p for p in sorted(folder.rglob("*.ipynb"))
             if ".ipynb_checkpoints" not in p.parts}
    if language == "en" and not found:
        found = {p.name: p for p in sorted((repo / "notebooks").glob("*.ipynb"))}
    return found


STATIC_VIEW = "data-minigrad-static"  # a widget's static text/html view (widgets/export.py)
# A lesson links to a docs page as seen from notebooks/<lang>/ (../../docs/x.md, which works in
# JupyterLab and on GitHub); its copy in docs/lessons/<lang>/ reaches the page as ../../x.md
# (and a solutions notebook, one folder deeper, from ../../../ in both places).
DOCS_LINK = re.compile(r"(\]\((?:\.\./)+)docs/")
# A link to a source file, from notebooks/<lang>/ (../../minigrad/x.py): in the site, the
# same climb reaches the site's root, where source_lines.py writes _code/minigrad/x.py.html.
SOURCE_LINK = re.compile(
    r"\[(?P<text>[^\]\n]+)\]\((?P<up>(?:\.\./)+)(?P<path>minigrad/[\w/]+\.py)"
    r"(?P<lines>#L\d+(?:-L\d+)?)?\)")


def _site_links(text: str) -> str:
    from source_lines import FOLDER, inline

    text = DOCS_LINK.sub(r"\1", text)
    return SOURCE_LINK.sub(lambda m: f'<a class="reference external mg-source-link" href="'
                                     f'{m["up"]}{FOLDER}/{m["path"]}.html{m["lines"] or ""}">'
                                     f'{inline(m["text"])}</a>',
                           text)


def _clean(notebook: dict) -> dict:
    """Drops widget state (the site never shows live widgets: no kernel) and gives the first
    static view of the page the one copy of the front end the page's static views all use
    (stored lessons hold none: tests/lessons/notebook_tools.py); links to docs pages and
    source files are made relative to the lesson's place in the site."""
    notebook.get("metadata", {}).pop("widgets", None)
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":  # a link to a docs page, from notebooks/<lang>/
            text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            cell["source"] = _site_links(text)
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            html = output.get("data", {}).get("text/html")
            html = "".join(html) if isinstance(html, list) else html
            if html and STATIC_VIEW in html:
                from minigrad_widgets.export import carrier

                output["data"]["text/html"] = carrier() + html
                return notebook
    return notebook


def collect(docs: Path) -> dict[str, list[str]]:
    """Refreshes docs/lessons/; returns, per language, the page names written."""
    target_root = docs / "lessons"
    shutil.rmtree(target_root, ignore_errors=True)
    written: dict[str, list[str]] = {}
    for language in LANGUAGES:
        written[language] = []
        for name, path in sources(docs.parent, language).items():
            target = target_root / language / name
            target.parent.mkdir(parents=True, exist_ok=True)
            notebook = _clean(json.loads(path.read_text(encoding="utf-8")))
            target.write_text(json.dumps(notebook, ensure_ascii=False, indent=1), encoding="utf-8")
            written[language].append(name)
    return written
