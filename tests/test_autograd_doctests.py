"""The examples in the autograd modules' docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["minigrad.autograd", "minigrad.autograd.engine", "minigrad.autograd.function",
           "minigrad.autograd.graph", "minigrad.autograd.grad_mode",
           "minigrad.autograd.gradcheck", "minigrad.autograd.ready_queue",
           "minigrad.autograd.functional_utils", "minigrad._tensor"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_pass(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
