"""Build the documentation site: docs/*.md -> docs/_site/*.html (``make docs``).

A deliberately small static build: each Markdown page becomes one HTML page with a shared
navigation bar. Links between pages (``running.md``) become links to the built pages
(``running.html``); a link to a page that does not exist stops the build.

    python docs/build.py                 # into docs/_site/
    python docs/build.py --out /tmp/site
"""

from __future__ import annotations

import argparse
import html
import re
from pathlib import Path

import mistune

DOCS = Path(__file__).resolve().parent
PAGES = ["index.md", "running.md", "lessons.md", "api.md", "execution-order.md",
         "pytorch-engine.md", "benchmarks.md", "coverage.md"]

TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · minigrad</title>
<style>
body {{ font: 16px/1.55 system-ui, sans-serif; margin: 0; display: flex; color: #222; }}
nav {{ min-width: 14rem; padding: 1.5rem; background: #f5f5f7; min-height: 100vh; }}
nav a {{ display: block; margin: .3rem 0; color: #0645ad; text-decoration: none; }}
nav a.here {{ font-weight: bold; color: #222; }}
main {{ max-width: 52rem; padding: 1.5rem 2.5rem; }}
pre {{ background: #f5f5f7; padding: .8rem; overflow-x: auto; }}
code {{ font-size: .92em; }}
table {{ border-collapse: collapse; }}
td, th {{ border: 1px solid #ccc; padding: .3rem .6rem; vertical-align: top; }}
</style>
</head>
<body>
<nav>{nav}</nav>
<main>
{body}
</main>
</body>
</html>
"""


def title_of(markdown: str) -> str:
    match = re.search(r"^# (.+)$", markdown, re.M)
    return match.group(1).strip() if match else "minigrad"


def check_links(name: str, markdown: str) -> list[str]:
    """Links to other pages that do not exist."""
    broken = []
    for target in re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", markdown):
        if "://" not in target and not (DOCS / target).is_file():
            broken.append(f"{name}: link to missing page {target}")
    return broken


def build(out: Path) -> list[Path]:
    """Write one HTML page per Markdown page into ``out``; return the pages written."""
    render = mistune.create_markdown(plugins=["table"])
    sources = {name: (DOCS / name).read_text(encoding="utf-8") for name in PAGES}
    broken = [b for name, text in sources.items() for b in check_links(name, text)]
    if broken:
        raise SystemExit("broken links:\n" + "\n".join(broken))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in sources.items():
        nav = "\n".join(
            f'<a href="{other[:-3]}.html"{" class=here" if other == name else ""}>'
            f"{html.escape(title_of(sources[other]))}</a>" for other in PAGES)
        body = render(text)
        body = re.sub(r'href="([^":#]+)\.md(#[^"]*)?"', r'href="\1.html\2"', body)
        page = out / (name[:-3] + ".html")
        page.write_text(TEMPLATE.format(title=html.escape(title_of(text)), nav=nav, body=body),
                        encoding="utf-8")
        written.append(page)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOCS / "_site")
    args = parser.parse_args()
    pages = build(args.out)
    print(f"built {len(pages)} pages into {args.out}")


if __name__ == "__main__":
    main()
