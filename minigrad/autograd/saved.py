"""Saved tensors: what a node keeps for its backward, checked against in-place changes.

A node's ``_s_<name>`` holds a :class:`SavedTensor` for each tensor it saved; PyTorch shows it
as ``grad_fn._saved_<name>``. Using it after a backward without ``retain_graph``, or after the
tensor was changed in place, raises PyTorch's error.

>>> import minigrad as torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> y = x.exp()
>>> with torch.no_grad():
...     _ = y.mul_(2)
>>> try:
...     y.grad_fn._saved_result
... except RuntimeError as e:
...     print(str(e)[:20], "...", str(e).split(", ")[1])
one of the variables ... which is output 0 of Exp
"""

from __future__ import annotations

import functools
import re
import weakref

import numpy as np

from .._dtype import cpu_type_name
from .._state import inference_entered
from .._state import local as _mode
from .._tensor import Tensor

__all__ = ["SavedTensor", "FREED_MESSAGE", "DETACHED_MESSAGE", "INFERENCE_MESSAGE",
           "NO_VERSION_MESSAGE", "default_hooks", "FREED", "check_saved", "saved_properties",
           "refuse_saving_inference"]

# saved_tensors_hooks' (pack, unpack) pairs, innermost last; the list is changed in place only
default_hooks: list = []

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)
DETACHED_MESSAGE = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
    "This is not supported, please use out-of-place `.detach()` instead"
)
INFERENCE_MESSAGE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead "
    "of `torch.inference_mode()`."
)
NO_VERSION_MESSAGE = "Inference tensors do not track version counter."



class SavedTensor:
    """A tensor a node keeps for its backward, checked against in-place changes when used.

    A saved input is kept as the tensor object itself (``_saved_self is x``); a saved output is
    kept as its data (to avoid a reference cycle) and rebuilt with ``grad_fn`` on access.
    ``release()`` (after a backward without ``retain_graph``) drops both.

    An input that had a history when saved (a non-leaf) is read through the tensor when used
    (``data`` is None), as PyTorch reads the very tensor it saved: if ``detach_()`` has taken
    that history away since, using it raises PyTorch's error. A leaf's array is kept as is
    (the common case, the cheapest to use).
    """

    __slots__ = ("tensor", "data", "vc", "version", "node", "output_nr", "released",
                 "packed", "unpack_hook", "source", "view_fn")

    def __init__(self, tensor, output_of=None):
        if inference_entered and (tensor._inference or tensor._data_inference):
            raise RuntimeError(INFERENCE_MESSAGE if tensor.is_inference() else
                               NO_VERSION_MESSAGE)
        if default_hooks:  # inside saved_tensors_hooks: keep what its pack hook returns
            self.node = None if output_of is None else weakref.ref(output_of)
            return _pack(self, tensor, *default_hooks[-1])
        self.data = tensor._data
        self.vc = vc = tensor._vc
        self.version = vc[0]
        self.released = False
        if output_of is None:
            self.tensor = tensor
            self.node = None
            if tensor._grad_fn is not None:  # a non-leaf: read through the tensor (see above)
                self.data = None
        else:
            self.tensor = None
            self.node = weakref.ref(output_of)
            self.output_nr = tensor._output_nr

    def release(self) -> None:
        self.released = True
        self.tensor = self.data = None
        if self.vc is _NO_VERSION:
            self.packed = self.source = None

    def _check(self, saved_for=None) -> None:
        """PyTorch's checks, in its order: freed, detached in place (only a backward formula
        asks this one: ``saved_for`` is None), modified in place."""
        if self.released:
            raise RuntimeError(FREED_MESSAGE)
        if saved_for is None and self._detached():
            raise RuntimeError(DETACHED_MESSAGE)
        if self.vc[0] != self.version:
            raise RuntimeError(_modified_message(self, saved_for))

    def _detached(self) -> bool:
        """A non-leaf input whose history ``detach_()`` has taken away since it was saved."""
        t = self.tensor
        return self.data is None and t is not None and t._grad_fn is None

    def unpack(self, saved_for=None):
        """The saved tensor, raising PyTorch's errors if freed or modified in place.

        ``saved_for``: the node asking, when it is not a backward formula (``_saved_self``):
        a saved input detached in place is then no error, and named as that node's."""
        if self.released or self.vc[0] != self.version:
            self._check(saved_for)
        return self._tensor()

    def _tensor(self):
        """The saved tensor as it is (no check)."""
        if self.tensor is not None:
            return self.tensor
        if self.data is None:
            return _unpack(self)
        t = Tensor._wrap(self.data)
        t._vc = self.vc
        node = self.node()
        if node is not None:
            t._requires_grad = True
            t._grad_fn = node
            t._output_nr = self.output_nr
        return t

    def get(self):
        """What a backward formula uses: the array, or the tensor under create_graph."""
        if _mode.grad_enabled:
            if self._detached() and not self.released:
                raise RuntimeError(DETACHED_MESSAGE)
            return self.unpack()
        if self.released or self.vc[0] != self.version:
            self._check()
        data = self.data
        if data is None:
            return self._array()
        t = self.tensor  # (a leaf's array, unless `.data =` gave it another: PyTorch reads that)
        return data if t is None or t._data is data else _new_data(data, t._data)

    def _array(self):
        """The array of a non-leaf input (checked for ``detach_``) or of a hooked tensor."""
        t = self.tensor
        if t is None:
            return _unpack(self)._data
        if t._grad_fn is None:
            raise RuntimeError(DETACHED_MESSAGE)
        return t._data

    def register_hooks(self, *hooks) -> None:
        """Keep this one saved tensor through ``pack_hook``, read it back with ``unpack_hook``
        (``grad_fn._raw_saved_<name>.register_hooks(pack_hook, unpack_hook)`` in PyTorch)."""
        if len(hooks) != 2 or not all(callable(h) for h in hooks):
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument types "
                "are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\nInvoked "
                f"with: {', '.join(repr(a) for a in (self, *hooks))}")
        if self.released:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved "
                "intermediate values of the graph are freed when you call .backward() or "
                "autograd.grad(). Specify retain_graph=True if you need to backward through the "
                "graph a second time or if you need to access saved variables after calling "
                "backward.")
        if self.vc is _NO_VERSION:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already "
                               "been set. Hint: only one pair of hooks is allowed at a time.")
        tensor = self._tensor()  # (changed in place since: no error, as in PyTorch)
        detached = Tensor._wrap(tensor._data)  # the pack hook sees it detached, as in PyTorch
        detached._vc = tensor._vc
        source, nr = self.tensor, tensor._output_nr
        _pack(self, detached, *hooks)
        self.output_nr = nr
        if source is not None and source._requires_grad:
            self.source = source._grad_fn or _accumulator(source)

    def __repr__(self) -> str:
        return f"<torch._C._autograd.SavedTensor object at {id(self):#x}>"


def check_saved(node) -> None:
    """What PyTorch's formulas do first: unpack every saved tensor (in the node's order),
    raising if freed, detached in place or modified in place. For a formula that does not
    read them all (``pow(x, 0)``, ``div`` with a rounding mode, the indices of ``sort``)."""
    for name in _unpack_order(node._saved_attrs):
        saved = node.__dict__.get(name)
        if type(saved) is SavedTensor and (saved.released or saved.vc[0] != saved.version
                                           or saved._detached()):
            saved._check()


@functools.cache
def _unpack_order(names: tuple) -> tuple:
    """A node's saved attributes in PyTorch's unpacking order: inputs by name, then outputs
    (made once per node class)."""
    return tuple(sorted(names, key=lambda n: n.startswith("_s_result")))


# What a node keeps in place of a number or array PyTorch would have kept as a tensor, once a
# backward has freed it (``Node.release_variables``): using it raises PyTorch's error.
FREED = SavedTensor.__new__(SavedTensor)
FREED.tensor = FREED.data = None
FREED.released, FREED.vc, FREED.version = True, [0], 0


# ---------------------------------------------------------------- saved_tensors_hooks
_NO_VERSION = [0]  # a hooked saved tensor has no version to check (PyTorch's neither)


def refuse_saving_inference(*saved) -> None:
    """PyTorch's autograd saves an op's operands before its kernel checks them (shapes, dtypes):
    an inference tensor among ``saved`` (tensors, or None and numbers) raises first."""
    for t in saved:
        if getattr(t, "_inference", False) or getattr(t, "_data_inference", False):
            raise RuntimeError(INFERENCE_MESSAGE if t.is_inference() else NO_VERSION_MESSAGE)


def _pack(saved: SavedTensor, tensor, pack_hook, unpack_hook) -> None:
    """Keep ``pack_hook(tensor)`` (run in no_grad mode) and what rebuilds the tensor's history."""
    version, prev = tensor._vc[0], _mode.grad_enabled
    _mode.grad_enabled = False
    try:
        packed = pack_hook(tensor)
    finally:
        _mode.grad_enabled = prev
    if tensor._vc[0] != version:
        raise RuntimeError(
            "A saved tensor pack hook is modifying its input in place. Tensors provided as input "
            "to pack hook cannot be modified by in-place operations as this can lead to "
            "unexpected side-effects. Please open an issue if you need to perform in-place "
            "operations on the input to a pack hook.")
    saved.packed, saved.unpack_hook, saved.released = packed, unpack_hook, False
    saved.tensor = saved.data = None
    saved.vc, saved.version, saved.output_nr = _NO_VERSION, 0, tensor._output_nr
    # an input keeps its grad_fn (or, for a leaf, its AccumulateGrad) so that the unpacked
    # tensor leads back into the graph under create_graph, as the original did
    if saved.node is not None or not tensor._requires_grad:
        saved.source = None
    elif tensor._grad_fn is not None:
        saved.source = tensor._grad_fn
    else:
        saved.source = _accumulator(tensor)


def _accumulator(leaf):
    from .graph import grad_accumulator

    return grad_accumulator(leaf)


def _unpack(saved: SavedTensor):
    """A new tensor of ``unpack_hook(packed)``'s data with the saved tensor's history."""
    from .graph import AccumulateGrad

    value = saved.unpack_hook(saved.packed)
    if not isinstance(value, Tensor):
        raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got "
                        f"result of type {type(value).__name__}")
    t = Tensor._wrap(value._data)
    t._vc = value._vc
    node = saved.node() if saved.node is not None else saved.source
    if node is not None:
        t._requires_grad = True
        if saved.node is not None or not isinstance(node, AccumulateGrad):
            t._grad_fn, t._output_nr = node, saved.output_nr
        else:
            t._accumulator = weakref.ref(node)
    return t


def _modified_message(saved: SavedTensor, saved_for=None) -> str:
    """PyTorch's message: a saved input as it is now (its shape, dtype and current history,
    always "output 0"; the asking node if ``detach_()`` took the history away); a saved
    output as it was saved, with the node that saved it."""
    t = saved.tensor
    data = saved.data if t is None else t._data
    shape = ", ".join(str(s) for s in data.shape)
    if t is None:
        node, nr = _view_history(saved) or saved.node(), saved.output_nr
    else:
        node, nr = t.grad_fn or (saved_for if saved.data is None else None), 0
    where = f", which is output {nr} of {_op_name(node)}," if node is not None else ""
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [{cpu_type_name(data.dtype)} [{shape}]]{where} is "
        f"at version {saved.vc[0]}; expected version {saved.version} instead. Hint: enable "
        "anomaly detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def _new_data(old, new):
    """A saved leaf's data after ``.data =``; one of a shape the gradient (of the old shape)
    cannot meet is refused as PyTorch's elementwise formulas refuse it."""
    if new.shape != old.shape:
        import numpy as np

        from .._ops._core import broadcast_error
        try:
            np.broadcast_shapes(old.shape, new.shape)
        except ValueError:
            raise broadcast_error(old, new) from None
    return new


def _view_history(saved: SavedTensor):
    """What PyTorch names for a result saved by an in-place op on a view: the view's history
    then (AsStridedBackward0), while the view lives with it; else None (the node's own)."""
    view_fn = getattr(saved, "view_fn", None)
    if view_fn is not None:
        view, fn = view_fn[0](), view_fn[1]()
        if view is not None and fn is not None and view._grad_fn is fn:
            return fn
    return None


def _op_name(node) -> str:
    """``MulBackward0`` -> ``Mul``, ``PowBackward2`` -> ``Pow2``: how PyTorch names the op in
    the in-place errors (a custom Function's ``EBackward`` -> ``E``;
    ``torch::autograd::CopyBackwards`` as it is)."""
    return re.sub(r"Backward(0?$|(?=\d+$))", "", node.name(), count=1)


# ---------------------------------------------------------------- what a node shows of them
def saved_properties(cls) -> None:
    """Give node class ``cls`` PyTorch's ``_saved_<name>`` and ``_raw_saved_<name>`` for each
    value it keeps: properties, as PyTorch's (a ``__getattr__`` on ``Node`` would make Python
    read every attribute of every node the slow way)."""
    for name in cls.saved:
        setattr(cls, "_saved_" + name, property(functools.partial(_saved, name)))
        setattr(cls, "_raw_saved_" + name, property(functools.partial(_raw_saved, name)))


def _saved(name: str, node):
    """``node._saved_<name>``: what PyTorch shows of a value kept for backward."""
    if name not in type(node).saved:  # (a subclass keeping other values than its parent)
        raise _no_attribute(node, "_saved_" + name)
    value = getattr(node, "_s_" + name, None)
    if type(value) is SavedTensor:
        return value.unpack(node)
    if name in type(node).saved_tensors_names and isinstance(value, (int, float)):
        return Tensor._wrap(np.array(value))
    return tuple(value) if type(value) is list else value  # int lists come as tuples


def _raw_saved(name: str, node):
    """``node._raw_saved_<name>``: the SavedTensor itself (``x * 2``'s 2 made one: PyTorch keeps
    tensor(2), hooks and all), for the values PyTorch saves as tensors."""
    if "_raw_saved_" + name not in node._saved_names():
        raise _no_attribute(node, "_raw_saved_" + name)
    value = getattr(node, "_s_" + name)
    if isinstance(value, (int, float)):
        value = SavedTensor(Tensor._wrap(np.array(value)))
        setattr(node, "_s_" + name, value)
    return value


def _no_attribute(node, name: str) -> AttributeError:
    return AttributeError(f"'{type(node).__name__}' object has no attribute '{name}'")
