"""PyTorch's exceptions for the bad inputs that several ops share, built in one place.

Each function returns the exception (the caller raises it) so a message is written once:
a dimension asked of a 0-d tensor, a kernel PyTorch does not build for a dtype, an in-place
result its tensor cannot hold, a reduction over an empty dimension.
"""

from __future__ import annotations

import numpy as np


def no_dims(dim) -> IndexError:
    """``size(0)``, ``unbind(0)``... of a 0-d tensor: those dims do not wrap to 0 in PyTorch."""
    return IndexError(f"Dimension specified as {dim} but tensor has no dimensions")


def needs_dims(fn: str) -> RuntimeError:
    """``split``/``chunk`` of a 0-d tensor."""
    return RuntimeError(f"{fn} expects at least a 1-dimensional tensor")


def not_implemented(kernel: str, dtype) -> NotImplementedError:
    """A kernel PyTorch does not build for ``dtype`` (``"round_cpu" not implemented for
    'Long'``)."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{dtype._cpp}\'')


def bool_negation() -> RuntimeError:
    """``-t`` of a bool tensor (also inside a backward formula that negates one)."""
    return RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you "
                        "are trying to invert a mask, use the `~` or `logical_not()` operator "
                        "instead.")


def cant_cast(result, out) -> RuntimeError:
    """An in-place op whose result dtype ``out``'s dtype cannot hold (float into int...)."""
    return RuntimeError(f"result type {result._cpp} can't be cast to the desired output type "
                        f"{out._cpp}")


def empty_reduction(fn: str, dim) -> IndexError:
    """A reduction without identity (``amax``, ``median``...) over a dimension of size 0."""
    return IndexError(f"{fn}(): Expected reduction dim {dim} to have non-zero size.")


def empty_norm(ord, dims, shape) -> RuntimeError | None:  # noqa: A002 - PyTorch's name
    """The error of a vector norm without identity (p < 0 or inf) over no elements, or None."""
    if isinstance(ord, str) or not (ord < 0 or ord == float("inf")):
        return None
    where = "an empty tensor"
    if dims is not None:
        empty = [a for a in dims if not shape[a]]
        if not empty:
            return None
        where = f"the dimension {empty[0]}because this dimension is empty and"
    else:
        where += " because"
    return RuntimeError(f"linalg.vector_norm cannot compute the {float(ord):g} norm on {where} "
                        "the operation does not have an identity")


def check_int(fn: str, name: str, value, position: int = 1) -> None:
    """PyTorch's TypeError for an int argument given as a float or bool (``tril(0.5)``)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be int, not "
                        f"{type(value).__name__}")
