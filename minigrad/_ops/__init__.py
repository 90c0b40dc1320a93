"""The differentiable operations, grouped by kind; importing this attaches them to Tensor."""

from . import activation, arithmetic, linalg, minmax, reduce, unary  # noqa: F401
from . import compare, convert, indexing, join, movement  # noqa: F401
from . import inplace  # noqa: F401,E402 - last: adds in-place forms of the ops above
