"""Helpers shared by the tests: running code on both libraries and comparing what comes out.

Differential tests run the same function with ``minigrad`` and with real PyTorch (the ``torch``
fixture of conftest.py) and compare results, errors and graphs. Op-specific helpers (the op
table, graph and saved-value comparisons) are in ``tests/ops/op_table.py``.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import numpy as np
import pytest

import minigrad as mg


def norm(text: str) -> str:
    """PyTorch's text as minigrad prints it: the same (minigrad prints ``torch.float64``)."""
    return text


def both(torch, fn):
    """Run ``fn(lib)`` with each library; returns (minigrad result, torch result)."""
    return fn(mg), fn(torch)


def on_both(fn):
    """A differential test in one function: ``fn(L)`` runs with minigrad and with PyTorch (the
    ``torch`` fixture) and must return equal results on both.

        @on_both
        def test_detach_makes_a_leaf(L):
            x = L.tensor([1., 2.], requires_grad=True)
            return (x * 2).detach().is_leaf
    """
    def test(torch):
        m, t = fn(mg), fn(torch)
        assert m == t, f"minigrad returned {m!r}\n PyTorch returned {t!r}"

    # pytest sees a test named as ``fn`` that takes the ``torch`` fixture
    test.__name__, test.__qualname__, test.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
    test.__module__ = fn.__module__
    return test


def assert_same_for_each(torch, names, run):
    """``run(L, name)`` gives equal results with minigrad and PyTorch for every name in
    ``names``; the failure lists each name that differs, with both results."""
    wrong = [(n, run(mg, n), run(torch, n)) for n in names]
    wrong = [w for w in wrong if w[1] != w[2]]
    assert not wrong, "\n".join(f"{n}: minigrad {m}, PyTorch {t}" for n, m, t in wrong)


def custom_functions(L):
    """Small custom ``autograd.Function``s, written once for library ``L`` (minigrad or torch):
    the tests of ``Function``, ``gradcheck`` and the stepper use them by name."""
    Function = L.autograd.Function
    once_differentiable = L.autograd.function.once_differentiable

    class MulConstant(Function):
        @staticmethod
        def forward(ctx, tensor, constant):
            ctx.constant = constant
            return tensor * constant

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.constant, None

    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    class ExpSaveOutput(Function):
        @staticmethod
        def forward(ctx, x):
            out = x.exp()
            ctx.save_for_backward(out)
            return out

        @staticmethod
        def backward(ctx, g):
            (out,) = ctx.saved_tensors
            return g * out

    class Needs(Function):
        @staticmethod
        def forward(ctx, a, b, k):
            ctx.seen = ctx.needs_input_grad, L.is_grad_enabled()
            ctx.save_for_backward(a, None, b)
            return a * b * k

        @staticmethod
        def backward(ctx, g):
            a, none, b = ctx.saved_tensors
            ctx.in_backward = none, L.is_grad_enabled()
            return g * b * 2, g * a * 2, None

    class SplitTwo(Function):
        @staticmethod
        def forward(ctx, x):
            idx = L.tensor([0, 1])
            ctx.mark_non_differentiable(idx)
            return x * 2, x * 3, idx

        @staticmethod
        def backward(ctx, g1, g2, g3):
            ctx.got = [None if g is None else g.tolist() for g in (g1, g2, g3)]
            return g1 * 2 + g2 * 3

    class NoMaterialize(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            ctx.got = (g1 is None, g2 is None)
            return g1 * 2

    class Identity(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    def variant(base, name, backward):
        """``base`` with another backward: a decorated one, or a learner's mistake."""
        return type(name, (base,), {"backward": staticmethod(backward)})

    OnceSquare = variant(Square, "OnceSquare", once_differentiable(Square.backward))
    # x**2 with a backward that forgets the factor 2
    WrongSquare = variant(Square, "WrongSquare", lambda ctx, g: g * ctx.saved_tensors[0])
    # the seeds' MulConstant with the mistake: backward returns grad_output unchanged
    MulConstantWrong = variant(MulConstant, "MulConstantWrong", lambda ctx, grad: (grad, None))

    class TwoGrads(Function):
        """A backward that returns one gradient too many (PyTorch raises)."""

        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, g):
            return g, g

    class DoubleInPlace(Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class WithSetupContext(Function):
        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    return {c.__name__: c for c in (MulConstant, Square, ExpSaveOutput, Needs, SplitTwo,
                                     NoMaterialize, Identity, OnceSquare, DoubleInPlace,
                                     WithSetupContext, WrongSquare, MulConstantWrong, TwoGrads)}


# The ops of the random programs (autograd/test_engine_random.py, widgets/widget_programs.py),
# on two tensors of either library; each is defined for any values (no division by zero).
PROGRAM_OPS = {
    "add": lambda x, y: x + y,
    "sub": lambda x, y: x - y,
    "mul": lambda x, y: x * y,
    "div": lambda x, y: x / (y * y + 1.0),
    "neg": lambda x, y: -x,
    "scale": lambda x, y: x * 2.0,
    "exp": lambda x, y: (x * 0.1).exp(),
    "sum": lambda x, y: x.sum(),
    "sum_times": lambda x, y: x.sum() * y,
}


def chain(length: int, start: float = 1.0, factor: float = 1.0):
    """``(x, y)``: a leaf ``x`` and ``y = x * factor * ... * factor`` (``length`` products),
    a long graph of one repeated node."""
    x = mg.tensor(start, requires_grad=True)
    y = x
    for _ in range(length):
        y = y * factor
    return x, y


def tree(fn):
    """A grad_fn graph as nested (node class name, input_nr, children) tuples."""
    if fn is None:
        return None
    return (type(fn).__name__, tuple((tree(f), nr) for f, nr in fn.next_functions))


def find(fn, name):
    """The first node called ``name`` on the first-input path down from ``fn``."""
    while type(fn).__name__ != name:
        fn = fn.next_functions[0][0]
    return fn


def outcome(fn):
    """What ``fn()`` gives: ``("ok", repr of the value)`` or ``(exception type name, message)``."""
    try:
        return "ok", repr(fn())
    except Exception as e:  # noqa: BLE001 - compared with what the other library gives
        return type(e).__name__, str(e)


def cases(name: str) -> list:
    """The lines of ``tests/cases/<name>.txt`` (one expression or snippet per line, ``\\n``
    for a line break inside a snippet; ``#`` starts a comment line)."""
    path = Path(__file__).parent / "cases" / f"{name}.txt"
    return [line.replace("\\n", "\n") for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def snippet_outcome(lib, code: str):
    """:func:`outcome` of the statements ``code`` run with ``lib`` bound (its ``out``)."""
    def run():
        ns = {"lib": lib}
        exec(code, ns)  # noqa: S102 - the tests' own snippets
        return ns["out"]

    return outcome(run)


def assert_same_outcome(torch, code: str):
    """The expression ``code``, with ``lib`` (and ``F``, its ``nn.functional``) bound to each
    library, gives the same repr or raises the same error in both."""
    def run(lib):
        return outcome(lambda: eval(code, {"lib": lib, "F": lib.nn.functional}))  # noqa: S307

    mine, theirs = run(mg), run(torch)
    assert mine == theirs, f"minigrad: {mine}\n PyTorch: {theirs}"


def raised(fn):
    """(exception type name, message) of what ``fn()`` raises."""
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value).__name__, norm(str(info.value))


def both_raise(torch, build):
    """Run ``build(lib)`` with each library; both must raise the same type and message."""
    assert raised(lambda: build(mg)) == raised(lambda: build(torch))


def pair(torch, array, requires_grad=True):
    """The same values as a minigrad tensor and a torch tensor."""
    array = np.asarray(array)
    return (mg.tensor(array, requires_grad=requires_grad),
            torch.tensor(array, requires_grad=requires_grad))


def close(m, t, tol=1e-5):
    if m is None or t is None:
        return m is None and t is None
    return m.dtype.name == str(t.dtype).split(".")[1] and \
        np.allclose(m.detach().numpy(), t.detach().numpy(), rtol=tol, atol=tol)


def ints(lib, *shape):
    return lib.zeros(shape, dtype=lib.int64)


def rng(seed=0):
    return np.random.default_rng(seed)


def f32(*shape, seed=0):
    return rng(seed).standard_normal(shape).astype(np.float32)


# ---------------------------------------------------------------- comparing tensors
F32 = {"rtol": 1e-5, "atol": 1e-6}  # default tolerances for float32 results


def dtype_name(dtype) -> str:
    return str(dtype).replace("torch.", "").replace("minigrad.", "")


def as_array(t) -> np.ndarray:
    return np.asarray(t.detach().numpy())


def assert_close(m, t, **tol):
    """Same dtype, shape and values (nan where torch has nan)."""
    assert dtype_name(m.dtype) == dtype_name(t.dtype), (m.dtype, t.dtype)
    assert tuple(m.shape) == tuple(t.shape), (tuple(m.shape), tuple(t.shape))
    np.testing.assert_allclose(as_array(m), as_array(t), equal_nan=True, **(tol or F32))


# ---------------------------------------------------------------- straight-line programs
def describe(value):
    """What a learner can see of a result, in a form both libraries give alike: a tensor's
    values, dtype, shape, strides, contiguity, requires_grad and grad_fn name; a node's name."""
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [describe(v) for v in value]
    if hasattr(value, "next_functions"):  # a node
        return "node", value.name()
    if hasattr(value, "_version") and hasattr(value, "stride"):  # a tensor of either library
        fn = value.grad_fn
        return ("tensor", dtype_name(value.dtype), tuple(value.shape), value.stride(),
                value.is_contiguous(), value.requires_grad, fn and fn.name(),
                str(np.asarray(value.detach().numpy()).tolist()))  # (str: nan == nan)
    if hasattr(value, "is_floating_point") or type(value).__module__.startswith("torch"):
        return repr(value)
    return value


def run_program(lib, code: str):
    """Run ``code`` (statements; the result in ``r``) with ``lib`` imported as ``torch``: what
    :func:`describe` makes of ``r``, or (exception type, first line of its message)."""
    scope = {"torch": lib}
    try:
        exec(code, scope)  # noqa: S102 (the test's own programs)
        return describe(scope.get("r"))
    except Exception as e:  # noqa: BLE001 (the error is the result compared)
        return type(e).__name__, str(e).split("\n")[0]


def assert_same_program(torch, code: str):
    """``code`` gives the same visible result with minigrad as with PyTorch."""
    mine, theirs = run_program(mg, code), run_program(torch, code)
    assert mine == theirs, f"{code}\n minigrad: {mine}\n PyTorch:  {theirs}"


# --- one language at a time: English words a Chinese learner should not see ---------------

# Words a Chinese learner sees in English on purpose: code (node and variable names, Python
# and PyTorch terms), and the text of a Python exception (that is Python's, not ours).
CODE_WORDS = re.compile(
    r"^(\w*Backward\w*|torch|autograd|AccumulateGrad|grad\w*|backward|forward|variable|None|"
    r"NaN|inf|VJP|Function|next_functions|stepper|predict|ctx|loss|shape|norm|alpha|expand|"
    r"sum|exp|sqrt|self|other|result|min|max|MulConstant\w*|TwoGrads\w*|fn|sign|abs|outer|"
    r"True|False|_saved_\w+|"
    r"GraphView|BackwardStepper|minigrad_widgets|retain_graph|check|refresh|draw|dot|"
    r"Graphviz|graphviz|apt|get|install|brew|conda|Debian|Ubuntu|macOS|notebook|"
    r"[a-z]\w*_\w+|[A-Z][a-z]+[A-Z]\w*)$")


def english_words(text: str) -> set:
    """The English words of ``text`` that are not code (placeholders ``{name}`` left out)."""
    text = re.sub(r"\{\w+\}", "", text)
    # code is allowed: dotted names and calls (flow.record(), optimizer.step())
    text = re.sub(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?|[A-Za-z_]\w*\(\)", "", text)
    return {w for w in re.findall(r"[A-Za-z_]{3,}", text) if not CODE_WORDS.match(w)}


def english_ui_words() -> set:
    """Every English word the widgets show a learner (from the English catalogue), lower case:
    none of them should be left in what a Chinese learner sees."""
    from minigrad_widgets.i18n import EN

    return {w.lower() for text in EN.values() for w in english_words(text)}


# --- what a widget shows: its text form, its drawing's words, its front end's strings -----

DOT_TEXT = re.compile(r'\b(?:label|tooltip)=("(?:[^"\\]|\\.)*"|[^\s\]]+)')
HIDDEN = {"kind", "variable_id", "tensor_id", "is_same", "verdict", "dot", "lang", "node_states",
          "edge_states", "legend", "arrows"}  # ids, state names and style classes (a legend
# row is [swatch classes, catalogue key]: its words are in ``strings``), not shown as text


def dot_texts(dot: str) -> list[str]:
    """The labels and tooltips of a DOT source: the words the drawing shows."""
    return [m.group(1).strip('"').replace("\\n", "\n") for m in DOT_TEXT.finditer(dot)]


def shown_strings(value, key=None) -> list[str]:
    """The strings of a widget's state a learner reads (not ids, state names or DOT)."""
    if key in HIDDEN:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in shown_strings(v, k)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in shown_strings(v)]
    return []


def html_texts(page: str) -> list[str]:
    """What a page built from a widget's HTML shows: the text form, and every string of the
    recorded states (the drawing's labels and tooltips, panel, buttons, counter, notes)."""
    pre = re.search(r'<pre class="mg-static-text">(.*?)</pre>', page, re.S).group(1)
    data = json.loads(re.search(r'class="mg-static-data">(.*?)</script>', page, re.S)
                      .group(1).replace("<\\/", "</"))
    states = [data["state"]] + [step.get("set", {}) for step in data["steps"]]
    states += [{k: v.get("set") for k, v in step.get("patch", {}).items()}
               for step in data["steps"]]
    out = [html.unescape(pre)]
    for state in states:
        out += dot_texts(state.get("dot") or "") + shown_strings(state)
    return out
