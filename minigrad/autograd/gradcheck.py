"""Numerical checks of gradients: ``gradcheck`` and ``gradgradcheck``.

``gradcheck`` compares two Jacobians of ``func`` at ``inputs``: the *numerical* one, from
central differences ``(f(x + eps) - f(x - eps)) / (2 * eps)`` one input element at a time,
and the *analytical* one, from backward passes (one per output element, with a one-hot
``grad_output``). Use float64 inputs: in float32 the differences are too coarse.

>>> import minigrad as torch
>>> x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
>>> torch.autograd.gradcheck(lambda t: t * t, (x,))
True
"""

from __future__ import annotations

import warnings

import numpy as np

from .._tensor import Tensor
from .._types import unsupported

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck when analytical and numerical Jacobians differ."""


def _as_tuple(x) -> tuple:
    return (x,) if isinstance(x, Tensor) or not isinstance(x, (list, tuple)) else tuple(x)


def _tensors_of(x) -> list:
    return [t for t in _as_tuple(x) if isinstance(t, Tensor)]


def _check_inputs(inputs) -> list:
    """The inputs that require grad; warn for those that are not float64."""
    wrt = []
    for i, t in enumerate(_tensors_of(inputs)):
        if t._requires_grad:
            if t._data.dtype != np.float64:
                warnings.warn(
                    f"Input #{i} requires gradient and is not a double precision floating point "
                    "or complex. This check will likely fail if all the inputs are not of double "
                    "precision floating point or complex. ", UserWarning, stacklevel=3)
            wrt.append(t)
    if not wrt:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")
    return wrt


def _numerical(func, inputs, wrt, eps) -> list:
    """``J[i][j]``: d output j / d input i, shape (input numel, output numel), by differences.

    ``func`` runs in the current grad mode (``gradgradcheck``'s function needs it on).
    """
    jac = None
    for i, x in enumerate(wrt):
        flat = x._data.reshape(-1) if x._data.flags.c_contiguous else x._data.flat
        for k in range(x._data.size):
            orig = flat[k]
            flat[k] = orig - eps
            lo = [o._data.copy() for o in _tensors_of(func(*inputs))]
            flat[k] = orig + eps
            hi = [o._data.copy() for o in _tensors_of(func(*inputs))]
            flat[k] = orig
            if jac is None:
                jac = [[np.zeros((w._data.size, o.size), o.dtype) for o in lo] for w in wrt]
            for j, (a, b) in enumerate(zip(lo, hi)):
                jac[i][j][k] = ((b - a) / (2 * eps)).reshape(-1)
    return jac


def _analytical(outputs, wrt, nondet_tol, check_grad_dtypes) -> list:
    """``J[i][j]`` from backward passes; each is run twice to check it is reentrant."""
    from .. import autograd  # (the package imports this module: looked up when called)
    jac = [[np.zeros((x._data.size, o._data.size), o._data.dtype) for o in outputs]
           for x in wrt]
    for j, out in enumerate(outputs):
        if not out._requires_grad:
            continue
        for m in range(out._data.size):
            onehot = np.zeros(out._data.size, out._data.dtype)
            onehot[m] = 1
            g_out = Tensor._wrap(onehot.reshape(out._data.shape))
            first, again = (autograd.grad(out, wrt, g_out, retain_graph=True, allow_unused=True)
                            for _ in range(2))
            for i, (g, g2) in enumerate(zip(first, again)):
                if g is None:
                    continue
                if check_grad_dtypes and g._data.dtype != wrt[i]._data.dtype:
                    raise GradcheckError("Gradient has dtype mismatch")
                if np.abs(g._data - g2._data).max(initial=0.0) > nondet_tol:
                    raise GradcheckError(
                        "Backward is not reentrant, i.e., running backward with same input and "
                        "grad_output multiple times gives different values, although analytical "
                        "gradient matches numerical gradient.The tolerance for nondeterminism was "
                        f"{nondet_tol}.")
                jac[i][j][:, m] = g._data.reshape(-1)
    return jac


def _compare(numerical, analytical, atol, rtol) -> None:
    for i, (num_row, ana_row) in enumerate(zip(numerical, analytical)):
        for j, (n, a) in enumerate(zip(num_row, ana_row)):
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                raise GradcheckError(
                    f"Jacobian mismatch for output {j} with respect to input {i},\n"
                    f"numerical:{Tensor._wrap(n)!r}\nanalytical:{Tensor._wrap(a)!r}\n")


def gradcheck(func, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked=None) -> bool:
    """Check the gradients of ``func`` at ``inputs`` against central differences.

    Returns True when, for every output and every input that requires grad, the two
    Jacobians agree within ``atol + rtol * |numerical|``; otherwise raises
    :class:`GradcheckError` showing both (or returns False if ``raise_exception=False``).
    PyTorch's options for forward-mode, batched, masked and dtype checks raise
    ``NotImplementedError`` when turned on; ``fast_mode`` runs the full check, and the
    check of undefined output gradients is not made.
    """
    unsupported("gradcheck", check_grad_dtypes=check_grad_dtypes,
                check_batched_grad=check_batched_grad,
                check_batched_forward_grad=check_batched_forward_grad,
                check_forward_ad=check_forward_ad, masked=masked,
                check_backward_ad=not check_backward_ad)
    inputs = _as_tuple(inputs)
    wrt = _check_inputs(inputs)
    try:
        outputs = _tensors_of(func(*inputs))
        diff = [j for j, o in enumerate(outputs) if o._requires_grad]
        numerical = _numerical(func, inputs, wrt, eps)
        if not diff:  # then nothing may depend on the inputs
            if any(not np.allclose(n, 0) for row in numerical for n in row):
                raise GradcheckError("Numerical gradient for function expected to be zero")
        elif check_backward_ad:
            analytical = _analytical([outputs[j] for j in diff], wrt, nondet_tol,
                                     check_grad_dtypes)
            _compare([[row[j] for j in diff] for row in numerical], analytical, atol, rtol)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False,
                  raise_exception: bool = True, nondet_tol: float = 0.0,
                  check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, fast_mode: bool = False,
                  masked: bool = False) -> bool:
    """Check second derivatives: ``gradcheck`` of the function that computes the gradients.

    That function takes ``inputs`` and ``grad_outputs`` (random in [-1, 1] if not given) and
    returns ``autograd.grad(func(*inputs), inputs, grad_outputs, create_graph=True)``.

    >>> import minigrad as torch
    >>> x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
    >>> torch.autograd.gradgradcheck(lambda t: t * t * t, (x,))
    True
    """
    unsupported("gradgradcheck", gen_non_contig_grad_outputs=gen_non_contig_grad_outputs,
                check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad,
                check_fwd_over_rev=check_fwd_over_rev, masked=masked,
                check_rev_over_rev=not check_rev_over_rev)
    from .. import autograd
    inputs = _as_tuple(inputs)
    outputs = [o for o in _tensors_of(func(*inputs)) if o._requires_grad]
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            Tensor._wrap(rng.uniform(-1, 1, o._data.shape).astype(o._data.dtype))
            .requires_grad_() for o in outputs)
    grad_outputs = _as_tuple(grad_outputs)
    n = len(inputs)

    def first_derivatives(*args):
        ins, g_outs = args[:n], args[n:]
        outs = [o for o in _tensors_of(func(*ins)) if o._requires_grad]
        wrt = [t for t in _tensors_of(ins) if t._requires_grad]
        grads = autograd.grad(outs, wrt, g_outs, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, inputs + tuple(grad_outputs), eps=eps, atol=atol,
                     rtol=rtol, raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_grad_dtypes=check_grad_dtypes)
