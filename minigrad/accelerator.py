"""``torch.accelerator``: which accelerator is present (none, in minigrad).

>>> import minigrad as torch
>>> torch.accelerator.is_available(), torch.accelerator.current_accelerator()
(False, None)
"""

from __future__ import annotations

__all__ = ["is_available", "current_accelerator", "device_count"]


def is_available() -> bool:
    return False


def current_accelerator(check_available: bool = False):
    """The accelerator's device type, or ``None`` when there is none (always, here)."""
    return None


def device_count() -> int:
    return 0
