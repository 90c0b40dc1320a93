"""Keyed and listed containers: ``ModuleDict``, ``ParameterList``, ``ParameterDict``.

Their entries are registered as the children (or parameters) of the container, so a parent
module's ``parameters()`` and ``state_dict()`` find them: ``'<name>.<key>'``.

>>> import minigrad as torch
>>> from minigrad import nn
>>> heads = nn.ModuleDict({'a': nn.Linear(2, 1), 'b': nn.Tanh()})
>>> list(heads.keys()), list(dict(heads.named_parameters()))
(['a', 'b'], ['a.weight', 'a.bias'])
>>> nn.ParameterList([nn.Parameter(torch.zeros(2, 3))])
ParameterList(  (0): Parameter containing: [torch.float32 of size 2x3])
"""

from __future__ import annotations

from ..._tensor import Tensor
from ..parameter import Parameter
from .container import _checked_index
from .module import Module

__all__ = ["ModuleDict", "ParameterList", "ParameterDict"]


def _items(entries):
    """(key, value) pairs of a mapping or of an iterable of pairs."""
    return entries.items() if hasattr(entries, "items") else entries


class _ByName:
    """The mapping methods ModuleDict and ParameterDict share, over ``_names()`` (a dict whose
    keys are the names, in insertion order)."""

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self):
        return iter(self._names())

    def __contains__(self, key: str) -> bool:
        return key in self._names()

    def keys(self):
        return self._names().keys()

    def pop(self, key: str):
        value = self[key]
        del self[key]
        return value


class ModuleDict(_ByName, Module):
    """Modules by name, in insertion order (it has no ``forward``: index it)."""

    _torch_module = "torch.nn.modules.container"  # (the file PyTorch defines it in)

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def _names(self) -> dict:
        return self._modules

    def clear(self) -> None:
        self._modules.clear()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules) -> None:
        for key, module in _items(modules):
            self[key] = module


def _as_parameter(value):
    """A tensor kept by a parameter container becomes a ``Parameter`` (as in PyTorch)."""
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


def _describe(p, legacy: bool) -> str:
    """One entry's line: ``Parameter containing: [torch.float32 of size 2x3]``."""
    if not isinstance(p, Tensor):
        return f"Object of type: {type(p).__name__}"
    size = "x".join(str(s) for s in p.shape)
    kind = f"torch.{p.dtype._legacy_name}" if legacy else str(p.dtype)
    head = "Parameter containing" if isinstance(p, Parameter) else "Tensor"
    return f"{head}: [{kind} of size {size}]"


class ParameterList(Module):
    """Parameters in a list, registered as ``'0'``, ``'1'``, ... (tensors become Parameters)."""

    _torch_module = "torch.nn.modules.container"  # (the file PyTorch defines it in)

    def __init__(self, values=None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ParameterList([self[i] for i in range(len(self))[idx]])
        return getattr(self, str(_checked_index(idx, len(self))))

    def __setitem__(self, idx: int, value) -> None:
        setattr(self, str(_checked_index(idx, len(self))), _as_parameter(value))

    def append(self, value) -> ParameterList:
        self._size += 1
        setattr(self, str(self._size - 1), _as_parameter(value))
        return self

    def extend(self, values) -> ParameterList:
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"  ({i}): {_describe(p, False)}" for i, p in enumerate(self))


class ParameterDict(_ByName, Module):
    """Parameters by name, in insertion order (tensors become Parameters)."""

    _torch_module = "torch.nn.modules.container"  # (the file PyTorch defines it in)

    def __init__(self, parameters=None) -> None:
        super().__init__()
        self._keys: dict = {}
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str):
        return getattr(self, key)

    def __setitem__(self, key: str, value) -> None:
        self._keys[key] = None
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def _names(self) -> dict:
        return self._keys

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def get(self, key: str, default=None):
        return self[key] if key in self else default

    def update(self, parameters) -> None:
        for key, value in _items(parameters):
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(f"  ({k}): {_describe(p, True)}" for k, p in self.items())
