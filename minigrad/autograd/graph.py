"""The backward graph: ``Node`` (a ``grad_fn``), ``AccumulateGrad`` and saved tensors.

Every differentiable op makes one ``Node`` whose ``next_functions`` point at the nodes of its
inputs, in operand order: ``(node, input_nr)`` pairs, ``(None, 0)`` for an input that needs no
gradient. A leaf tensor is reached through its ``AccumulateGrad`` node, whose ``variable`` *is*
the leaf.

>>> import minigrad as torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> y = x * 3
>>> y.grad_fn.name(), y.grad_fn.next_functions[0][0].variable is x
('MulBackward0', True)
"""

from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict

from .._state import local as _mode

__all__ = ["Node", "AccumulateGrad", "SavedTensor", "RemovableHandle", "collect_next_edges"]

_sequence = itertools.count()

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)


class RemovableHandle:
    """Returned by ``register_hook``; ``handle.remove()`` takes the hook away again."""

    _next_id = itertools.count()

    def __init__(self, hooks: dict):
        self._hooks = hooks
        self.id = next(RemovableHandle._next_id)

    def remove(self) -> None:
        self._hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class _Hooks(OrderedDict):
    """An ordered id -> hook mapping that hands out removable handles."""

    def add(self, fn) -> RemovableHandle:
        handle = RemovableHandle(self)
        self[handle.id] = fn
        return handle


class _NodeMeta(type):
    """Prints node classes as PyTorch does: ``<class 'MulBackward0'>``."""

    def __repr__(cls) -> str:
        if cls.__dict__.get("_custom", False):
            return f"<class '{cls.__module__}.{cls.__qualname__}'>"
        return f"<class '{cls.__name__}'>"

    def _repr_pretty_(cls, p, cycle) -> None:  # IPython shows PyTorch's built-in types bare
        p.text(repr(cls)[8:-2] if cls.__dict__.get("_custom", False) else cls.__name__)


class Node(metaclass=_NodeMeta):
    """A node of the backward graph; ``tensor.grad_fn`` is one.

    Subclasses implement ``backward(self, grad)`` returning one gradient per entry of
    ``next_functions``; the engine calls it, un-broadcasts what it returns, and passes each
    gradient along its edge. ``backward`` works on NumPy arrays, or on Tensors when the engine
    runs with ``create_graph=True``, so it is written with operators both understand.
    """

    next_functions: tuple = ()
    _sequence_nr = 0
    _num_outputs = 1
    _released = False
    _sum_to = None  # per input: shape to sum the gradient to when the forward broadcast
    _pre_hooks = None
    _post_hooks = None
    _tensor_pre_hooks = None  # output_nr -> _Hooks, from tensor.register_hook
    _retains_grad = None  # output_nr -> weakref to a tensor that called retain_grad()
    _metadata = None
    _custom = False
    saved: tuple = ()  # names of the values kept for backward, shown as `_saved_<name>`
    saved_tensors_names: tuple = ()  # of those, the ones PyTorch shows as tensors

    def name(self) -> str:
        """The node's PyTorch name, e.g. ``'MulBackward0'``."""
        return type(self).__name__

    @property
    def metadata(self) -> dict:
        """A dict for your own notes about this node (kept as long as the node lives)."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    @property
    def requires_grad(self) -> bool:
        return True

    def register_hook(self, fn) -> RemovableHandle:
        """Call ``fn(grad_inputs, grad_outputs)`` after this node runs; it may return new grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = _Hooks()
        return self._post_hooks.add(fn)

    def register_prehook(self, fn) -> RemovableHandle:
        """Call ``fn(grad_outputs)`` before this node runs; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = _Hooks()
        return self._pre_hooks.add(fn)

    def _register_tensor_hook(self, output_nr: int, fn) -> RemovableHandle:
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        hooks = self._tensor_pre_hooks.get(output_nr)
        if hooks is None:
            hooks = self._tensor_pre_hooks[output_nr] = _Hooks()
        return hooks.add(fn)

    def backward(self, grad):
        raise NotImplementedError(f"{self.name()} has no backward formula")

    def release_variables(self) -> None:
        """Free the saved tensors (the engine does this after a backward without retain_graph)."""
        self._released = True
        for name in self.saved:
            value = self.__dict__.get("_s_" + name)
            if type(value) is SavedTensor:
                value.release()

    def __getattr__(self, name: str):
        # `_saved_self`, `_saved_exponent`, ...: what PyTorch shows of the values kept for backward
        if name.startswith("_saved_") and name[7:] in type(self).saved:
            value = getattr(self, "_s_" + name[7:], None)
            if type(value) is SavedTensor:
                return value.unpack(self)
            if name[7:] in type(self).saved_tensors_names and isinstance(value, (int, float)):
                from .._tensor import Tensor  # a Python number PyTorch wrapped as a tensor

                return Tensor._wrap(__import__("numpy").array(value))
            return value
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __call__(self, *grads):
        """Run this node's backward formula on tensors, like calling a PyTorch ``grad_fn``."""
        from .._tensor import Tensor

        raw = self.backward(grads[0]._data if self._num_outputs == 1 else
                            [None if g is None else g._data for g in grads])
        return tuple(None if g is None else Tensor._wrap(g) for g in raw)

    def __repr__(self) -> str:
        return f"<{_qualified_name(self)} object at {id(self):#x}>"

    def _repr_pretty_(self, p, cycle) -> None:  # what IPython shows for PyTorch's nodes
        p.text(f"<{_qualified_name(self)} at {id(self):#x}>")

    def __dir__(self):
        return sorted(set(super().__dir__()) | {"_saved_" + n for n in type(self).saved})


def _qualified_name(node) -> str:
    cls = type(node)
    return f"{cls.__module__}.{cls.__qualname__}" if cls.__dict__.get("_custom") else cls.__name__


class AccumulateGrad(Node):
    """The node that ends each path at a leaf: it adds the incoming gradient to ``variable.grad``."""

    _sequence_nr = 2**64 - 1  # PyTorch's UINT64_MAX: ready leaves accumulate first

    def __init__(self, variable):
        self.variable = variable

    def backward(self, grad):  # the engine calls accumulate(); this is for grad_fn(...) calls
        return ()

    def __call__(self, *grads):
        self.accumulate(grads[0]._data)
        return ()

    def accumulate(self, grad, create_graph: bool = False) -> None:
        """Add ``grad`` (an array, or a Tensor under create_graph) into ``variable.grad``."""
        from .._tensor import Tensor

        var = self.variable
        old = var._grad
        if type(grad) is not Tensor:
            if old is None:
                var._grad = Tensor._wrap(grad if grad.flags.owndata and grad.flags.writeable
                                         else grad.copy())
            elif old._requires_grad or create_graph:
                var._grad = old + Tensor._wrap(grad)
            else:
                old._data += grad
                old._vc[0] += 1
        elif old is None:
            var._grad = grad if create_graph else grad.detach()
        else:
            var._grad = old + (grad if create_graph else grad.detach())


class SavedTensor:
    """A tensor a node keeps for its backward, checked against in-place changes when used.

    A saved input is kept as the tensor object itself (``_saved_self is x``); a saved output is
    kept as its data (to avoid a reference cycle) and rebuilt with ``grad_fn`` on access.
    """

    __slots__ = ("tensor", "data", "vc", "version", "node", "released", "output_nr")

    def __init__(self, tensor, output_of: Node | None = None):
        self.tensor = None if output_of is not None else tensor
        self.data = tensor._data
        self.vc = tensor._vc
        self.version = tensor._vc[0]
        self.node = weakref.ref(output_of) if output_of is not None else None
        self.output_nr = tensor._output_nr
        self.released = False

    def release(self) -> None:
        self.released = True
        self.tensor = self.data = None

    def _check(self, owner) -> None:
        if self.released:
            raise RuntimeError(FREED_MESSAGE)
        if self.vc[0] != self.version:
            raise RuntimeError(_modified_message(self, owner))

    def unpack(self, owner=None):
        """The saved tensor, raising PyTorch's errors if freed or modified in place."""
        self._check(owner)
        if self.tensor is not None:
            return self.tensor
        from .._tensor import Tensor

        node = self.node()
        t = Tensor._wrap(self.data)
        t._vc = self.vc
        if node is not None:
            t._requires_grad = True
            t._grad_fn = node
            t._output_nr = self.output_nr
        return t

    def get(self, owner=None):
        """What a backward formula uses: the array, or the tensor under create_graph."""
        if _mode.grad_enabled:
            return self.unpack(owner)
        if self.released or self.vc[0] != self.version:
            self._check(owner)
        return self.data


def _modified_message(saved: SavedTensor, owner) -> str:
    t = saved.tensor
    data, dtype_name = saved.data, _legacy_name(saved.data)
    shape = ", ".join(str(s) for s in data.shape)
    if t is not None and t._grad_fn is not None:
        where = f"which is output {t._output_nr} of {t._grad_fn.name()},"
    elif t is None and saved.node is not None and saved.node() is not None:
        where = f"which is output {saved.output_nr} of {saved.node().name()},"
    else:
        where = ""
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [minigrad.{dtype_name} [{shape}]], {where} is at version "
        f"{saved.vc[0]}; expected version {saved.version} instead. Hint: enable anomaly "
        "detection to find the operation that failed to compute its gradient, with "
        "minigrad.autograd.set_detect_anomaly(True)."
    )


def _legacy_name(data) -> str:
    from .._dtype import from_numpy_dtype

    return from_numpy_dtype(data.dtype)._legacy_name


def grad_accumulator(t) -> AccumulateGrad:
    """The leaf's AccumulateGrad node, made on first use and shared while any graph holds it."""
    ref = t._accumulator
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(t)
        t._accumulator = weakref.ref(node)
    return node


def collect_next_edges(*tensors) -> tuple:
    """``next_functions`` for a node whose inputs are ``tensors`` (None for non-tensors)."""
    edges = []
    for t in tensors:
        if t is None or not t._requires_grad:
            edges.append((None, 0))
        elif t._grad_fn is not None:
            edges.append((t._grad_fn, t._output_nr))
        else:
            edges.append((grad_accumulator(t), 0))
    return tuple(edges)


def record(node: Node, out, inputs) -> None:
    """Make ``node`` the grad_fn of tensor ``out`` computed from ``inputs``."""
    node.next_functions = collect_next_edges(*inputs)
    node._sequence_nr = next(_sequence)
    out._grad_fn = node
    out._requires_grad = True


def needs_grad(*tensors) -> bool:
    """Whether an op on ``tensors`` must be recorded: grad mode on and some input requires grad."""
    if not _mode.grad_enabled:
        return False
    for t in tensors:
        if t is not None and t._requires_grad:
            return True
    return False
