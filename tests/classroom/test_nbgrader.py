"""Graded assignments: ``make nbgrader``'s courses round-trip through nbgrader 0.9.

In a teacher's environment (nbgrader from PyPI and the wheel with the ``course`` extra,
cached like the hub's: hubenv.build_grader), for every lesson with exercises, in both
languages: ``nbgrader generate_assignment``, then two students hand in the released
notebook, one unchanged and one with every answer cell filled in with the lesson's solution,
``nbgrader autograde`` runs both, and ``nbgrader export`` gives their scores: full marks
for the solved copy, zero for the unchanged one.
"""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
import sys

import hubenv
import nbformat
import pytest

pytestmark = [pytest.mark.hub, pytest.mark.slow]

REPO = hubenv.REPO
sys.path.insert(0, str(REPO / "notebooks"))
import grading  # noqa: E402

SOLUTION = re.compile(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION\n", re.S)


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


def _nbgrader(grader, course, *args) -> str:
    result = subprocess.run([str(grader.bin / "nbgrader"), *args], cwd=course,
                            capture_output=True, text=True, env=hubenv.clean_env(grader),
                            timeout=900)
    assert result.returncode == 0, f"nbgrader {' '.join(args)}:\n{result.stdout[-3000:]}\n" \
                                   f"{result.stderr[-5000:]}"
    return result.stdout + result.stderr


def _hand_in(course, assignment: str, student: str, solve: bool) -> None:
    """Copies the released assignment into submitted/<student>/, solving it if ``solve``."""
    release = course / "release" / assignment
    folder = course / "submitted" / student / assignment
    shutil.copytree(release, folder)
    if not solve:
        return
    source_nb = next((course / "source" / assignment).glob("*.ipynb"))
    solutions = {cell.metadata["nbgrader"]["cell_id"]: SOLUTION.search(cell.source).group(1)
                 for cell in nbformat.read(source_nb, as_version=4).cells
                 if cell.metadata.get("nbgrader", {}).get("solution")}
    nb_path = folder / source_nb.name
    nb = nbformat.read(nb_path, as_version=4)
    for cell in nb.cells:
        cell_id = cell.metadata.get("nbgrader", {}).get("cell_id")
        if cell_id in solutions:
            stub = grading.STUB[course.name]
            assert stub in cell.source, cell.source  # what the student sees
            cell.source = cell.source.replace(stub + "\n", solutions[cell_id])
    nbformat.write(nb, nb_path)


@pytest.mark.parametrize("lang", grading.LANGS)
def test_autograde_gives_full_marks_to_the_solutions_and_none_to_the_unchanged_copy(
        grader, tmp_path, lang):
    course = tmp_path / lang
    assignments = grading.write_course(course, lang)
    assert assignments, "no lesson has exercises"
    exercises = {}
    for assignment in assignments:
        _nbgrader(grader, course, "generate_assignment", assignment, "--force")
        released = next((course / "release" / assignment).glob("*.ipynb")).read_text()
        assert "BEGIN HIDDEN TESTS" not in released and "BEGIN SOLUTION" not in released
        assert (course / "release" / assignment / "_course" / "registry.py").is_file()
        source = next((course / "source" / assignment).glob("*.ipynb"))
        exercises[assignment] = sum(
            cell.metadata["nbgrader"]["points"]
            for cell in nbformat.read(source, as_version=4).cells
            if cell.metadata.get("nbgrader", {}).get("grade"))
        _hand_in(course, assignment, "solved", solve=True)
        _hand_in(course, assignment, "unchanged", solve=False)
        _nbgrader(grader, course, "autograde", assignment, "--force")
    _nbgrader(grader, course, "export", "--to", str(course / "grades.csv"))
    with open(course / "grades.csv") as f:
        rows = list(csv.DictReader(f))
    scores = {(r["assignment"], r["student_id"]): (float(r["score"]), float(r["max_score"]))
              for r in rows}
    for assignment, points in exercises.items():
        assert scores[(assignment, "solved")] == (points, points), assignment
        assert scores[(assignment, "unchanged")] == (0.0, points), assignment
    print(f"{lang}: " + ", ".join(f"{a} {scores[(a, 'solved')][0]:g}/{p:g} solved, "
                                  f"{scores[(a, 'unchanged')][0]:g} unchanged"
                                  for a, p in exercises.items()))
