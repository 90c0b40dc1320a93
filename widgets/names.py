"""The learner's names for tensors: ``x`` in a drawing instead of an anonymous box.

A widget built without ``names=`` looks in the namespace of the code that called it (a
notebook's variables, or a function's locals and the module's globals) for names bound to
tensors, and for the parameters of modules there (``model.weight``). Only the identity of the
objects counts (``name is tensor``), never their values. Names starting with ``_`` (IPython's
``_``, ``_1``, ...) are skipped.

>>> import minigrad as torch
>>> w = torch.ones(2, requires_grad=True)
>>> lookup = caller_names()
>>> lookup.name_of(w)
'w'
>>> lookup = Names({"weight": w})
>>> lookup.name_of(w), lookup.tensor_named("weight") is w
('weight', True)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from ._format import is_tensor

__all__ = ["Names", "caller_names", "resolve_names"]

_HERE = os.path.dirname(os.path.abspath(__file__))


class Names:
    """A two-way table between names and tensor objects (first name given to a tensor wins)."""

    def __init__(self, mapping: Mapping[str, object] | None = None):
        self._by_id: dict[int, str] = {}
        self._tensors: dict[str, object] = {}
        for name, value in (mapping or {}).items():
            self.add(str(name), value)

    def add(self, name: str, value) -> None:
        if is_tensor(value) and id(value) not in self._by_id:
            self._by_id[id(value)] = name
            self._tensors[name] = value

    def name_of(self, tensor) -> str | None:
        """The name bound to this very object, if any."""
        name = self._by_id.get(id(tensor))
        if name is not None and self._tensors[name] is tensor:
            return name
        return None

    def tensor_named(self, name: str):
        return self._tensors.get(name)

    def items(self):
        """(name, tensor) pairs in the order they were found."""
        return self._tensors.items()

    def keep_only(self, tensors) -> Names:
        """A copy holding only the given tensors (so a widget keeps no others alive)."""
        wanted = {id(t) for t in tensors}
        kept = Names()
        for name, t in self._tensors.items():
            if id(t) in wanted:
                kept.add(name, t)
        return kept

    def __len__(self) -> int:
        return len(self._tensors)


def _user_frame():
    """The first frame outside this package: the learner's code."""
    frame = sys._getframe(1)
    while frame is not None and os.path.dirname(frame.f_code.co_filename) == _HERE:
        frame = frame.f_back
    return frame


def _add_namespace(names: Names, namespace: Mapping[str, object]) -> None:
    modules = []
    for name, value in list(namespace.items()):
        if name.startswith("_"):
            continue
        if is_tensor(value):
            names.add(name, value)
        elif not isinstance(value, type) and callable(getattr(type(value), "named_parameters",
                                                              None)):
            modules.append((name, value))
    for name, module in modules:
        try:
            params = list(module.named_parameters())
        except (TypeError, RuntimeError):  # not a module after all: no names from it
            continue
        for pname, p in params:
            names.add(f"{name}.{pname}", p)


def caller_names() -> Names:
    """Names of the tensors visible where the learner called us (locals first, then globals)."""
    names = Names()
    frame = _user_frame()
    if frame is not None:
        _add_namespace(names, frame.f_locals)
        if frame.f_globals is not frame.f_locals:
            _add_namespace(names, frame.f_globals)
    return names


def resolve_names(names) -> Names:
    """``names=`` as given to a widget: a mapping, a :class:`Names`, or None to look them up."""
    if names is None:
        return caller_names()
    if isinstance(names, Names):
        return names
    if isinstance(names, Mapping):
        return Names(names)
    raise TypeError(f"names must be a dict like {{'x': x}} or None, got {type(names).__name__}")
