"""Classes and nodes print as PyTorch's: ``type(p)`` is ``<class 'torch.nn.parameter.Parameter'>``
and a custom Function's node is ``<torch.autograd.function.XBackward object at ...>``, as the
tutorials print them (minigrad/_torch_names.py)."""

import inspect
import re

import pytest
from helpers import custom_functions

import minigrad

pytestmark = pytest.mark.torch

MODULES = ["", "nn", "nn.functional", "nn.init", "optim", "optim.lr_scheduler", "autograd",
           "utils.data"]


def _classes(torch):
    def find(lib, path):
        for part in filter(None, path.split(".")):
            lib = getattr(lib, part)
        return lib
    for path in MODULES:
        mine, theirs = find(minigrad, path), find(torch, path)
        for name in sorted(dir(mine)):
            a, b = getattr(mine, name), getattr(theirs, name, None)
            if not name.startswith("_") and inspect.isclass(a) and inspect.isclass(b):
                yield f"{path}.{name}", a, b


def test_every_public_class_prints_as_pytorchs(torch):
    pairs = list(_classes(torch))
    assert len(pairs) > 70
    differ = [(name, repr(a), repr(b)) for name, a, b in pairs if repr(a) != repr(b)]
    assert not differ


def test_a_learners_own_classes_print_as_python_prints_them():
    class Net(minigrad.nn.Module):
        pass

    assert repr(Net) == f"<class '{__name__}.test_a_learners_own_classes_print_as_python_" \
                        "prints_them.<locals>.Net'>"
    assert inspect.getsource(minigrad.nn.Linear).startswith("class Linear")


@pytest.mark.parametrize("code", [
    "type(lib.nn.Parameter(lib.ones(2)))", "type(lib.ones(2))", "type(lib.ones(2).shape)",
    "type(lib.float32)", "type(lib.nn.Linear(2, 1))", "type(lib.optim.SGD([lib.ones(1)], 0.1))",
    "[type(p) for p in lib.nn.Linear(2, 1).parameters()]", "type(lib.no_grad())",
    "type(lib.device('cpu'))",
])
def test_printed_types_match_pytorch(torch, code):
    assert repr(eval(code, {"lib": minigrad})) == repr(eval(code, {"lib": torch}))  # noqa: S307


def test_a_custom_functions_node_prints_as_pytorchs(torch):
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        node = custom_functions(lib)["MulConstant"].apply(x, 2.0).grad_fn
        return re.sub("0x[0-9a-f]+", "0x", repr(node)), repr(type(node))
    assert run(minigrad) == run(torch)
