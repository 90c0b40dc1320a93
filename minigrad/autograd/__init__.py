"""``minigrad.autograd``: the same entry points as ``torch.autograd``.

``backward`` fills ``.grad`` of the graph's leaves; ``grad`` returns gradients instead. Both
drain the engine's step generator (:func:`minigrad.autograd.engine.steps`).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import engine, graph
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .graph import Node

__all__ = ["backward", "grad", "Function", "no_grad", "enable_grad", "set_grad_enabled",
           "is_grad_enabled", "inference_mode", "is_inference_mode_enabled", "gradcheck",
           "gradgradcheck", "GradcheckError", "Node", "graph", "engine", "set_detect_anomaly",
           "detect_anomaly"]


def _as_tuple(x) -> tuple:
    from .._tensor import Tensor

    if x is None:
        return ()
    if isinstance(x, Tensor):
        return (x,)
    return tuple(x)


def _make_grads(outputs, grads, create_graph):
    """PyTorch's _make_grads: check given gradients, make ones for scalar outputs."""
    import numpy as np

    from .._tensor import Tensor

    made = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if out._requires_grad:
                if out._data.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if out._data.dtype.kind != "f":
                    raise RuntimeError("grad can be implicitly created only for real scalar "
                                       f"outputs but got {out.dtype}")
                g = np.ones_like(out._data)
                made.append(Tensor._wrap(g) if create_graph else g)
            else:
                made.append(None)
            continue
        if not isinstance(g, Tensor):
            raise TypeError("gradients can be either Tensors or None, but got "
                            f"{type(g).__name__}")
        if g._data.shape != out._data.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] "
                f"has a shape of {out.shape}.")
        if g._data.dtype.kind != out._data.dtype.kind and out._data.dtype.kind == "f" \
                and g._data.dtype.kind != "f":
            raise RuntimeError(
                f"For complex Tensors, both grad_output and output are required to have the "
                f"same dtype. Mismatch in dtype: grad_output[{i}] has a dtype of {g.dtype} and "
                f"output[{i}] has a dtype of {out.dtype}.")
        made.append(g if create_graph else g._data)
    return made


def _prepare_backward(tensors, grad_tensors, retain_graph, create_graph, inputs,
                      capture=None):
    """Validate arguments; return root edges, root grads, keep_graph and capture targets."""
    outputs = _as_tuple(tensors)
    if not outputs:
        raise RuntimeError("backward() got an empty list of tensors")
    grads = _as_tuple(grad_tensors) if grad_tensors is not None else (None,) * len(outputs)
    if len(grads) != len(outputs):
        raise RuntimeError(f"grad can be implicitly created only for scalar outputs"
                           if not grads else
                           f"got {len(grads)} tensors and {len(outputs)} gradients")
    grads = _make_grads(outputs, grads, create_graph)
    roots, root_grads = [], []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if not out._requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn")
        node = out._grad_fn if out._grad_fn is not None else graph.grad_accumulator(out)
        roots.append((node, out._output_nr))
        root_grads.append(g)
    keep_graph = create_graph if retain_graph is None else retain_graph
    targets = None
    if capture is not None:
        targets = capture
    elif inputs is not None:
        targets = _accumulate_targets(_as_tuple(inputs))
    return roots, root_grads, keep_graph, targets


def _input_node(t):
    """Where the gradient w.r.t. tensor ``t`` arrives: (node, input_nr)."""
    if t._grad_fn is not None:
        return t._grad_fn, t._output_nr
    return graph.grad_accumulator(t), 0


def _accumulate_targets(inputs) -> dict:
    """Targets for ``backward(inputs=...)``: leaves accumulate as usual, non-leaves into .grad."""
    from .engine import _store_retained

    if not inputs:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    targets = {}
    for t in inputs:
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        node, nr = _input_node(t)
        if t._grad_fn is None:
            targets.setdefault(node, [])
        else:
            targets.setdefault(node, []).append(
                (nr, lambda g, t=t: g is not None and _store_retained(t, g, False)))
    return targets


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph: bool = False,
             grad_variables=None, inputs=None) -> None:
    """Accumulate the gradients of ``tensors`` into the ``.grad`` of the graph's leaves.

    >>> import minigrad as torch
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> torch.autograd.backward([(x * x).sum()])
    >>> x.grad
    tensor([2., 4.])
    """
    if grad_variables is not None:
        grad_tensors = grad_variables
    for _ in engine.steps(tensors, grad_tensors, retain_graph, create_graph, inputs=inputs,
                          snapshot=False):
        pass


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph: bool = False,
         only_inputs: bool = True, allow_unused=None, is_grads_batched: bool = False,
         materialize_grads: bool = False):
    """Return the gradients of ``outputs`` w.r.t. ``inputs`` (leaves' ``.grad`` is untouched).

    >>> import minigrad as torch
    >>> x = torch.tensor(3., requires_grad=True)
    >>> torch.autograd.grad(x ** 2, x)
    (tensor(6.),)
    """
    from .._tensor import Tensor

    ins = _as_tuple(inputs)
    if allow_unused is None:
        allow_unused = materialize_grads
    if not ins:
        raise RuntimeError("grad requires non-empty inputs.")
    results: list = [None] * len(ins)
    targets: dict = {}
    for i, t in enumerate(ins):
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        node, nr = _input_node(t)

        def capture(g, i=i):
            if g is not None:
                results[i] = g if results[i] is None else results[i] + g

        targets.setdefault(node, []).append((nr, capture))
    roots, grads, keep_graph, targets = _prepare_backward(
        outputs, grad_outputs, retain_graph, create_graph, None, capture=targets)
    for _ in engine._execute(roots, grads, keep_graph, create_graph, targets, snapshot=False):
        pass
    out = []
    for i, (t, g) in enumerate(zip(ins, results)):
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                from .. import zeros_like

                g = zeros_like(t)
            out.append(g)
        else:
            out.append(g if isinstance(g, Tensor) else Tensor._wrap(g))
    return tuple(out)


class _AnomalyMode:
    enabled = False


def set_detect_anomaly(mode: bool) -> None:
    """Accepted for compatibility; minigrad's errors already name the failing node."""
    _AnomalyMode.enabled = bool(mode)


class detect_anomaly(no_grad.__mro__[1]):  # a decorator-capable context manager
    def __init__(self, check_nan: bool = True) -> None:
        self.prev = _AnomalyMode.enabled

    def __enter__(self) -> None:
        _AnomalyMode.enabled = True

    def __exit__(self, *exc) -> None:
        _AnomalyMode.enabled = self.prev


from .function import Function  # noqa: E402
from .gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: E402
