"""``Optimizer``: the base class that holds parameter groups and per-parameter state.

An optimizer keeps ``param_groups`` (a list of dicts: ``'params'`` plus hyper-parameters such
as ``'lr'``) and ``state`` (a dict from parameter to whatever the method remembers, e.g. a
momentum buffer). ``step()`` updates the parameters in place from their ``.grad``; subclasses
write the update straight on the NumPy arrays (autograd must not see it, as under ``no_grad``)
and bump each parameter's version, as PyTorch's in-place ops do.

>>> import minigrad as torch
>>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
>>> opt = torch.optim.SGD([w], lr=0.5)
>>> (w * w).sum().backward()
>>> opt.step()
>>> w
Parameter containing:
tensor([0., 0.], requires_grad=True)
"""

from __future__ import annotations

import copy
import warnings
from collections import defaultdict

import numpy as np

from .._ops._core import broadcast_error
from .._quiet import quiet, restore
from .._tensor import Tensor
from .._torch_names import TorchNamed
from ..autograd.grad_mode import enable_grad
from ..autograd.zero_tensor import refuse_write

__all__ = ["clear_grads", "Optimizer"]

DUPLICATE_WARNING = (
    "optimizer contains a parameter group with duplicate parameters; in future, this will "
    "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information")


def _typename(obj) -> str:
    if isinstance(obj, Tensor):
        return "torch." + obj.dtype._legacy_name
    return type(obj).__name__



def check_grad_shape(p, g) -> None:
    """PyTorch's refusal of the in-place update of parameter ``p`` (or of its state, shaped as
    ``p``) by a gradient array ``g`` whose shape broadcast with ``p``'s is not ``p``'s (after
    ``.data =`` changed the parameter's shape)."""
    shape = p._data.shape
    if g.shape != shape:
        try:
            full = np.broadcast_shapes(shape, g.shape)
        except ValueError:
            raise broadcast_error(p, Tensor._wrap(g)) from None
        if full != shape:
            raise RuntimeError(f"output with shape [{', '.join(map(str, shape))}] doesn't "
                               f"match the broadcast shape [{', '.join(map(str, full))}]")


def clear_grads(params, set_to_none: bool = True) -> None:
    """What ``zero_grad`` does for modules and optimizers: ``.grad = None``, or zeros in place.

    Zeroing in place cuts the gradient off any graph (as PyTorch's ``zero_grad`` does) and
    counts as an in-place change of it.
    """
    for p in params:
        g = p._grad
        if g is None:
            continue
        if set_to_none:
            p._grad = None
            continue
        if g._grad_fn is not None:
            g.detach_()
        else:
            g._requires_grad = False
        if g._zero:  # (a ZeroTensor, as from sgn: PyTorch's zero_() refuses it)
            refuse_write(g)
        g._data[...] = 0
        g._vc[0] += 1


class Optimizer(metaclass=TorchNamed):
    """Base class: ``Optimizer(params, defaults)``; subclasses implement ``step()``.

    ``params`` is an iterable of tensors, or of dicts (parameter groups) with a ``'params'``
    entry and hyper-parameters overriding ``defaults``.
    """

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {_typename(params)}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters (a dict with ``'params'``), filling in the defaults."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            params = list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(p))
            if p._grad_fn is not None:
                raise ValueError("can't optimize a non-leaf Tensor")
        group = {"params": params}
        for name, value in param_group.items():
            if name != "params":
                group[name] = value
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        if len({id(p) for p in params}) != len(params):
            warnings.warn(DUPLICATE_WARNING, UserWarning, stacklevel=3)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget every parameter's gradient: ``.grad = None`` (or zeros in place)."""
        for group in self.param_groups:
            clear_grads(group["params"], set_to_none)

    def step(self, closure=None):
        """Update every parameter that has a gradient; returns the closure's loss, if any.

        Each optimizer says how one parameter changes in ``_update(p, group)``.
        """
        loss = self._closure_loss(closure)
        token = quiet()  # an inf or NaN gradient updates as in PyTorch, without NumPy's warnings
        try:
            self._update_all()
        finally:
            restore(token)
        return loss

    def _update_all(self) -> None:
        for group in self.param_groups:
            for p in group["params"]:
                if p._grad is not None:
                    self._update(p, group)

    def _update(self, p, group) -> None:
        raise NotImplementedError

    def _closure_loss(self, closure):
        """Run ``closure`` (which recomputes the loss) with grad mode on, as PyTorch does."""
        if closure is None:
            return None
        with enable_grad():
            return closure()

    # ------------------------------------------------------------------ saving and loading
    def state_dict(self) -> dict:
        """``{'state': {index: state}, 'param_groups': [...]}`` with parameters as indices."""
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            packed["params"] = [index.setdefault(id(p), len(index)) for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: s for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore hyper-parameters and state saved by ``state_dict()`` (values are copied)."""
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for mine, saved in zip(self.param_groups, saved_groups):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't "
                                 "match the size of optimizer's group")
        by_index = {}
        for mine, saved in zip(self.param_groups, saved_groups):
            by_index.update(zip(saved["params"], mine["params"]))
            for key, value in saved.items():
                if key != "params":
                    mine[key] = value
        self.state = defaultdict(dict)
        for i, s in state_dict["state"].items():
            if i in by_index:
                self.state[by_index[i]] = {k: _copied(v) for k, v in s.items()}

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _copied(value):
    if isinstance(value, Tensor):
        return Tensor._wrap(np.array(value._data, copy=True))
    return copy.deepcopy(value)


def check_value(name: str, value: float) -> None:
    """PyTorch's refusal of a negative hyperparameter (``Invalid learning rate: -1``)."""
    if not 0.0 <= value:
        raise ValueError(f"Invalid {name}: {value}")


def step_tensor() -> Tensor:
    """A parameter's step count as PyTorch keeps it in the state: a float32 0-d tensor."""
    return Tensor._wrap(np.array(0.0, np.float32))
