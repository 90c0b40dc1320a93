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

import numpy as np

from .._quiet import quiet, restore
from .._state import anomaly as _anomaly
from .._state import inference_entered
from .._state import local as _mode
from .._tensor import Tensor
from .._torch_names import torch_name
from ..utils.hooks import Hooks as _Hooks
from ..utils.hooks import RemovableHandle
from . import functional_utils as _fu
from ._rule import _r
from .anomaly_mode import keep_forward_trace
from .formulas import write_backward
from .functional_utils import not_into, only_inference, refuse_inference
from .reshaped import no_gradient_into, not_differentiable
from .saved import FREED, SavedTensor, saved_properties
from .zero_tensor import added

__all__ = ["Node", "AccumulateGrad", "CopyBackwards", "SavedTensor", "RemovableHandle",
           "grad_accumulator", "should_record", "record", "record_raising"]

_sequence = itertools.count()  # every new node takes the next number (the engine's priority)

# ---------------------------------------------------------------- nodes
class _NodeMeta(type):
    """Prints node classes as PyTorch does: ``<class 'MulBackward0'>``."""
    def __repr__(cls) -> str:
        return f"<class '{_qualified(cls)}'>"

    def _repr_pretty_(cls, p, cycle) -> None:  # IPython shows PyTorch's built-in types bare
        p.text(_qualified(cls))


def _qualified(cls) -> str:
    return torch_name(cls) if cls._custom else cls.__name__


class Node(metaclass=_NodeMeta):
    """A node of the backward graph; ``tensor.grad_fn`` is one.

    Subclasses implement ``backward(self, grad)`` returning one gradient per entry of
    ``next_functions``; the engine calls it, un-broadcasts what it returns, and passes each
    gradient along its edge. ``backward`` works on NumPy arrays, or on Tensors when the engine
    runs with ``create_graph=True``, so it is written with operators both understand.
    """

    # The edges, kept as two flat tuples (the nodes, and which input of each): one tuple the
    # garbage collector has to track per node instead of one per edge plus one holding them.
    _next_nodes: tuple = ()
    _next_nrs: tuple = ()
    _sequence_nr = 0
    _num_outputs = 1
    _released = False
    _sum_to = None  # per input: (shape, dtype) to sum the gradient to when the forward broadcast
    _pre_hooks = None
    _post_hooks = None
    _tensor_pre_hooks = None  # output_nr -> _Hooks, from tensor.register_hook
    _retains_grad = None  # output_nr -> weakref to a tensor that called retain_grad()
    _metadata = None
    _expected = None  # output_nr -> (shape, dtype) it was made with, where the tensor changed
    _hooked = False  # set once any hook (or retain_grad) is registered: the engine then runs them
    _custom = False  # a custom Function's node (printed with its module)
    _has_saved = False  # set for classes with saved values: the engine then releases them
    saved: tuple = ()  # names of the values kept for backward, shown as `_saved_<name>`
    _saved_attrs: tuple = ()  # the attributes holding them: `_s_<name>`
    saved_tensors_names: tuple = ()  # of those, the ones PyTorch shows as tensors
    saved_lists: tuple = ()  # and the lists of tensors it keeps (IndexBackward0's indices)
    _frees: tuple = ()  # the attributes of both: freed by a backward, even if kept as numbers

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls._has_saved = cls._has_saved or bool(cls.saved)
        cls._saved_attrs = tuple(  # where the values live (a property computes its own)
            "_s_" + name for name in cls.saved
            if not isinstance(getattr(cls, "_s_" + name, None), property))
        cls._frees = tuple("_s_" + n for n in cls.saved_tensors_names + cls.saved_lists)
        saved_properties(cls)  # `_saved_<name>`, `_raw_saved_<name>`
        write_backward(cls)  # a rule made of formulas and no backward: written from the rule

    def name(self) -> str:
        """The node's PyTorch name, e.g. ``'MulBackward0'``."""
        return type(self).__name__

    @property
    def next_functions(self) -> tuple:
        """``((node, input_nr), ...)``: where each gradient this node computes goes next."""
        return tuple(zip(self._next_nodes, self._next_nrs))

    @next_functions.setter
    def next_functions(self, edges) -> None:
        self._next_nodes = tuple(fn for fn, _ in edges)
        self._next_nrs = intern_nrs(tuple(nr for _, nr in edges))

    @property
    def metadata(self) -> dict:
        """A dict for your own notes about this node (kept as long as the node lives)."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def register_hook(self, fn) -> RemovableHandle:
        """Call ``fn(grad_inputs, grad_outputs)`` after this node runs; may return new grad_inputs.

        ``grad_outputs`` are the gradients the node received, ``grad_inputs`` those it computed
        (one per entry of ``next_functions``).
        """
        if self._post_hooks is None:
            self._post_hooks = _Hooks()
        self._hooked = True
        return self._post_hooks.add(fn)

    def register_prehook(self, fn) -> RemovableHandle:
        """Call ``fn(grad_outputs)`` before this node runs; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = _Hooks()
        self._hooked = True
        return self._pre_hooks.add(fn)

    def _register_tensor_hook(self, output_nr: int, fn) -> RemovableHandle:
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        hooks = self._tensor_pre_hooks.setdefault(output_nr, _Hooks())
        self._hooked = True
        return hooks.add(fn)

    def backward(self, grad):
        raise NotImplementedError(f"{self.name()} has no backward formula")

    def release_variables(self) -> None:
        """Free the saved tensors (the engine does this after a backward without retain_graph),
        and the numbers and arrays PyTorch keeps as tensors (``x * 2``'s 2, indices): the node's
        formula then raises PyTorch's error, as reading ``_saved_<name>`` does."""
        self._released = True
        for name in self._saved_attrs:
            value = getattr(self, name)
            if type(value) is SavedTensor:
                value.release()
            elif value is not None and name in self._frees:
                setattr(self, name, FREED)  # (formulas read it through value(): they raise)

    def __call__(self, *grads):
        """Run this node's backward formula on tensors, like calling a PyTorch ``grad_fn`` (with
        NumPy's warnings off, as the engine: inf and NaN come silently, as in PyTorch)."""
        token = quiet()
        try:
            if _mode.grad_enabled:
                return tuple(self.backward(grads[0] if self._num_outputs == 1 else list(grads)))
            raw = self.backward(grads[0]._data if self._num_outputs == 1 else
                                [None if g is None else g._data for g in grads])
        finally:
            restore(token)
        return tuple(None if g is None else Tensor._wrap(g) for g in raw)

    def __repr__(self) -> str:
        return f"<{_qualified(type(self))} object at {id(self):#x}>"

    def _repr_pretty_(self, p, cycle) -> None:  # what IPython shows for PyTorch's nodes
        p.text(f"<{_qualified(type(self))} at {id(self):#x}>")

    def __dir__(self):
        """What PyTorch lists for a node: its public surface and the saved values."""
        names = set(_OBJECT_NAMES) | set(_NODE_NAMES) | self._saved_names()
        if type(self) is AccumulateGrad:
            names.add("variable")
        return sorted(names)

    def _saved_names(self) -> set:
        """``_saved_<name>``, and ``_raw_saved_<name>`` for those PyTorch saves as tensors."""
        names = set()
        for n in type(self).saved:
            names.add("_saved_" + n)
            if n in type(self).saved_tensors_names or \
                    type(self.__dict__.get("_s_" + n)) is SavedTensor:
                names.add("_raw_saved_" + n)
        return names

    # PyTorch's names on every node, kept for code that looks at them
    @property
    def requires_grad(self) -> bool:
        return True

    @property
    def _input_metadata(self) -> list:
        """(shape, dtype) of each output of the forward op, where known."""
        meta = getattr(self, "_output_meta", None) or ()
        return [m for m in meta if m is not None]

    def _set_sequence_nr(self, nr: int) -> None:
        self._sequence_nr = nr

    def _register_hook_dict(self, tensor) -> None:
        """PyTorch stores a tensor's hooks on its node so (minigrad: ``Tensor.register_hook``)."""


_OBJECT_NAMES = tuple(dir(object()))
_NODE_NAMES = ("__call__", "_input_metadata", "_register_hook_dict", "_sequence_nr",
               "_set_sequence_nr", "metadata", "name", "next_functions", "register_hook",
               "register_prehook", "requires_grad")


class AccumulateGrad(Node):
    """The node that ends each path at a leaf: it adds the incoming gradient to ``variable.grad``.

    ``name()`` is PyTorch's C++ name, ``'torch::autograd::AccumulateGrad'``.
    """

    rule = _r("x  (a leaf tensor)", words=True, x="x.grad + grad  (x.grad = grad the first time)")

    _sequence_nr = 2**64 - 1  # PyTorch's UINT64_MAX: a ready leaf is updated before anything else

    def __init__(self, variable):
        self.variable = variable

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def backward(self, grad):  # the engine calls accumulate(); this is for grad_fn(...) calls
        return ()

    def __call__(self, *grads):
        var = self.variable
        if var._requires_grad:  # (its post-accumulate hooks run even when it does not)
            self.accumulate(grads[0]._data, False, False)
        for hook in list((var._post_acc_hooks or {}).values()):
            hook(var)
        return ()

    def accumulate(self, grad, owned: bool = False, create_graph: bool = False,
                   views: dict | None = None) -> None:
        """Add ``grad`` into ``variable.grad`` as PyTorch does: the first one kept if the engine
        ``owned`` it and it obeys the layout contract (then sharing the version counter of the
        memory it views, see ``views``), else copied; later ones added in place. Under
        ``create_graph`` both are recorded (``CopyBackwards``, ``AddBackward0``)."""
        var, old = self.variable, self.variable._grad
        if create_graph:
            grad = grad if isinstance(grad, Tensor) else Tensor._wrap(grad)
            var._grad = _recorded_copy(grad, var._data) if old is None else old + grad
        elif old is None:
            var._grad = _fu.first_grad(var._data, grad, owned, views)
        else:
            d = old._data
            if d.flags.writeable:
                try:
                    np.add(d, grad, out=d, casting="unsafe")
                except ValueError:  # (the leaf changed shape since: add_'s error)
                    raise not_into(d.shape, grad.shape) from None
            else:
                old._data = added(old, grad)
            if old._inference:  # (PyTorch adds, then refuses it outside inference mode)
                refuse_inference(old)
            old._vc[0] += 1


class CopyBackwards(Node):
    """z = self.copy_(src): self's old values are gone (no gradient); src gets grad as is.

    PyTorch's ``.grad`` after ``backward(create_graph=True)`` is such a copy of the gradient.
    Where self needs a gradient (``a.copy_(src)``), it gets zeros, as in PyTorch.
    """

    rule = _r("a.copy_(b)", np={"a": "0 * grad"}, a="0", b="grad")

    def name(self) -> str:
        return "torch::autograd::CopyBackwards"

    def backward(self, g):
        if self.next_functions[0][0] is None:
            return None, g
        if isinstance(g, Tensor):  # (PyTorch's zeros_like(grad): a NaN in grad stays out)
            return Tensor._wrap(np.zeros_like(g._data)), g
        return np.zeros_like(g), g


def _recorded_copy(g, like: np.ndarray):
    """A copy of tensor ``g`` in ``like``'s layout, recorded (PyTorch's ``CopyBackwards``); in
    its shape too if the leaf's changed since (``copy_``'s broadcast and errors)."""
    if _fu.overlapping(like):  # an expanded leaf: a row-major clone (clone_obey_contract)
        return _fu.row_major_clone(g)
    t = _fu.copied(_fu.clone_obey_contract(g._data, like))
    if should_record(g):
        record(CopyBackwards(), t, None, g)
    return t


# ---------------------------------------------------------------- recording
def grad_accumulator(t) -> AccumulateGrad:
    """The leaf's AccumulateGrad node, made on first use and shared while any graph holds it."""
    ref = t._accumulator
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(t)
        t._accumulator = weakref.ref(node)
    return node


def should_record(*inputs) -> bool:
    """Whether an op on ``inputs`` records a node: grad mode is on and some input requires grad.

    ``inputs``: the op's operands as given (tensors, Python numbers, None). A view requires grad
    once its base does, even if the base came to after the view was made (as in PyTorch; its
    gradient then leads nowhere). Inference tensors alone record nothing (PyTorch's autograd
    skips them); only floating-point outputs get a node (:func:`record`)."""
    if not _mode.grad_enabled:
        return False
    found = False
    for t in inputs:
        if isinstance(t, Tensor):
            if t._base is not None and t._base._requires_grad:  # a view of such a base:
                t._sync_view()  # its history is read from the base now (the op may save it)
                found = True
            elif t._requires_grad:
                found = True
    return found and (not inference_entered  # (no inference tensor exists yet: the fast way)
                      or type(t := inputs[0]) is Tensor and not (t._inference or t._data_inference)
                      or not only_inference(inputs))  # (a normal first operand: the quick test)


def record(node: Node, outputs, *inputs, broadcast: bool = False):
    """Make ``node`` the ``grad_fn`` of ``outputs`` (a tensor, or a tuple of them), computed
    from ``inputs``; return ``outputs``.

    - ``node.next_functions`` gets one edge per input, in operand order: the input's
      ``(grad_fn, output_nr)``, its leaf's ``AccumulateGrad``, or ``(None, 0)`` for an input
      that needs no gradient or is not a tensor. An input may also be an edge ``(node, nr)``
      taken from another node (``CopySlices`` passes on its op's edges).
    - ``node`` takes the next sequence number (the engine runs newer nodes first).
    - With ``broadcast=True`` (elementwise ops) the engine sums each input's gradient back to
      that input's shape and dtype: un-broadcasting lives here, once, not in every formula.
    - Each output becomes output ``i`` of ``node``. Only floating-point (or complex) tensors
      can have a gradient: a single integer or bool output raises PyTorch's error; in a tuple
      of outputs (a custom Function's) such an output is left a plain tensor. (In-place ops
      record on any dtype, as PyTorch's do: ``inplace.apply_inplace`` sets ``any_dtype``.)
    """
    if type(outputs) is tuple:  # several outputs (a custom Function's), None for some
        out = next((t for t in outputs if t is not None), None)
    else:
        out = outputs
    shape = dtype = None
    if broadcast and out is not None:  # what the inputs were broadcast to
        shape, dtype = out._data.shape, out._data.dtype
    nodes, nrs = [], None  # nrs is made only if some input_nr is not 0 (rare)
    for x in inputs:  # (one loop, written out: this runs for every op)
        if not isinstance(x, Tensor):  # a number (no edge), or an edge passed on from a node
            fn = None
            if type(x) is tuple:
                fn, nr = x
                if nr:
                    nrs = _set_nr(nrs, len(inputs), len(nodes), nr)
        elif x._requires_grad if x._base is None else not _view_leads_nowhere(x):
            fn = x._grad_fn
            if fn is None:
                fn = grad_accumulator(x)
            elif x._output_nr:
                nrs = _set_nr(nrs, len(inputs), len(nodes), x._output_nr)
            if shape is not None:
                xd = x._data
                if xd.shape != shape or (xd.dtype is not dtype and xd.dtype != dtype):
                    if node._sum_to is None:
                        node._sum_to = [None] * len(inputs)
                    node._sum_to[len(nodes)] = (xd.shape, xd.dtype)
        else:
            fn = None
        nodes.append(fn)
    node._next_nodes = tuple(nodes)
    n = len(nodes)
    node._next_nrs = _ZEROS[n] if nrs is None and n < 16 else intern_nrs(tuple(nrs or [0] * n))
    node._sequence_nr = next(_sequence)
    if _anomaly.enabled:
        keep_forward_trace(node)
    if out is outputs:
        if out._data.dtype.kind not in "fc":
            if not _mode.any_dtype:
                raise not_differentiable(out._data.dtype)
            no_gradient_into(node, out.dtype)  # (an integer tensor given a history in place)
        out._grad_fn, out._requires_grad, out._output_nr = node, True, 0
        return outputs
    node._num_outputs = len(outputs)
    for nr, t in enumerate(outputs):
        if t is not None and t._data.dtype.kind in "fc":
            t._grad_fn, t._requires_grad, t._output_nr = node, True, nr
    return outputs


def record_raising(node: Node, outputs, *inputs):
    """:func:`record` for a node that only raises: UINT64_MAX as in PyTorch (it runs first)."""
    record(node, outputs, *inputs)
    node._sequence_nr = AccumulateGrad._sequence_nr
    return outputs


def _set_nr(nrs, n: int, i: int, nr: int) -> list:  # input i's nr set (a list from the first)
    nrs = nrs or [0] * n
    nrs[i] = nr
    return nrs


def _view_leads_nowhere(x) -> bool:
    """Bring view ``x`` up to date (its base may have changed in place since, and so started
    requiring grad); True if its gradient leads nowhere: it does not require grad, or it was
    made in no_grad mode (and not made a leaf of its own since, by requires_grad_)."""
    if x._requires_grad or x._base._requires_grad:
        x._sync_view()
    return not x._requires_grad or (x._grad_fn is None and x._view_no_grad
                                    and not x.__dict__.get("_view_leaf"))


_NRS: dict = {}


def intern_nrs(nrs: tuple) -> tuple:
    """One shared tuple per distinct ``input_nr`` pattern (they are nearly all zeros)."""
    return _NRS.setdefault(nrs, nrs)


# the input_nrs of nearly every node, (0,) * n, shared; record() falls back for longer ones
_ZEROS = [intern_nrs((0,) * n) for n in range(16)]
