"""The differentiable operations, grouped by kind; importing this attaches them to Tensor."""

from . import (  # noqa: F401
    activation,
    arithmetic,
    binary_functions,
    compare,
    convert,
    division,
    elementwise_math,
    index_checks,
    index_put,
    indexing,
    inplace,  # in-place forms (x.exp_()) of the ops, looked up when called
    inplace_checks,
    inplace_shape,
    join,
    linalg,
    minmax,
    movement,
    power,
    rearrange,
    reduce,
    reduce_nan,
    scans_and_sorting,
    setitem,  # x[index] = value
    statistics,
    ternary,
    transpose,
    unary,
)

# isort: split
from .arguments import check_methods

check_methods()  # last: PyTorch's checks for the binary ops attached above
