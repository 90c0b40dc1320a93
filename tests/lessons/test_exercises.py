"""The exercises teach: graduated hints, a message for each typical wrong answer, one rule for
numbers, the solution only on request, no heap tie graded, and a hand-out that does not give
the answers away.

``ANSWERS`` holds each fingerprinted exercise's right answer. It is not trusted: the first
test checks the checker judges each one right (and the build checks every solution notebook),
so the table cannot drift from the exercises; the hand-out test then searches for these
answers in every file of ``make student``'s folder.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
sys.path.insert(0, str(NOTEBOOKS))

import _course  # noqa: E402
import build  # noqa: E402
from _course.registry import EXERCISES, lookup  # noqa: E402

ANSWERS = {
    "L1.slope": 12.0, "L1.grad": [-1., 8., 23.], "L1.step": 1e-2,
    "L2.leaves": ["a", "b"], "L2.accumulate": 2, "L2.saved": "_saved_other",
    "L3.mul": [-1., 2.], "L3.fork": 3,
    "L4.jacobian": [[3., 2.], [1., 1.]], "L4.vjp": [4., 12., 6.], "L4.row": [0., 1.],
    "L5.total": [9., 9.], "L5.keep": "C", "L5.second": 48.,
    "L6.block": [1., 2., 3.], "L6.loop": [1024.] * 3, "L6.inplace": [[2., 4., 6.], [2., 3., 4.]],
    "L7.grads": [[3.], [2.], [1.]], "L7.needs": (False, False, True),
    "L8.hook": [6., 12., 18.], "L8.nan": "SqrtBackward0",
    "L9.params": 42, "L9.accumulate": [0.7112, -0.7112], "L9.lr": 0.5711,
    "L10.order": ["AddBackward0", "TanhBackward0", "MulBackward0", "MulBackward0"],
    "L10.matmul": [[4.0, -1.0, 4.0], [-1.5, -0.5, -0.75]],
}
# judged against what minigrad computes at check time (nothing to read in _course/)
ASKS_MINIGRAD = {"L10.order", "L10.matmul"}
# judged by a property: what a solution's key line looks like
SOLUTION_LINES = {
    "L3.order": [r'"AddBackward0",\s*"MulBackward0",\s*"a",\s*"b"',
                 r'"AddBackward0",\s*"MulBackward0",\s*"b",\s*"a"'],
    "L7.square": [r"grad_output\s*\*\s*2\s*\*\s*tensor", r"2\s*\*\s*tensor\s*\*\s*grad_output",
                  r"return\s+2\s*\*\s*\w+\s*\*\s*grad_output"],
    "L8.shape": [r"grad_output\.expand\(ctx\.shape\)", r"\.expand\(ctx\.shape\)",
                 r"expand_as\("],
    "L10.relu": [r"\(self\.data\s*>\s*0\)\s*\*\s*out\.grad",
                 r"out\.grad\s*\*\s*\(self\.data\s*>\s*0\)"],
}
WORDS = {"en": ("think again.", "Hint {n} of {total}: "), "zh": ("再想想。", "提示（{n}/{total}）：")}


@pytest.fixture(autouse=True)
def english_and_no_misses_afterwards():
    yield
    _course.set_language("en")
    for ex in EXERCISES.values():
        ex.misses = 0


def _lesson_ids() -> list[str]:
    return [b.args[0] for s in build.sources() for b in build.parse(s) if b.kind == "exercise"]


IDS = _lesson_ids()


def test_the_answer_table_holds_every_exercise_and_each_answer_is_judged_right():
    assert set(ANSWERS) | set(SOLUTION_LINES) == set(IDS)
    for exercise_id, answer in ANSWERS.items():
        assert _course.judge(exercise_id, answer)[0] is True, exercise_id
        assert lookup(exercise_id).expect is not None or exercise_id in ASKS_MINIGRAD, \
            exercise_id
    for exercise_id in SOLUTION_LINES:
        assert lookup(exercise_id).judge is not None, exercise_id


@pytest.mark.parametrize("exercise_id", IDS)
def test_every_exercise_has_at_least_two_hint_levels_in_both_languages(exercise_id):
    ex = lookup(exercise_id)
    assert len(ex.hints) >= 2 and len(set(ex.hints)) == len(ex.hints)
    for hint in ex.hints:
        assert hint.en.strip() and hint.zh.strip() and re.search(r"[\u4e00-\u9fff]", hint.zh)


def _untypical_wrong(exercise_id):
    """A wrong answer of the right kind that has no message of its own."""
    from _course.exercises.l03 import _quiz
    from _course.exercises.l07 import _square_like
    from _course.exercises.l08 import _sum_rows
    from _course.exercises.l10 import _value_with_relu

    def relu_off_by_one():  # the right gate, a wrong value: a hint, no message of its own
        cls = _value_with_relu(lambda a, g: (a > 0) * g)
        gate = cls.relu

        def relu(self):
            out = gate(self)
            out.data += 1.0
            return out

        cls.relu = relu
        return cls

    made = {"L3.order": lambda: _quiz(["MulBackward0", "AddBackward0", "MulBackward0", "a",
                                       "b"]),
            "L7.square": lambda: _square_like(lambda ctx, g: 3 * g * ctx.saved_tensors[0]),
            "L8.shape": lambda: _sum_rows(lambda ctx, g: 3 * g.expand(ctx.shape)),
            "L10.relu": relu_off_by_one}
    if exercise_id in made:
        return made[exercise_id]()
    value = ANSWERS[exercise_id]
    if exercise_id == "L5.keep":
        return "B"
    if exercise_id == "L10.order":  # four nodes, neither the engine's order nor our sort's
        return ["MulBackward0", "AddBackward0", "TanhBackward0", "MulBackward0"]
    if isinstance(value, tuple):
        return (True, False, False)
    if isinstance(value, str):
        return "NoSuchBackward0"
    if isinstance(value, list) and isinstance(value[0], str):
        return ["z"]
    return (np.asarray(value, dtype=float) + 17.25).tolist()


@pytest.mark.parametrize("exercise_id", IDS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hints_are_graduated_and_the_solution_is_offered_only_after_the_last(exercise_id, lang):
    ex = lookup(exercise_id)
    wrong, total = _untypical_wrong(exercise_id), len(ex.hints)
    think, hint = WORDS[lang]
    for misses in range(total + 1):
        n = min(misses + 1, total)
        verdict, message = _course.judge(exercise_id, wrong, lang=lang, misses=misses)
        assert verdict is False
        assert message.startswith(f"❌ {exercise_id}") and think in message
        assert hint.format(n=n, total=total) + ex.hints[n - 1].get(lang) in message
        assert ("show=True" in message) == (n == total), message


@pytest.mark.parametrize("exercise_id", IDS)
def test_each_typical_wrong_answer_gets_its_own_message_in_both_languages(exercise_id):
    import minigrad  # noqa: F401  (wrong answers may be minigrad tensors or classes)

    ex = lookup(exercise_id)
    assert ex.wrong
    for wrong, text in ex.wrong_answers():
        for lang in ("en", "zh"):
            verdict, message = _course.judge(exercise_id, wrong, lang=lang)
            assert verdict is False, (exercise_id, wrong)
            assert message.endswith(text.get(lang)), (message, text.get(lang))
            assert "Hint" not in message and "提示（" not in message


def test_check_gives_the_next_hint_on_each_miss_and_counts_no_specific_message(capsys):
    ex = lookup("L1.grad")
    _course.check("L1.grad", [5., 5., 5.])
    _course.check("L1.grad", [-3.0, 0.0, 15.0])  # a typical wrong answer: its own message
    _course.check("L1.grad", [5., 5., 5.])
    _course.check("L1.grad", [5., 5., 5.])
    lines = capsys.readouterr().out.splitlines()
    assert "Hint 1 of 2: " + ex.hints[0].en in lines[0] and "show=True" not in lines[0]
    assert lines[1].endswith(ex.wrong[0][1].en)
    assert "Hint 2 of 2: " + ex.hints[1].en in lines[2] and "show=True" in lines[2]
    assert "Hint 2 of 2: " in lines[3]


def test_show_true_prints_the_solution_from_the_lesson_source(capsys):
    for exercise_id in IDS:
        code = _course.solution(exercise_id)
        block = next(b for s in build.sources() for b in build.parse(s)
                     if b.kind == "solution" and b.args == [exercise_id])
        assert code == block.text
    _course.check("L3.mul", ..., show=True)
    assert capsys.readouterr().out == ("Solution of L3.mul (from the solutions notebook):\n\n"
                                       + _course.solution("L3.mul") + "\n")


NUMBER_IDS = [i for i, a in ANSWERS.items() if isinstance(a, (int, float))
              and not isinstance(a, bool)]


@pytest.mark.parametrize("exercise_id", NUMBER_IDS)
def test_one_rule_for_numbers_a_number_its_string_and_a_0d_tensor(exercise_id, torch):
    import minigrad

    value = ANSWERS[exercise_id]
    forms = [value, float(value), str(value), f" {value!r} ", np.float32(value),
             np.array(value), minigrad.tensor(float(value)), torch.tensor(float(value))]
    if float(value).is_integer():
        forms += [int(value), str(int(value))]
    for form in forms:
        assert _course.judge(exercise_id, form)[0] is True, (exercise_id, repr(form))
    for form in (True, None, "three", [value, value]):
        verdict, message = _course.judge(exercise_id, form)
        assert verdict is False and "not an answer of the right kind" in message, form


def test_lists_arrays_and_tensors_are_one_rule_for_vectors(torch):
    import minigrad

    value = ANSWERS["L1.grad"]
    for form in (value, tuple(value), np.array(value), minigrad.tensor(value),
                 torch.tensor(value), [minigrad.tensor(v) for v in value]):
        assert _course.judge("L1.grad", form)[0] is True, repr(form)
    verdict, message = _course.judge("L1.grad", [1., 2.])
    assert not verdict and "shape (3,)" in message


def test_the_old_inconsistency_is_gone_3_and_1e_2_as_strings_are_both_numbers():
    assert _course.judge("L3.fork", "3")[0] is True
    assert _course.judge("L1.step", "1e-2")[0] is True


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_lesson_3s_quiz_exercise_accepts_either_order_of_the_tied_leaves(order):
    from _course.exercises.l03 import _quiz

    quiz = _quiz(["AddBackward0", "MulBackward0", *order])
    assert _course.judge("L3.order", quiz)[0] is True


def test_l5_keep_is_multiple_choice_with_a_message_for_the_typical_wrong_letters():
    assert _course.judge("L5.keep", "(c)")[0] is True
    verdict, message = _course.judge("L5.keep", "first: retain_graph=True")
    assert verdict is False and 'Answer with one letter: "A", "B", "C", "D".' in message


# ---------------------------------------------------------------- the hand-out
def _spellings(value) -> list[str]:
    """How a student would search for a number: 12, 12.0, 12., 1e-2, 0.01, 0.5711 ..."""
    v = float(value)
    forms = {repr(v), f"{v:g}", str(value), f"{v:.0e}", re.sub(r"e([-+])0*", r"e\1", f"{v:.0e}")}
    if v.is_integer():
        forms |= {str(int(v)), f"{int(v)}."}
    return sorted(forms)


def _patterns(exercise_id) -> list[str]:
    """Regular expressions for the answer of an exercise as it could be written down."""
    if exercise_id in SOLUTION_LINES:
        return SOLUTION_LINES[exercise_id]
    value = ANSWERS[exercise_id]
    if isinstance(value, str):
        return [re.escape(f'"{value}"'), re.escape(f"'{value}'"),
                rf"==\s*['\"]?{re.escape(value)}"]
    if isinstance(value, tuple):
        return [r"\(\s*" + r",\s*".join(str(v) for v in value) + r"\s*\)"]
    if isinstance(value, list) and value and isinstance(value[0], str):
        return [r"\[\s*" + r",\s*".join(f"['\"]{v}['\"]" for v in value) + r"\s*\]"]
    if isinstance(value, list):
        flat = [float(v) for v in np.asarray(value).reshape(-1)]
        seqs = []
        for style in ("{!r}", "{:g}", "{:g}."):
            parts = [style.format(int(v) if style != "{!r}" and v.is_integer() else v)
                     for v in flat]
            seqs.append(r"[\[(]+\s*" + r"\s*[\])]?,\s*[\[(]?\s*".join(
                re.escape(p) + r"(?![\d.])" for p in parts) + r"\s*[\])]+")
        return seqs
    # one number: in a comparison with the answer, assigned as the answer or the expected one
    near = r"(answer\)?\s*(==|!=|-|<|>)|answer\s*=|expect\w*\s*=|close\(\s*answer\s*,)"
    return [rf"{near}\s*\[?\s*{re.escape(s)}(?![\d.])" for s in _spellings(value)] + \
        [rf"['\"]{re.escape(s)}['\"]" for s in _spellings(value)]


# answers that are, by the question's design, in the question itself, so that only _course/
# must not spell them: a node name or a letter the lesson shows, an option of the question
# (L1.step's h), the inputs of L7.grads. L6.block's answer is x itself (the blocked path leaves
# dz/dx = x): the exercise's own input, so nothing can hide it and it is not searched for.
# (L10.order: section 4 prints our sort's order of another expression, the same four names)
IN_THE_QUESTION = {"L7.grads", "L8.nan", "L2.saved", "L5.keep", "L1.step", "L10.order"}
NOT_SEARCHED = {"L6.block"}


@pytest.fixture(scope="module")
def handout(tmp_path_factory):
    dest = tmp_path_factory.mktemp("handout") / "student"
    build.student(dest)
    return dest


def _files(dest: Path):
    for path in sorted(dest.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".md", ".ipynb", ".txt", ".json"):
            yield path, path.read_text(encoding="utf-8")


@pytest.mark.parametrize("exercise_id", sorted(set(IDS) - NOT_SEARCHED))
def test_no_file_of_the_handout_spells_an_exercises_answer(handout, exercise_id):
    """_course/, the README and the indexes entirely; of the notebooks, the exercise's own
    lesson (another lesson's outputs may hold the same numbers by chance)."""
    lesson = f"{int(exercise_id[1:].split('.')[0]):02d}_"
    found = []
    for path, text in _files(handout):
        if path.suffix == ".ipynb" and path.name != "index.ipynb" and (
                exercise_id in IN_THE_QUESTION or not path.name.startswith(lesson)):
            continue
        for pattern in _patterns(exercise_id):
            for match in re.finditer(pattern, text):
                where = text[max(0, match.start() - 60):match.end() + 20]
                found.append(f"{path.relative_to(handout)}: ...{where!r}")
    assert not found, "\n".join(found[:5])


def test_the_handout_search_finds_an_answer_left_in_plain_sight(tmp_path):
    """The search can fail: an exercise module written the old way is caught."""
    dest = tmp_path / "student"
    build.student(dest)
    (dest / "_course" / "exercises" / "l01.py").write_text(
        "def grad(answer):\n    return close(answer, [-1.0, 8.0, 23.0])\n"
        "def slope(answer):\n    return abs(number(answer) - 12.0) < 1e-4\n")
    (dest / "_course" / "exercises" / "l07.py").write_text(
        "# backward: return grad_output * 2 * tensor\n")
    for exercise_id in ("L1.grad", "L1.slope", "L7.square"):
        hits = [p for p, text in _files(dest)
                if any(re.search(pattern, text) for pattern in _patterns(exercise_id))]
        assert hits, exercise_id


def test_the_handout_says_no_solutions_when_asked_to_show_one(handout):
    import subprocess

    probe = ("from course import check; check('L3.mul', ..., show=True); "
             "check('L3.mul', [0.5, 0.5])")
    for lang, words in (("en", "has no solutions"), ("zh", "不含参考答案")):
        out = subprocess.run([sys.executable, "-c", probe], cwd=handout / lang, text=True,
                             capture_output=True, check=True).stdout
        assert words in out and "❌ L3.mul" in out, out


# ---------------------------------------------------------------- the kit's timings
def _kit_rows(lang: str) -> dict[int, list[str]]:
    text = (REPO / "docs" / "teachers" / lang / "lessons.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip().strip("*") for c in line.strip("|").split("|")]
        if len(cells) == 7 and cells[0].isdigit():
            rows[int(cells[0])] = cells
    return rows


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_kits_timings_follow_its_stated_rules_and_each_lesson_says_its_sum(lang):
    """Reading, code and typing minutes are recomputed from the sources with the rules of
    notebooks/timings.py (the machine seconds come from its nbclient run); each lesson's
    "What you need" states the kit's sum."""
    import timings

    rows = _kit_rows(lang)
    assert sorted(rows) == [int(s.stem[:2]) for s in build.sources()]
    said = re.compile(r"About (\d+) minutes\." if lang == "en" else r"大约 (\d+) 分钟。")
    for source in build.sources():
        row = rows[int(source.stem[:2])]
        reading, code, typing = timings.learner_minutes(source, lang)
        assert [round(reading), round(code), round(typing)] == [int(c) for c in row[2:5]], row
        seconds = int(re.match(r"\d+", row[1]).group())
        assert int(row[5]) == round(reading + code + typing + seconds / 60), row
        opening = next(b.text for b in build.parse(source) if b.kind == lang)
        assert said.findall(opening) == [row[5]], (source.stem, said.findall(opening))


def test_no_lesson_prints_the_exception_mode_line_and_errors_are_short():
    """course.py sets IPython's Minimal tracebacks silently (`%xmode Minimal` printed
    "Exception reporting mode: Minimal" at the top of lessons 4 and 7)."""
    import nbformat

    for source in build.sources():
        assert "%xmode" not in source.read_text(encoding="utf-8"), source.name
        for path, _, _ in build.targets(source.stem):
            nb = nbformat.read(path, as_version=4)
            for cell in nb.cells:
                for output in cell.get("outputs", []):
                    assert "Exception reporting mode" not in output.get("text", ""), path
                    if output.output_type == "error":  # Minimal: the error's line only
                        assert len(output.traceback) == 1, (path, output.traceback)


def test_the_answer_readers_examples_hold():
    import doctest

    from _course import answers

    assert doctest.testmod(answers).failed == 0
