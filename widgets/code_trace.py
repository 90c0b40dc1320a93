"""Watching the backward a step runs: which of its lines ran, with which values.

minigrad's engine is Python, so the stepper can watch it work. :class:`StepTracer` is put
around one ``next()`` of the engine (``sys.settrace``, this thread only, for that call
only): when the function that computes a node's gradients starts (the node class's
``backward``, a custom Function's ``backward``, ``AccumulateGrad.accumulate``), it notes the
lines of the engine that called it, and then each line the function runs, with the values
its names hold after that line and what it returned (a :class:`Trace`). If another tool is
already tracing (a debugger, coverage), nothing is traced and the view says so.

The function is found through the node's class (:func:`backward_function`), never through
file names or a rule table, so the view follows the code wherever it moves.
"""

from __future__ import annotations

import inspect
import io
import keyword
import sys
import textwrap
import tokenize
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ._format import is_leaf_node, is_tensor, to_numpy

__all__ = ["backward_function", "StepTracer", "Trace", "Source", "source_of", "plain",
           "Opaque"]

_MISSING = object()
_NAMES = frozenset({"backward", "accumulate"})  # what the engine calls to run a node
ITEMS = 8  # elements of a tuple shown at most
COPY_LIMIT = 4096  # arrays up to this many elements are copied when traced


def backward_function(node):
    """The Python function that computes ``node``'s gradients: ``accumulate`` of an
    ``AccumulateGrad``, the ``backward`` of a custom Function, else the class's ``backward``;
    None if there is none (a C++ node of PyTorch)."""
    cls = type(node)
    if is_leaf_node(node):
        fn = getattr(cls, "accumulate", None) or getattr(cls, "backward", None)
    else:
        forward_cls = getattr(node, "_forward_cls", None)
        fn = getattr(forward_cls if forward_cls is not None else cls, "backward", None)
    fn = inspect.unwrap(fn) if fn is not None else None
    return fn if inspect.isfunction(fn) else None


# ---------------------------------------------------------------- the source, read once
@dataclass(frozen=True)
class Source:
    """A function's source: ``lines`` (dedented), the first line's number, the file, and
    what the view needs of it: highlighted ``spans`` per line, the names each line mentions
    (``x`` or ``self.attr``), the ``def`` line, and the ``return`` statements with the line
    ranges of their elements (one per gradient when a tuple is returned)."""

    lines: tuple
    start: int
    file: str
    spans: tuple
    names: dict
    def_line: int
    returns: tuple  # ((first, last), ((first, last, name or None) per element) or None)
    assigned: dict  # name -> line numbers assigning it
    doc: tuple | None = None  # (first, last) line of the docstring


def _kind(tok, before) -> str:
    if tok.type == tokenize.NAME:
        if before in ("def", "class"):
            return "fn"
        if keyword.iskeyword(tok.string):
            return "kw"
        return "self" if tok.string in ("self", "ctx") else ""
    return {tokenize.NUMBER: "num", tokenize.STRING: "str", tokenize.COMMENT: "com"}.get(
        tok.type, "")


def highlight(lines) -> tuple:
    """Each line as ``[[kind, text], ...]`` (kinds ``kw fn self num str com`` or ``""``),
    from Python's own tokenizer; what it cannot read stays plain."""
    kinds = [[""] * len(line) for line in lines]
    before = None
    try:
        for tok in tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline):
            kind = _kind(tok, before)
            if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT):
                before = tok.string
            if not kind:
                continue
            (r1, c1), (r2, c2) = tok.start, tok.end
            for r in range(r1, min(r2, len(lines)) + 1):
                row = kinds[r - 1]
                for c in range(c1 if r == r1 else 0, min(c2 if r == r2 else len(row), len(row))):
                    row[c] = kind
    except (tokenize.TokenError, SyntaxError):  # a fragment: keep what was read
        pass
    out = []
    for line, row in zip(lines, kinds):
        spans: list = []
        for ch, kind in zip(line, row):
            if spans and spans[-1][0] == kind:
                spans[-1][1] += ch
            else:
                spans.append([kind, ch])
        out.append(tuple(tuple(s) for s in spans))
    return tuple(out)


def _names(lines, start: int, first: str | None) -> dict:
    """Line number -> the names it mentions, ``first.attr`` for the first parameter's
    attributes (``self._s_other``), in order, once each."""
    out: dict = {}
    try:
        toks = list(tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline))
    except (tokenize.TokenError, SyntaxError):
        return out
    for i, tok in enumerate(toks):
        if tok.type != tokenize.NAME or keyword.iskeyword(tok.string):
            continue
        if i and toks[i - 1].string == ".":
            continue
        key = tok.string
        if (key == first and i + 2 < len(toks) and toks[i + 1].string == "."
                and toks[i + 2].type == tokenize.NAME):
            key = f"{first}.{toks[i + 2].string}"
        names = out.setdefault(start + tok.start[0] - 1, [])
        if key not in names:
            names.append(key)
    return out


def _tree(text: str, start: int):
    """(def line, returns, assignments, docstring lines) of the first function in ``text``."""
    import ast

    try:
        module = ast.parse(text)
    except SyntaxError:
        return None, (), {}, None
    fn = next((n for n in ast.walk(module)
               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if fn is None:
        return None, (), {}, None
    at = start - 1
    first = fn.body[0] if fn.body else None
    doc = None
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        doc = (first.lineno + at, first.end_lineno + at)
    returns, assigned = [], {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Return) and node.value is not None:
            elts = None
            if isinstance(node.value, ast.Tuple):
                elts = tuple((e.lineno + at, e.end_lineno + at,
                              e.id if isinstance(e, ast.Name) else None)
                             for e in node.value.elts)
            returns.append(((node.lineno + at, node.end_lineno + at), elts))
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            if isinstance(node.value, ast.Constant) and node.value.value is None:
                continue  # (`grad_a = grad_b = None`: a default, not where a gradient is made)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        assigned.setdefault(name.id, []).append(node.lineno + at)
    return fn.lineno + at, tuple(sorted(returns)), assigned, doc


@lru_cache(maxsize=512)
def source_of(fn) -> Source:
    """The :class:`Source` of a function; raises ``OSError``/``TypeError`` when Python
    keeps none (code typed at a prompt, made with ``exec``, a C function)."""
    raw, start = inspect.getsourcelines(fn)
    file = inspect.getsourcefile(fn) or ""
    text = textwrap.dedent("".join(raw))
    lines = tuple(text.splitlines())
    code = fn.__code__
    first = code.co_varnames[0] if code.co_argcount else None
    def_line, returns, assigned, doc = _tree(text, start)
    return Source(lines, start, file, highlight(lines), _names(lines, start, first),
                  def_line or code.co_firstlineno, returns, assigned, doc)


# ---------------------------------------------------------------- values as shown
@dataclass(frozen=True)
class Opaque:
    """A value shown by its type's name only (``<SavedTensor>``)."""

    type_name: str


def _attributes(obj):
    yield from getattr(obj, "__dict__", {}).items()
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            value = getattr(obj, name, _MISSING)
            if value is not _MISSING:
                yield name, value


_names_of_type: dict = {}


def _saved_names(cls, node) -> list:
    """The ``<name>`` of each ``_saved_<name>`` a node of this class shows (read once)."""
    names = _names_of_type.get(cls)
    if names is None:
        names = _names_of_type[cls] = [n[7:] for n in dir(node) if n.startswith("_saved_")]
    return names


def _saved(node, obj):
    """What the node shows as ``_saved_<name>`` for the object it keeps in an attribute
    named ``..._<name>`` (a saved tensor as the engine holds it), else ``_MISSING``."""
    if node is None:
        return _MISSING
    shown = _saved_names(type(node), node)
    for attr, value in _attributes(node):
        if value is not obj:
            continue
        for name in shown:
            if attr == name or attr.endswith("_" + name):
                try:
                    return plain(getattr(node, "_saved_" + name))
                except (AttributeError, RuntimeError):
                    return _MISSING
    return _MISSING


def plain(value, node=None, depth: int = 0):
    """A value as the view shows it: NumPy for tensors and arrays, numbers and strings as
    they are, tuples element by element, a saved tensor as the node shows it, else
    :class:`Opaque`."""
    if value is None or isinstance(value, (bool, int, float, complex, str)):
        return value
    if isinstance(value, (np.ndarray, np.generic)) or is_tensor(value):
        array = np.asarray(to_numpy(value))  # a copy if small: later steps may change it
        return array.copy() if array.size <= COPY_LIMIT else array
    if isinstance(value, (tuple, list)) and depth == 0:
        return tuple(plain(v, node, 1) for v in value[:ITEMS])
    found = _saved(node, value)
    return Opaque(type(value).__name__) if found is _MISSING else found


def _attr(obj, name: str):
    """``obj.name`` where reading it runs no code (no property), else ``_MISSING``."""
    try:
        found = inspect.getattr_static(obj, name)
    except AttributeError:
        return _MISSING
    if type(found).__name__ == "member_descriptor":
        return getattr(obj, name, _MISSING)
    if hasattr(found, "__get__") or callable(found):
        return _MISSING
    return found


# ---------------------------------------------------------------- the trace of one step
@dataclass
class Trace:
    """What one node's gradient function did in one step (see the module's docstring)."""

    function: object
    node: object
    stack: list  # (file, function name, line number) of the engine's calls, outermost first
    ran: list = field(default_factory=list)
    values: dict = field(default_factory=dict)  # line -> {name: value after that line}
    returned: object = _MISSING
    _prev: int | None = None

    def local(self, frame, event, arg):
        try:
            self._event(frame, event, arg)
        except Exception:  # noqa: BLE001 - watching must never break the step it watches
            self.ran.clear()
            self.values.clear()
            return None
        return self.local

    def _event(self, frame, event, arg) -> None:
        if event == "line":
            self._after(frame)
            self._prev = frame.f_lineno
            self.ran.append(frame.f_lineno)
        elif event == "return":
            self._after(frame)
            self._prev = None
            self.returned = plain(arg, self.node)

    def _after(self, frame) -> None:
        if self._prev is None:
            return
        try:
            names = source_of(self.function).names.get(self._prev, ())
        except (OSError, TypeError):
            return
        self.take(self._prev, names, frame.f_locals)

    def take(self, line: int, names, local: dict) -> None:
        out = self.values.setdefault(line, {})
        for key in names:
            base, _, attr = key.partition(".")
            value = local.get(base, _MISSING)
            if value is _MISSING or (value is self.node and not attr):
                continue
            value = _attr(value, attr) if attr else value
            if value is _MISSING or callable(value) or inspect.ismodule(value):
                continue
            out[key] = plain(value, self.node)


def _engine_stack(frame) -> list:
    """The frames of minigrad's engine module that led to ``frame``, outermost first."""
    engine = sys.modules.get("minigrad.autograd.engine")
    path = getattr(engine, "__file__", None)
    out, f = [], frame.f_back
    while f is not None and len(out) < 8:
        if f.f_code.co_filename == path:
            out.append((path, f.f_code.co_name, f.f_lineno))
        elif out:
            break
        f = f.f_back
    return out[::-1]


class StepTracer:
    """Put around one engine step: ``traces`` maps ``id(node)`` to its :class:`Trace`."""

    def __init__(self):
        self.traces: dict = {}
        self.active = False

    def __enter__(self) -> StepTracer:
        self.active = sys.gettrace() is None
        if self.active:
            sys.settrace(self._call)
        return self

    def __exit__(self, *exc) -> None:
        if self.active:
            sys.settrace(None)

    def _call(self, frame, event, arg):
        try:
            return self._start(frame, event)
        except Exception:  # noqa: BLE001 - watching must never break the step it watches
            return None

    def _start(self, frame, event):
        code = frame.f_code
        if event != "call" or code.co_name not in _NAMES or not code.co_argcount:
            return None
        node = frame.f_locals.get(code.co_varnames[0])
        if node is None or id(node) in self.traces:
            return None
        fn = backward_function(node)
        if fn is None or fn.__code__ is not code:
            return None
        trace = Trace(fn, node, _engine_stack(frame))
        self.traces[id(node)] = trace
        try:
            line = source_of(fn).def_line
        except (OSError, TypeError):
            line = code.co_firstlineno
        params = code.co_varnames[1:code.co_argcount]
        trace.take(line, params, frame.f_locals)
        return trace.local
