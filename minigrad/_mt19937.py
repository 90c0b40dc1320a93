"""PyTorch's CPU random-number generator: a 32-bit Mersenne Twister (mt19937).

A seeded program draws the same numbers here as in PyTorch (``torch.manual_seed(0);
torch.rand(3)`` prints the same tensor in both), because the generator is the same one:

- ``manual_seed(s)`` keeps ``s`` (as an unsigned 64-bit number, so ``-1`` is ``2**64 - 1``) for
  ``initial_seed()`` and starts the twister from its low 32 bits, with the twister's standard
  initialisation. NumPy ships that same twister (``np.random.MT19937``), so the 32-bit words are
  drawn by NumPy, fast, and only the state is arranged as PyTorch arranges it.
- ``random32`` gives the next words; ``random64`` joins two words, the first as the high half.
- ``normal`` samples come in pairs (Box-Muller); PyTorch keeps the second of a pair for the
  next scalar draw. That cached value is part of the state.

``get_state()`` is PyTorch's 5056-byte layout (a ``uint8`` tensor), so a state saved by one
library restores in the other: seed (8 bytes), words left (4), seeded flag (4), next index
(8), 624 state words (8 bytes each), three doubles of which the second is the cached normal,
its valid flag (4), then a cached float normal and its flag.

>>> import minigrad as torch
>>> g = torch.Generator().manual_seed(0)
>>> g.initial_seed()
0
>>> torch.rand(2, generator=g)
tensor([0.4963, 0.7682])
>>> state = g.get_state(); a = torch.rand(2, generator=g); _ = g.set_state(state)
>>> torch.equal(a, torch.rand(2, generator=g))
True
"""

from __future__ import annotations

import os

import numpy as np

from ._device import check as _check_device
from ._device import cpu as _cpu
from ._torch_names import TorchNamed

__all__ = ["Generator", "default_generator"]

_N = 624                       # words in the twister's state
_STATE_BYTES = 5056            # PyTorch's CPUGeneratorImplState
_DEFAULT_SEED = 67280421310721  # what torch.Generator() starts from
_LAYOUT = np.dtype([            # PyTorch's CPUGeneratorImplState, byte for byte
    ("seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8"),
    ("words", "<u8", (_N,)), ("normal_x", "<f8"), ("normal_y", "<f8"), ("normal_rho", "<f8"),
    ("normal_valid", "<i4"), ("pad", "<i4"), ("float_normal", "<f4"), ("float_valid", "u1"),
    ("tail", "u1", (3,))])


def _seed_value(seed) -> int:
    """PyTorch's reading of a seed: an int from -2**63 to 2**64 - 1, kept modulo 2**64."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
    seed = int(seed)
    if not -2**63 <= seed < 2**64:
        raise ValueError("Overflow when unpacking long long")
    return seed % 2**64


class Generator(metaclass=TorchNamed):
    _torch_module = "torch._C"
    """A random-number generator that draws PyTorch's CPU numbers for the same seed.

    >>> import minigrad as torch
    >>> torch.Generator().initial_seed()
    67280421310721
    """

    def __init__(self, device="cpu"):
        _check_device(device)
        self.device = _cpu
        self.manual_seed(_DEFAULT_SEED)

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {id(self):#x}>"

    def manual_seed(self, seed) -> Generator:
        """Restart from ``seed``; returns the generator itself."""
        self._seed = _seed_value(seed)
        self._twister = np.random.MT19937(0)
        self._twister._legacy_seeding(self._seed & 0xFFFFFFFF)
        self._normal = None          # the cached second sample of a Box-Muller pair
        self._float_normal = None
        return self

    def initial_seed(self) -> int:
        """The seed last given to ``manual_seed`` (or chosen by ``seed``)."""
        return self._seed

    def seed(self) -> int:
        """Seed from the operating system's entropy; returns the seed chosen."""
        s = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(s)
        return s

    # ------------------------------------------------------------ raw draws
    def random32(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit words, as ``uint64``."""
        return self._twister.random_raw(n)

    def random64(self, n: int) -> np.ndarray:
        """The next ``n`` 64-bit numbers: two words each, the first one the high half."""
        words = self._twister.random_raw(2 * n)
        return (words[0::2] << np.uint64(32)) | words[1::2]

    # ------------------------------------------------------------ state
    def get_state(self):
        """The state as PyTorch lays it out: a ``uint8`` tensor of 5056 bytes."""
        from ._tensor import Tensor

        twister = self._twister.state["state"]
        s = np.zeros((), _LAYOUT)
        s["seed"], s["seeded"], s["words"] = self._seed, 1, twister["key"]
        s["left"], s["next"] = _N + 1 - twister["pos"], twister["pos"] % _N
        if self._normal is not None:
            s["normal_y"], s["normal_valid"] = self._normal, 1
        if self._float_normal is not None:
            s["float_normal"], s["float_valid"] = self._float_normal, 1
        return Tensor._wrap(np.frombuffer(s.tobytes(), np.uint8).copy())

    def set_state(self, new_state) -> Generator:
        """Restore a state from ``get_state`` (this library's or PyTorch's)."""
        from ._tensor import Tensor

        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state._data.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if new_state._data.size != _STATE_BYTES:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_BYTES} but "
                               "found the input RNG state size to be "
                               f"{new_state._data.size}")
        s = np.frombuffer(np.ascontiguousarray(new_state._data).tobytes(), _LAYOUT)[0]
        self._seed = int(s["seed"])
        self._twister = np.random.MT19937(0)
        self._twister.state = {"bit_generator": "MT19937", "state": {
            "key": s["words"].astype(np.uint32), "pos": _N + 1 - int(s["left"])}}
        self._normal = float(s["normal_y"]) if s["normal_valid"] else None
        self._float_normal = float(s["float_normal"]) if s["float_valid"] else None
        return self


default_generator = Generator()
default_generator.seed()  # PyTorch seeds its default generator from the system at start-up
