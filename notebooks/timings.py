"""Measure how long each lesson takes, for the teacher's kit (docs/teachers/*/lessons.md).

    python notebooks/timings.py            # every lesson; prints a Markdown table per language

For each lesson the solutions notebook (every exercise solved) is run top to bottom with
nbclient in a fresh kernel, and the time each cell takes is recorded (``record_timing``):
that is the machine's share. The learner's share is counted from the lesson's text, with
rules stated here so that anyone can redo the sum:

- prose: English at 120 words a minute, Chinese at 130 characters a minute. Silent reading
  of non-fiction averages about 238 words a minute in English (Brysbaert 2019, a
  meta-analysis of 190 studies) and about 255 characters a minute in Chinese (IReST,
  Trauzettel-Klosinski and Dietz 2012); text that must be understood well enough to predict
  what code does is read at about half that speed, hence 120 and 130;
- code cells: 6 lines a minute (read a line, predict what it prints, read the output);
- exercises: the characters the learner types (the solution cell minus the stub's) at 30
  characters a minute, a slow rate for code written while thinking.

What no rule can measure is time spent stuck; the kit gives the sum as the lower bound and
suggests a slot about 1.5 times as long.
"""

from __future__ import annotations

import re
import sys
import time
from datetime import datetime
from pathlib import Path

import nbclient
import nbformat

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import build  # noqa: E402

WORDS_PER_MINUTE = {"en": 120, "zh": 130}  # words (en) or characters (zh)
CODE_LINES_PER_MINUTE = 6
TYPED_CHARS_PER_MINUTE = 30


def prose_units(text: str, lang: str) -> int:
    """Words of English, or Chinese characters (plus the Latin words among them)."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    if lang == "en":
        return len(re.findall(r"[A-Za-z0-9_.'()\-]+", text))
    return len(re.findall(r"[\u4e00-\u9fff]", text)) + len(re.findall(r"[A-Za-z0-9_]+", text))


def machine_seconds(path: Path) -> float:
    """Seconds the solutions notebook's cells take, run top to bottom in a fresh kernel."""
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, kernel_name="python3", record_timing=True,
                                     resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    client.execute()
    wall = time.perf_counter() - start
    cells = 0.0
    for cell in nb.cells:
        timing = cell.get("metadata", {}).get("execution", {})
        if "shell.execute_reply" in timing and "iopub.execute_input" in timing:
            begin = datetime.fromisoformat(timing["iopub.execute_input"].replace("Z", "+00:00"))
            end = datetime.fromisoformat(timing["shell.execute_reply"].replace("Z", "+00:00"))
            cells += (end - begin).total_seconds()
    return cells if cells else wall


def learner_minutes(source: Path, lang: str) -> tuple[float, float, float]:
    """(reading, code, typing) minutes for one lesson in one language."""
    blocks = build.parse(source)
    prose = sum(prose_units(b.text, lang) for b in blocks if b.kind == lang)
    code = sum(len([line for line in b.text.splitlines() if line.strip()])
               for b in blocks if b.kind in ("code", "exercise"))
    typed = 0
    for n, block in enumerate(blocks):
        if block.kind == "solution":
            stub = blocks[n - 1].text
            typed += max(0, len(re.sub(r"\s+", "", block.text)) - len(re.sub(r"\s+", "", stub)))
    return (prose / WORDS_PER_MINUTE[lang], code / CODE_LINES_PER_MINUTE,
            typed / TYPED_CHARS_PER_MINUTE)


def main(argv: list[str]) -> None:
    chosen = [s for s in build.sources() if not argv or any(s.stem.startswith(a) for a in argv)]
    rows = {lang: [] for lang in build.LANGS}
    for source in chosen:
        seconds = machine_seconds(HERE / "en" / "solutions" / f"{source.stem}.ipynb")
        for lang in build.LANGS:
            reading, code, typing = learner_minutes(source, lang)
            total = reading + code + typing + seconds / 60
            rows[lang].append(f"| {int(source.stem[:2])} | {seconds:.0f} s | {reading:.0f} | "
                              f"{code:.0f} | {typing:.0f} | **{total:.0f}** | "
                              f"{5 * round(1.5 * total / 5):.0f} |")
        print(f"{source.stem}: {seconds:.1f} s of cells", file=sys.stderr)
    for lang in build.LANGS:
        print(f"\n{lang}\n| lesson | cells (machine) | reading | code cells | typing | sum (min) "
              f"| slot (min) |\n|---|---|---|---|---|---|---|")
        print("\n".join(rows[lang]))


if __name__ == "__main__":
    main(sys.argv[1:])
