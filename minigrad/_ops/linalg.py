"""Matrix products: dot, mv, mm, bmm, addmm, and ``matmul`` (``@``) built from them.

``matmul`` picks the product by the inputs' dims, as PyTorch does, so ``a @ b`` records the
same nodes: ``DotBackward0`` (1-D @ 1-D), ``MvBackward0`` (2-D @ 1-D), ``MmBackward0``
(2-D @ 2-D), ``SqueezeBackward4`` over ``MmBackward0`` (1-D @ 2-D); batched inputs are folded
into one ``mm`` or expanded for ``bmm``, and the result is ``UnsafeViewBackward0``.

>>> import minigrad as torch
>>> A = torch.ones(2, 3, requires_grad=True)
>>> (A @ torch.ones(3, 4)).grad_fn.name()
'MmBackward0'
"""

from __future__ import annotations

import functools

import numpy as np

from .._quiet import quiet, quietly, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from ._core import broadcast_error, method
from .errors import no_dims
from .linalg_checks import check_addmm, check_mm, no_bool, saved_inference, short
from .movement import UnsafeViewBackward0

__all__ = ["dot", "mv", "mm", "bmm", "addmm", "matmul"]

# ---------------------------------------------------------------- two-operand products
class _ProductBackward(Node):
    """A product of two operands, named in ``operands``. Each one's gradient is made from the
    other, so an operand is saved only when the other needs a gradient, as PyTorch saves (the
    backward, written from the rule, finds the one it needs)."""

    operands = ("self", "mat2")


@formula_function
def outer(g, v):
    """``g.outer(v)`` (PyTorch's ``ger``): ``g.reshape(-1, 1) * v``, as PyTorch computes it."""
    return g.reshape(-1, 1) * v


@functools.cache
def _attributes(operands: tuple) -> tuple:
    """For each operand name: where a product node keeps it, its sizes and its strides
    (``_s_<name>``, ...; made once per class, not per op)."""
    return tuple((f"_s_{n}", f"_s_{n}_sym_sizes", f"_s_{n}_sym_strides") for n in operands)


def _save_operands(node, a, b, self_first: bool = False):
    """Saves ``b`` if ``a`` needs a gradient and ``a`` if ``b`` does (see _ProductBackward), in
    PyTorch's order (what saved_tensors_hooks see): ``a`` first for dot, mv and addmm."""
    (first, _, _), (second, _, _) = _attributes(node.operands)
    saved = node.__dict__  # (stores into it: cheaper than setattr calls, once per op)
    if self_first and b._requires_grad:
        saved[first] = SavedTensor(a)
    if a._requires_grad:
        saved[second] = SavedTensor(b)
    if b._requires_grad and not self_first:
        saved[first] = SavedTensor(a)
    return node


# ---------------------------------------------------------------- dot / mv
class DotBackward0(_ProductBackward):
    """z = self . tensor:  dz/dself = tensor,  dz/dtensor = self."""

    rule = _r("z = a · b", {"a": "self", "b": "tensor"}, a="grad * b", b="grad * a")

    saved = operands = ("self", "tensor")
    _s_self = _s_tensor = None


@method("dot")
def dot(input, tensor):
    """The dot product of two 1-D tensors of one dtype."""
    saved_inference(input, tensor)
    a, b = input._data, tensor._data
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.dtype != b.dtype:
        raise RuntimeError("dot : expected both vectors to have same dtype, but found "
                           f"{short(input)} and {short(tensor)}")
    if a.shape != b.shape:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a.size}] and src [{b.size}] to have "
            f"the same number of elements, but got {a.size} and {b.size} elements respectively")
    no_bool(input, "dot")
    out = Tensor._wrap(np.asarray(quietly(np.dot, a, b)))  # (overflow: inf, no NumPy warning)
    if should_record(input, tensor):
        record(_save_operands(DotBackward0(), input, tensor, True), out, input, tensor)
    return out


class MvBackward0(_ProductBackward):
    """z = self @ vec:  dz/dself = outer(grad, vec),  dz/dvec = self^T @ grad."""

    rule = _r("z = A @ v", {"A": "self", "v": "vec"}, A="outer(grad, v)", v="t(A) @ grad")

    saved = operands = ("self", "vec")
    _s_self = _s_vec = None


@method("mv")
def mv(input, vec):
    """Matrix (n x m) times vector (m)."""
    saved_inference(input, vec)
    a, b = input._data, vec._data
    if a.ndim != 2 or b.ndim != 1:
        if not a.ndim:  # PyTorch asks the 0-d input for its size(0) first
            raise no_dims(0)
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {b.ndim}")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat "
                           f"({a.shape[0]}x{a.shape[1]}), vec ({b.shape[0]})")
    if a.dtype != b.dtype:
        raise RuntimeError("addmv input tensors must have the same dtype, but got "
                           f"{short(vec)}, {short(input)}, and {short(vec)}")
    if a.size:  # (an empty matrix: zeros, without a kernel)
        no_bool(input, "addmv_impl_cpu")
    out = Tensor._wrap(quietly(np.matmul, a, b))  # (overflow: inf, no NumPy warning)
    if should_record(input, vec):
        record(_save_operands(MvBackward0(), input, vec, True), out, input, vec)
    return out


# ---------------------------------------------------------------- mm / bmm / addmm
def _strides2(d) -> tuple:
    """A matrix's strides in elements (NumPy counts bytes)."""
    s0, s1 = d.strides
    return s0 // d.itemsize, s1 // d.itemsize


def _save_mm(node, a, b):
    """What mm-like nodes keep: the operands (see _save_operands), both sizes, and an operand's
    strides only if it needs a gradient (as PyTorch: its gradient is made in that layout)."""
    (_, a_sizes, a_strides), (_, b_sizes, b_strides) = _attributes(node.operands)
    saved, ad, bd = node.__dict__, a._data, b._data
    saved[a_sizes], saved[b_sizes] = ad.shape, bd.shape
    saved[a_strides] = _strides2(ad) if a._requires_grad else ()
    saved[b_strides] = _strides2(bd) if b._requires_grad else ()
    return _save_operands(node, a, b)


def _save_addmm(node, mat1, mat2):
    """:func:`_save_mm` for addmm (mat1 packed first), written out: nn.Linear saves at every step,
    and plain attribute stores take half the time of the generic name look-ups."""
    a, b = mat1._data, mat2._data
    node._s_mat1_sym_sizes, node._s_mat2_sym_sizes = a.shape, b.shape
    if mat1._requires_grad:
        node._s_mat1_sym_strides = _strides2(a)
    if mat2._requires_grad:
        node._s_mat2_sym_strides = _strides2(b)
        node._s_mat1 = SavedTensor(mat1)
    if mat1._requires_grad:
        node._s_mat2 = SavedTensor(mat2)


_MM = "mm_mat1_backward(grad, B, ...) = grad @ B.T;  mm_mat2_backward(grad, A, ...) = A.T @ grad"


class MmBackward0(Node):
    """The node of ``self @ mat2`` (two matrices)."""

    rule = _r("z = A @ B", {"A": "self", "B": "mat2", "A_sizes": "self_sym_sizes",
                            "A_strides": "self_sym_strides", "B_sizes": "mat2_sym_sizes",
                            "B_strides": "mat2_sym_strides"},
              numbers="A_sizes A_strides B_sizes B_strides",
              A="mm_mat1_backward(grad, B, A_sizes, A_strides)",
              B="mm_mat2_backward(grad, A, B_sizes, B_strides)", note=_MM)

    saved = ("mat2", "mat2_sym_sizes", "mat2_sym_strides", "self", "self_sym_sizes",
             "self_sym_strides")
    operands = ("self", "mat2")
    _s_self = _s_mat2 = None


@method("mm")
def mm(input, mat2) -> Tensor:
    """Matrix product of an (n x k) and a (k x m) matrix."""
    try:
        check_mm(input, mat2)
    except (RuntimeError, NotImplementedError):  # (refused: an inference tensor comes first)
        saved_inference(input, mat2)
        raise
    token = quiet()  # overflow, inf * 0: inf and NaN as in PyTorch, no NumPy warning
    try:
        out = Tensor._wrap(input._data @ mat2._data)
    finally:
        restore(token)
    if should_record(input, mat2):
        record(_save_mm(MmBackward0(), input, mat2), out, input, mat2)
    return out


class BmmBackward0(_ProductBackward):
    """z = self @ mat2 per batch:  dz/dself = grad @ mat2^T,  dz/dmat2 = self^T @ grad."""

    rule = _r("z = A @ B  (per batch)", {"A": "self", "B": "mat2"}, A="bmm(grad, mT(B))",
              B="bmm(mT(A), grad)")

    saved = ("mat2", "self")
    _s_self = _s_mat2 = None


@method("bmm")
def bmm(input, mat2):
    """Batched matrix product: (b x n x k) @ (b x k x m)."""
    saved_inference(input, mat2)
    a, b = input._data, mat2._data
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if b.shape[:2] != (a.shape[0], a.shape[2]):
        raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    if a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]:  # (nothing to compute: no kernel)
        no_bool(input, "bmm")  # (PyTorch checks a bool input before the dtypes)
    if a.dtype != b.dtype:
        if a.shape[1] * a.shape[2] * b.shape[2] and a.shape[0]:
            raise RuntimeError(f"expected scalar type {short(input)} but found {short(mat2)}")
        # nothing to compute: PyTorch's zeros in mat2's dtype, unchecked (input's gradient
        # then cast back to its dtype, as PyTorch's engine casts it)
        if input._requires_grad and mat2.dtype.is_floating_point:
            return bmm(input.to(mat2.dtype), mat2)
        a = a.astype(b.dtype)
    out = Tensor._wrap(quietly(np.matmul, a, b))  # (overflow: inf, no NumPy warning)
    if should_record(input, mat2):
        record(_save_operands(BmmBackward0(), input, mat2), out, input, mat2)
    return out


class AddmmBackward0(Node):
    """The node of ``beta * self + alpha * (mat1 @ mat2)`` (``nn.Linear`` on a batch)."""

    rule = _r("z = beta * c + alpha * (A @ B)",
              {"A": "mat1", "B": "mat2", "alpha": "alpha", "beta": "beta",
               "A_sizes": "mat1_sym_sizes", "A_strides": "mat1_sym_strides",
               "B_sizes": "mat2_sym_sizes", "B_strides": "mat2_sym_strides"},
              numbers="alpha beta A_sizes A_strides B_sizes B_strides", c="beta * grad",
              A="mm_mat1_backward(grad, B, A_sizes, A_strides, alpha)",
              B="mm_mat2_backward(grad, A, B_sizes, B_strides, alpha)", note=_MM)

    saved = ("alpha", "beta", "mat1", "mat1_sym_sizes", "mat1_sym_strides", "mat2",
             "mat2_sym_sizes", "mat2_sym_strides")
    _s_alpha = _s_beta = 1
    _s_mat1 = _s_mat2 = None
    _s_mat1_sym_strides = _s_mat2_sym_strides = ()  # (strides: only of an input needing grad)

    def release_variables(self) -> None:
        """Node's, looking only where a tensor can be (mat1, mat2): 2 look-ups instead of 8,
        after every nn.Linear backward."""
        self._released = True
        for saved in (self._s_mat1, self._s_mat2):
            if type(saved) is SavedTensor:
                saved.release()


@method("addmm")
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``; what ``nn.Linear`` computes on 2-D input."""
    a, b, bias = mat1._data, mat2._data, input._data
    # nn.Linear's case passes these few tests; anything else gets every check, in order
    if not (a.ndim == 2 and b.ndim == 2 and a.shape[1] == b.shape[0] and a.dtype.kind == "f"
            and a.dtype == b.dtype == bias.dtype and bias.shape == b.shape[1:]):
        saved_inference(mat1, mat2, input)
        check_addmm(input, mat1, mat2)
    token = quiet()  # overflow, inf * 0: inf and NaN as in PyTorch, no NumPy warning
    try:
        prod = a @ b
        if alpha == 1 and beta == 1:
            prod += bias  # the product is a new array: add in place, saving a copy
            d = prod
        else:  # (PyTorch's BLAS call: alpha 0 or an inner size of 0 leaves the product out,
            # beta 0 the input, so inf and NaN in what is left out do not spread)
            d = prod * alpha if alpha != 0 and a.shape[1] else np.zeros_like(prod)
            if beta != 0:
                d = d + bias * beta
    finally:
        restore(token)
    out = Tensor._wrap(d)
    if should_record(input, mat1, mat2):
        node = AddmmBackward0()
        if alpha != 1 or beta != 1:
            node._s_alpha, node._s_beta = alpha, beta
        _save_addmm(node, mat1, mat2)
        if bias.shape != d.shape and input._requires_grad:  # (a row, a column, a number:
            node._sum_to = [(bias.shape, bias.dtype), None, None]  # the engine sums it back)
        record(node, out, input, mat1, mat2)
    return out


# ---------------------------------------------------------------- matmul
def _unsafe_view(t, shape):
    """``t`` (a fresh result nobody else sees) reshaped, recorded as ``UnsafeViewBackward0``."""
    out = Tensor._wrap(t._data.reshape(shape))
    if should_record(t):
        node = UnsafeViewBackward0()
        node._s_self_sym_sizes = t._data.shape
        record(node, out, t)
    return out


class SqueezeBackward4(Node):
    """z = self.squeeze_(dim), in place:  grad gets the dim back."""

    rule = _r("a.squeeze_(dim)  (in place)", {"shape": "self_sym_sizes"},
              np={"a": "reshape(grad, shape)"}, a="grad.reshape(shape)")

    saved = ("dim", "self_sym_sizes")

    def backward(self, g):
        return (g.reshape(self._s_self_sym_sizes),)


def _squeeze0_(t):
    """``t.squeeze_(0)`` on a fresh product (matmul's 1-D @ 2-D case), rebasing its grad_fn."""
    shape = t._data.shape
    t._data = t._data.reshape(shape[1:])
    t._vc[0] += 1
    if t._requires_grad:  # the product was recorded: rebase it onto the squeeze
        node = SqueezeBackward4()
        node._s_dim, node._s_self_sym_sizes = 0, shape
        record(node, t, t)
    return t


def _foldable(big, small, transposed: bool) -> bool:
    """Whether matmul computes ``big @ small`` as one mm/mv on ``big`` flattened to 2-D.

    PyTorch folds when the small operand needs a gradient (which avoids a large expanded copy
    in backward), and otherwise when flattening ``big`` costs no copy.
    """
    if small.requires_grad:  # (PyTorch's should_fold asks requires_grad(): a view made in
        return True  # no_grad mode of a base requiring grad counts)
    if transposed and small._data.ndim == 2:
        return False
    d = np.swapaxes(big._data, -1, -2) if transposed else big._data
    if d.size == 0:
        return True
    shape, strides = d.shape, d.strides
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(d.ndim - 2))


def _rows(shape) -> int:
    """The rows of a matrix folding all but the last dimension (PyTorch counts them, where a
    -1 is ambiguous for no elements)."""
    return int(np.prod(shape[:-1]))


def _fold(a, b):
    """(batch..., n, k) @ (k, m) or (k,) as one mm / mv on a (batch*n, k) matrix."""
    flat = a.reshape(_rows(a._data.shape), a._data.shape[-1])
    out = mm(flat, b) if b._data.ndim == 2 else mv(flat, b)
    return _unsafe_view(out, a._data.shape[:-1] + b._data.shape[1:])


def _fold_transposed(a, b):
    """(n, k) or (k,) @ (batch..., k, m), computed as (b^T @ a^T)^T with one mm / mv."""
    bt = b.transpose(-2, -1)
    flat = bt.reshape(_rows(bt._data.shape), bt._data.shape[-1])
    if a._data.ndim == 1:
        return _unsafe_view(mv(flat, a), b._data.shape[:-2] + b._data.shape[-1:])
    out = _unsafe_view(mm(flat, a.t()), bt._data.shape[:-1] + a._data.shape[:1])
    return out.transpose(-2, -1).contiguous()


def _batched(a, b):
    """Broadcast the batch dims, then one bmm on (batch, n, k) @ (batch, k, m)."""
    sa, sb = a._data.shape, b._data.shape
    if len(sa) == 3 and len(sb) == 3 and sa[0] != sb[0]:
        # a batch of one that needs a gradient is dropped rather than expanded
        if sa[0] == 1 and a._requires_grad:
            return matmul(a.squeeze(0), b)
        if sb[0] == 1 and b._requires_grad:
            return matmul(a, b.squeeze(0))
    n, k = (sa[-2] if len(sa) > 1 else 1), sa[-1]
    k2, m = (sb[-2], sb[-1]) if len(sb) > 1 else (sb[0], 1)
    try:
        batch = np.broadcast_shapes(sa[:-2], sb[:-2])
    except ValueError:
        raise broadcast_error(np.empty(sa[:-2]), np.empty(sb[:-2])) from None
    size = int(np.prod(batch))
    a = a.expand(batch + (n, k)).reshape(size, n, k)
    if len(sb) == 1:
        out = bmm(a, b.expand(batch + (k2,)).reshape(size, k2).unsqueeze(2)).squeeze(-1)
    else:
        out = bmm(a, b.expand(batch + (k2, m)).reshape(size, k2, m))
    return _unsafe_view(out, batch + ((n,) if len(sa) > 1 else ()) + ((m,) if len(sb) > 1 else ()))


@method("matmul", "__matmul__")
def matmul(input, other) -> Tensor:
    """Matrix product with PyTorch's rules for 1-D, 2-D and batched (N-D) operands."""
    if not isinstance(other, Tensor):
        return NotImplemented
    d1, d2 = input._data.ndim, other._data.ndim
    if d1 == 0 or d2 == 0:
        raise RuntimeError("both arguments to matmul need to be at least 1D, but they are "
                           f"{d1}D and {d2}D")
    if d2 == 1:
        if d1 == 1:
            return dot(input, other)
        if d1 == 2:
            return mv(input, other)
    elif d2 == 2:
        if d1 == 1:
            return _squeeze0_(mm(input.unsqueeze(0), other))
        if d1 == 2:
            return mm(input, other)
    if d1 >= 3 and d2 <= 2 and _foldable(input, other, False):
        return _fold(input, other)
    if d2 >= 3 and d1 <= 2 and _foldable(other, input, True):
        return _fold_transposed(input, other)
    return _batched(input, other)


Tensor.__rmatmul__ = lambda self, other: matmul(other, self) if isinstance(other, Tensor) \
    else NotImplemented
