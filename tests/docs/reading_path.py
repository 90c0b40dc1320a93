"""The excerpts of the reading-path pages (docs/reading-backward.md and its Chinese twin),
checked against the source, and their line links moved when the source moves.

An excerpt is a link to lines of a file of the repository, GitHub style, followed by a fenced
code block holding exactly those lines:

    [`minigrad/autograd/engine.py` · `run`](../minigrad/autograd/engine.py#L61-L75)

    ```python
        while ready:
    ...
    ```

``python tests/docs/reading_path.py --fix`` finds each excerpt's text in its file and rewrites
the link's line numbers to where it is now (an excerpt whose text is no longer in the file is
reported: copy it again by hand). ``tests/docs/test_reading_path.py`` runs :func:`problems`.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "docs" / "reading-backward.md", REPO / "docs" / "zh" / "reading-backward.md"]

# a link to lines of a .py file, then (after the rest of its line and at most one blank line)
# a fenced python block
EXCERPT = re.compile(
    r"\[(?P<text>[^\]\n]+)\]\((?P<path>[^)#\s]+\.py)#L(?P<first>\d+)(?:-L(?P<last>\d+))?\)"
    r"[^\n]*\n(?:[ \t]*\n)?```python\n(?P<code>.*?)\n```", re.S)
LINE_LINK = re.compile(r"\]\((?P<path>[^)#\s]+\.py)#L\d+")


@dataclass
class Excerpt:
    page: Path
    text: str           # the link's text, which names the excerpt in messages
    link: str           # as written, e.g. ../minigrad/autograd/engine.py
    first: int
    last: int
    code: str
    start: int          # where the link's line numbers sit in the page (for --fix)
    end: int

    @property
    def file(self) -> Path:
        return (self.page.parent / self.link).resolve()

    @property
    def name(self) -> str:
        return f"{shown(self.page)}: {self.text}"

    def lines(self) -> list[str]:
        return self.code.split("\n")


def shown(page: Path) -> str:
    """The page's path as a message shows it (relative to the repository if inside it)."""
    return str(page.relative_to(REPO)) if REPO in page.parents else page.name


def excerpts(page: Path) -> list[Excerpt]:
    text = page.read_text(encoding="utf-8")
    found = []
    for m in EXCERPT.finditer(text):
        first = int(m["first"])
        last = int(m["last"] or first)
        found.append(Excerpt(page, m["text"], m["path"], first, last, m["code"],
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
    out = []
    text = page.read_text(encoding="utf-8")
    found = excerpts(page)
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


def fix(page: Path) -> list[str]:
    """Move each excerpt's line link to where its text is now; returns what it could not fix."""
    text = page.read_text(encoding="utf-8")
    unfixed = []
    for ex in reversed(excerpts(page)):  # (from the end: the offsets before stay valid)
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
    left += [p for page in PAGES if page.exists() for p in problems(page)]
    print("\n".join(left) or "every excerpt matches its lines")
    sys.exit(1 if left else 0)
