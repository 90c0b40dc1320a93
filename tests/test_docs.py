"""The documentation in docs/: its examples run on minigrad and print what PyTorch prints, and
every name the API overview lists exists in both. (The site's build, links and search:
tests/docs/.)"""

from __future__ import annotations

import doctest
import re
from functools import reduce
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
# Hand-written pages (both languages); the site itself is built and browsed by tests/docs/.
PAGES = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")
               if not p.relative_to(DOCS).parts[0].startswith(("_", "lessons")))
PAGES_WITH_EXAMPLES = [p for p in PAGES if ">>> " in (DOCS / p).read_text(encoding="utf-8")]


def test_the_pages_with_examples_are_found_in_both_languages():
    assert "index.md" in PAGES_WITH_EXAMPLES and "zh/index.md" in PAGES_WITH_EXAMPLES


def _run_examples(page: str, *, on_torch: bool) -> doctest.TestResults:
    text = (DOCS / page).read_text(encoding="utf-8")
    text = re.sub(r"^```.*$", "", text, flags=re.M)  # a closing fence would end an expected output
    if on_torch:
        text = re.sub(r"^>>> import minigrad as torch$", ">>> import torch", text, flags=re.M)
    test = doctest.DocTestParser().get_doctest(text, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    return runner.summarize(verbose=False)


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES)
def test_docs_examples_run_on_minigrad(page):
    result = _run_examples(page, on_torch=False)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.torch
@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES)
def test_docs_examples_print_the_same_on_pytorch(page, torch):
    result = _run_examples(page, on_torch=True)
    assert result.attempted > 0 and result.failed == 0


def _listed_api() -> tuple[set[str], set[str]]:
    """Dotted names (`torch.nn.Linear`) and Tensor attributes the API overview lists."""
    text = (DOCS / "api.md").read_text(encoding="utf-8").split("## Tensors", 1)[1]
    dotted = set(re.findall(r"`(torch(?:\.\w+)+)", text))
    tensor_part = text.split("Tensor attributes and methods:")[1].split("\n\n")[0]
    attributes = set(re.findall(r"`(\w+)(?:\(\))?`", tensor_part))
    return dotted, attributes


def _resolve(root, dotted: str):
    return reduce(getattr, dotted.split(".")[1:], root)


@pytest.mark.torch
def test_every_name_in_the_api_overview_exists_in_minigrad_and_pytorch(torch):
    import minigrad

    dotted, attributes = _listed_api()
    assert len(dotted) > 50 and {"grad_fn", "backward", "is_leaf"} <= attributes
    missing = []
    for name in sorted(dotted):
        for library, label in ((minigrad, "minigrad"), (torch, "torch")):
            try:
                _resolve(library, name)
            except AttributeError:
                missing.append(f"{name} (in {label})")
    for name in sorted(attributes):
        for library, label in ((minigrad, "minigrad"), (torch, "torch")):
            if not hasattr(library.Tensor, name):
                missing.append(f"Tensor.{name} (in {label})")
    assert missing == []
