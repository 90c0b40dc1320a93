"""The differentiable operations, grouped by kind; importing this attaches them to Tensor."""

from . import arithmetic, reduce  # noqa: F401
