"""Group normalisation (``F.group_norm``, behind ``nn.GroupNorm``): one node,
``NativeGroupNormBackward0``, as in PyTorch.

The channels are split into ``num_groups`` groups; each sample's group (its channels and all
their positions) is normalised by its own mean and variance, then each channel is scaled by
``weight`` and shifted by ``bias``. Unlike batch norm it needs no batch and no running averages.

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> x = torch.tensor([[1., 3., 2., 6.]], requires_grad=True)
>>> F.group_norm(x, 2)
tensor([[-1.0000,  1.0000, -1.0000,  1.0000]], grad_fn=<NativeGroupNormBackward0>)
"""

from __future__ import annotations

import numpy as np

from .._moments import fma, rowwise_moments
from .._ops.arithmetic import div_by_number, mul_by_number
from .._quiet import nan_of_nothing, quiet, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.grad_mode import enable_grad, no_grad
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import check_saved, refuse_saving_inference
from ._batchnorm import _value
from ._kernel_dtypes import refuse, refuse_mixed

__all__ = ["group_norm", "NativeGroupNormBackward0"]


class NativeGroupNormBackward0(Node):
    """z = xhat * w + b,  xhat = (a - mean) * rstd over each sample's group of channels
    (mean and rstd = 1 / sqrt(var + eps) saved as result1 and result2):
    grad_a = rstd * (gw - mean(gw) - xhat * mean(gw * xhat)) per group, gw = grad * w;
    grad_w = sum of grad * xhat;  grad_b = sum of grad (over samples and positions)."""

    rule = _r("z = xhat * w + b,  xhat = (a - mean) * rstd over each sample's group of channels",
              {"a": "input",
               "w": "weight",
               "mean": "result1",
               "rstd": "result2",
               "groups": "group"}, words=True,
              a="rstd * (gw - mean(gw) - xhat * mean(gw * xhat)) per group, gw = grad * w",
              w="sum of grad * xhat over samples and positions",
              b="sum of grad over samples and positions")

    saved = ("C", "HxW", "N", "eps", "group", "input", "result1", "result2", "weight")
    saved_tensors_names = ("input", "result1", "result2", "weight")

    def backward(self, grads):
        check_saved(self)
        g, g_mean, g_rstd = grads  # (the node's outputs: the result, its mean and 1/std)
        x, w = _value(self._s_input), _value(self._s_weight)
        need = [f is not None for f, _ in self.next_functions]
        # PyTorch's formula (the sums ds and db per group: a constant group's gradients are
        # its rounding noise, as PyTorch's), as ops under create_graph
        return _recorded(self, g, g_mean, g_rstd, x, w, need)


def _recorded(node, dy, dmean, drstd, x, w, need) -> tuple:
    """PyTorch's ``infinitely_differentiable_native_group_norm_backward``, op for op (so that
    under ``create_graph`` the same nodes are recorded); the mean and 1/std are the node's own
    outputs 1 and 2, so a second backward reaches this node again through them."""
    arrays = not isinstance(next(t for t in (dy, dmean, drstd) if t is not None), Tensor)
    if arrays:  # (a gradient for mean or 1/std in a plain backward)
        dy, dmean, drstd = (None if t is None else Tensor._wrap(t) for t in (dy, dmean, drstd))
    half = arrays and x._data.dtype == np.float16  # (its kernel computes in float32)
    if half:
        dy, dmean, drstd, x, w = (None if t is None else Tensor._wrap(t._data.astype(np.float32))
                                  for t in (dy, dmean, drstd, x, w))
    n, c, hxw, groups = node._s_N, node._s_C, node._s_HxW, node._s_group
    d = c // groups
    s = 1.0 / (d * hxw) if d * hxw else 0.0  # (no elements: the gradients are empty)
    with enable_grad() if not arrays else no_grad():
        xt = x.reshape(n, groups, d, hxw)
        mean, rstd = (_value(r).reshape(n, groups, 1, 1) for r in (node._s_result1,
                                                                      node._s_result2))
        if half:
            mean, rstd = (Tensor._wrap(t._data.astype(np.float32)) for t in (mean, rstd))
        dx = dw = db_ = None
        if dy is not None:
            dyt = dy.reshape(n, groups, d, hxw)
            ds = (dyt * xt).sum(3).unsqueeze_(-1)
            db = dyt.sum(3).unsqueeze_(-1)
        if need[0]:
            wt = None if w is None else w.reshape(1, groups, d, 1)
            cube = rstd * rstd * rstd
            if dy is not None:
                a = rstd if wt is None else rstd * wt
                b = (ds if wt is None else ds * wt).sum(2).unsqueeze_(-2)
                c_ = (db if wt is None else db * wt).sum(2).unsqueeze_(-2)
                b = mul_by_number((c_ * mean - b) * cube, s)
                c_ = -b * mean - mul_by_number(c_ * rstd, s)
                dx = a * dyt + b * xt + c_
                if dmean is not None and drstd is not None:
                    dx += _var_mean_grad(cube, dmean, drstd, xt, n, groups)
                dx = dx.reshape_as(x)
            elif dmean is not None and drstd is not None:
                dx = _var_mean_grad(cube, dmean, drstd, xt, n, groups).reshape_as(x)
        if need[1] and dy is not None:
            centred = ds - db * mean if not arrays else Tensor._wrap(  # (the kernel's
                fma(-db._data, mean._data, ds._data))  # multiply-add)
            dw = (centred * rstd).sum(0).reshape(c)
        if need[2] and dy is not None:
            db_ = db.sum(0).reshape(c)
    grads = (dx, dw, db_)
    if arrays:
        return tuple(None if t is None else t._data.astype(np.float16) if half else t._data
                     for t in grads)
    return grads


def _var_mean_grad(cube, dmean, drstd, xt, n, groups):
    """PyTorch's ``var_mean_backward`` over each group (dims 2, 3), with dvar from d(1/std)."""
    dvar = mul_by_number(cube, -0.5) * drstd.view(n, groups, 1, 1)
    size = xt.shape[2] * xt.shape[3]
    gx = mul_by_number(dvar, 2.0 / size) * (xt - xt.mean((2, 3), keepdim=True))
    return gx + div_by_number(dmean.view(n, groups, 1, 1).expand(xt.shape), size)
def _moments(xg: np.ndarray, eps: float):
    """Each row's mean and ``1 / sqrt(max(var, 0) + eps)`` as PyTorch's group-norm kernel:
    ``RowwiseMoments`` in the input's dtype, the root and division in float64 (eps a double)."""
    if not xg.shape[1]:  # (no elements: mean 0 and rstd PyTorch's 0 / 0, as its kernel)
        return np.zeros(xg.shape[0], xg.dtype), nan_of_nothing(xg.shape[0], xg.dtype)
    mean, var = rowwise_moments(xg)  # (float16: float32 moments, the kernel's opmath)
    token = quiet()
    try:
        rstd = 1 / np.sqrt(np.maximum(var, 0).astype(np.float64) + eps)
    finally:
        restore(token)
    return mean, rstd.astype(mean.dtype)


def _normalised(x4: np.ndarray, mean, rstd, weight, bias) -> np.ndarray:
    """The kernel's output for ``x4`` of shape (N, G, D, HxW): ``(x - mean) * rstd`` without
    weight and bias, else ``scale * x + (bias - scale * mean)``, scale = rstd * weight, both
    as one multiply-add (so a constant group gives the rounding error, not always 0)."""
    n, g, d, _ = x4.shape
    m, r = mean.reshape(n, g, 1, 1), rstd.reshape(n, g, 1, 1)
    out = x4.dtype
    x4 = x4.astype(m.dtype, copy=False)  # (float16: computed in float32, then rounded)
    token = quiet()
    try:
        if weight is None and bias is None:
            return np.ascontiguousarray((x4 - m) * r, out)
        w = 1 if weight is None else weight._data.reshape(1, g, d, 1).astype(m.dtype)
        b = np.zeros(1, m.dtype) if bias is None else \
            bias._data.reshape(1, g, d, 1).astype(m.dtype)
        scale = r * w
        full = np.broadcast_shapes(scale.shape, m.shape, b.shape)
        shift = fma(np.broadcast_to(-scale, full), np.broadcast_to(m, full),
                    np.broadcast_to(b, full))
        return np.ascontiguousarray(fma(np.broadcast_to(scale, x4.shape), x4,
                                        np.broadcast_to(shift, x4.shape)), out)
    finally:
        restore(token)


def _check(input: Tensor, num_groups: int, weight, bias) -> None:
    """PyTorch's checks of ``F.group_norm``, in its order."""
    shape = list(input.shape)
    if len(shape) < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{len(shape)}")
    if shape[0] * shape[1] // num_groups * int(np.prod(shape[2:])) == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input "
                         f"size {[shape[0] * shape[1] // num_groups, num_groups] + shape[2:]}")
    if shape[1] % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {shape} and "
                           f"num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != shape[1]):
            # (PyTorch prints the weight's shape in the bias's message too; [0] if none)
            shown = list(weight.shape) if weight is not None else [0]
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of "
                               f"channels in input, but got {name} of shape {shown} "
                               f"and input of shape {shape}")
    if should_record(input, weight, bias):  # (autograd saves input and weight before the
        refuse_saving_inference(input, weight)  # kernel's checks)
    refuse_mixed(input._data, weight, bias)
    refuse("GroupNormKernelImpl", input._data)


def group_norm(input: Tensor, num_groups: int, weight=None, bias=None,
               eps: float = 1e-5) -> Tensor:
    """Normalise each sample's groups of channels, then ``* weight + bias`` per channel."""
    _check(input, num_groups, weight, bias)
    x = input._data
    n, c = x.shape[:2]
    hxw = int(np.prod(x.shape[2:])) if x.ndim > 2 else 1
    xg = np.ascontiguousarray(x).reshape(n * num_groups, -1) if x.size else \
        np.zeros((n * num_groups, 0), x.dtype)
    mean, rstd = _moments(xg, eps)
    result = Tensor._wrap(_normalised(x.reshape(n, num_groups, c // num_groups, hxw), mean,
                                      rstd, weight, bias).reshape(x.shape))
    if not should_record(input, weight, bias):
        return result
    node = NativeGroupNormBackward0()
    node._s_C, node._s_HxW, node._s_N, node._s_eps = c, hxw, n, eps
    node._s_group = num_groups
    node._s_input = SavedTensor(input)
    node._s_weight = None if weight is None else SavedTensor(weight)
    # the mean and 1/std are the node's outputs 1 and 2 in PyTorch: recorded and saved as such
    stats = [Tensor._wrap(stat.reshape(n, num_groups).astype(x.dtype, copy=False))
             for stat in (mean, rstd)]
    record(node, (result, *stats), input, weight, bias)
    node._s_result1, node._s_result2 = (SavedTensor(t, node) for t in stats)
    return result
