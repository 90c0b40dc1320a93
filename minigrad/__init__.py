"""minigrad: a compact autograd engine on NumPy that behaves like PyTorch.

Use it where a tutorial says ``import torch``::

    import minigrad as torch
    x = torch.ones(2, 2, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    x.grad          # tensor([[2., 2.], [2., 2.]])

Every part is small Python: ``minigrad/_ops/`` holds one class per op (forward and backward
side by side), ``minigrad/autograd/engine.py`` the backward engine as a generator of steps.
"""

from __future__ import annotations

from . import _ops as _ops  # attaches the ops to Tensor
from . import (
    accelerator,
    autograd,
    backends,
    cuda,
    nn,
    optim,
    random,  # noqa: A004 - torch.random
    utils,
)
from ._creation import *  # noqa: F401,F403
from ._creation import __all__ as _creation_all
from ._device import device, get_default_device, set_default_device
from ._dtype import (
    bfloat16,
    bool,
    can_cast,
    complex64,
    complex128,
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    promote_types,  # noqa: A004
    result_type,
    set_default_dtype,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ._info import finfo, iinfo
from ._inplace_functions import functions as _inplace_functions
from ._legacy_types import *  # noqa: F401,F403
from ._legacy_types import __all__ as _legacy_types_all
from ._ops import out as _out
from ._ops.arguments import check_functions as _check_functions
from ._ops.arithmetic import add, mul, neg, rsub, sub
from ._ops.division import div, reciprocal, true_divide
from ._ops.indexing import narrow, select
from ._ops.movement import clone, flatten, reshape, squeeze, unsqueeze
from ._ops.transpose import permute, swapaxes, swapdims, t, transpose
from ._ops.views import as_strided  # noqa: F401
from ._random import bernoulli, multinomial, normal, poisson, randperm
from ._summation import get_num_threads, set_num_threads  # noqa: F401
from ._tensor import Tensor
from ._tensor_str import set_printoptions
from ._types import Size
from .autograd.grad_mode import *  # noqa: F401,F403 - no_grad, enable_grad, ...
from .autograd.grad_mode import __all__ as _grad_mode_all
from .random import get_rng_state, set_rng_state
from .serialization import load, save
from .utils import data as _utils_data  # noqa: F401 - makes torch.utils.data available

__version__ = "0.1.0"

float = float32  # noqa: A001 - PyTorch's aliases
double = float64
long = int64
int = int32  # noqa: A001
half = float16
short = int16
cfloat = complex64
cdouble = complex128


def is_tensor(obj) -> bool:
    """Whether ``obj`` is a minigrad Tensor."""
    return isinstance(obj, Tensor)


def numel(input) -> int:
    return input.numel()


def is_floating_point(input) -> bool:
    """Whether ``input``'s dtype is a floating-point one (``input.is_floating_point()``)."""
    if not isinstance(input, Tensor):
        raise TypeError("is_floating_point(): argument 'input' (position 1) must be Tensor, "
                        f"not {type(input).__name__}")
    return input.is_floating_point()


__all__ = list(_creation_all) + list(_grad_mode_all) + list(_legacy_types_all) + [
    "Tensor", "Size", "dtype", "bool", "uint8", "int8", "int16", "int32", "int64", "float16",
    "float32", "float64", "float", "double", "long", "int", "half", "short", "bfloat16",
    "complex64", "complex128", "cfloat", "cdouble", "uint16", "uint32", "uint64", "can_cast",
    "add", "sub", "mul", "div", "neg", "true_divide", "reciprocal", "rsub", "autograd", "nn",
    "optim", "is_tensor", "numel", "is_floating_point", "get_default_dtype", "set_default_dtype",
    "promote_types",
    "result_type", "set_printoptions", "narrow", "select", "clone", "flatten", "permute",
    "reshape", "squeeze", "swapaxes", "swapdims", "t", "transpose", "unsqueeze", "normal",
    "randperm", "bernoulli", "multinomial", "poisson", "random", "get_rng_state", "set_rng_state",
    "device", "get_default_device", "set_default_device", "cuda", "accelerator", "backends",
    "utils", "save", "load", "subtract", "multiply", "divide", "detach", "finfo", "iinfo",
]
# every function of the op modules (exp, hypot, cumsum, ...): each module's __all__
for _module in _ops.FUNCTIONS:
    globals().update({_name: getattr(_module, _name) for _name in _module.__all__})
    __all__ += _module.__all__
del _module
subtract, multiply, divide = sub, mul, div


def detach(input: Tensor) -> Tensor:
    """``input.detach()``: the same data, cut off from the graph."""
    return input.detach()


# torch.sin_(x), torch.zero_(x)...: the in-place methods as functions
globals().update({k: v for k, v in _inplace_functions().items()
                 if k not in globals() or k == "relu_"})
__all__ += [k for k in _inplace_functions() if k not in __all__]
_check_functions(globals())  # PyTorch's TypeError for an operand that is no tensor or number
_out.attach(globals())  # out= for the functions PyTorch gives it (torch.add(x, y, out=r))
