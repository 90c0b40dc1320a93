"""Per-thread autograd state: whether ops are recorded, inference mode, anomaly detection.

Kept in a ``threading.local`` (PyTorch's grad mode is thread-local too), so it persists from
one notebook cell to the next and the backward engine can set and restore it around each step.
"""

import threading


class _State(threading.local):
    grad_enabled = True
    inference_mode = False
    anomaly_enabled = False  # torch.autograd.detect_anomaly / set_detect_anomaly
    anomaly_check_nan = True
    any_dtype = False  # set while an in-place op runs: PyTorch records those on any dtype


local = _State()
