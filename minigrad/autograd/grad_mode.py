"""Grad modes: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode``.

Each is a small class usable as a context manager and as a decorator. The state is
per-thread, like PyTorch's.

>>> import minigrad as torch
>>> x = torch.ones(2, requires_grad=True)
>>> with torch.no_grad():
...     print((x * 2).requires_grad)
False
"""

from __future__ import annotations

import functools

from .._state import local as _mode

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
           "is_inference_mode_enabled"]


def is_grad_enabled() -> bool:
    """Whether operations are being recorded for autograd right now."""
    return _mode.grad_enabled


def is_inference_mode_enabled() -> bool:
    return _mode.inference_mode


class _DecoratorContextManager:
    """Lets a context manager class also decorate a function."""

    def __call__(self, func):
        if not callable(func):
            raise TypeError(f"{type(self).__name__} expects a callable, got {func!r}")

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return wrapper

    def clone(self):
        return type(self)()


class no_grad(_DecoratorContextManager):
    """Don't record operations inside the block (or the decorated function).

    Tensors computed there have ``requires_grad=False``, as in evaluation code.

    >>> import minigrad as torch
    >>> @torch.no_grad()
    ... def double(x):
    ...     return x * 2
    >>> double(torch.ones(1, requires_grad=True)).requires_grad
    False
    """

    def __init__(self) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = _mode.grad_enabled
        _mode.grad_enabled = False

    def __exit__(self, *exc) -> None:
        _mode.grad_enabled = self.prev


class enable_grad(_DecoratorContextManager):
    """Record operations inside the block, even within ``no_grad``."""

    def __enter__(self) -> None:
        self.prev = _mode.grad_enabled
        _mode.grad_enabled = True

    def __exit__(self, *exc) -> None:
        _mode.grad_enabled = self.prev


class set_grad_enabled(_DecoratorContextManager):
    """Turn recording on or off: at once when called, and back again when used with ``with``.

    >>> import minigrad as torch
    >>> _ = torch.set_grad_enabled(False)
    >>> torch.is_grad_enabled()
    False
    >>> _ = torch.set_grad_enabled(True)
    """

    def __init__(self, mode: bool) -> None:
        self.prev = _mode.grad_enabled
        self.mode = bool(mode)
        _mode.grad_enabled = self.mode

    def __call__(self, func):
        _mode.grad_enabled = self.prev  # used as a decorator: don't change the mode now
        return super().__call__(func)

    def __enter__(self) -> None:
        _mode.grad_enabled = self.mode

    def __exit__(self, *exc) -> None:
        _mode.grad_enabled = self.prev

    def clone(self):
        return set_grad_enabled(self.mode)


class inference_mode(_DecoratorContextManager):
    """Like ``no_grad``, for code that will never need gradients (PyTorch's inference mode)."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def __enter__(self) -> None:
        self.prev = (_mode.grad_enabled, _mode.inference_mode)
        if self.mode:
            _mode.grad_enabled = False
            _mode.inference_mode = True

    def __exit__(self, *exc) -> None:
        _mode.grad_enabled, _mode.inference_mode = self.prev

    def clone(self):
        return inference_mode(self.mode)
