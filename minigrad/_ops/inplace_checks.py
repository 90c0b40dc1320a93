"""PyTorch's refusals of in-place writes, checked before the write (``check_inplace``,
``check_memory``) or, for inference tensors, after it (``bump_version``), as PyTorch does.

>>> import minigrad as torch
>>> x = torch.ones(3, requires_grad=True)
>>> x[1:].mul_(2)
Traceback (most recent call last):
RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.
"""

from __future__ import annotations

from .._tensor import Tensor
from ..autograd.functional_utils import only_inference
from ..autograd.grad_mode import is_grad_enabled, is_inference_mode_enabled
from ..autograd.graph import should_record
from ..autograd.zero_tensor import refuse_write
from .views import MULTI, made_without_grad, overlapping, shared_memory

__all__ = ["check_inplace", "check_memory", "overlaps", "bump_version", "LEAF", "VIEW_OF_LEAF"]


LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF = f"a view of {LEAF}"
INFERENCE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
             "a clone to get a normal tensor before doing inplace update.See "
             "https://github.com/pytorch/rfcs/pull/17 for more details.")


def _any_requires_grad(inputs) -> bool:
    return any(type(a) is Tensor and a.requires_grad for a in inputs)


def check_inplace(self: Tensor, inputs=(), differentiable: bool = True) -> None:
    """PyTorch's refusals to modify ``self`` in place, checked before the op runs (inference
    tensors: see ``bump_version``).

    With grad mode on and the op differentiable, when ``self`` or another of the op's
    ``inputs`` requires grad:
    views made in no_grad or inference mode, or by split/chunk/unbind, are refused; then views
    of a leaf (a tensor without grad_fn) requiring grad, then leaves requiring grad (also a view
    whose grad_fn is not yet brought up to date after its base changed: as in PyTorch).
    """
    if self._zero:  # PyTorch's ZeroTensor (a .grad from sgn): in any grad mode
        refuse_write(self)
    if not is_grad_enabled() or not differentiable:
        return
    needs, base = self.requires_grad, self._base
    if not needs and (base is None or not _any_requires_grad(inputs)):
        if base is None and inputs:
            should_record(*inputs)  # (autograd reads the operands' histories: see below)
        return  # (only a view can be refused when self needs no grad: no scan for the rest)
    if self._inference and only_inference((self, *inputs)):
        return  # (inference tensors alone: PyTorch's dispatch skips autograd and its checks)
    if base is not None:
        if self._view_no_grad or (self._view_multi is not None and self._grad_fn is None):
            raise RuntimeError(made_without_grad(self))
        if self._view_multi is not None:
            raise RuntimeError(f"Output {self._output_nr} of {self._view_multi} is a view and is "
                               f"being modified inplace. {MULTI}")
        if needs and base._grad_fn is None:
            raise RuntimeError(VIEW_OF_LEAF)
    if needs and self._grad_fn is None:
        raise RuntimeError(LEAF)
    should_record(self, *inputs)  # (autograd then reads the operands' histories: a stale view
    # is refused before the kernel checks anything)


def bump_version(self: Tensor) -> None:
    """A tensor was changed in place: its version goes up (shared with its views). An inference
    tensor has none: outside inference mode that is an error, raised (as in PyTorch) only
    after the change was made."""
    if self._inference and not is_inference_mode_enabled():
        raise RuntimeError(INFERENCE)
    self._vc[0] += 1


ONE_LOCATION = "refer to a single memory location. Please clone() the tensor before performing " \
               "the operation."
SHARED_BY_ELEMENTS = f"unsupported operation: more than one element of the written-to tensor " \
                     f"{ONE_LOCATION.replace('refer ', 'refers ', 1)}"
SHARED_WITH_INPUT = f"unsupported operation: some elements of the input tensor and the " \
                    f"written-to tensor {ONE_LOCATION}"


def check_memory(self: Tensor, inputs, fills: bool = False) -> None:
    """PyTorch's refusals to write where the result would depend on the order of the writes,
    checked before anything else: memory that several of ``self``'s elements share (unless the
    op ``fills`` it with one number), and an input overlapping ``self`` partly."""
    dst = self._data
    if not dst.flags.writeable or (not fills and overlapping(dst)):
        raise RuntimeError(SHARED_BY_ELEMENTS)
    for a in inputs:
        if type(a) is Tensor and a is not self and overlaps(self, a):
            raise RuntimeError(SHARED_WITH_INPUT)


def overlaps(self: Tensor, a: Tensor, full: bool = False) -> bool:
    """Whether the tensor ``a`` shares memory with ``self`` partly (or, ``full``, at all:
    PyTorch's ``assert_no_overlap``, ``a`` being ``self`` included). Only looked at when they
    could (one a view, or one version counter or array between them): an ordinary op on two
    tensors of their own pays nothing."""
    dst = self._data
    if a is self:
        return full
    if not (a._vc is self._vc or a._data is dst or a._data.base is not None
            or dst.base is not None):
        return False
    how = shared_memory(dst, a._data)
    return how == "partial" or (full and how is not None)
