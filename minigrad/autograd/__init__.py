"""``minigrad.autograd``: the same entry points as ``torch.autograd``.

``backward`` fills ``.grad`` of the graph's leaves; ``grad`` returns gradients instead. Both
run the engine's loop (:func:`minigrad.autograd.engine.run`), the one
:func:`minigrad.autograd.engine.steps` hands out step by step.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._state import local as _mode
from .._tensor import Tensor
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
           "detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled"]

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak."
)
_warned = set()  # warnings PyTorch gives once per process


def _tensor_tuple(x, length: int) -> tuple:
    """``None`` -> ``(None,) * length``; a tensor -> ``(tensor,)``; a sequence -> a tuple."""
    if x is None:
        return (None,) * length
    if isinstance(x, Tensor):
        return (x,)
    return tuple(x)


def _make_grads(outputs, grads, create_graph: bool) -> list:
    """PyTorch's ``_make_grads``: check the given gradients, make ones for scalar outputs."""
    made = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if out._requires_grad:
                data = out._data
                if data.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if data.dtype.kind != "f":
                    raise RuntimeError("grad can be implicitly created only for real scalar "
                                       f"outputs but got {out.dtype}")
                ones = np.array(1, data.dtype).reshape(data.shape)  # cheaper than np.ones
                g = Tensor._wrap(ones) if create_graph else ones
            made.append(g)
            continue
        if not isinstance(g, Tensor):
            raise TypeError("gradients can be either Tensors or None, but got "
                            f"{type(g).__name__}")
        if g._data.shape != out._data.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] "
                f"has a shape of {out.shape}.")
        if g._data.dtype != out._data.dtype:  # the engine casts it to the output's dtype
            g = g.to(out.dtype) if create_graph else Tensor._wrap(
                g._data.astype(out._data.dtype))
        made.append(g if create_graph else g._data)
    return made


def _graph_root(outputs, grads):
    """The node backward starts from and its input buffer (a GraphRoot for several outputs)."""
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    edges = []
    for i, out in enumerate(outputs):
        if not out._requires_grad or (out._view_no_grad and out.grad_fn is None):
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn")
        edges.append(_gradient_edge(out))
    if len(edges) == 1:
        node, nr = edges[0]
        g = grads[0]
        if node._num_outputs != 1:
            g = [None] * node._num_outputs
            g[nr] = grads[0]
        return node, {node: g}
    root = engine.GraphRoot(edges)
    return root, {root: tuple(grads)}


def _gradient_edge(t) -> tuple:
    """Where the gradient of tensor ``t`` enters the graph: ``(node, input_nr)``."""
    if t.grad_fn is not None:
        return t._grad_fn, t._output_nr
    return graph.grad_accumulator(t), 0


def _user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first caller outside minigrad."""
    import os
    import sys

    package = os.path.dirname(os.path.dirname(__file__))
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level


def _as_tensors(x) -> tuple:
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _start_backward(tensors, grad_tensors, retain_graph, create_graph, inputs, *, emit,
                    snapshot=True):
    """Check the arguments of ``backward`` and return the engine's generator for them."""
    outputs = _as_tensors(tensors)
    if inputs is not None:
        inputs = _as_tensors(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    grads = _make_grads(outputs, _tensor_tuple(grad_tensors, len(outputs)), create_graph)
    if not outputs:
        return iter(())
    root, buffers = _graph_root(outputs, grads)
    plan = None
    if inputs is not None:
        for t in inputs:
            t.retain_grad()  # as PyTorch: a non-leaf input keeps its .grad from now on
        plan = engine.Plan({}, must_run=[_gradient_edge(t)[0] for t in inputs])
    if create_graph and "create_graph" not in _warned:
        _warned.add("create_graph")
        warnings.warn(CREATE_GRAPH_WARNING, UserWarning, stacklevel=_user_stacklevel())
    keep_graph = create_graph if retain_graph is None else retain_graph
    return engine.run(root, buffers, keep_graph, create_graph, plan, emit, snapshot)


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
    for _ in _start_backward(tensors, grad_tensors, retain_graph, create_graph, inputs,
                             emit=False):
        pass


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph: bool = False,
         only_inputs: bool = True, allow_unused=None, is_grads_batched: bool = False,
         materialize_grads: bool = False):
    """Return the gradients of ``outputs`` w.r.t. ``inputs`` (leaves' ``.grad`` is untouched).

    >>> import minigrad as torch
    >>> x = torch.tensor(3., requires_grad=True)
    >>> torch.autograd.grad(x * x, x)
    (tensor(6.),)
    """
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to "
                      "True). To accumulate gradient for other parts of the graph, please use "
                      "minigrad.autograd.backward.", FutureWarning, stacklevel=2)
    outs, ins = _as_tensors(outputs), _as_tensors(inputs)
    grads = _make_grads(outs, _tensor_tuple(grad_outputs, len(outs)), create_graph)
    if not ins:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    root, buffers = _graph_root(outs, grads)
    captures: dict = {}
    for i, t in enumerate(ins):
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        node, nr = _gradient_edge(t)
        captures.setdefault(node, []).append((nr, i))
    plan = engine.Plan(captures, (), len(ins))
    keep_graph = create_graph if retain_graph is None else retain_graph
    for _ in engine.run(root, buffers, keep_graph, create_graph, plan, emit=False):
        pass
    result = []
    for i, (t, g) in enumerate(zip(ins, plan.results)):
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                from .. import zeros_like

                g = zeros_like(t)
        elif not isinstance(g, Tensor):
            g = Tensor._wrap(g)
        result.append(g)
    return tuple(result)


# ---------------------------------------------------------------- anomaly mode
def is_anomaly_enabled() -> bool:
    return _mode.anomaly_enabled


def is_anomaly_check_nan_enabled() -> bool:
    return _mode.anomaly_check_nan


class set_detect_anomaly:
    """Turn anomaly detection on or off; also a context manager that restores the previous
    setting. While it is on (and ``check_nan``), ``backward()`` raises at the first node whose
    backward returns NaN, naming that node."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = (_mode.anomaly_enabled, _mode.anomaly_check_nan)
        _mode.anomaly_enabled, _mode.anomaly_check_nan = bool(mode), bool(check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _mode.anomaly_enabled, _mode.anomaly_check_nan = self.prev


class detect_anomaly:
    """Context manager (and decorator) turning anomaly detection on inside the block: a
    backward node that returns NaN raises ``RuntimeError: Function 'PowBackward0' returned nan
    values in its 0th output.`` (with ``check_nan=True``, the default).

    >>> import minigrad as torch, warnings
    >>> x = torch.tensor(0., requires_grad=True)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     with torch.autograd.detect_anomaly():
    ...         (x.sqrt() * 0).backward()
    Traceback (most recent call last):
    RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output.
    """

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self) -> None:
        self.prev = (_mode.anomaly_enabled, _mode.anomaly_check_nan)
        _mode.anomaly_enabled, _mode.anomaly_check_nan = True, self.check_nan

    def __exit__(self, *exc) -> None:
        _mode.anomaly_enabled, _mode.anomaly_check_nan = self.prev

    def __call__(self, func):
        import functools

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                anomaly = detect_anomaly(self.check_nan)
            with anomaly:
                return func(*args, **kwargs)

        return wrapper


from .function import Function  # noqa: E402
from .gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: E402
