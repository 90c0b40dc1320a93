"""The documentation in docs/: it builds, its links resolve, its examples run on minigrad and
print what PyTorch prints, and every name the API overview lists exists in both."""

from __future__ import annotations

import doctest
import importlib.util
import re
from functools import reduce
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
_spec = importlib.util.spec_from_file_location("docs_build", DOCS / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

PAGES_WITH_EXAMPLES = [p for p in build.PAGES if ">>> " in (DOCS / p).read_text(encoding="utf-8")]


def test_every_markdown_page_is_built_and_every_link_resolves(tmp_path):
    assert sorted(build.PAGES) == sorted(p.name for p in DOCS.glob("*.md"))
    pages = build.build(tmp_path)
    assert len(pages) == len(build.PAGES)
    for page in pages:
        for target in re.findall(r'href="([^"#:]+)', page.read_text(encoding="utf-8")):
            assert (tmp_path / target).is_file(), f"{page.name} links to missing {target}"


def test_a_link_to_a_missing_page_is_reported():
    assert build.check_links("x.md", "see [there](no-such-page.md)") == [
        "x.md: link to missing page no-such-page.md"]


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
