"""Autograd state: whether ops are recorded, inference mode (per thread), anomaly detection.

Grad mode and inference mode live in a ``threading.local`` (PyTorch's are thread-local too),
so they persist from one notebook cell to the next and the backward engine can set and restore
them around each step. Anomaly detection is process-wide, as PyTorch's ``AnomalyMode`` is.
"""

import threading


class _State(threading.local):
    """Each thread starts with grad mode on (``__init__`` runs once per thread, on first use:
    attributes of the instance are read faster than class defaults of a ``threading.local``)."""

    def __init__(self) -> None:
        self.grad_enabled = True
        self.inference_mode = False
        self.any_dtype = False  # set while an in-place op runs: PyTorch records those on any dtype


class _Anomaly:
    """``detect_anomaly``/``set_detect_anomaly``: one switch for every thread. A plain object
    (cheaper to read than the thread-local state: ``record()`` and the engine read it for
    every op and every node)."""

    __slots__ = ("enabled", "check_nan")

    def __init__(self) -> None:
        self.enabled, self.check_nan = False, True


local = _State()
anomaly = _Anomaly()
# One entry per ``inference_mode`` block open in any thread (appended and popped: atomic). While
# it is empty no thread is in inference mode, and ``Tensor._wrap`` need not read the
# thread-local state for every new tensor (a read of ``local`` costs about ten plain reads).
inference_blocks: list = []
# One entry once an ``inference_mode`` block has been entered in any thread: until then no
# inference tensor exists, and the checks for them (``should_record``, ``SavedTensor``) are
# skipped at the cost of one read.
inference_entered: list = []


warned: set = set()  # the warnings PyTorch gives once per process (its TORCH_WARN_ONCE), by key


def warn_once(key: str, message: str, stacklevel: int) -> None:
    """``message`` as a UserWarning the first time ``key`` comes up in this process only."""
    if key not in warned:
        warned.add(key)
        import warnings
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)


def detached_state(t, fresh_counter) -> tuple:
    """``(version counter, _inference, _data_inference)`` of ``t.detach()``: ``t``'s own,
    except that an inference tensor detached outside inference mode is still one but gets a
    version counter of its own (``fresh_counter``), so it may be changed in place there."""
    if t._inference and not t._data_normal and not local.inference_mode:
        return fresh_counter, False, True
    return t._vc, t._inference, t._data_inference
