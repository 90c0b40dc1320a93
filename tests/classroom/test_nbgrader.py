"""Graded assignments: ``make nbgrader``'s courses round-trip through nbgrader 0.9.

In a teacher's environment (nbgrader from PyPI and the wheel with the ``course`` extra,
cached like the hub's: hubenv.build_grader), for every lesson with exercises, in both
languages: ``generate_assignment``, then two students hand in the released notebook, one
unchanged and one with every answer cell filled in with the lesson's solution, ``autograde``
runs both, and the gradebook gives their scores: full marks for the solved copy, zero for the
unchanged one (grade_round_trip.py, in the grader's environment).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import hubenv
import nbformat
import pytest

pytestmark = [pytest.mark.hub, pytest.mark.slow]

REPO = hubenv.REPO
sys.path.insert(0, str(REPO / "notebooks"))
import grading  # noqa: E402


@pytest.fixture(scope="module")
def grader():
    try:
        return hubenv.build_grader(log=lambda line: print(line, file=sys.stderr))
    except hubenv.Unavailable as why:
        pytest.skip(f"nbgrader cannot be installed here: {why}")


def test_an_answer_cell_keeps_the_stubs_lines_and_marks_only_the_solutions_own():
    stub = "x = 2\nc = x * x\nanswer = ...\ncheck(\"L3.fork\", answer)\n"
    solved = "x = 2\nc = x * x\ncube = 1\nanswer = 3\ncheck(\"L3.fork\", answer)"
    assert grading.answer_source(stub, solved) == (
        "x = 2\nc = x * x\n### BEGIN SOLUTION\ncube = 1\nanswer = 3\n### END SOLUTION\n"
        "check(\"L3.fork\", answer)")
    with pytest.raises(ValueError, match="same check"):
        grading.answer_source(stub, "answer = 3\ncheck(\"L3.other\", answer)")


# Every assignment of the English course (every exercise's judge graded once); the Chinese
# course (its own configuration and stub, the same judges) with one assignment, for time.
ROUND_TRIPS = {"en": None, "zh": ["lesson03"]}


@pytest.mark.parametrize("lang", grading.LANGS)
def test_autograde_gives_full_marks_to_the_solutions_and_none_to_the_unchanged_copy(
        grader, tmp_path, lang):
    course = tmp_path / lang
    assignments = ROUND_TRIPS[lang] or grading.write_course(course, lang)
    if ROUND_TRIPS[lang]:
        grading.write_course(course, lang)
    assert assignments, "no lesson has exercises"
    points = {}
    for assignment in assignments:
        source = next((course / "source" / assignment).glob("*.ipynb"))
        points[assignment] = sum(cell.metadata["nbgrader"]["points"]
                                 for cell in nbformat.read(source, as_version=4).cells
                                 if cell.metadata.get("nbgrader", {}).get("grade"))
    result = subprocess.run([grader.python, str(Path(__file__).with_name("grade_round_trip.py")),
                             *assignments], cwd=course, capture_output=True, text=True,
                            env=hubenv.clean_env(grader), timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-6000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    for assignment, total in points.items():
        released = report[assignment]["released"]
        assert "BEGIN HIDDEN TESTS" not in released and "BEGIN SOLUTION" not in released
        assert grading.STUB[lang] in released
        assert report[assignment]["solved"] == [total, total], assignment
        assert report[assignment]["unchanged"] == [0.0, total], assignment
    print(f"{lang}: " + ", ".join(f"{a} solved {report[a]['solved'][0]:g}/{p:g}, unchanged "
                                  f"{report[a]['unchanged'][0]:g}/{p:g}" for a, p in points.items()))
