"""``Tensor``: a NumPy array plus what autograd needs to know about it.

The state is small and visible: ``_data`` (the ndarray), ``requires_grad``, ``grad``,
``grad_fn`` (the Node that made it, ``None`` for a leaf), ``_output_nr`` (its output number) and
``_version`` (bumped by every in-place change, shared with its views). The ops live in
``minigrad/_ops/`` and are attached to this class there.
"""

from __future__ import annotations

import warnings
import weakref
from array import array

import numpy as np

from ._dtype import from_numpy_dtype
from ._state import detached_state as _detached_state
from ._state import inference_blocks as _inference_blocks
from ._state import local as _mode
from ._state import warn_once as _warn_once
from ._torch_names import TorchNamed
from ._types import Size, VersionCounter, check_assigned_grad, cpu, element_strides, unsupported
from ._types import as_data as _as_data
from .utils.hooks import Hooks, RemovableHandle

__all__ = ["Tensor"]

_ndarray = np.ndarray  # (np.ndarray is a lookup NumPy's __getattr__ stops Python caching)

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information.")
ONLY_LEAF_MESSAGE = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)
SCALAR_WARNING = ("Converting a tensor with requires_grad=True to a scalar may lead to "
                  "unexpected behavior.\nConsider using tensor.detach() first.")


class Tensor(metaclass=TorchNamed):
    """A multi-dimensional array that can record the operations done on it.

    >>> import minigrad as torch
    >>> x = torch.tensor([1., 2., 3.], requires_grad=True)
    >>> (x * x).sum().backward()
    >>> x.grad
    tensor([2., 4., 6.])
    """

    # Defaults shared by all tensors (the annotated ones: set by _wrap on each, faster to read)
    _requires_grad: bool  # False
    _grad = None
    _grad_fn: object  # None
    _output_nr = 0
    _accumulator = None  # weakref to this leaf's AccumulateGrad node
    _retains_grad = _zero = False  # _zero: PyTorch's ZeroTensor (see autograd/zero_tensor.py)
    _hooks = _post_acc_hooks = None  # a leaf's hooks (run by its AccumulateGrad), post-accumulate
    _inference = False  # made inside inference_mode (then it has no version counter)
    _data_inference = _data_normal = False  # .data = t: t's data is (not) an inference tensor's
    _view_vc = None  # a view's (movement/indexing/join ops): its base's version at its grad_fn
    _view_no_grad = False  # made in no_grad mode from a base requiring grad: leads nowhere
    _view_multi = None  # made by split/chunk/unbind: the op's name (no in-place changes allowed)
    __array_priority__ = 1000  # make `ndarray * Tensor` call Tensor.__rmul__
    _vc = VersionCounter()  # made on first use; see _types.VersionCounter

    def __init__(self, *args, dtype=None, requires_grad: bool = False):
        # The legacy constructor: Tensor([1, 2]) copies data as float32; Tensor(2, 3) makes zeros.
        from ._creation import _legacy_tensor_data

        self._data = _legacy_tensor_data(args, dtype)
        self._requires_grad, self._grad_fn, self._base = False, None, None
        if requires_grad:
            self.requires_grad_(True)

    @staticmethod
    def _wrap(data) -> Tensor:
        """A new leaf tensor around ``data`` (an ndarray, not copied) with a fresh version."""
        t = object.__new__(Tensor)
        t._data = data if type(data) is _ndarray and data.size else _as_data(data)
        t._requires_grad, t._grad_fn, t._base = False, None, None  # (_base: a view's base)
        if _inference_blocks and _mode.inference_mode:  # (an inference tensor)
            t._inference = True
        return t

    # ------------------------------------------------------------------ attributes
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None):
        """The shape, or the length of dimension ``dim``."""
        if dim is None:
            return Size(self._data.shape)
        if not self._data.ndim:  # PyTorch's size() does not wrap dims of a 0-d tensor
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return self._data.shape[self._wrap_dim(dim)]

    def _wrap_dim(self, dim: int) -> int:
        n = self._data.ndim
        lo, hi = (-1, 0) if n == 0 else (-n, n - 1)
        if not lo <= dim <= hi:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})")
        return dim % n if n else 0

    @property
    def dtype(self):
        return from_numpy_dtype(self._data.dtype)

    @property
    def device(self):
        return cpu

    is_cpu = True
    is_cuda = is_mps = is_sparse = is_quantized = is_meta = False
    layout = "torch.strided"

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    def numel(self) -> int:
        return self._data.size

    nelement = numel

    def element_size(self) -> int:
        return self._data.itemsize

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def is_signed(self) -> bool:
        return self._data.dtype.kind in "if"

    def is_contiguous(self, memory_format=None) -> bool:
        unsupported("is_contiguous", memory_format=memory_format)
        return self._data.flags.c_contiguous

    def stride(self, dim: int | None = None):
        return element_strides(self._data) if dim is None else self.stride()[self._wrap_dim(dim)]

    @property
    def _version(self) -> int:
        if self._inference:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._vc[0]

    @property
    def output_nr(self) -> int:
        return self._output_nr

    def _is_view(self) -> bool:
        """Whether this tensor is a view of another (its ``_base``); torchviz reads this."""
        return self._base is not None

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None  # (a view may get a grad_fn from its base: see grad_fn)

    @property
    def grad_fn(self):
        if self._base is not None:
            self._sync_view()  # a view whose memory changed in place reads from its base now
        return self._grad_fn

    @property
    def requires_grad(self) -> bool:
        """Whether autograd records ops on this tensor (a view: also once its base does)."""
        return self._requires_grad or (self._base is not None and self._base._requires_grad
                                       and not self._inference)  # (PyTorch's have no autograd)

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if self._grad_fn is not None:
            raise RuntimeError(ONLY_LEAF_MESSAGE if not flag else ONLY_LEAF_MESSAGE.split(" If")[0])
        if not isinstance(flag, bool):
            raise RuntimeError("requires_grad must be a bool")
        if flag and self._data.dtype.kind != "f":  # message differs from requires_grad_()
            raise RuntimeError("only Tensors of floating point and complex dtype can require "
                               "gradients")
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Start (or stop) recording operations on this leaf tensor; returns ``self``."""
        if not isinstance(requires_grad, bool):
            raise TypeError("requires_grad_(): argument 'requires_grad' (position 1) must be "
                            f"bool, not {type(requires_grad).__name__}")
        if requires_grad and self._data.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if self._grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(ONLY_LEAF_MESSAGE)
            return self
        if requires_grad and self.is_inference() and not _mode.inference_mode:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        if self._view_no_grad:  # (a view made in no_grad mode and made a leaf here
            self._view_leaf = requires_grad  # gets gradients, as in PyTorch: graph.record)
        self._requires_grad = bool(requires_grad)
        return self

    def is_inference(self) -> bool:
        """Whether made inside ``inference_mode`` (or given such data by ``.data =``)."""
        return (self._inference and not self._data_normal) or self._data_inference

    @property
    def grad(self) -> Tensor | None:
        if self._grad_fn is not None and not self._retains_grad:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            check_assigned_grad(self, value, Tensor)
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def data(self) -> Tensor:
        """The same storage as a new tensor that autograd does not track."""
        t = Tensor._wrap(self._data)  # (an inference tensor only if self is, even in
        t._inference = self.is_inference()  # inference mode, as PyTorch's shallow copy)
        return t

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if value._data.dtype.kind not in "fc" and self.requires_grad:
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        now = value.is_inference()  # (it follows the data; the version counter, or its lack,
        self._data, self._data_inference, self._data_normal = (  # stays with the tensor)
            value._data, now and not self._inference, self._inference and not now)

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Keep ``.grad`` for this non-leaf tensor after backward (a no-op on leaves)."""
        if not self.requires_grad:  # (a view made in no_grad mode: while its base does)
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None or self._retains_grad:
            return
        node = self._grad_fn
        if node._retains_grad is None:
            node._retains_grad = {}
        node._retains_grad[self._output_nr] = weakref.ref(self)
        node._hooked = True
        self._retains_grad = True

    def _history_changed(self, old_node) -> None:
        """An in-place op gave this tensor a new ``grad_fn``: ``retain_grad`` moves with it
        (tensor hooks stay where they were registered, as in PyTorch)."""
        if not self._retains_grad:
            return
        if old_node is not None and old_node._retains_grad:
            for nr, ref in list(old_node._retains_grad.items()):
                if ref() is self:
                    del old_node._retains_grad[nr]
        self._retains_grad = False
        if self._grad_fn is not None:
            self.retain_grad()

    def register_hook(self, hook) -> RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new grad.

        Returns a handle whose ``remove()`` takes the hook away.

        >>> import minigrad as torch
        >>> x = torch.tensor([1., 2.], requires_grad=True)
        >>> h = x.register_hook(lambda g: g * 10)
        >>> (x * x).sum().backward()
        >>> x.grad
        tensor([20., 40.])
        """
        if not self.requires_grad:  # (a view: also once its base requires grad)
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if (fn := self.grad_fn) is not None:  # (a view reads its history now, as PyTorch)
            return fn._register_tensor_hook(self._output_nr, hook)
        if self._hooks is None:
            self._hooks = Hooks()
        return self._hooks.add(hook)

    def register_post_accumulate_grad_hook(self, hook) -> RemovableHandle:
        """Call ``hook(tensor)`` on this leaf after its ``.grad`` has been updated."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            raise RuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors")
        if self._post_acc_hooks is None:
            self._post_acc_hooks = Hooks()
        return self._post_acc_hooks.add(hook)

    # ------------------------------------------------------------------ conversion
    def item(self):
        """The value of a one-element tensor as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.reshape(()).item()

    def tolist(self):
        if self._zero:  # (PyTorch's ZeroTensor has no memory)
            raise RuntimeError("tolist() shouldn't be called on a tensor with unallocated storage")
        return self._data.tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The ndarray itself (shared memory); refused while it requires grad in grad mode."""
        if (self._zero or self.requires_grad) and not force:
            from .autograd.zero_tensor import refuse_numpy  # (late: autograd imports this)
            refuse_numpy(self)
        return self._data

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def detach(self) -> Tensor:
        """A new tensor sharing data and version counter, cut off from the graph."""
        t = Tensor._wrap(self._data)  # (an alias: its strides even where it is empty)
        t._data, t._zero, t._data_normal = self._data, self._zero, self._data_normal
        t._vc, t._inference, t._data_inference = _detached_state(self, t._vc)
        return t

    def detach_(self) -> Tensor:
        """Make this tensor a leaf that does not require grad, in place."""
        if _mode.inference_mode:  # (PyTorch skips its autograd kernel there: nothing changes)
            return self
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        self._grad_fn, self._requires_grad, self._output_nr = None, False, 0
        return self

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with "
                               f"{'no values' if not self._data.size else 'more than one value'}"
                               " is ambiguous")
        return bool(self._data)

    def __float__(self) -> float:
        if self.requires_grad:  # (warned before the size is checked, as PyTorch does)
            from .autograd.grad_mode import is_grad_enabled
            if is_grad_enabled():
                _warn_once("float", SCALAR_WARNING, 2)
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return float(self.item())

    def __int__(self) -> int:
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return int(self.item())

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError(
                "only integer tensors of a single element can be converted to an index")
        return int(self.item())

    __hash__ = object.__hash__

    def __repr__(self, *, tensor_contents=None) -> str:
        from ._tensor_str import tensor_repr

        return tensor_repr(self, tensor_contents=tensor_contents)

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0 and type(self) is Tensor:  # not for Parameter, as in PyTorch
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol):
        return (_rebuild, (self._data.copy(), self._requires_grad))

    def __deepcopy__(self, memo):
        if self._grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
                "because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001")
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._data = self._data.copy()
        new._vc = array("q", (1,))  # PyTorch deep-copies with set_(), which counts as a change
        new._accumulator = None
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = new
        return new

    # ------------------------------------------------------------------ autograd
    def backward(self, gradient=None, retain_graph=None, create_graph: bool = False,
                 inputs=None) -> None:
        """Compute the gradient of this tensor w.r.t. the graph leaves, into their ``.grad``.

        >>> import minigrad as torch
        >>> x = torch.tensor(3., requires_grad=True)
        >>> (x * x).backward()
        >>> x.grad
        tensor(6.)
        """
        global _backward
        if _backward is None:  # the one import of autograd, on first use: it builds on Tensor
            from .autograd import backward as _backward
        _backward(self, gradient, retain_graph, create_graph, inputs=inputs)


_backward = None  # minigrad.autograd.backward, once Tensor.backward has been called


def _rebuild(data, requires_grad):
    t = Tensor._wrap(data)
    t._vc = array("q", (1,))  # PyTorch rebuilds with set_(), which counts as a change
    t._requires_grad = requires_grad
    return t
