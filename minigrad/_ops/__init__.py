"""The differentiable operations, grouped by kind; importing this attaches them to Tensor."""

from . import (  # noqa: F401
    activation,
    arithmetic,
    binary_functions,
    compare,
    convert,
    distance,
    division,
    einsum,
    elementwise_math,
    gather_scatter,
    index_checks,
    index_fill,
    index_put,
    index_slices,
    indexing,
    inplace,  # in-place forms (x.exp_()) of the ops, looked up when called
    inplace_checks,
    inplace_shape,
    join,
    linalg,
    minmax,
    movement,
    power,
    prod,
    products,
    rearrange,
    reduce,
    reduce_nan,
    scans_and_sorting,
    setitem,  # x[index] = value
    sign,
    statistics,
    ternary,
    transpose,
    unary,
    unique,
)

# isort: split
from .arguments import check_methods

inplace.attach_variants()  # x.exp_() for each op declared @method(..., inplace=True)
check_methods()  # last: PyTorch's checks for the binary ops attached above

# The topic modules whose ``__all__`` lists exactly their ``torch.<name>`` functions: minigrad
# exports every one (an op's entry in its module's ``__all__`` is all it takes to export it).
FUNCTIONS = (activation, binary_functions, compare, distance, einsum, elementwise_math,
             gather_scatter, index_fill, index_put, index_slices, join, linalg, minmax, power,
             prod, products, rearrange, reduce, reduce_nan, scans_and_sorting, sign, statistics,
             ternary, unary, unique)
