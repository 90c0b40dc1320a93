"""The course's machinery: lesson sources, the built notebooks, the exercise checker, the
student version and the index.

The lessons are built from ``notebooks/_source/NN_slug.md`` by ``notebooks/build.py``; nbval
(see pyproject.toml) replays every built notebook against its stored outputs. This file checks
what nbval cannot: that the stored notebooks are what their sources say, that the English and
Chinese code is the same, and that the student version holds no solutions (the exercises
themselves: tests/lessons/test_exercises.py).
"""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
sys.path.insert(0, str(NOTEBOOKS))

import _course  # noqa: E402
import build  # noqa: E402
from _course.registry import EXERCISES, lookup  # noqa: E402

SOURCES = build.sources()
STEMS = [s.stem for s in SOURCES]
BUILT = [s for s in SOURCES if (NOTEBOOKS / "en" / f"{s.stem}.ipynb").exists()]
OPENING = {"en": ("**What you will do.**", "**What you will learn.**", "**What you need.**"),
           "zh": ("**你将做什么。**", "**你将学到什么。**", "**你需要什么。**")}


@pytest.fixture(autouse=True)
def english_afterwards():
    """The checker's set_language also sets the widgets' language: leave both as found."""
    yield
    _course.set_language("en")


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def _code(nb) -> list[tuple[str, list[str]]]:
    return [(c.source, c.metadata.get("tags", [])) for c in nb.cells if c.cell_type == "code"]


def _exercise_ids(blocks) -> list[str]:
    return [b.args[0] for b in blocks if b.kind == "exercise"]


def test_every_lesson_source_is_built_in_both_languages_with_solutions():
    assert [s.stem for s in BUILT] == STEMS, "run `make lessons` (or L=NN) after adding a source"
    for stem in STEMS:
        for path, _, _ in build.targets(stem):
            assert path.exists(), path


@pytest.mark.parametrize("source", BUILT, ids=[s.stem for s in BUILT])
def test_stored_notebooks_are_what_their_source_says(source):
    """Edit the source, not the notebook: ``make lessons L=NN`` rebuilds it."""
    blocks = build.parse(source)
    for path, lang, solutions in build.targets(source.stem):
        fresh = build.notebook(blocks, lang, solutions=solutions, stem=source.stem)
        stored = _read(path)
        assert [(c.id, c.cell_type, c.source, c.metadata) for c in stored.cells] == \
               [(c.id, c.cell_type, c.source, c.metadata) for c in fresh.cells], path


@pytest.mark.parametrize("source", BUILT, ids=[s.stem for s in BUILT])
def test_chinese_and_english_lessons_have_identical_code_cells(source):
    """The same code, except for the string literals and comments of a '<<< strings zh'."""
    for solutions in ("", "solutions"):
        en = _read(NOTEBOOKS / "en" / solutions / f"{source.stem}.ipynb")
        zh = _read(NOTEBOOKS / "zh" / solutions / f"{source.stem}.ipynb")
        assert len(en.cells) == len(zh.cells)
        assert [tags for _, tags in _code(en)] == [tags for _, tags in _code(zh)]
        for (en_code, _), (zh_code, _) in zip(_code(en), _code(zh)):
            assert build.differs_only_in_strings(en_code, zh_code), (en_code, zh_code)


@pytest.mark.parametrize(("en", "zh", "same"), [
    ('print("loss:", x)  # one', 'print("损失：", x)  # 一', True),
    ('print(f"{a} nodes")', 'print(f"{a} 个节点")', True),
    ('ax.set_xlabel("epoch")', 'ax.set_ylabel("epoch")', False),   # another call
    ('print("a", x)', 'print("a", y)', False),                     # another variable
    ('print("a", x)', 'print("a", x, "b")', False),                # one more argument
    ('print("a")', 'print("a");print("b")', False),
    ('x = 1  # a', 'x = 1\n# a', False),                          # lines moved
    ('print("a")', "print('a')", True),
    ('print("a")', 'print(a)', False),                             # a string became a name
])
def test_the_code_identity_rule_allows_only_strings_and_comments_to_differ(en, zh, same):
    assert build.differs_only_in_strings(en, zh) is same


def test_a_strings_block_replaces_whole_literals_and_comments_in_the_chinese_copy(tmp_path):
    source = tmp_path / "01_t.md"
    source.write_text('<<< en\n# T\n<<< zh\n# T\n<<< code\nprint("loss:", "loss:x")  '
                      '# the loss\n<<< strings zh\n"loss:"\n"损失："\n\n# the loss\n'
                      '# 损失\n', encoding="utf-8")
    code = build.parse(source)[2]
    assert code.code("en") == 'print("loss:", "loss:x")  # the loss'
    assert code.code("zh") == 'print("损失：", "loss:x")  # 损失'


@pytest.mark.parametrize(("strings", "message"), [
    ('"nodes"\n"节点"\n', '"nodes" is not a string literal or comment'),
    ('"loss:"\n损失\n', "must be one string, as"),
    ('"loss:"\n"损失"\n"more"\n', "pairs of lines"),
])
def test_a_wrong_strings_block_is_refused_with_its_line(tmp_path, strings, message):
    source = tmp_path / "01_t.md"
    source.write_text('<<< en\n# T\n<<< zh\n# T\n<<< code\nprint("loss:")\n'
                      f"<<< strings zh\n{strings}", encoding="utf-8")
    with pytest.raises(SyntaxError, match=message):
        build.parse(source)


@pytest.mark.parametrize("source", BUILT, ids=[s.stem for s in BUILT])
def test_lesson_opens_with_what_you_will_do_learn_and_need_in_both_languages(source):
    for lang, headings in OPENING.items():
        first = _read(NOTEBOOKS / lang / f"{source.stem}.ipynb").cells[0]
        assert first.cell_type == "markdown" and first.source.startswith("# ")
        for heading in headings:
            assert heading in first.source, f"{lang}/{source.stem}: missing {heading}"


@pytest.mark.parametrize("source", BUILT, ids=[s.stem for s in BUILT])
def test_stored_outputs_are_real_clean_and_judge_every_exercise(source):
    """Run top to bottom, errors only where tagged, no widget state or machine paths; each
    stub says "not answered yet" and each solution is judged right (build.verify)."""
    for path, _, _ in build.targets(source.stem):
        nb = _read(path)
        assert "widgets" not in nb.metadata
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), path
        build.verify(nb, str(path))
        for cell in code:
            for output in cell.outputs:
                assert not set(output.get("data", {})) & set(build.WIDGET_MIME)


@pytest.mark.parametrize("source", SOURCES, ids=STEMS)
def test_each_lesson_has_two_to_four_exercises_each_defined_in_its_own_module(source):
    ids = _exercise_ids(build.parse(source))
    assert 2 <= len(ids) <= 4, ids
    number = int(source.stem[:2])
    for exercise_id in ids:
        assert exercise_id.startswith(f"L{number}."), exercise_id
        assert lookup(exercise_id).module == f"_course.exercises.l{number:02d}"


def _all_exercises():
    ids = [i for s in SOURCES for i in _exercise_ids(build.parse(s))]
    return [lookup(i) for i in ids]


def test_every_registered_exercise_is_used_by_a_lesson():
    _all_exercises()
    used = {i for s in SOURCES for i in _exercise_ids(build.parse(s))}
    assert set(EXERCISES) - {"L0.demo"} <= used


def test_checker_says_right_think_again_or_not_answered():
    assert doctest.testmod(_course, optionflags=doctest.ELLIPSIS).failed == 0


def test_checker_counts_a_judge_that_raises_as_wrong_and_rejects_unknown_ids():
    verdict, message = _course.judge("L0.demo", object(), lang="en")
    assert verdict is False and "not an answer of the right kind" in message
    with pytest.raises(KeyError, match="no exercise 'L0.nothing'"):
        _course.judge("L0.nothing", 1)
    with pytest.raises(ValueError, match="exercise ids look like"):
        _course.judge("lesson0", 1)
    with pytest.raises(ValueError, match="lang must be one of en, zh, got 'fr'"):
        _course.set_language("fr")


@pytest.mark.parametrize("text, error", [
    ("<<< en\n# Title\n<<< code\nx = 1\n", "must be followed by its '<<< zh'"),
    ("<<< en\n# T\n<<< zh\n# T\n<<< exercise L1.a\ncheck(\"L1.a\", 1)\n<<< code\n1\n",
     "must be followed by its solution"),
    ("<<< en\n# T\n<<< zh\n# T\n<<< exercise L1.a\nanswer = ...\n<<< solution L1.a\n1\n",
     'must call check\\("L1.a"'),
    ("<<< en\n# T\n<<< zh\n# T\n<<< solution L1.a\n1\n", "must follow its exercise"),
    ("<<< code\n1\n<<< en\n# T\n<<< zh\n# T\n", "opens with its title"),
    ("<<< en\n# T\n<<< zh\n# T\n<<< code\n\n", "empty '<<< code' block"),
    ("stray\n<<< en\n# T\n<<< zh\n# T\n", "text before the first"),
])
def test_source_parser_rejects_malformed_lessons_saying_where(tmp_path, text, error):
    path = tmp_path / "99_bad.md"
    path.write_text(text)
    with pytest.raises(SyntaxError, match=error):
        build.parse(path)


def test_verify_rejects_an_untagged_error_and_an_unsolved_solution():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1/0", outputs=[
        nbformat.v4.new_output("error", ename="ZeroDivisionError", evalue="division by zero",
                               traceback=[])])])
    with pytest.raises(SystemExit, match="unexpected error"):
        build.verify(nb, "x")
    nb.cells = [nbformat.v4.new_code_cell("check('L0.demo', 41)", metadata={
        "course": {"solution": "L0.demo"}}, outputs=[nbformat.v4.new_output(
            "stream", name="stdout", text="❌ L0.demo: think again.\n")])]
    with pytest.raises(SystemExit, match="should print '✅ L0.demo"):
        build.verify(nb, "x")


def test_student_version_has_no_solutions_and_empty_exercise_outputs(tmp_path):
    dest = tmp_path / "student"
    build.student(dest)
    assert not list(dest.rglob("solutions")) and (dest / "index.ipynb").exists()
    assert "jupyter lab index.ipynb" in (dest / "README.md").read_text(encoding="utf-8")
    assert "solutions" not in (dest / "index.ipynb").read_text()
    for source in BUILT:
        for lang in build.LANGS:
            nb = _read(dest / lang / f"{source.stem}.ipynb")
            exercises = [c for c in nb.cells if "exercise" in c.metadata.get("course", {})]
            assert exercises and all(c.outputs == [] for c in exercises)
            assert all(c.execution_count is None for c in exercises)
            assert not any("solution" in c.metadata.get("course", {}) for c in nb.cells)
    # the hand-out is self-contained: its course.py finds its own copy of the checker
    probe = "from course import check; check('L0.demo', 45); import _course; print(_course.__file__)"
    for lang, right in (("en", "right!"), ("zh", "答对了")):
        out = subprocess.run([sys.executable, "-c", probe], cwd=dest / lang, text=True,
                             capture_output=True, check=True).stdout
        assert right in out and str(dest) in out, out


def test_index_links_every_lesson_in_both_languages_and_every_link_exists():
    stored = _read(NOTEBOOKS / "index.ipynb")
    assert stored.cells[0].source == build.index_notebook().cells[0].source, \
        "run `python notebooks/build.py --index`"
    text = stored.cells[0].source
    for stem in STEMS:
        for lang in build.LANGS:
            assert f"({lang}/{stem}.ipynb)" in text and f"({lang}/solutions/{stem}.ipynb)" in text
    for link in __import__("re").findall(r"\]\(([^)]+\.ipynb)\)", text):
        assert (NOTEBOOKS / link).exists(), link


def test_course_py_in_every_lesson_folder_sets_its_language():
    for lang in build.LANGS:
        for folder in (NOTEBOOKS / lang, NOTEBOOKS / lang / "solutions"):
            assert (folder / "course.py").read_text() == build.COURSE_PY.replace("{lang}", lang)


def test_answer_keys_hold_every_exercise_and_solution_in_both_languages():
    for lang in build.LANGS:
        text = (REPO / "docs" / "teachers" / lang / "answer-keys.md").read_text(encoding="utf-8")
        assert text == build.answer_keys(lang), "run `python notebooks/build.py --index`"
        for source in SOURCES:
            for block in build.parse(source):
                if block.kind == "solution":
                    assert f"### `{block.args[0]}`" in text and block.code(lang) in text
