"""``minigrad.autograd``: the same entry points as ``torch.autograd``.

``backward`` fills ``.grad`` of the graph's leaves; ``grad`` returns gradients instead. Both
run the engine's loop (:func:`minigrad.autograd.engine.run`), the one
:func:`minigrad.autograd.engine.steps` hands out step by step.
"""

from __future__ import annotations

import warnings

from .._creation import zeros_like
from .._types import unsupported
from . import edges as _edges
from . import (
    engine,
    functional,  # (it calls grad() lazily)
    graph,
)
from .anomaly_mode import (
    detect_anomaly,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_detect_anomaly,
)
from .function import Function
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .graph import Node
from .multi_hook import register_multi_grad_hook as _register_multi_grad_hook
from .saved_hooks import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks
from .variable import Variable
from .zero_tensor import as_grad

__all__ = ["backward", "grad", "Function", "no_grad", "enable_grad", "set_grad_enabled",
           "is_grad_enabled", "inference_mode", "is_inference_mode_enabled", "gradcheck",
           "gradgradcheck", "GradcheckError", "Node", "graph", "engine", "set_detect_anomaly",
           "detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "Variable",
           "functional"]

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
    for _ in engine.start(tensors, grad_tensors, retain_graph, create_graph, inputs,
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
    unsupported("grad", is_grads_batched=is_grads_batched)
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to "
                      "True). To accumulate gradient for other parts of the graph, please use "
                      "torch.autograd.backward.", FutureWarning, stacklevel=2)
    outs, ins = engine.as_tensors(outputs), engine.as_tensors(inputs)
    grads = engine.make_grads(outs, engine.tensor_tuple(grad_outputs, len(outs)), create_graph)
    if not ins:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    root, buffers = engine.graph_root(outs, grads)
    captures: dict = {}
    for i, t in enumerate(ins):
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        node, nr = engine.gradient_edge(t)
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
                g = zeros_like(t, requires_grad=bool(create_graph))  # (as PyTorch)
        else:
            g = as_grad(g)  # (an array, a ZeroTensor's, or a tensor under create_graph)
        result.append(g)
    return tuple(result)


# PyTorch's place for these
graph.register_multi_grad_hook = _register_multi_grad_hook
graph.saved_tensors_hooks, graph.save_on_cpu = saved_tensors_hooks, save_on_cpu
graph.disable_saved_tensors_hooks = disable_saved_tensors_hooks
graph.GradientEdge, graph.get_gradient_edge = _edges.GradientEdge, _edges.get_gradient_edge
graph.increment_version = _edges.increment_version
del saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks
