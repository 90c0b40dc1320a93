"""A node's ``backward``, written from its rule: the rule a student reads is the code that runs.

PyTorch writes each derivative once, as a formula in ``tools/autograd/derivatives.yaml``, and
generates the C++ of every node's ``apply`` from it. minigrad does the same, in Python and at
import: a node class that declares a ``rule`` made of formulas, and no ``backward`` of its own,
gets one written from that rule when the class is defined. For ``MulBackward0``::

    rule = _r("z = a * b", {"a": "self", "b": "other"}, a="grad * b", b="grad * a")

becomes (``inspect.getsource(MulBackward0.backward)`` shows it)::

    def backward(self, grad):
        a = load(self._s_self, grad)
        b = load(self._s_other, grad)
        grad_a = grad_b = None
        if self._next_nodes[0] is not None:
            grad_a = grad * b
        if self._next_nodes[1] is not None:
            grad_b = grad * a
        return grad_a, grad_b

How each piece is written:

- A symbol is a value the node saved: ``a`` is ``node._s_self``, shown as ``_saved_self``.
  ``load`` gives a saved tensor's array (its Tensor under ``create_graph=True``, so that the
  formula is recorded and can be differentiated again). A symbol named in the rule's
  ``numbers`` (a Python number, a size, a dim) is read as it is.
- Each input gets its formula; with more than one input, an input that needs no gradient
  (its edge in ``next_functions`` is ``(None, 0)``) gets ``None`` and its formula is skipped,
  as PyTorch's generated code does (``task_should_compute_output``).
- A Python number in a formula is what PyTorch's C++ records for it: ``2 * z`` is
  ``mul(Tensor, Scalar)`` (a ``MulBackward1`` node under ``create_graph``), ``grad / 2`` is
  ``DivBackward1``, ``z + 1`` ``AddBackward1``, ``z - 1`` ``SubBackward1``, ``1 - z``
  ``RsubBackward1``. So such an operation is written as a call of ``mul_number``,
  ``div_number``, ``add_number``, ``sub_number`` or ``rsub_number``. Between two tensors the
  operator stays (``grad * b`` is ``MulBackward0``, as in PyTorch). The scale factors
  ``alpha`` and ``beta`` (of add, sub, addmm) multiply only when they are not 1, as PyTorch's
  ``maybe_multiply``: ``grad * alpha`` is ``maybe_multiply(grad, alpha)``.
- The functions a formula calls (``cos``, ``expand``, ``threshold_backward``...) are those
  registered in ``FUNCTIONS`` by :func:`formula_function`; each takes a NumPy array (a plain
  backward) or a Tensor (``create_graph=True``), so a formula is written once, for both.

The written source is registered with :mod:`linecache` under a name that says where it comes
from, so tracebacks and ``inspect.getsource`` show it.

>>> from minigrad._ops.arithmetic import MulBackward0
>>> print(backward_source(MulBackward0).splitlines()[5])
        grad_a = grad * b
"""

from __future__ import annotations

import ast
import linecache
import math
import sys

import numpy as np

from ._rule import Rule
from .saved import SavedTensor

__all__ = ["FUNCTIONS", "formula_function", "generated", "backward_source", "write_backward"]

#: The functions a formula may call, by name: each takes NumPy arrays or Tensors.
FUNCTIONS: dict = {"math": math}

#: Formula functions that give a Python number (``count(shape, dim)``), not a tensor.
NUMBER_FUNCTIONS = {"count"}

#: The scale factors PyTorch multiplies by only when they are not 1 (its ``maybe_multiply``):
#: ``x + y`` is ``x + alpha * y`` with alpha 1, and its ``grad * alpha`` is ``grad`` itself.
MAYBE = {"alpha", "beta"}

#: What an arithmetic operator with a Python number is written as (PyTorch's Scalar ops).
_NUMBER_OPS = {ast.Mult: "mul_number", ast.Div: "div_number", ast.Add: "add_number",
               ast.Sub: "sub_number"}


def formula_function(fn=None, *, name: str | None = None):
    """Register ``fn`` (a decorator) as a function formulas may call, under its own name."""
    def register(f):
        FUNCTIONS[name or f.__name__] = f
        return f
    return register if fn is None else register(fn)


def generated(cls) -> bool:
    """Whether ``cls``'s backward is written from its rule (see the module docstring)."""
    return getattr(cls.__dict__.get("backward"), "__rule__", None) is cls.__dict__.get("rule")


def _formula_rule(cls) -> Rule | None:
    """The rule ``cls`` declares itself, if a backward can be written from it."""
    rule = cls.__dict__.get("rule")
    if not isinstance(rule, Rule) or rule.words or rule.variadic:
        return None
    return rule


# ---------------------------------------------------------------- numbers in a formula
class _Numbers(ast.NodeTransformer):
    """Rewrites ``<tensor> op <number>`` as the call PyTorch's C++ makes of it."""

    def __init__(self, numbers):
        self.numbers = set(numbers)

    def _number(self, node) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return self._number(node.operand)
        if isinstance(node, ast.BinOp):
            return self._number(node.left) and self._number(node.right)
        if isinstance(node, ast.Call):
            return _is_math(node.func) or (isinstance(node.func, ast.Name)
                                           and node.func.id in NUMBER_FUNCTIONS)
        return _is_math(node) or isinstance(node, ast.Name) and node.id in self.numbers

    def visit_Call(self, node):  # log(2), sqrt(pi): Python's math, a number
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in _MATH and node.args and \
                all(self._number(a) for a in node.args):
            node.func = _math(node.func.id)
        return node

    def visit_Name(self, node):
        return _math("pi") if node.id == "pi" and "pi" not in self.numbers else node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        left, right, op = self._number(node.left), self._number(node.right), type(node.op)
        if left == right or op not in _NUMBER_OPS:  # two tensors, two numbers, or ** and @
            return node
        number = node.right if right else node.left
        if op is ast.Mult and isinstance(number, ast.Name) and number.id in MAYBE:
            return _call("maybe_multiply", node.left if right else node.right, number)
        if right:
            return _call(_NUMBER_OPS[op], node.left, node.right)
        if op is ast.Sub:  # 1 - z: rsub(Tensor, Scalar)
            return _call("rsub_number", node.right, node.left)
        if op is ast.Div:  # (PyTorch's C++ has no number / tensor: write reciprocal(z) * c)
            raise ValueError(f"a number divided by a tensor: {ast.unparse(node)}")
        return _call(_NUMBER_OPS[op], node.right, node.left)  # 2 * z is z * 2: mul(z, 2)


_MATH = {"sqrt", "log", "exp"}  # functions of numbers a formula may use (as Python's math)


def _math(name: str):
    return ast.Attribute(ast.Name("math", ast.Load()), name, ast.Load())


def _is_math(node) -> bool:
    return isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "math"


def _call(name: str, *args):
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


def _code(expr: str, numbers) -> str:
    tree = ast.fix_missing_locations(_Numbers(numbers).visit(ast.parse(expr, mode="eval")))
    return ast.unparse(tree)


def _names(exprs) -> set:
    return {n.id for expr in exprs for n in ast.walk(ast.parse(expr, mode="eval"))
            if isinstance(n, ast.Name)}


# ---------------------------------------------------------------- the source of a backward
def backward_source(cls) -> str:
    """The source of the ``backward`` written from ``cls.rule`` (the rule ``cls`` declares)."""
    rule = _formula_rule(cls)
    if rule is None:
        raise TypeError(f"{cls.__name__}.rule is no formula: its backward is written by hand")
    inputs = list(rule.grads)
    lines = ["def backward(self, grad):"]
    used = _names(rule.grads.values())
    # (in the order PyTorch's generated code unpacks them: the saved inputs by name, then the
    # outputs (``result``); it decides which of two changed tensors an error names, and the
    # order saved-tensor hooks see)
    for sym, saved in sorted(rule.symbols.items(),
                             key=lambda item: (item[1].startswith("result"), item[1])):
        if sym in used:
            read = f"self._s_{saved}"
            lines.append(f"    {sym} = {read if sym in rule.numbers else f'load({read}, grad)'}")
    if len(inputs) == 1:
        lines.append(f"    return ({_code(rule.grads[inputs[0]], rule.numbers)},)")
        return "\n".join(lines) + "\n"
    lines.append("    " + " = ".join(f"grad_{s}" for s in inputs) + " = None")
    for i, sym in enumerate(inputs):
        lines.append(f"    if self._next_nodes[{i}] is not None:")
        lines.append(f"        grad_{sym} = {_code(rule.grads[sym], rule.numbers)}")
    lines.append(f"    return {', '.join('grad_' + s for s in inputs)}")
    return "\n".join(lines) + "\n"


def write_backward(cls) -> None:
    """Give ``cls`` the ``backward`` written from its rule, if it declares a formula rule and
    no backward of its own (called by ``Node.__init_subclass__`` for every node class)."""
    inherited = getattr(cls, "backward", None)
    by_hand = "backward" in cls.__dict__ or not (
        hasattr(inherited, "__rule__") or inherited.__qualname__ == "Node.backward")
    if by_hand or _formula_rule(cls) is None:
        return  # (a backward written by hand, here or in a base class, stays)
    source = backward_source(cls)
    module = sys.modules.get(cls.__module__)
    where = getattr(module, "__file__", None) or cls.__module__
    filename = f"<{cls.__name__}.rule in {_short(where)}, written as code>"
    if filename in linecache.cache and linecache.cache[filename][2] != source.splitlines(True):
        filename = filename[:-1] + f" #{id(cls):x}>"  # (a class of that name defined again)
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    scope = {}
    exec(compile(source, filename, "exec"), FUNCTIONS, scope)  # noqa: S102 - our own rule
    fn = scope["backward"]
    fn.__qualname__ = f"{cls.__qualname__}.backward"
    fn.__module__ = cls.__module__
    fn.__rule__ = cls.__dict__["rule"]
    cls.backward = fn


def _short(path: str) -> str:
    """``minigrad/_ops/arithmetic.py`` of a full path."""
    path = path.replace("\\", "/")
    at = path.rfind("minigrad/")
    return path[at:] if at >= 0 else path


# ---------------------------------------------------------------- reading a saved value
_ndarray, _np_dtype = np.ndarray, np.dtype  # (globals: cheaper than np.<name>, see _tensor.py)


@formula_function
def load(saved, grad):
    """What a formula uses of a saved value: a saved tensor's array (its Tensor under
    ``create_graph=True``); a number, or nothing (``None``), as it is. A number array of another
    dtype than ``grad`` is taken in ``grad``'s (NumPy would make ``float32 * float64`` or
    ``float32 / int64`` float64; PyTorch keeps the gradient's dtype)."""
    v = saved.get() if type(saved) is SavedTensor else saved
    if type(v) is _ndarray and v.dtype.kind in "fiu":
        d = grad.dtype  # (a NumPy dtype for an array or a NumPy number; a Tensor's is not one)
        if d is not v.dtype and isinstance(d, _np_dtype) and d != v.dtype:
            return v.astype(d)
    return v
