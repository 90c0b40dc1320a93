"""nbgrader's round trip for some assignments of one course folder, in ONE process (each
``nbgrader`` command would pay nbgrader's start-up again); run with the grader environment's
Python from the course folder by test_nbgrader.py:

    python grade_round_trip.py lesson01 lesson03 ...

For each assignment: ``generate_assignment``, then two students hand in the released
notebook, "unchanged" as released and "solved" with every answer cell's stub replaced by the
source's solution, then ``autograde`` of both. Prints one JSON object: for each assignment,
its released notebook's text and each student's (score, max_score) from the gradebook.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook
from nbgrader.apps import NbGraderAPI
from traitlets.config.loader import PyFileConfigLoader

SOLUTION = re.compile(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION\n", re.S)
STUB = re.compile(r"^answer = \.\.\. .*\n", re.M)  # the config's code_stub, one line


def hand_in(assignment: str, student: str, solve: bool) -> None:
    folder = Path("submitted") / student / assignment
    shutil.copytree(Path("release") / assignment, folder)
    if not solve:
        return
    source = next((Path("source") / assignment).glob("*.ipynb"))
    solutions = {cell.metadata["nbgrader"]["grade_id"]: SOLUTION.search(cell.source).group(1)
                 for cell in nbformat.read(source, as_version=4).cells
                 if cell.metadata.get("nbgrader", {}).get("solution")}
    path = folder / source.name
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in solutions:
            stub = STUB.search(cell.source)
            assert stub, cell.source  # the student sees the stub where the solution was
            cell.source = cell.source.replace(stub.group(0), solutions[grade_id])
    nbformat.write(nb, path)


def main(assignments: list[str]) -> None:
    api = NbGraderAPI(config=PyFileConfigLoader("nbgrader_config.py", path=".").load_config())
    report = {}
    for assignment in assignments:
        result = api.generate_assignment(assignment, force=True)
        assert result["success"], result["log"] + str(result.get("error"))
        released = next((Path("release") / assignment).glob("*.ipynb")).read_text()
        report[assignment] = {"released": released}
        for student, solve in (("solved", True), ("unchanged", False)):
            hand_in(assignment, student, solve)
            result = api.autograde(assignment, student, force=True, create=True)
            assert result["success"], result["log"] + str(result.get("error"))
    with Gradebook("sqlite:///gradebook.db") as gradebook:
        for assignment in assignments:
            for student in ("solved", "unchanged"):
                submission = gradebook.find_submission(assignment, student)
                report[assignment][student] = [submission.score, submission.max_score]
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1:])
