"""The excerpts of the reading-path pages (docs/reading-backward.md and its Chinese twin),
checked against the source, and their line links moved when the source moves.

An excerpt is a link to lines of a file of the repository, GitHub style, followed by a fenced
code block holding exactly those lines:

    [`minigrad/autograd/engine.py` · `run`](../minigrad/autograd/engine.py#L61-L75)

    ```python
        while ready:
    ...
    ```

Lesson 10 shows some of the same excerpts, written the same way in its source
(notebooks/_source/10_*.md, links as seen from notebooks/<lang>/).

``python tests/docs/reading_path.py --fix`` finds each excerpt's text in its file and rewrites
the link's line numbers to where it is now, in the pages and in the lesson's source (then
rebuild the lesson: ``make lessons L=10``); an excerpt whose text is no longer in the file is
reported: copy it again by hand. ``tests/docs/test_reading_path.py`` runs :func:`problems`.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "docs" / "reading-backward.md", REPO / "docs" / "zh" / "reading-backward.md"]
# Lesson 10 shows excerpts too: its built notebooks are checked, its source is what --fix edits
# (its links are written as seen from notebooks/<lang>/: the base they are resolved from).
NOTEBOOKS = REPO / "notebooks"
LESSON = sorted((NOTEBOOKS / "_source").glob("10_*.md"))
LESSON_NOTEBOOKS = [NOTEBOOKS / folder / f"{source.stem}.ipynb" for source in LESSON
                    for folder in ("en", "zh", "en/solutions", "zh/solutions")]

# a link to lines of a .py file, then (after the rest of its line and at most one blank line)
# a fenced python block
EXCERPT = re.compile(
    r"\[(?P<text>[^\]\n]+)\]\((?P<path>[^)#\s]+\.py)#L(?P<first>\d+)(?:-L(?P<last>\d+))?\)"
    r"[^\n]*\n(?:[ \t]*\n)?```python\n(?P<code>.*?)\n```", re.S)
LINE_LINK = re.compile(r"\]\((?P<path>[^)#\s]+\.py)#L\d+")


@dataclass
class Excerpt:
    page: Path
    base: Path          # the folder its links are relative to
    text: str           # the link's text, which names the excerpt in messages
    link: str           # as written, e.g. ../minigrad/autograd/engine.py
    first: int
    last: int
    code: str
    start: int          # where the link's line numbers sit in the page (for --fix)
    end: int

    @property
    def file(self) -> Path:
        return (self.base / self.link).resolve()

    @property
    def name(self) -> str:
        return f"{shown(self.page)}: {self.text}"

    def lines(self) -> list[str]:
        return self.code.split("\n")


def shown(page: Path) -> str:
    """The page's path as a message shows it (relative to the repository if inside it)."""
    return str(page.relative_to(REPO)) if REPO in page.parents else page.name


def text_of(page: Path) -> str:
    """A page's Markdown (a notebook's Markdown cells, one after another)."""
    if page.suffix == ".ipynb":
        cells = json.loads(page.read_text(encoding="utf-8"))["cells"]
        return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return page.read_text(encoding="utf-8")


def excerpts(page: Path, base: Path | None = None) -> list[Excerpt]:
    """The excerpts of ``page``; links are resolved from ``base`` (default: its folder)."""
    text = text_of(page)
    found = []
    for m in EXCERPT.finditer(text):
        first = int(m["first"])
        last = int(m["last"] or first)
        found.append(Excerpt(page, base or page.parent, m["text"], m["path"], first, last,
                             m["code"],
                             m.start("first") - 1, m.end("last" if m["last"] else "first")))
    return found


def locate(excerpt: Excerpt) -> list[int]:
    """Every line number (1-based) at which the excerpt's lines start in its file."""
    source = excerpt.file.read_text(encoding="utf-8").split("\n")
    want = excerpt.lines()
    return [i + 1 for i in range(len(source) - len(want) + 1)
            if source[i:i + len(want)] == want]


def problems(page: Path) -> list[str]:
    """What is wrong with the page's excerpts: empty if each is its file's text at its lines."""
    return _problems(excerpts(page), text_of(page), page)


def _problems(found: list[Excerpt], text: str, page: Path) -> list[str]:
    out = []
    if len(LINE_LINK.findall(text)) != len(found):
        linked = {m.start() for m in LINE_LINK.finditer(text)}
        with_code = {m.start("path") - 2 for m in EXCERPT.finditer(text)}
        for start in sorted(linked - with_code):
            line = text.count("\n", 0, start) + 1
            out.append(f"{shown(page)}:{line}: a line link not followed by its "
                       "```python excerpt")
    for ex in found:
        if not ex.file.is_file() or REPO not in ex.file.parents:
            out.append(f"{ex.name}: {ex.link} is not a file of the repository")
            continue
        source = ex.file.read_text(encoding="utf-8").split("\n")
        if not 1 <= ex.first <= ex.last <= len(source):
            out.append(f"{ex.name}: lines {ex.first}-{ex.last} are not in {ex.link} "
                       f"({len(source)} lines)")
            continue
        at = source[ex.first - 1:ex.last]
        if at == ex.lines():
            continue
        where = locate(ex)
        if where:
            starts = ", ".join(f"L{n}-L{n + len(ex.lines()) - 1}" for n in where)
            out.append(f"{ex.name}: the excerpt moved: it is now at {starts} of {ex.link}, "
                       f"the link says L{ex.first}-L{ex.last} "
                       "(python tests/docs/reading_path.py --fix)")
        else:
            diff = "\n".join(f"    page: {a!r}\n    file: {b!r}"
                             for a, b in zip(ex.lines(), at) if a != b)
            if len(ex.lines()) != len(at):
                diff += f"\n    ({len(ex.lines())} lines in the page, {len(at)} linked)"
            out.append(f"{ex.name}: the code changed: the excerpt is no longer in {ex.link}; "
                       f"at L{ex.first}-L{ex.last}:\n{diff}")
    return out


def problems_in_source(source: Path) -> list[str]:
    """The problems of a lesson source's excerpts (links as seen from notebooks/<lang>/)."""
    return _problems(excerpts(source, NOTEBOOKS / "en"), text_of(source), source)


def fix(page: Path, base: Path | None = None) -> list[str]:
    """Move each excerpt's line link to where its text is now; returns what it could not fix."""
    text = page.read_text(encoding="utf-8")
    unfixed = []
    for ex in reversed(excerpts(page, base)):  # (from the end: the offsets before stay valid)
        where = locate(ex) if ex.file.is_file() else []
        if ex.first in where:
            continue
        if len(where) != 1:
            unfixed.append(f"{ex.name}: found {len(where)} times in {ex.link}")
            continue
        first, last = where[0], where[0] + len(ex.lines()) - 1
        anchor = f"L{first}" if first == last else f"L{first}-L{last}"
        text = text[:ex.start] + anchor + text[ex.end:]
    page.write_text(text, encoding="utf-8")
    return unfixed


if __name__ == "__main__":
    if sys.argv[1:] != ["--fix"]:
        sys.exit(__doc__)
    left = [p for page in PAGES if page.exists() for p in fix(page)]
    left += [p for source in LESSON for p in fix(source, NOTEBOOKS / "en")]
    left += [p for page in PAGES if page.exists() for p in problems(page)]
    left += [p for source in LESSON for p in problems_in_source(source)]
    print("\n".join(left) or "every excerpt matches its lines"
          + (f" (rebuild the lesson if a link moved: make lessons L={LESSON[0].name[:2]})"
             if LESSON else ""))
    sys.exit(1 if left else 0)
