"""Every docstring example in minigrad and minigrad_widgets runs and prints what it says;
every module of the autograd core shows at least one."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import minigrad_widgets
import pytest

import minigrad


def _modules():
    names = []
    for package in (minigrad, minigrad_widgets):
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            names.append(info.name)
    return sorted(names)


CORE = [n for n in _modules() if n.startswith("minigrad.autograd")] + ["minigrad._tensor"]


def _run(name):
    module = importlib.import_module(name)
    return doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples_pass(name):
    result = _run(name)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


@pytest.mark.parametrize("name", CORE)
def test_each_autograd_module_shows_an_example(name):
    assert _run(name).attempted > 0


def test_examples_exist_across_the_packages():
    attempted = sum(doctest.testmod(importlib.import_module(n), report=False).attempted
                    for n in _modules())
    assert attempted >= 50
