"""``torch.random``: the default generator's seed and state, as functions.

>>> import minigrad as torch
>>> state = torch.random.get_rng_state()
>>> with torch.random.fork_rng():
...     a = torch.rand(2)       # draws inside do not move the generator outside
>>> torch.equal(a, torch.rand(2))
True
"""

from __future__ import annotations

import contextlib

from ._creation import initial_seed, manual_seed, seed
from ._mt19937 import Generator, default_generator

__all__ = ["set_rng_state", "get_rng_state", "manual_seed", "seed", "initial_seed", "fork_rng",
           "Generator", "default_generator"]


def get_rng_state():
    """The default generator's state as a ``uint8`` tensor (PyTorch's 5056-byte layout)."""
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Restore the default generator to a state from ``get_rng_state``."""
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled: bool = True, _caller: str = "fork_rng",
             _devices_kw: str = "devices", device_type=None):
    """Within the block, draw freely: on exit the default generator is back where it was."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
