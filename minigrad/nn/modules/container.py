"""Containers: ``Sequential`` (modules applied one after another) and ``ModuleList``.

>>> import minigrad as torch
>>> from minigrad import nn
>>> model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
>>> len(model), model[1]
(3, ReLU())
>>> model(torch.zeros(5, 4)).shape
torch.Size([5, 2])
"""

from __future__ import annotations

import operator
from collections import OrderedDict
from typing import TypeVar

from .module import Module, _indent

__all__ = ["Sequential", "ModuleList"]


def _checked_index(idx, size: int) -> int:
    """``idx`` as a non-negative position, with PyTorch's error when out of range."""
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


_Self = TypeVar("_Self", bound="_NumberedModules")


class _NumberedModules(Module):
    """What ``Sequential`` and ``ModuleList`` share: children kept in order, added as
    ``'0'``, ``'1'``, ...; ``len`` and iteration go over the children."""

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self: _Self, module: Module) -> _Self:
        """Add ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)
        doomed = keys[idx] if isinstance(idx, slice) else [keys[_checked_index(idx, len(keys))]]
        for key in doomed:
            del self._modules[key]
        # renumber, as PyTorch does
        self.__dict__["_modules"] = {str(i): m for i, m in enumerate(self._modules.values())}


class Sequential(_NumberedModules):
    """Modules called in order, each on the previous one's output.

    Build it from modules (named ``'0'``, ``'1'``, ...) or from an ``OrderedDict`` of names.
    """

    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return list(self._modules.values())[_checked_index(idx, len(self._modules))]

    def __setitem__(self, idx: int, module: Module) -> None:
        key = list(self._modules)[_checked_index(idx, len(self._modules))]
        setattr(self, key, module)


class ModuleList(_NumberedModules):
    """A list of modules whose parameters the parent module sees (it has no ``forward``)."""

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_checked_index(idx, len(self._modules)))]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, str(_checked_index(idx, len(self._modules))), module)

    def extend(self, modules) -> ModuleList:
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        """Put ``module`` before position ``index``; the later ones move up by one."""
        for i in range(len(self._modules), index, -1):  # PyTorch's loop (and its KeyError)
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def pop(self, key):
        """Remove the module at ``key`` and return it."""
        module = self[key]
        del self[key]
        return module

    def __repr__(self) -> str:
        # Runs of identical children print once: "(0-1): 2 x Linear(...)".
        reprs = [repr(m) for m in self._modules.values()]
        if not reprs:
            return "ModuleList()"
        lines, start = [], 0
        for i in range(1, len(reprs) + 1):
            if i == len(reprs) or reprs[i] != reprs[start]:
                text = _indent(reprs[start], 2)
                n = i - start
                lines.append(f"({start}): {text}" if n == 1 else
                             f"({start}-{i - 1}): {n} x {text}")
                start = i
        return "ModuleList(\n  " + "\n  ".join(lines) + "\n)"
