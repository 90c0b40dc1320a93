"""The one recording path: ``should_record`` decides, ``record`` attaches (autograd/graph.py).

Differential tests for the rules it owns (only floating-point tensors get a ``grad_fn``; a view
follows its base's ``requires_grad``), and source checks that no op decides or wires by hand.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import minigrad

PACKAGE = Path(minigrad.__file__).parent


def _sources():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), path.read_text()


def _outcome(fn):
    """What ``fn()`` gives: (requires_grad, grad_fn name, dtype name), or the error raised."""
    try:
        t = fn()
    except Exception as e:  # noqa: BLE001 - the error itself is compared
        return type(e).__name__, str(e)
    return t.requires_grad, None if t.grad_fn is None else t.grad_fn.name(), \
        str(t.dtype).split(".")[-1]


INTEGER_RESULTS = {
    "sum to int64": lambda L, x: x.sum(dtype=L.int64),
    "prod to int64": lambda L, x: x.prod(dtype=L.int64),
    "to int64": lambda L, x: x.to(L.int64),
    "long()": lambda L, x: (x * 2).long(),
    "argmax": lambda L, x: x.argmax(),
    "max indices": lambda L, x: x.max(0)[1],
    "comparison": lambda L, x: x > 0,
    "int tensor times number": lambda L, x: L.tensor([1, 2, 3]) * 2,
    "int tensor clamped by a float tensor": lambda L, x: L.tensor([1, 2, 3]).clamp(min=x),
}


@pytest.mark.parametrize("case", sorted(INTEGER_RESULTS))
def test_integer_results_never_get_a_grad_fn(torch, case):
    def run(L):
        x = L.tensor([1.5, -2.0, 3.0], requires_grad=True)
        return _outcome(lambda: INTEGER_RESULTS[case](L, x))

    assert run(minigrad) == run(torch)


def test_a_custom_function_s_integer_output_gets_no_grad_fn(torch):
    def run(L):
        rules = {"forward": staticmethod(lambda ctx, x: (x * 2, (x > 0).long())),
                 "backward": staticmethod(lambda ctx, g, _: g * 2)}
        Split = type("Split", (L.autograd.Function,), rules)
        a, b = Split.apply(L.tensor([1., -1.], requires_grad=True))
        return a.requires_grad, b.requires_grad, b.grad_fn is None, a.grad_fn.name()[:5]

    assert run(minigrad) == run(torch)


def test_a_view_made_before_its_base_requires_grad_follows_the_base(torch):
    def run(L):
        a = L.zeros(3)
        v, w = a[:2], a.view(3)
        a.requires_grad_()
        info = [v.requires_grad, v.is_leaf, v.grad_fn is None, w.requires_grad]
        y = v * 2
        info += [y.requires_grad, y.grad_fn.name(), y.grad_fn.next_functions[0][0] is None]
        y.sum().backward()
        info += [a.grad is None, v.grad is None]
        try:
            w.mul_(2)
        except RuntimeError as e:
            info.append(str(e))
        return info

    assert run(minigrad) == run(torch)


def test_only_autograd_reads_the_grad_mode():
    readers = [name for name, text in _sources()
               if re.search(r"\.grad_enabled\b", text)
               and not name.startswith("autograd/") and name != "_state.py"]
    assert readers == [], "ask autograd.graph.should_record (or grad_mode) instead"


def test_only_graph_py_wires_nodes():
    wiring = re.compile(r"^(?!\s*(>>>|\.\.\.)).*(_sequence_nr|_next_nodes|next_functions)\s*=[^=]",
                        re.MULTILINE)  # doctest lines may build toy nodes
    wired = sorted({name for name, text in _sources() if wiring.search(text)})
    assert wired == ["autograd/graph.py"], "attach nodes with autograd.graph.record(...)"


def test_record_returns_its_outputs_and_numbers_them():
    from minigrad.autograd.graph import Node, record

    x = minigrad.tensor([1., 2.], requires_grad=True)
    a, b = minigrad.Tensor._wrap(x._data * 1), minigrad.Tensor._wrap(x._data * 2)
    node = Node()
    assert record(node, (a, b), x, 3.0) == (a, b)
    assert (a.grad_fn, a.output_nr, b.grad_fn, b.output_nr) == (node, 0, node, 1)
    assert node.next_functions[1] == (None, 0) and node._num_outputs == 2
