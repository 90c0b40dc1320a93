"""``Module``: the base class of every layer and model.

A module keeps three ordered tables, filled by plain attribute assignment:

- ``_parameters``: the :class:`Parameter` objects it learns (``self.weight = Parameter(...)``),
- ``_buffers``: tensors that are state but not learned (``self.register_buffer(...)``),
- ``_modules``: its sub-modules (``self.fc = Linear(...)``).

Everything else (``parameters()``, ``state_dict()``, ``zero_grad()``, ``train()``, the printed
form) walks those tables, recursing into sub-modules.

>>> import minigrad as torch
>>> class Net(torch.nn.Module):
...     def __init__(self):
...         super().__init__()
...         self.fc = torch.nn.Linear(3, 2)
...     def forward(self, x):
...         return self.fc(x).relu()
>>> net = Net()
>>> net
Net(
  (fc): Linear(in_features=3, out_features=2, bias=True)
)
>>> [name for name, _ in net.named_parameters()]
['fc.weight', 'fc.bias']
"""

from __future__ import annotations

from ..._dtype import dtype as dtype_cls
from ..._dtype import float32, float64
from ..._tensor import Tensor
from ..._torch_names import TorchNamed
from ..._types import unsupported
from ...optim.optimizer import clear_grads
from ...utils.hooks import Hooks as _Hooks
from ..parameter import Parameter
from . import _backward_hooks, _state_dict

__all__ = ["Module"]


def typename(obj) -> str:
    """The type name PyTorch prints in error messages: ``torch.FloatTensor``, ``int``."""
    if isinstance(obj, Tensor):
        return "torch." + obj.dtype._legacy_name
    cls = type(obj)
    module = cls.__module__
    return cls.__qualname__ if module in (None, "builtins") else f"{module}.{cls.__qualname__}"


def _indent(text: str, spaces: int) -> str:
    """Indent every line of ``text`` but the first (for nesting a child's repr)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    pad = " " * spaces
    return lines[0] + "\n" + "\n".join(pad + line for line in lines[1:])


def _check_name(kind: str, name) -> None:
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')


class Module(metaclass=TorchNamed):
    """Base class for neural-network modules; subclasses set attributes and define ``forward``."""

    training: bool
    _version = 1  # of the state_dict format, as in PyTorch

    def __init__(self, *args, **kwargs) -> None:
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes no arguments")
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = {}
        d["_forward_pre_hooks"] = _Hooks()
        d["_forward_hooks"] = _Hooks()
        d["_backward_pre_hooks"] = _Hooks()
        d["_backward_hooks"] = _Hooks()

    # ------------------------------------------------------------------ calling
    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks):
            return self.forward(*args, **kwargs)
        for hook in list(self._forward_pre_hooks.values()):
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        bw_hook = None
        if self._backward_hooks or self._backward_pre_hooks:
            bw_hook = _backward_hooks.BackwardHook(self, list(self._backward_hooks.values()),
                                                   list(self._backward_pre_hooks.values()))
            args = bw_hook.setup_input_hook(args)
        out = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks.values()):
            result = hook(self, args, out)
            if result is not None:
                out = result
        return out if bw_hook is None else bw_hook.setup_output_hook(out)

    def register_forward_pre_hook(self, hook):
        """Call ``hook(module, args)`` before ``forward``; it may return replacement args."""
        return self._forward_pre_hooks.add(hook)

    def register_forward_hook(self, hook):
        """Call ``hook(module, args, output)`` after ``forward``; it may return a new output."""
        return self._forward_hooks.add(hook)

    def register_full_backward_hook(self, hook):
        """Call ``hook(module, grad_input, grad_output)`` when the gradients of the module's
        inputs are known; it may return a new ``grad_input`` (see ``_backward_hooks``)."""
        return self._backward_hooks.add(hook)

    def register_full_backward_pre_hook(self, hook):
        """Call ``hook(module, grad_output)`` before the module's backward; it may return a new
        ``grad_output``."""
        return self._backward_pre_hooks.add(hook)

    # ------------------------------------------------------------------ registration
    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter (or a ``None`` placeholder) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name("parameter", name)
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None:
            if not isinstance(param, Parameter):
                raise TypeError(f"cannot assign '{typename(param)}' object to parameter "
                                f"'{name}' (torch.nn.Parameter or None required)")
            if param._grad_fn is not None:
                raise ValueError(
                    f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters "
                    f"must be created explicitly. To express '{name}' as a function of another "
                    "Tensor, compute the value in the forward() method.")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is state but not learned; persistent buffers go in state_dict."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name("buffer", name)
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a sub-module under ``name``."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        _check_name("module", name)
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep="_parameters")
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep="_modules")
            d["_modules"][name] = value
        elif params is not None and name in d["_modules"]:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            d["_modules"][name] = None
        elif params is not None and name in d["_buffers"]:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            d["_buffers"][name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str, keep: str) -> None:
        """Remove ``name`` from the tables other than ``keep`` (it is about to go there)."""
        d = self.__dict__
        d.pop(name, None)
        for table in ("_parameters", "_buffers", "_modules"):
            if table != keep:
                d[table].pop(name, None)
        d["_non_persistent_buffers_set"].discard(name)

    def __getattr__(self, name: str):
        # Only called when normal lookup fails: look in the three tables.
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            entries = d.get(table)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            if name in d[table]:
                del d[table][name]
                d["_non_persistent_buffers_set"].discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        extra = list(self._parameters) + list(self._buffers) + list(self._modules)
        return sorted(set(super().__dir__()) | set(extra))

    # ------------------------------------------------------------------ walking the tree
    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True):
        """This module and all below it, as ``(dotted_name, module)``, each module once."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                sub = prefix + ("." if prefix else "") + name
                yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        """The direct sub-modules as ``(name, module)``, each module once."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, table: str, prefix: str, recurse: bool, remove_duplicate: bool):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in module.__dict__[table].items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True):
        """Every parameter as ``(dotted_name, parameter)``, each parameter once."""
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True):
        """Every parameter of this module and its sub-modules (what an optimizer needs)."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True):
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def get_submodule(self, target: str) -> Module:
        module = self
        for item in target.split(".") if target else ():
            if item not in module._modules:
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = module._modules[item]
        return module

    def get_parameter(self, target: str) -> Parameter:
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if name not in module._parameters:
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        return module._parameters[name]

    # ------------------------------------------------------------------ modes and gradients
    def train(self, mode: bool = True) -> Module:
        """Set training mode (``self.training``) here and in every sub-module; returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for module in self.modules():
            module.__dict__["training"] = mode
        return self

    def eval(self) -> Module:
        """Evaluation mode: ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients: set every parameter's ``.grad`` to None (or to zeros)."""
        clear_grads(self.parameters(), set_to_none)

    def apply(self, fn) -> Module:
        """Call ``fn`` on every sub-module (children first), then on self; returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def _apply_to_tensors(self, convert) -> Module:
        for module in self.modules():
            for table in (module._parameters, module._buffers):
                for t in table.values():
                    if t is not None:
                        t._data = convert(t._data)
                        if t._grad is not None:
                            t._grad._data = convert(t._grad._data)
        return self

    def to(self, *args, **kwargs) -> Module:
        """Move to a device (only the CPU exists here) and/or cast floating tensors to a dtype."""
        from ..._device import check

        dtype = kwargs.get("dtype")
        check(kwargs.get("device"))
        for a in args:
            if isinstance(a, dtype_cls):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a.dtype
            elif a is not None and not isinstance(a, bool):
                check(a)  # a device: only the CPU is accepted
        if dtype is None:
            return self
        if not dtype.is_floating_point:
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but "
                            f"got desired dtype={dtype}")
        return self._apply_to_tensors(
            lambda a: a.astype(dtype.np) if a.dtype.kind == "f" else a)

    def float(self) -> Module:
        return self.to(float32)

    def double(self) -> Module:
        return self.to(float64)

    def cpu(self) -> Module:
        return self

    def cuda(self, device=None) -> Module:
        """Raises as a CPU-only PyTorch build does: there is no CUDA here."""
        from ..._device import NO_CUDA

        raise AssertionError(NO_CUDA)

    # ------------------------------------------------------------------ state_dict
    def state_dict(self, *, destination=None, prefix: str = "", keep_vars: bool = False):
        """An OrderedDict of every parameter and persistent buffer, by dotted name (detached)."""
        return _state_dict.save(self, destination, prefix, keep_vars)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """Copy parameters and buffers from ``state_dict`` (a name -> tensor mapping).

        With ``strict`` (the default), missing or unexpected keys are an error; otherwise they
        are returned as ``(missing_keys, unexpected_keys)``.
        """
        unsupported("load_state_dict", assign=assign)
        return _state_dict.load(self, state_dict, strict)

    # ------------------------------------------------------------------ printing
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """What a subclass shows inside its parentheses, e.g. ``in_features=3, ...``."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): {_indent(repr(module), 2)}"
                       for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        if not lines:
            return self._get_name() + "()"
        if len(extra_lines) == 1 and not child_lines:
            return f"{self._get_name()}({extra_lines[0]})"
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

