"""The course's exercises as nbgrader courses, one per language (``make nbgrader``).

    python notebooks/grading.py build/nbgrader     # writes build/nbgrader/en and .../zh

Each language's folder is an nbgrader course: ``nbgrader_config.py`` and
``source/lessonNN/`` holding the lesson's notebook, its ``course.py`` and the checker
(``_course/``), so an assignment works on its own wherever nbgrader copies it. In the
notebook, each exercise cell (``<<< exercise`` in the lesson's source) becomes an answer
cell: the lines the stub and the solution share stay as they are, the solution's own lines
go between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` (nbgrader puts the stub
``answer = ...`` there in the students' copy), and the ``check(...)`` line stays, so the
students still check themselves in class. After it comes a locked test cell worth
``POINTS`` (1 unless listed), whose hidden test asks the course's own judge
(``_course.judge``, the one ``check`` uses) and fails unless it says right.

Then, in the course folder: ``nbgrader generate_assignment lesson03``, hand out
``release/lesson03``, collect into ``submitted/<student>/lesson03``, ``nbgrader autograde
lesson03``, ``nbgrader export`` (docs/classroom/grading.md).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _course import registry  # noqa: E402

LANGS = ("en", "zh")
POINTS: dict[str, int] = {}  # exercise id -> points, where not 1
STUB = {"en": "answer = ...  # YOUR ANSWER HERE", "zh": "answer = ...  # 在这里写你的答案"}
CONFIG = '''"""nbgrader's configuration of this course (written by notebooks/grading.py)."""

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "minigrad-{lang}"
c.CourseDirectory.root = "."
c.ClearSolutions.code_stub = {{"python": {stub!r}}}
# a lesson shows errors on purpose (cells tagged raises-exception): grading goes on after them
c.Execute.allow_errors = True
c.Execute.timeout = 300
'''
TEST = """# {id}: {points} {unit}
### BEGIN HIDDEN TESTS
from _course import judge
verdict, message = judge({id!r}, answer)
assert verdict is True, message
### END HIDDEN TESTS"""


def _lines(cell) -> list[str]:
    return cell.source.rstrip("\n").splitlines()


def answer_source(exercise: str, solution: str) -> str:
    """The answer cell: the stub's and solution's shared first lines, the solution's own lines
    between nbgrader's markers, then the check line they end with."""
    stub, solved = exercise.rstrip("\n").splitlines(), solution.rstrip("\n").splitlines()
    if stub[-1] != solved[-1] or not stub[-1].startswith("check("):
        raise ValueError(f"stub and solution must end with the same check(...):\n{exercise}")
    shared = 0
    while shared < min(len(stub), len(solved)) - 1 and stub[shared] == solved[shared]:
        shared += 1
    own = solved[shared:-1]
    return "\n".join(stub[:shared] + ["### BEGIN SOLUTION"] + own + ["### END SOLUTION",
                                                                      stub[-1]])


def _meta(cell_id: str, **flags) -> dict:
    return {"nbgrader": {"grade_id": cell_id, "schema_version": 3, "task": False,
                         "grade": False, "solution": False, "locked": False, **flags}}


def graded_notebook(lesson: Path, solutions: Path, lang: str):
    """The lesson ``lesson`` with each exercise an answer cell and a hidden-test cell."""
    nb = nbformat.read(lesson, as_version=4)
    solved = {cell.metadata["course"]["solution"]: cell
              for cell in nbformat.read(solutions, as_version=4).cells
              if "solution" in cell.metadata.get("course", {})}
    cells = []
    for cell in nb.cells:
        exercise = cell.metadata.get("course", {}).get("exercise")
        if exercise is None:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
            cells.append(cell)
            continue
        registry.lookup(exercise)  # fails here, not in class, if the lesson names no exercise
        key = exercise.replace(".", "_")
        answer = nbformat.v4.new_code_cell(answer_source(cell.source, solved[exercise].source))
        answer.metadata.update(_meta(f"{key}_answer", solution=True),
                               course={"exercise": exercise})
        points = POINTS.get(exercise, 1)
        unit = ("point" if points == 1 else "points") if lang == "en" else "分"
        test = nbformat.v4.new_code_cell(TEST.format(id=exercise, points=points, unit=unit))
        test.metadata.update(_meta(f"{key}_test", grade=True, locked=True, points=points))
        cells += [answer, test]
    nb.cells = cells
    return nb


def write_course(dest: Path, lang: str) -> list[str]:
    """One language's nbgrader course in ``dest``; returns its assignments' names."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    (dest / "nbgrader_config.py").write_text(CONFIG.format(lang=lang, stub=STUB[lang]))
    names = []
    for lesson in sorted((HERE / lang).glob("[0-9][0-9]_*.ipynb")):
        nb = graded_notebook(lesson, HERE / lang / "solutions" / lesson.name, lang)
        if not any("nbgrader" in cell.metadata for cell in nb.cells):
            continue  # a lesson without exercises is not an assignment
        name = f"lesson{lesson.name[:2]}"
        folder = dest / "source" / name
        shutil.copytree(HERE / "_course", folder / "_course",
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(HERE / lang / "course.py", folder / "course.py")
        nbformat.write(nb, folder / lesson.name)
        names.append(name)
    return names


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", type=Path, help="folder for the courses (one per language)")
    args = parser.parse_args(argv)
    for lang in LANGS:
        names = write_course(args.dest / lang, lang)
        print(f"wrote the nbgrader course {args.dest / lang}: {', '.join(names)}")


if __name__ == "__main__":
    main()
