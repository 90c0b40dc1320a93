"""Links to lines of the repository's Python files, as the site can show them.

A page links to source lines the way GitHub does, relative to the page:
``[run](../minigrad/autograd/engine.py#L61-L75)`` (docs/reading-backward.md). On GitHub that
opens the file with the lines marked. Sphinx would make it a download of the file and drop the
line numbers, so this extension:

- rewrites each such link (``source-read``) into a link to ``_code/<path>.html#L61-L75``;
- writes those pages when the build finishes: the file highlighted, one ``id="L<n>"`` per
  line, and a few lines of script that mark the range named after ``#`` (no network).

Only ``.py`` files inside the repository are linked this way; other links are left alone.
"""

from __future__ import annotations

import html
import posixpath
import re
from pathlib import Path

LINK = re.compile(r"\[(?P<text>[^\]\n]+)\]\((?P<path>[^)#\s]+\.py)(?P<lines>#L\d+(?:-L\d+)?)?\)")
CODE = re.compile(r"`([^`]+)`")
FOLDER = "_code"
CODE_PAGE = re.compile(FOLDER + r"/(minigrad/[\w/]+\.py)\.html(?:#(L\d+-L\d+))?")


def repo_of(app) -> Path:
    return Path(app.srcdir).resolve().parent


def target(app, docname: str, path: str) -> Path | None:
    """The repository file a link from ``docname`` points to, or None (left alone)."""
    file = (Path(app.srcdir) / docname).parent.joinpath(path).resolve()
    repo = repo_of(app)
    if repo not in file.parents or not file.is_file() or "docs" in file.relative_to(repo).parts[:1]:
        return None
    return file


def page_of(app, file: Path) -> str:
    """The code page of ``file``, relative to the site's root: _code/minigrad/x.py.html."""
    return f"{FOLDER}/{file.relative_to(repo_of(app)).as_posix()}.html"


def inline(text: str) -> str:
    """The link's text as HTML: `code` spans, the rest escaped."""
    parts = CODE.split(text)
    return "".join(f'<code class="docutils literal notranslate"><span class="pre">'
                   f"{html.escape(p)}</span></code>" if i % 2 else html.escape(p)
                   for i, p in enumerate(parts))


def rewrite(app, docname: str, source: list) -> None:
    if not str(app.env.doc2path(docname)).endswith(".md"):  # (a lesson notebook: left alone)
        return

    def link(match):
        file = target(app, docname, match["path"])
        if file is None:
            return match[0]
        href = posixpath.relpath(page_of(app, file), posixpath.dirname(docname) or ".")
        return (f'<a class="reference external mg-source-link" href="{href}'
                f'{match["lines"] or ""}">{inline(match["text"])}</a>')

    source[0] = LINK.sub(link, source[0])


def linked_files(app) -> dict[Path, set[str]]:
    """Every repository file some page links to this way, with the line ranges linked
    (``"L61-L75"``)."""
    files: dict[Path, set[str]] = {}
    srcdir = Path(app.srcdir)
    for page in srcdir.rglob("*.md"):
        if page.relative_to(srcdir).parts[0].startswith(("_", "lessons")):
            continue
        docname = page.relative_to(srcdir).with_suffix("").as_posix()
        for match in LINK.finditer(page.read_text(encoding="utf-8")):
            file = target(app, docname, match["path"])
            if file is not None:
                ranges = files.setdefault(file, set())
                if match["lines"] and "-" in match["lines"]:
                    ranges.add(match["lines"][1:])
    repo = repo_of(app)
    for lesson in (srcdir / "lessons").rglob("*.ipynb"):  # (links made by lessons.py)
        for path, lines in CODE_PAGE.findall(lesson.read_text(encoding="utf-8")):
            if (repo / path).is_file():
                ranges = files.setdefault((repo / path).resolve(), set())
                if lines:
                    ranges.add(lines)
    return files


MARK_LINES = """
function mark() {
  document.querySelectorAll(".mg-hl").forEach((line) => line.classList.remove("mg-hl"));
  const m = /^#L(\\d+)(?:-L(\\d+))?$/.exec(location.hash);
  if (!m) return;
  const first = Number(m[1]), last = Number(m[2] || m[1]);
  for (let n = first; n <= last; n++) {
    const line = document.getElementById("L" + n);
    if (line) line.classList.add("mg-hl");
  }
  const top = document.getElementById("L" + first);
  if (top) top.scrollIntoView({block: "center"});
}
window.addEventListener("hashchange", mark);
mark();
"""


def code_page(file: Path, name: str, home: str, ranges=()) -> str:
    """The page of ``file``: line ``n`` has the id ``L<n>``, and each linked range
    ``L<a>-L<b>`` an id of its own at line ``a`` (so that a link to it is a link to an id).
    The page's own classes start with ``mg-``: Pygments' token classes are short (``n``)."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    formatter = HtmlFormatter(nowrap=True)
    body = highlight(file.read_text(encoding="utf-8"), PythonLexer(), formatter)
    starts: dict[int, list[str]] = {}
    for lines in sorted(ranges):
        starts.setdefault(int(lines.split("-")[0][1:]), []).append(lines)
    rows = "".join(f'<span class="line" id="L{n}">'
                   + "".join(f'<span id="{r}"></span>' for r in starts.get(n, ()))
                   + f'<a class="mg-ln" href="#L{n}">{n}</a>{line}\n</span>'
                   for n, line in enumerate(body.rstrip("\n").split("\n"), 1))
    style = formatter.get_style_defs(".code")
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{html.escape(name)}</title>
<style>
body {{ margin: 0; font: 14px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }}
header {{ padding: .6em 1em; font-family: system-ui, sans-serif; border-bottom: 1px solid #ddd; }}
pre.code {{ margin: 0; padding: .5em 0; }}
.line {{ display: block; padding-right: 1em; }}
.line .mg-ln {{ display: inline-block; width: 4em; padding-right: 1em; text-align: right;
           color: #999; text-decoration: none; user-select: none; }}
.line.mg-hl {{ background: #fff3b0; }}
{style}
</style></head>
<body><header><a href="{home}">minigrad</a> · <code>{html.escape(name)}</code></header>
<pre class="code">{rows}</pre>
<script>{MARK_LINES}</script>
</body></html>
"""


def write_pages(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    for file, ranges in sorted(linked_files(app).items()):
        page = page_of(app, file)
        home = posixpath.relpath("index.html", posixpath.dirname(page))
        name = file.relative_to(repo_of(app)).as_posix()
        (out / page).parent.mkdir(parents=True, exist_ok=True)
        (out / page).write_text(code_page(file, name, home, ranges), encoding="utf-8")


def setup(app):
    app.connect("source-read", rewrite)
    app.connect("build-finished", write_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
