"""Grad modes: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode``.

Each is a small class usable as a context manager and as a decorator (also of generator
functions: the mode then holds while the generator runs, not while it is paused). The state
is per-thread, like PyTorch's.

>>> import minigrad as torch
>>> x = torch.ones(2, requires_grad=True)
>>> with torch.no_grad():
...     print((x * 2).requires_grad)
False
"""

from __future__ import annotations

import functools
import inspect

from .._state import inference_blocks, inference_entered
from .._state import local as _mode
from .._torch_names import TorchNamed

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
           "is_inference_mode_enabled"]


def is_grad_enabled() -> bool:
    """Whether operations are being recorded for autograd right now (in this thread)."""
    return _mode.grad_enabled


def is_inference_mode_enabled() -> bool:
    """Whether this thread is inside ``inference_mode``."""
    return _mode.inference_mode


class _DecoratorContextManager(metaclass=TorchNamed):
    """Lets a context manager class also decorate a function or a generator function."""

    def __call__(self, func):
        if inspect.isclass(func) or not callable(func):
            raise TypeError(f"{type(self).__name__} expects a callable, got {func!r}")
        if inspect.isgeneratorfunction(func):
            return self._wrap_generator(func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return wrapper

    def _wrap_generator(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            gen = func(*args, **kwargs)
            try:
                with self.clone():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with self.clone():
                            gen.close()
                        raise
                    except BaseException as exc:
                        with self.clone():
                            response = gen.throw(exc)
                    else:
                        with self.clone():
                            response = gen.send(request)
            except StopIteration as stop:
                return stop.value

        return wrapper

    def clone(self):
        return type(self)()


class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """Also usable as a bare decorator: ``@no_grad`` as well as ``@no_grad()``."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class _GradModeBlock(_NoParamDecoratorContextManager):
    """Grad mode set to ``enabled`` inside the block, and the previous mode restored after."""

    enabled = False
    prev = False

    def __enter__(self) -> None:
        self.prev = _mode.grad_enabled
        _mode.grad_enabled = self.enabled

    def __exit__(self, *exc) -> None:
        _mode.grad_enabled = self.prev


class no_grad(_GradModeBlock):
    """Don't record operations inside the block (or the decorated function).

    Tensors computed there have ``requires_grad=False``, as in evaluation code.

    >>> import minigrad as torch
    >>> @torch.no_grad()
    ... def double(x):
    ...     return x * 2
    >>> double(torch.ones(1, requires_grad=True)).requires_grad
    False
    """

    enabled = False


class enable_grad(_GradModeBlock):
    """Record operations inside the block, even within ``no_grad``.

    >>> import minigrad as torch
    >>> x = torch.ones(1, requires_grad=True)
    >>> with torch.no_grad():
    ...     with torch.enable_grad():
    ...         y = x * 2
    >>> y.requires_grad
    True
    """

    enabled = True


class set_grad_enabled(_DecoratorContextManager):
    """Turn recording on or off: at once when called, and back again when used with ``with``.

    >>> import minigrad as torch
    >>> _ = torch.set_grad_enabled(False)
    >>> torch.is_grad_enabled()
    False
    >>> _ = torch.set_grad_enabled(True)
    """

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TypeError("set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                            f"not {type(mode).__name__}")
        self.prev = _mode.grad_enabled
        self.mode = mode
        _mode.grad_enabled = mode

    def __call__(self, func):
        _mode.grad_enabled = self.prev  # used as a decorator: don't change the mode now
        return super().__call__(func)

    def __enter__(self) -> None:
        _mode.grad_enabled = self.mode

    def __exit__(self, *exc) -> None:
        _mode.grad_enabled = self.prev

    def __repr__(self) -> str:
        return f"torch.autograd.grad_mode.{type(self).__qualname__}(mode={self.mode})"

    def clone(self):
        return type(self)(self.mode)


class inference_mode(_DecoratorContextManager):
    """Like ``no_grad``, for code that will never need gradients (PyTorch's inference mode).

    Tensors made inside are *inference tensors* (``t.is_inference()``): they cannot be saved
    for a later backward, nor changed in place outside inference mode.

    >>> import minigrad as torch
    >>> with torch.inference_mode():
    ...     y = torch.ones(2, requires_grad=True) * 2
    >>> y.requires_grad, y.is_inference()
    (False, True)
    """

    def __new__(cls, mode_or_orig_func=True):
        if mode_or_orig_func is None or isinstance(mode_or_orig_func, bool):
            return super().__new__(cls)
        return cls()(mode_or_orig_func)

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def __enter__(self) -> None:
        inference_blocks.append(None)
        self.prev = (_mode.grad_enabled, _mode.inference_mode)
        if self.mode:
            _mode.grad_enabled = False
            if not inference_entered:  # (inference tensors may exist from now on)
                inference_entered.append(None)
        _mode.inference_mode = bool(self.mode)

    def __exit__(self, *exc) -> None:
        _mode.grad_enabled, _mode.inference_mode = self.prev
        inference_blocks.pop()

    def clone(self):
        return type(self)(self.mode)
