"""Build the course's notebooks from their sources in notebooks/_source/.

    python notebooks/build.py              # every lesson, executed, and the index (make lessons)
    python notebooks/build.py 03 06        # lessons 3 and 6 only (make lessons L="03 06")
    python notebooks/build.py --index      # the index notebook and the answer keys (no kernel)
    python notebooks/build.py --student build/student    # the hand-out version (make student)

Each lesson has ONE source, ``_source/NN_slug.md``: plain text cut into blocks by header lines

    <<< en                      Markdown in English          } a pair: one Markdown cell,
    <<< zh                      the same, in Chinese         } in each language's notebook
    <<< code [tag ...]          a code cell, identical in both languages (tags such as
                                raises-exception go into the cell's metadata)
    <<< strings zh              right after a code, exercise or solution block: what its
                                Chinese copy prints differently (see below)
    <<< exercise L3.order       the stub a learner completes: ``answer = ...`` then
                                ``check("L3.order", answer)``; stored output: "not answered yet"
    <<< solution L3.order       the solved cell; replaces the stub in the solutions notebooks

A code cell is the same in both languages except for the strings it prints and its comments.
A ``<<< strings zh`` block after it lists, in pairs separated by blank lines, a string literal
or comment exactly as the code has it, then the line the Chinese notebook has instead:

    <<< code
    print("same steps as minigrad:", same)      # True
    <<< strings zh
    "same steps as minigrad:"
    "与 minigrad 的步骤相同："

The build replaces whole tokens only (a string literal stays a string literal, a comment a
comment), and fails if a pair matches nothing; :func:`differs_only_in_strings` is the rule
the code-identity test checks.

From it come en/NN_slug.ipynb, zh/NN_slug.ipynb, en/solutions/NN_slug.ipynb and
zh/solutions/NN_slug.ipynb, each executed in a fresh kernel whose working directory is the
notebook's folder, then cleaned (no widget state, no timings, no machine paths). The build
fails if a cell not tagged raises-exception errors, if a stub does not print "not answered
yet", or if a solution is not judged right.
"""

from __future__ import annotations

import argparse
import io
import re
import shutil
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SOURCES = HERE / "_source"
LANGS = ("en", "zh")
sys.path.insert(0, str(REPO / "tests" / "lessons"))
from notebook_tools import WIDGET_MIME, clean, execute, machine_paths  # noqa: E402, F401

HEADER = re.compile(r"^<<< (en|zh|code|exercise|solution|strings)\b(.*)$")
CODE_KINDS = ("code", "exercise", "solution")
TRANSLATABLE = (tokenize.STRING, tokenize.COMMENT)  # what may differ between the languages
CJK = re.compile("[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
STRUCTURE = re.compile(r"^\s*(#|\||-|\*|>|\d+\.|```|<<<)")  # a line Markdown reads as a block
HEADING_OR_ROW = re.compile(r"^\s*(#|\|)")  # a line that ends where it ends


def join_chinese_lines(text: str) -> str:
    r"""``text`` with a line break removed where it falls between two Chinese characters or
    punctuation marks inside a paragraph (Markdown would show it as a space): not after a
    heading or table row, not before a line that starts a list item, table row or heading.

    >>> join_chinese_lines("按钮（重置、后退、\n播放）\n- 一项，\n续行\n## 标题\n正文")
    '按钮（重置、后退、播放）\n- 一项，续行\n## 标题\n正文'
    """
    lines = text.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        before = out[-1]
        if (before and line and CJK.match(before[-1]) and CJK.match(line[0])
                and not HEADING_OR_ROW.match(before) and not STRUCTURE.match(line)):
            out[-1] = before + line
        else:
            out.append(line)
    return "\n".join(out)
UP_LINK = re.compile(r"\]\((\.\./)")  # a Markdown link out of the lesson's folder
KERNEL = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
SOLUTIONS_NOTE = {
    "en": "**Solutions.** This is the lesson with every exercise solved "
          "(for teachers; the learners' copy is [../{name}](../{name})).",
    "zh": "**参考答案。** 这是每道练习都已解答的版本（供教师使用；学生版见 "
          "[../{name}](../{name})）。",
}
COURSE_PY = '''"""``from course import check``: the exercise checker, in this folder's language.

Written by notebooks/build.py: the checker is the _course/ package in the nearest folder above.
"""

import sys
from pathlib import Path

_here = Path(__file__).resolve()
sys.path.insert(0, str(next(p for p in _here.parents if (p / "_course").is_dir())))
from _course import check, set_language  # noqa: E402

set_language("{lang}")

try:  # short tracebacks (the error's last line only), as %xmode Minimal, without its printout
    from IPython import get_ipython

    get_ipython().InteractiveTB.set_mode("Minimal")
except (ImportError, AttributeError):  # plain Python: nothing to set
    pass
'''


@dataclass
class Block:
    kind: str           # en, zh, code, exercise, solution (strings: folded into the block before)
    args: list[str]     # tags of a code block; the id of an exercise or solution
    text: str
    line: int
    zh: list = None     # (literal, its Chinese replacement) pairs of a code block

    def code(self, lang: str) -> str:
        """The cell's source in ``lang``: the Chinese copy with its strings replaced."""
        return replace_tokens(self.text, dict(self.zh or ())) if lang == "zh" else self.text


def _tokens(code: str) -> list[tokenize.TokenInfo]:
    return [tok for tok in tokenize.generate_tokens(io.StringIO(code).readline)
            if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.ENDMARKER)]


def replace_tokens(code: str, table: dict[str, str]) -> str:
    """``code`` with each string literal or comment found in ``table`` replaced, token by token."""
    starts = [0]
    for line in code.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    out, last = [], 0
    for tok in _tokens(code):
        if tok.type in TRANSLATABLE and tok.string in table:
            begin = starts[tok.start[0] - 1] + tok.start[1]
            out += [code[last:begin], table[tok.string]]
            last = starts[tok.end[0] - 1] + tok.end[1]
    return "".join(out) + code[last:]


def differs_only_in_strings(a: str, b: str) -> bool:
    """Whether two cells are the same code: equal but for string literals and comments."""
    def shape(code):
        try:
            return [(tok.type, "" if tok.type in TRANSLATABLE else tok.string, tok.start[0])
                    for tok in _tokens(code)]
        except (tokenize.TokenError, SyntaxError, IndentationError):
            return code  # not Python (a shell line, a magic): must be equal as text
    return a == b or shape(a) == shape(b)


def _strings_table(path: Path, block: Block, code: Block) -> list[tuple[str, str]]:
    """The pairs of a ``<<< strings zh`` block, each checked against the code it follows."""
    def fail(message):
        raise SyntaxError(f"{path.name}:{block.line}: {message}")

    if block.args != ["zh"]:
        fail("'<<< strings' takes the language it translates to: '<<< strings zh'")
    pairs = [chunk.splitlines() for chunk in re.split(r"\n\s*\n", block.text)]
    if any(len(pair) != 2 for pair in pairs):
        fail("a strings block holds pairs of lines (the literal or comment as the code has "
             "it, then its Chinese), separated by blank lines")
    found = {tok.string: tok.type for tok in _tokens(code.text) if tok.type in TRANSLATABLE}
    for old, new in pairs:
        if old not in found:
            fail(f"{old} is not a string literal or comment of the code block above")
        kind = [tok.type for tok in _tokens(new)] if new.strip() else []
        if kind != [found[old]]:
            fail(f"{new} must be one {tokenize.tok_name[found[old]].lower()}, as {old} is")
    return [tuple(pair) for pair in pairs]


def parse(path: Path) -> list[Block]:
    """The blocks of a lesson source, checked: Markdown in en/zh pairs, every exercise
    followed by its solution."""
    blocks: list[Block] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = HEADER.match(line)
        if match:
            blocks.append(Block(match.group(1), match.group(2).split(), "", n))
        elif blocks:
            blocks[-1].text += line + "\n"
        elif line.strip():
            raise SyntaxError(f"{path.name}:{n}: text before the first '<<< ' block header")
    for block in blocks:
        block.text = block.text.strip("\n")
    folded: list[Block] = []
    for block in blocks:
        if block.kind != "strings":
            folded.append(block)
        elif not folded or folded[-1].kind not in CODE_KINDS or folded[-1].zh:
            raise SyntaxError(f"{path.name}:{block.line}: '<<< strings zh' must follow a code, "
                              "exercise or solution block (one per block)")
        else:
            folded[-1].zh = _strings_table(path, block, folded[-1])
    _validate(path, folded)
    return folded


def _validate(path: Path, blocks: list[Block]) -> None:
    def fail(block, message):
        raise SyntaxError(f"{path.name}:{block.line}: {message}")

    i = 0
    while i < len(blocks):
        block = blocks[i]
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        if not block.text:
            fail(block, f"empty '<<< {block.kind}' block")
        if block.kind in LANGS:
            other = "zh" if block.kind == "en" else "en"
            if following is None or following.kind != other:
                fail(block, f"'<<< {block.kind}' must be followed by its '<<< {other}'")
            i += 2
            continue
        if block.kind in ("exercise", "solution") and len(block.args) != 1:
            fail(block, f"'<<< {block.kind}' takes one exercise id, e.g. L3.order")
        if block.kind == "exercise":
            if following is None or following.kind != "solution" or following.args != block.args:
                fail(block, f"exercise {block.args[0]} must be followed by its solution")
            if f'check("{block.args[0]}"' not in block.text:
                fail(block, f'the exercise must call check("{block.args[0]}", ...)')
            i += 2
            continue
        if block.kind == "solution":
            fail(block, "a solution must follow its exercise")
        i += 1
    if not blocks or blocks[0].kind not in LANGS:
        raise SyntaxError(f"{path.name}: a lesson opens with its title in '<<< en' and '<<< zh'")


def notebook(blocks: list[Block], lang: str, *, solutions: bool, stem: str):
    """One of the four notebooks of a lesson, not yet executed."""
    new_md, new_code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = []
    if solutions:
        cells.append(new_md(SOLUTIONS_NOTE[lang].format(name=f"{stem}.ipynb")))
    titled = not solutions
    for block in blocks:
        if block.kind == lang:
            text = block.text
            if not titled and text.startswith("# "):  # the solutions' own title
                head, _, rest = text.partition("\n")
                text, titled = f"{head} · {SOLUTIONS_WORD[lang]}\n{rest}", True
            if solutions:  # one folder deeper: a relative link climbs one more level
                text = UP_LINK.sub(r"](../\1", text)
            if lang == "zh":  # a line break inside Chinese would show as a space
                text = join_chinese_lines(text)
            cells.append(new_md(text))
        elif block.kind == "code":
            cells.append(new_code(block.code(lang),
                                  metadata={"tags": block.args} if block.args else {}))
        elif block.kind == ("solution" if solutions else "exercise"):
            cells.append(new_code(block.code(lang), metadata={
                "tags": [block.kind], "course": {block.kind: block.args[0]}}))
    for n, cell in enumerate(cells):
        cell.id = f"{stem[:2]}-{n:03d}{'-s' if solutions else ''}"
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata = {"kernelspec": KERNEL, "language_info": {"name": "python"},
                   "course": {"lesson": stem, "language": lang, "solutions": solutions}}
    return nb


def _outputs_text(cell) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream":
            parts.append(output.text)
        elif output.output_type == "error":
            parts.append(f"{output.ename}: {output.evalue}")
        else:
            parts.append(output.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


def verify(nb, where: str) -> None:
    """Errors only where tagged; stubs say "not answered yet", solutions are judged right."""
    for n, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        tags = cell.metadata.get("tags", [])
        errors = [o for o in cell.outputs if o.output_type == "error"]
        if bool(errors) != ("raises-exception" in tags):
            raise SystemExit(f"{where}, cell {n}: {'unexpected error' if errors else 'no error'}"
                             f" ({'untagged' if errors else 'tagged raises-exception'}):\n"
                             + _outputs_text(cell))
        course = cell.metadata.get("course", {})
        for kind, mark in (("exercise", "✏️"), ("solution", "✅")):
            if kind in course and f"{mark} {course[kind]}" not in _outputs_text(cell):
                raise SystemExit(f"{where}, cell {n}: the {kind} {course[kind]} should print "
                                 f"'{mark} {course[kind]}...', got:\n{_outputs_text(cell)}")
    paths = machine_paths(nb)
    if paths:
        raise SystemExit(f"{where}: machine paths in outputs: {paths[:3]}")


def targets(stem: str) -> list[tuple[Path, str, bool]]:
    """(path, language, solutions?) of the four notebooks made from one source."""
    return [(HERE / lang / ("solutions" if sol else "") / f"{stem}.ipynb", lang, sol)
            for lang in LANGS for sol in (False, True)]


def build(source: Path, *, run: bool = True) -> None:
    blocks = parse(source)
    for path, lang, solutions in targets(source.stem):
        nb = notebook(blocks, lang, solutions=solutions, stem=source.stem)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_course_py(path.parent, lang)
        if run:
            clean(execute(nb, cwd=path.parent))
            verify(nb, str(path.relative_to(REPO)))
        nbformat.write(nb, path)
        print(f"{'built' if run else 'wrote (not executed)'} {path.relative_to(REPO)}")


# Matplotlib reads a matplotlibrc in the working directory (the notebook's folder): a Chinese
# lesson's plot titles and axes need a font with Chinese glyphs (the first one installed).
CJK_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",
             "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB", "SimHei", "DejaVu Sans")
MATPLOTLIBRC = {"zh": "# written by notebooks/build.py: Chinese plot labels need Chinese glyphs\n"
                      "font.family: sans-serif\nfont.sans-serif: " + ", ".join(CJK_FONTS) + "\n"}


def write_course_py(folder: Path, lang: str) -> None:
    """The folder's ``course.py`` (and, for Chinese, its ``matplotlibrc``)."""
    (folder / "course.py").write_text(COURSE_PY.replace("{lang}", lang), encoding="utf-8")
    if lang in MATPLOTLIBRC:
        (folder / "matplotlibrc").write_text(MATPLOTLIBRC[lang], encoding="utf-8")


def title(blocks: list[Block], lang: str) -> str:
    first = next(b for b in blocks if b.kind == lang).text.splitlines()[0]
    return first.lstrip("#").strip()


def sources() -> list[Path]:
    return sorted(SOURCES.glob("[0-9][0-9]_*.md"))


def index_notebook(links_to_solutions: bool = True):
    """The course's front page: every lesson, in both languages."""
    rows = []
    for source in sources():
        blocks, stem = parse(source), source.stem
        row = (f"| {int(stem[:2])} | [{title(blocks, 'zh')}](zh/{stem}.ipynb) "
               f"| [{title(blocks, 'en')}](en/{stem}.ipynb) |")
        if links_to_solutions:
            row += f" [答案](zh/solutions/{stem}.ipynb) · [solutions](en/solutions/{stem}.ipynb) |"
        rows.append(row)
    head = "| | 中文 | English |" + (" 参考答案 / solutions |" if links_to_solutions else "")
    rule = "|---|---|---|" + ("---|" if links_to_solutions else "")
    text = ("# minigrad：自动求导课程 · a course in automatic differentiation\n\n"
            "每一课 15～45 分钟（开头写有实测用时），从上到下依次运行即可；"
            "练习会自动检查你的答案。\n"
            "Each lesson takes 15 to 40 minutes (its opening says how long, measured): run it "
            "top to bottom; the exercises check "
            "your answers themselves.\n\n" + "\n".join([head, rule, *rows]))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(text)])
    nb.cells[0].id = "index"
    nb.metadata = {"kernelspec": KERNEL, "language_info": {"name": "python"}}
    return nb


LANGUAGE_INDEX = {
    "en": ("# minigrad: a course in automatic differentiation\n\nEach lesson takes 15 to 40 "
           "minutes (its opening says how long, measured): run it top to bottom; the exercises "
           "check your answers themselves.\n\n"),
    "zh": ("# minigrad：自动求导课程\n\n每一课 15～45 分钟（开头写有实测用时），从上到下依次运行"
           "即可；练习会自动检查你的答案。\n\n"),
}
SOLUTIONS_WORD = {"en": "solutions", "zh": "参考答案"}


def language_index(lang: str, links_to_solutions: bool = True):
    """The course's front page in one language (``<lang>/index.ipynb``, where a hub or
    Binder link opens the course)."""
    rows = []
    for source in sources():
        blocks, stem = parse(source), source.stem
        row = f"{int(stem[:2])}. [{title(blocks, lang)}]({stem}.ipynb)"
        if links_to_solutions:
            row += f" · [{SOLUTIONS_WORD[lang]}](solutions/{stem}.ipynb)"
        rows.append(row)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        LANGUAGE_INDEX[lang] + "\n".join(rows))])
    nb.cells[0].id = "index"
    nb.metadata = {"kernelspec": KERNEL, "language_info": {"name": "python"}}
    return nb


ANSWER_KEYS = {
    "en": ("# Answer keys\n\nEvery exercise of the course with its solution, as the solution "
           "notebooks run it (their stored outputs show each one judged right). Generated from "
           "the lesson sources by `python notebooks/build.py --index`; do not edit by hand.\n"),
    "zh": ("# 参考答案\n\n课程中每道练习及其解答，与参考答案笔记本中运行的代码相同"
           "（笔记本中保存的输出显示每道题都判定为正确）。"
           "由 `python notebooks/build.py --index` 根据课程源文件生成，"
           "请勿手工修改。\n"),
}
PROMPT_START = {"en": "**Exercise", "zh": "**练习"}
SOLUTIONS_AT = {"en": "Solutions notebook: ", "zh": "参考答案笔记本："}


def answer_keys(lang: str) -> str:
    """The teacher's answer keys in ``lang``: each exercise's question and solution."""
    parts = [ANSWER_KEYS[lang]]
    for source in sources():
        blocks, stem = parse(source), source.stem
        parts.append(f"\n## {title(blocks, lang)}\n\n{SOLUTIONS_AT[lang]}"
                     f"`notebooks/{lang}/solutions/{stem}.ipynb`\n")
        for n, block in enumerate(blocks):
            if block.kind != "solution":
                continue
            prompt = next(b.text for b in reversed(blocks[:n]) if b.kind == lang)
            start = prompt.rfind(PROMPT_START[lang])
            prompt = prompt[start:] if start >= 0 else ""
            parts.append(f"\n### `{block.args[0]}`\n\n{prompt}\n\n```python\n"
                         f"{block.code(lang)}\n```\n")
    return "".join(parts)


def write_index() -> None:
    """The index notebook and the teacher's answer keys (both are made from the sources)."""
    nbformat.write(index_notebook(), HERE / "index.ipynb")
    for lang in LANGS:
        nbformat.write(language_index(lang), HERE / lang / "index.ipynb")
        path = REPO / "docs" / "teachers" / lang / "answer-keys.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(answer_keys(lang), encoding="utf-8")
    print("wrote notebooks/index.ipynb, notebooks/*/index.ipynb and docs/teachers/*/answer-keys.md")


STUDENT_README = """# minigrad：自动求导课程 · a course in automatic differentiation

## 安装 / set up

在这个文件夹里运行（wheelhouse/ 由老师用 `make wheelhouse` 准备，不需要联网）。
Run in this folder (your teacher made wheelhouse/ with `make wheelhouse`; no internet needed):

    pip install --no-index --find-links wheelhouse 'minigrad-autograd[lab]'

已经有 Jupyter 的地方（JupyterHub、Colab、VS Code）只装课程需要的部分：
Where Jupyter is already there (JupyterHub, Colab, VS Code), only what the lessons import:

    pip install --no-index --find-links wheelhouse 'minigrad-autograd[course]'

minigrad-autograd 还没有发布到 PyPI；PyPI 上名为 minigrad 的是另一个无关的项目。
minigrad-autograd is not on PyPI yet; the project named minigrad on PyPI is unrelated.

## 打开 / open

    jupyter lab index.ipynb        (中文: zh/index.ipynb, English: en/index.ipynb)

每一课从上到下运行；每个练习单元格以 check(...) 结尾：把 ... 换成你的答案再运行。答错时会给出
提示，一次比一次具体。这份材料不含参考答案。
Run each lesson top to bottom; each exercise cell ends with check(...): replace the ... with
your answer and run it again. A wrong answer gets a hint, more specific each time. This copy
has no solutions.
"""


def student(dest: Path) -> None:
    """The hand-out: lessons with the exercise cells' outputs cleared, no solutions (the
    checker's ``_course/`` holds fingerprints of the answers, not the answers), and the
    wheelhouse if one was built."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(HERE / "_course", dest / "_course",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for source in sources():
        for lang in LANGS:
            nb = nbformat.read(HERE / lang / f"{source.stem}.ipynb", as_version=4)
            for cell in nb.cells:
                if "exercise" in cell.metadata.get("course", {}):
                    cell.outputs, cell.execution_count = [], None
            (dest / lang).mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, dest / lang / f"{source.stem}.ipynb")
    for lang in LANGS:
        write_course_py(dest / lang, lang)
        nbformat.write(language_index(lang, links_to_solutions=False), dest / lang / "index.ipynb")
    nbformat.write(index_notebook(links_to_solutions=False), dest / "index.ipynb")
    (dest / "README.md").write_text(STUDENT_README, encoding="utf-8")
    if (REPO / "wheelhouse").is_dir():  # `make wheelhouse student`: the install line works
        shutil.copytree(REPO / "wheelhouse", dest / "wheelhouse")
    print(f"wrote the student version to {dest}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", help="lesson numbers (03) or stems; default all")
    parser.add_argument("--no-execute", action="store_true", help="write without running")
    parser.add_argument("--index", action="store_true",
                        help="only write notebooks/index.ipynb and the answer keys")
    parser.add_argument("--student", type=Path, metavar="DIR", help="write the student version")
    args = parser.parse_args(argv)
    if args.student:
        return student(args.student)
    if args.index:
        return write_index()
    chosen = [s for s in sources()
              if not args.lessons or any(s.stem.startswith(w) for w in args.lessons)]
    if args.lessons and not chosen:
        raise SystemExit(f"no lesson source matches {args.lessons} in {SOURCES}")
    for source in chosen:
        build(source, run=not args.no_execute)
    if not args.lessons:
        write_index()


if __name__ == "__main__":
    main()
