"""``torch.autograd.functional``: Jacobians, Hessians and their products with vectors.

Each is built on :func:`minigrad.autograd.grad`: a Jacobian is one backward pass per output
element (a vector-Jacobian product with a one-hot vector); a Jacobian-vector product uses the
"double backward" trick, as PyTorch's does.

>>> import minigrad as torch
>>> from minigrad.autograd.functional import jacobian, hessian
>>> jacobian(lambda a: a ** 3, torch.tensor([1., 2.]))
tensor([[ 3.,  0.],
        [ 0., 12.]])
>>> hessian(lambda a: (a ** 3).sum(), torch.tensor([1., 2.]))
tensor([[ 6.,  0.],
        [ 0., 12.]])
"""

from __future__ import annotations

import functools

import numpy as np

from .._tensor import Tensor
from .grad_mode import enable_grad, is_inference_mode_enabled

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _grad(*args, **kwargs):
    from . import grad

    return grad(*args, **kwargs)


def _grad_enabled(fn):
    """``fn`` run with grad mode on, as PyTorch's functions run (under ``no_grad`` too); in
    inference mode nothing is recorded, so each derivative is zeros (``strict=False``)."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        if is_inference_mode_enabled():
            return fn(*args, **kwargs)
        with enable_grad():
            return fn(*args, **kwargs)

    return run


def _grad_or_zeros(out, xs):
    """d(out)/d(xs) as a graph (zeros for an input ``out`` does not use, or if ``out`` was not
    recorded)."""
    if not out.requires_grad:
        return tuple(Tensor._wrap(np.zeros_like(x._data)) for x in xs)
    return _zeros_for(_grad(out, xs, create_graph=True, allow_unused=True), xs)


def _as_tuple(x):
    return (x, False) if isinstance(x, tuple) else ((x,), True)


def _prepare(inputs, create_graph: bool):
    """Fresh tensors that require grad (the caller's are left as they are, hooks and all):
    with ``create_graph``, a view of an input that requires grad (its graph goes on, as
    PyTorch's ``view_as``), else a new leaf."""
    return tuple(x.view_as(x) if create_graph and x.requires_grad else
                 x.detach().requires_grad_(True) for x in inputs)


def _check_outputs(outputs, name: str):
    for out in outputs:
        if not isinstance(out, Tensor):
            raise TypeError(f"The outputs of the user-provided function given to {name} must be "
                            f"either a Tensor or a tuple of Tensors but the given outputs of the "
                            f"user-provided function has type {type(out)}.")


def _call(func, inputs, create_graph: bool, name: str):
    """``func`` on fresh leaves for ``inputs``: ``(inputs, single_in, outputs, single_out)``,
    each a tuple and whether the caller gave (or ``func`` returned) one bare tensor."""
    inputs, single_in = _as_tuple(inputs)
    inputs = _prepare(inputs, create_graph)
    outputs, single_out = _as_tuple(func(*inputs))
    _check_outputs(outputs, name)
    return inputs, single_in, outputs, single_out


def _vector(v, like, what: str):
    """``v`` as a tuple; ``None`` means ones, allowed only where ``like`` is one one-element
    tensor (``what`` names it in PyTorch's error)."""
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError(f"The vector v can only be None if {what} a single Tensor with a "
                               "single element.")
        v = Tensor._wrap(np.ones_like(like[0]._data))
    return _as_tuple(v)[0]


def _zeros_for(grads, inputs):
    return tuple(Tensor._wrap(np.zeros_like(x._data)) if g is None else g
                 for g, x in zip(grads, inputs))


def _grads(outputs, inputs, grad_outputs, create_graph: bool):
    """d(sum(outputs * grad_outputs))/d(inputs), zeros where an input is not used."""
    pairs = [(o, v) for o, v in zip(outputs, grad_outputs) if o.requires_grad]
    if not pairs:
        return tuple(Tensor._wrap(np.zeros_like(x._data)) for x in inputs)
    outs, vs = zip(*pairs)
    grads = _grad(outs, inputs, vs, create_graph=create_graph, allow_unused=True)
    return _zeros_for(grads, inputs)


def _detach(xs, create_graph: bool):
    return tuple(x if create_graph else x.detach() for x in xs)


@_grad_enabled
def vjp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T J)``: the outputs and a vector-Jacobian product."""
    inputs, single_in, outputs, single_out = _call(func, inputs, create_graph, "vjp")
    vs = _vector(v, outputs, "the user-provided function returns")
    grads = _grads(outputs, inputs, vs, create_graph)
    outputs = _detach(outputs, create_graph)
    grads = _detach(grads, create_graph)
    return (outputs[0] if single_out else outputs), (grads[0] if single_in else grads)


@_grad_enabled
def jvp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), J v)``: the outputs and a Jacobian-vector product.

    By the double-backward trick: ``u -> u^T J`` is linear in ``u``; its gradient w.r.t. ``u``
    along ``v`` is ``J v``.
    """
    inputs, single_in, outputs, single_out = _call(func, inputs, create_graph, "jvp")
    vs = _vector(v, inputs, "the input to the user-provided function is")
    us = tuple(Tensor._wrap(np.zeros_like(o._data)).requires_grad_(True) for o in outputs)
    g_in = _grads(outputs, inputs, us, True)
    pairs = [(g, w) for g, w in zip(g_in, vs) if g.requires_grad]
    if pairs:
        jv = _grad(tuple(p[0] for p in pairs), us, tuple(p[1] for p in pairs),
                   create_graph=create_graph, allow_unused=True)
        jv = _zeros_for(jv, outputs)
    else:
        jv = tuple(Tensor._wrap(np.zeros_like(o._data)) for o in outputs)
    outputs = _detach(outputs, create_graph)
    jv = _detach(jv, create_graph)
    return (outputs[0] if single_out else outputs), (jv[0] if single_out else jv)


@_grad_enabled
def jacobian(func, inputs, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: shape ``output.shape + input.shape``.

    For several inputs or outputs: tuples (of tuples) of such blocks.
    """
    inputs, single_in, outputs, single_out = _call(func, inputs, create_graph, "jacobian")
    from .._ops.join import stack

    blocks = []
    for out in outputs:
        rows = [[] for _ in inputs]
        flat = out.reshape(-1)
        for k in range(flat.numel()):
            if out.requires_grad:
                g = _grad(flat[k], inputs, retain_graph=True, create_graph=create_graph,
                          allow_unused=True)
                g = _zeros_for(g, inputs)
            else:
                g = tuple(Tensor._wrap(np.zeros_like(x._data)) for x in inputs)
            for i, gi in enumerate(g):
                rows[i].append(gi)
        per_input = []
        for i, x in enumerate(inputs):  # (an empty output: stack's error, as in PyTorch)
            block = stack(rows[i], 0).reshape(tuple(out.shape) + tuple(x.shape))
            per_input.append(block if create_graph else block.detach())
        blocks.append(per_input[0] if single_in else tuple(per_input))
    return blocks[0] if single_out else tuple(blocks)


@_grad_enabled
def hessian(func, inputs, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode"):
    """The Hessian of the scalar function ``func`` at ``inputs``."""
    inputs_t, single_in = _as_tuple(inputs)

    def gradient(*xs):
        out = func(*xs)
        if not isinstance(out, Tensor) or out.numel() != 1:
            raise RuntimeError("The function given to hessian should return a single Tensor "
                               "with a single element.")
        g = _grad_or_zeros(out, xs)
        return g[0] if single_in else g

    return jacobian(gradient, inputs, create_graph=create_graph)


@_grad_enabled
def vhp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T H)`` for a scalar ``func``."""
    inputs, single_in = _as_tuple(inputs)
    inputs = _prepare(inputs, True)
    out = func(*inputs)
    _check_outputs((out,), "vhp")
    if out.numel() != 1:
        raise RuntimeError("The function given in vhp should return a single Tensor with a "
                           "single element.")
    vs, _ = _as_tuple(v)
    hv = _grads(_grad_or_zeros(out, inputs), inputs, vs, create_graph)
    out = out if create_graph else out.detach()
    hv = _detach(hv, create_graph)
    return out, (hv[0] if single_in else hv)


def hvp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), H v)`` for a scalar ``func`` (equal to ``vhp``: H is symmetric)."""
    return vhp(func, inputs, v, create_graph, strict)
