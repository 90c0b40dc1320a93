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
from ._ops import binary_functions as _binary_functions
from ._ops import elementwise_math as _elementwise_math
from ._ops import rearrange as _rearrange
from ._ops import scans_and_sorting as _scans_and_sorting
from ._ops import statistics as _statistics
from ._ops.activation import log_softmax, relu, relu_, sigmoid, softmax, tanh
from ._ops.arguments import check_functions as _check_functions
from ._ops.arithmetic import add, mul, neg, rsub, sub
from ._ops.binary_functions import *  # noqa: F401,F403
from ._ops.compare import (
    all,
    allclose,
    any,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    eq,
    equal,
    ge,
    greater,
    greater_equal,
    gt,
    isclose,
    le,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    lt,
    masked_fill,
    ne,
    nonzero,
    not_equal,
    where,  # noqa: A004
)
from ._ops.division import div, reciprocal, true_divide
from ._ops.einsum import einsum  # noqa: F401
from ._ops.elementwise_math import *  # noqa: F401,F403
from ._ops.indexing import narrow, select
from ._ops.join import cat, chunk, concat, concatenate, split, stack, unbind
from ._ops.linalg import addmm, bmm, dot, matmul, mm, mv
from ._ops.minmax import (
    amax,
    amin,
    argmax,
    argmin,
    max,
    maximum,
    min,
    minimum,
    return_types,  # noqa: A004
)
from ._ops.movement import clone, flatten, reshape, squeeze, unsqueeze
from ._ops.power import pow, square  # noqa: A004
from ._ops.rearrange import *  # noqa: F401,F403
from ._ops.reduce import mean, norm, prod, sum  # noqa: A004
from ._ops.reduce_nan import count_nonzero, nanmean, nansum
from ._ops.scans_and_sorting import *  # noqa: F401,F403
from ._ops.statistics import *  # noqa: F401,F403
from ._ops.ternary import *  # noqa: F401,F403
from ._ops.transpose import permute, swapaxes, swapdims, t, transpose
from ._ops.unary import (
    abs,
    absolute,
    clamp,
    clamp_max,
    clamp_min,
    clip,
    cos,
    exp,
    log,
    sin,
    sqrt,  # noqa: A004
)
from ._ops.unique import unique, unique_consecutive  # noqa: F401
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


__all__ = list(_creation_all) + list(_grad_mode_all) + list(_legacy_types_all) + [
    "Tensor", "Size", "dtype", "bool", "uint8", "int8", "int16", "int32", "int64", "float16",
    "float32", "float64", "float", "double", "long", "int", "half", "short", "bfloat16",
    "complex64", "complex128", "cfloat", "cdouble", "uint16", "uint32", "uint64", "can_cast",
    "add", "sub", "mul", "div", "neg", "true_divide", "reciprocal",
    "rsub", "sum", "mean", "pow", "square", "exp", "log", "sqrt", "sin", "cos", "abs", "absolute",
    "clamp", "clip", "clamp_min", "clamp_max", "relu", "relu_", "sigmoid", "tanh", "softmax",
    "log_softmax", "prod", "norm", "max", "min", "amax", "amin", "argmax", "argmin", "maximum",
    "minimum", "return_types", "dot", "mv", "mm", "bmm", "addmm", "matmul",
    "autograd", "nn", "optim", "is_tensor",
    "numel",
    "get_default_dtype", "set_default_dtype", "promote_types", "result_type",
    "set_printoptions",
    "all", "any", "allclose", "isclose", "equal", "eq", "ne", "lt", "le", "gt", "ge", "greater",
    "greater_equal", "less", "less_equal", "not_equal", "logical_and", "logical_or",
    "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
    "where", "masked_fill", "narrow", "nonzero", "select", "cat", "concat", "concatenate",
    "stack", "split", "chunk", "unbind", "clone", "flatten", "permute", "reshape",
    "squeeze", "swapaxes", "swapdims", "t", "transpose", "unsqueeze",
    "normal", "randperm", "bernoulli", "multinomial", "poisson", "random", "get_rng_state",
    "set_rng_state",
    "device", "get_default_device", "set_default_device", "cuda", "accelerator", "backends",
    "utils", "save", "load", "subtract", "multiply", "divide", "detach",
    "nansum", "nanmean", "count_nonzero", "finfo", "iinfo",
]
__all__ += (_elementwise_math.__all__ + _binary_functions.__all__ + _scans_and_sorting.__all__
            + _rearrange.__all__ + _statistics.__all__
            + ["einsum", "unique", "unique_consecutive"])
subtract, multiply, divide = sub, mul, div


def detach(input: Tensor) -> Tensor:
    """``input.detach()``: the same data, cut off from the graph."""
    return input.detach()


# torch.sin_(x), torch.zero_(x)...: the in-place methods as functions
globals().update({k: v for k, v in _inplace_functions().items()
                 if k not in globals() or k == "relu_"})
__all__ += [k for k in _inplace_functions() if k not in __all__]
_check_functions(globals())  # PyTorch's TypeError for an operand that is no tensor or number
