"""``torch.cuda`` as a CPU-only PyTorch build answers it: no CUDA device is available.

Tutorials check ``torch.cuda.is_available()`` and pick the CPU; seeding calls are accepted and
do nothing (as PyTorch's do without CUDA). Anything that needs a GPU raises PyTorch's
``AssertionError: Torch not compiled with CUDA enabled``.

>>> import minigrad as torch
>>> torch.cuda.is_available(), torch.cuda.device_count()
(False, 0)
"""

from __future__ import annotations

from ._device import NO_CUDA

__all__ = ["is_available", "device_count", "is_initialized", "manual_seed", "manual_seed_all",
           "seed", "seed_all", "empty_cache", "current_device", "get_device_name",
           "synchronize", "set_device"]


def is_available() -> bool:
    """Always ``False``: minigrad runs on the CPU."""
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def manual_seed(seed: int) -> None:
    """Accepted and ignored, as PyTorch does without CUDA."""


def manual_seed_all(seed: int) -> None:
    """Accepted and ignored, as PyTorch does without CUDA."""


def seed() -> None:
    """Accepted and ignored, as PyTorch does without CUDA."""


def seed_all() -> None:
    """Accepted and ignored, as PyTorch does without CUDA."""


def empty_cache() -> None:
    """Nothing to free: accepted, as PyTorch does without CUDA."""


def _no_cuda(*args, **kwargs):
    raise AssertionError(NO_CUDA)


current_device = get_device_name = synchronize = set_device = _no_cuda
