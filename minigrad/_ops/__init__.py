"""The differentiable operations, grouped by kind; importing this attaches them to Tensor."""

from . import (  # noqa: F401
    activation,
    arithmetic,
    binary_more,
    compare,
    convert,
    division,
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
    reduce,
    reduce_more,
    reduce_nan,
    setitem,  # x[index] = value
    shape_more,
    statistics,
    ternary,
    transpose,
    unary,
    unary_more,
)

# isort: split
from .arguments import check_methods

check_methods()  # last: PyTorch's checks for the binary ops attached above
