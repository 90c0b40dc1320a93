"""Custom differentiable operations: subclass ``Function`` with static ``forward``/``backward``.

>>> import minigrad as torch
>>> from minigrad.autograd import Function
>>> class MulConstant(Function):
...     @staticmethod
...     def forward(ctx, tensor, constant):
...         ctx.constant = constant
...         return tensor * constant
...     @staticmethod
...     def backward(ctx, grad_output):
...         return grad_output * ctx.constant, None
>>> a = torch.ones(2, requires_grad=True)
>>> b = MulConstant.apply(a, 5)
>>> b.grad_fn.name()
'MulConstantBackward'
>>> b.sum().backward(); a.grad
tensor([5., 5.])
"""

from __future__ import annotations

import numpy as np

from .._state import local as _mode
from .graph import FREED_MESSAGE, Node, SavedTensor, collect_next_edges, needs_grad

__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "once_differentiable"]


class FunctionCtx:
    """The ``ctx`` handed to ``forward`` and ``backward``: a place to keep what backward needs."""

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for backward; they are checked against in-place changes when used."""
        self.to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        self.saved_for_forward = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Outputs that get no gradient (``requires_grad=False``), such as indices."""
        self.non_differentiable = tensors

    def mark_dirty(self, *tensors) -> None:
        """Inputs that ``forward`` modified in place."""
        self.dirty_tensors = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """Whether missing output gradients reach ``backward`` as zeros (default) or None."""
        self.materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The node of a custom Function; it is also the ``ctx`` its forward and backward see."""

    _custom = True
    materialize_grads = True
    to_save = ()
    non_differentiable = ()
    dirty_tensors = ()
    _saved = None

    @property
    def saved_tensors(self) -> tuple:
        """The tensors given to ``save_for_backward``, as they were then."""
        if self._saved is None:
            if self._released:
                raise RuntimeError(FREED_MESSAGE)
            return ()
        return tuple(None if s is None else s.unpack(self) for s in self._saved)

    saved_variables = saved_tensors

    def release_variables(self) -> None:
        self._released = True
        if self._saved is not None:
            for s in self._saved:
                if s is not None:
                    s.release()

    def apply(self, *grads):
        return self._forward_cls.backward(self, *grads)

    def backward(self, grads):
        from .._tensor import Tensor

        single = self._num_outputs == 1
        grads = [grads] if single else list(grads)
        for i, g in enumerate(grads):
            if g is None and self.materialize_grads:
                shape, dtype = self._output_meta[i]
                grads[i] = np.zeros(shape, dtype)
        if not _mode.grad_enabled:
            grads = [None if g is None else Tensor._wrap(g) for g in grads]
        result = self._forward_cls.backward(self, *grads)
        return self._check_grads(result if isinstance(result, tuple) else (result,))

    def _check_grads(self, result: tuple) -> tuple:
        """Validate the user's gradients against the forward inputs; keep those of tensors."""
        name = self.name()
        if len(result) != len(self._input_meta):
            raise RuntimeError(f"function {name} returned an incorrect number of gradients "
                               f"(expected {len(self._input_meta)}, got {len(result)})")
        out = []
        for i, (g, meta) in enumerate(zip(result, self._input_meta)):
            if meta is None:
                if g is not None:
                    raise RuntimeError(
                        f"function {name} returned a gradient different than None at position "
                        f"{i + 1}, but the corresponding forward input was not a Variable")
                continue
            if g is not None:
                g = _check_one(name, i, g, meta)
            out.append(g)
        return tuple(out)


def _check_one(name, i, g, meta):
    from .._tensor import Tensor
    from .functional_utils import sum_to

    shape, dtype = meta
    if not isinstance(g, Tensor):
        raise TypeError(f"expected a Tensor or None as gradient {i} of {name}, "
                        f"got {type(g).__name__}")
    try:
        np.broadcast_shapes(shape, g._data.shape)
        ok = np.broadcast_shapes(shape, g._data.shape) == tuple(g._data.shape)
    except ValueError:
        ok = False
    if not ok:
        raise RuntimeError(
            f"Function {name} returned an invalid gradient at index {i} - got "
            f"{list(g._data.shape)} but expected shape compatible with {list(shape)}")
    g = sum_to(g if _mode.grad_enabled else g._data, shape, dtype)
    return g


class FunctionMeta(type):
    """Gives each Function subclass its node class, named ``<ClassName>Backward``."""

    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "_custom": True,
                                  "__module__": "minigrad.autograd.function",
                                  "__qualname__": name + "Backward"})


class Function(FunctionCtx, metaclass=FunctionMeta):
    """Base class for an operation with its own ``forward`` and ``backward``.

    Call it through ``apply``; ``backward`` gets one gradient per output of ``forward`` and
    returns one per input of ``forward`` (``None`` for inputs that are not tensors).
    """

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @classmethod
    def apply(cls, *args):
        from .._tensor import Tensor

        ctx = cls._backward_cls()
        tensors = [a for a in args if isinstance(a, Tensor)]
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        record = needs_grad(*tensors)
        prev = _mode.grad_enabled
        _mode.grad_enabled = False
        try:
            outputs = cls.forward(ctx, *args)
        finally:
            _mode.grad_enabled = prev
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        if record:
            _connect(ctx, args, tensors, outs)
        return outputs


def _connect(ctx, args, tensors, outs) -> None:
    """Record the custom node: edges to the tensor inputs, outputs pointing back at it."""
    from .._tensor import Tensor
    from .graph import _sequence

    ctx.next_functions = collect_next_edges(*tensors)
    ctx._sequence_nr = next(_sequence)
    ctx._input_meta = [(a._data.shape, a._data.dtype) if isinstance(a, Tensor) else None
                       for a in args]
    ctx._num_outputs = len(outs)
    ctx._output_meta = [(o._data.shape, o._data.dtype) if isinstance(o, Tensor) else ((), None)
                        for o in outs]
    non_diff = {id(t) for t in ctx.non_differentiable}
    for nr, o in enumerate(outs):
        if isinstance(o, Tensor) and id(o) not in non_diff and o._data.dtype.kind == "f":
            if o._grad_fn is None and o._requires_grad and o in tensors:
                raise RuntimeError("a leaf Variable that requires grad is being used in an "
                                   "in-place operation.")
            o._grad_fn = ctx
            o._output_nr = nr
            o._requires_grad = True
    ids = {id(o): o for o in outs if isinstance(o, Tensor)}
    ctx._saved = tuple(
        None if t is None else SavedTensor(t, ctx if id(t) in ids else None)
        for t in ctx.to_save)
    ctx.to_save = ()


def once_differentiable(fn):
    """Mark a backward as not differentiable twice (accepted for compatibility)."""
    return fn
