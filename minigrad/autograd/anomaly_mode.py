"""Anomaly mode, as in ``torch/autograd/anomaly_mode.py``: ``detect_anomaly`` and
``set_detect_anomaly``.

While it is on, every recorded node keeps the traceback of the forward call that made it
(``node.metadata["traceback_"]``), and ``backward()`` stops at the first node whose backward
returns NaN (with ``check_nan``), warning with that traceback. The engine and ``record()``
call the three helpers at the bottom; everything else here is the public API.
"""

from __future__ import annotations

import os
import traceback
import warnings

import numpy as np

from .._state import anomaly as _anomaly
from .._tensor import Tensor
from .._torch_names import TorchNamed

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled"]

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../minigrad


def is_anomaly_enabled() -> bool:
    return _anomaly.enabled


def is_anomaly_check_nan_enabled() -> bool:
    return _anomaly.check_nan


class set_detect_anomaly(metaclass=TorchNamed):
    """Turn anomaly detection on or off; also a context manager that restores the previous
    setting. While it is on (and ``check_nan``), ``backward()`` raises at the first node whose
    backward returns NaN, naming that node."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = (_anomaly.enabled, _anomaly.check_nan)
        _anomaly.enabled, _anomaly.check_nan = bool(mode), bool(check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _anomaly.enabled, _anomaly.check_nan = self.prev


class detect_anomaly(metaclass=TorchNamed):
    """Context manager (and decorator) turning anomaly detection on inside the block: a
    backward node that returns NaN raises ``RuntimeError: Function 'PowBackward0' returned nan
    values in its 0th output.`` (with ``check_nan=True``, the default).

    >>> import minigrad as torch, warnings
    >>> x = torch.tensor(0., requires_grad=True)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     with torch.autograd.detect_anomaly():
    ...         (x.sqrt() * 0).backward()
    Traceback (most recent call last):
    RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output.
    """

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self) -> None:
        self.prev = (_anomaly.enabled, _anomaly.check_nan)
        _anomaly.enabled, _anomaly.check_nan = True, self.check_nan

    def __exit__(self, *exc) -> None:
        _anomaly.enabled, _anomaly.check_nan = self.prev

    def __call__(self, func):
        import functools

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                anomaly = detect_anomaly(self.check_nan)
            with anomaly:
                return func(*args, **kwargs)

        return wrapper


# ---------------------------------------------------------------- used by record() and the engine
def keep_forward_trace(node) -> None:
    """The forward call that made ``node`` (the learner's lines, not minigrad's), kept as
    PyTorch keeps it, in ``node.metadata["traceback_"]``."""
    frames = [f for f in traceback.extract_stack()[:-2] if not f.filename.startswith(_PACKAGE)]
    node.metadata["traceback_"] = traceback.format_list(frames)


def check_nan(node, out) -> None:
    """Anomaly mode: a node whose backward returned NaN is named (PyTorch's message)."""
    for i, gi in enumerate(out):
        if gi is not None and np.isnan(_as_array(gi)).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th "
                               "output.")


def warn_failed_node(node) -> None:
    """Anomaly mode: say which node failed, with its forward traceback if one was kept."""
    trace = (node._metadata or {}).get("traceback_", "")
    warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the "
                  f"error:\n{''.join(trace)}", stacklevel=2)


def _as_array(g):
    return g._data if isinstance(g, Tensor) else np.asarray(g)
