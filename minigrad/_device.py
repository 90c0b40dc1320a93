"""Devices: ``torch.device``, and the answers a CPU-only PyTorch build gives about the others.

minigrad computes on the CPU with NumPy. Tutorials still say ``device = "cuda" if
torch.cuda.is_available() else "cpu"`` and pass ``device=`` everywhere; those lines run
unchanged. Asking for CUDA raises what a CPU-only PyTorch build raises.

>>> import minigrad as torch
>>> torch.device("cpu"), torch.device("cuda", 0)
(device(type='cpu'), device(type='cuda', index=0))
>>> torch.cuda.is_available(), torch.ones(2, device="cpu").device
(False, device(type='cpu'))
"""

from __future__ import annotations

from ._torch_names import TorchNamed

__all__ = ["device", "cpu", "check", "get_default_device", "set_default_device"]

# The device types PyTorch's parser knows, in the order its message lists them.
_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
          "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
NO_CUDA = "Torch not compiled with CUDA enabled"


class device(metaclass=TorchNamed):
    """Where a tensor lives: ``device("cpu")``, ``device("cuda:0")``, ``device("cuda", 0)``.

    Any device PyTorch knows can be *named*; only the CPU can hold tensors here.
    """

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):  # noqa: A002 - PyTorch's argument name
        if isinstance(type, device):
            type, index = type.type, type.index if index is None else index
        elif isinstance(type, int) and not isinstance(type, bool):
            raise RuntimeError("Cannot access accelerator device when none is available.")
        elif not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({type.__class__.__name__})")
        if index is not None and not isinstance(index, int):
            raise TypeError(f"device(): argument 'index' (position 2) must be int, not "
                            f"{index.__class__.__name__}")
        name, parsed = _parse(type)
        if parsed is not None and index is not None:
            raise RuntimeError("type (string) must not include an index because index was "
                               f"passed explicitly: {type}")
        index = parsed if index is None else index
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        object.__setattr__(self, "type", name)
        object.__setattr__(self, "index", index)

    def __setattr__(self, name, value):
        raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        if not isinstance(other, device):
            return False  # PyTorch: device("cpu") == "cpu" is False
        return self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))


def _parse(text: str):
    """``"cpu"``/``"cuda:1"`` as (type, index), checked in PyTorch's order: the form first
    (letters or ``_``, then ``:`` and an index without leading zeros), then the type."""
    if not text:
        raise RuntimeError("Device string must not be empty")
    name, colon, idx = text.partition(":")
    if not name or not all(c.isascii() and (c.isalpha() or c == "_") for c in name) or colon \
            and (not (idx.isascii() and idx.isdigit()) or len(idx) > 1 and idx[0] == "0"):
        raise RuntimeError(f"Invalid device string: '{text}'")
    if name not in _TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_TYPES)} device type at start of device "
                           f"string: {name}")
    return name, int(idx) if colon else None


cpu = device("cpu")


class _Default:
    device = None  # set_default_device; None means the CPU


def check(where) -> None:
    """Accept ``where`` (None, a string or a device) if it names the CPU; else raise as a
    CPU-only PyTorch build does."""
    if where is None or where is cpu:
        return
    d = where if isinstance(where, device) else device(where)
    if d.type == "cpu":
        return
    if d.type == "cuda":
        raise AssertionError(NO_CUDA)
    raise RuntimeError(f"PyTorch is not linked with support for {d.type} devices")


def get_default_device() -> device:
    """The device new tensors are made on: always ``device(type='cpu')`` here."""
    return cpu


def set_default_device(where) -> None:
    """Set the device new tensors are made on; only ``"cpu"`` (or ``None``) is available."""
    if where is not None:
        d = where if isinstance(where, device) else device(where)
        if d.type == "cuda":
            raise AssertionError(NO_CUDA)
        check(d)
    _Default.device = where
