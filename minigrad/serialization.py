"""``torch.save`` / ``torch.load`` for tensors, ``state_dict``s and containers of them.

The file is a zip archive that any tool can open: ``minigrad/data.json`` describes the saved
object (dicts, lists, tuples, numbers, strings, tensors by number) and ``minigrad/tensors/<n>.npy``
holds each tensor's values as a NumPy ``.npy`` file. Loading parses JSON and reads ``.npy``
files with ``allow_pickle=False``: opening a file never runs code from it (unlike an
unrestricted pickle). Whole modules are not saved: save ``model.state_dict()``, as PyTorch's
tutorials recommend.

>>> import io, minigrad as torch
>>> buf = io.BytesIO()
>>> torch.save({"w": torch.tensor([1., 2.]), "step": 3}, buf)
>>> _ = buf.seek(0)
>>> torch.load(buf)
{'w': tensor([1., 2.]), 'step': 3}
"""

from __future__ import annotations

import io
import json
import math
import os
import zipfile
from collections import OrderedDict

import numpy as np

from . import _dtype
from ._device import check as _check_device
from ._device import device
from ._pytorch_files import (
    add_safe_globals,
    clear_safe_globals,
    get_safe_globals,
    is_pytorch_file,
    load_pytorch_file,
    safe_globals,
)
from ._tensor import Size, Tensor

__all__ = ["save", "load", "add_safe_globals", "clear_safe_globals", "get_safe_globals",
           "safe_globals"]

_FORMAT = "minigrad.save"
_VERSION = 1


class _Writer:
    def __init__(self) -> None:
        self.arrays: list[np.ndarray] = []
        self._seen: dict[int, int] = {}  # id(tensor) -> its number: a shared tensor saved once

    def encode(self, obj):
        if obj is None or isinstance(obj, (bool, str)):
            return obj
        if isinstance(obj, int):
            return obj
        if isinstance(obj, float):
            return obj if math.isfinite(obj) else {"float": repr(obj)}
        if isinstance(obj, Tensor):
            return self._tensor(obj)
        if isinstance(obj, Size):
            return {"size": list(obj)}
        if isinstance(obj, _dtype.dtype):
            return {"dtype": obj.name}
        if isinstance(obj, device):
            return {"device": str(obj)}
        if isinstance(obj, (list, tuple)):
            kind = "list" if isinstance(obj, list) else "tuple"
            return {kind: [self.encode(x) for x in obj]}
        if isinstance(obj, dict):
            kind = "odict" if isinstance(obj, OrderedDict) else "dict"
            out = {kind: [[self.encode(k), self.encode(v)] for k, v in obj.items()]}
            if getattr(obj, "_metadata", None) is not None:
                out["metadata"] = self.encode(obj._metadata)
            return out
        hint = " (save model.state_dict() instead)" if hasattr(obj, "state_dict") else ""
        raise TypeError(f"torch.save: cannot save an object of type {type(obj).__name__}{hint}; "
                        "minigrad saves tensors, numbers, strings, None and lists, tuples and "
                        "dicts of them")

    def _tensor(self, t: Tensor):
        key = id(t)
        if key not in self._seen:
            self._seen[key] = len(self.arrays)
            self.arrays.append(t._data)
        out = {"tensor": self._seen[key], "requires_grad": t.requires_grad}
        if type(t).__name__ == "Parameter":
            out["parameter"] = True
        return out


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False) -> None:
    """Write ``obj`` (tensors, numbers, strings, containers of them) to a path or binary file."""
    writer = _Writer()
    doc = {"format": _FORMAT, "version": _VERSION, "root": writer.encode(obj)}
    with _open(f, "w") as raw, zipfile.ZipFile(raw, "w", zipfile.ZIP_STORED) as z:
        z.writestr("minigrad/data.json", json.dumps(doc))
        for n, arr in enumerate(writer.arrays):
            buf = io.BytesIO()
            np.save(buf, arr, allow_pickle=False)
            z.writestr(f"minigrad/tensors/{n}.npy", buf.getvalue())


class _Reader:
    def __init__(self, z: zipfile.ZipFile) -> None:
        self.z = z
        self.tensors: dict[int, Tensor] = {}

    def decode(self, obj):
        if not isinstance(obj, (dict, list)):
            return obj
        if "tensor" in obj:
            return self._tensor(obj)
        for kind, build in (("list", list), ("tuple", tuple)):
            if kind in obj:
                return build(self.decode(x) for x in obj[kind])
        if "dict" in obj or "odict" in obj:
            items = [(self.decode(k), self.decode(v)) for k, v in obj.get("dict", obj.get("odict"))]
            out = OrderedDict(items) if "odict" in obj else dict(items)
            if "metadata" in obj:
                out._metadata = self.decode(obj["metadata"])
            return out
        if "float" in obj:
            return float(obj["float"])
        if "size" in obj:
            return Size(obj["size"])
        if "dtype" in obj:
            return getattr(_dtype, obj["dtype"])
        if "device" in obj:
            return device(obj["device"])
        raise RuntimeError(f"torch.load: unrecognised entry in the file: {sorted(obj)}")

    def _tensor(self, entry) -> Tensor:
        n = int(entry["tensor"])
        if n not in self.tensors:
            with self.z.open(f"minigrad/tensors/{n}.npy") as fh:
                data = np.load(io.BytesIO(fh.read()), allow_pickle=False)
            _dtype.from_numpy_dtype(data.dtype)  # only dtypes minigrad has
            t = Tensor._wrap(data)
            if entry.get("parameter"):
                from .nn.parameter import Parameter

                t = Parameter(t, requires_grad=bool(entry["requires_grad"]))
            elif entry["requires_grad"]:
                t.requires_grad_(True)
            self.tensors[n] = t
        return self.tensors[n]


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    """Read back what :func:`save` wrote (from a path or a binary file), or a file PyTorch's
    ``torch.save`` wrote (tensors, state_dicts, containers; read as ``weights_only=True`` does).

    ``map_location`` may name the CPU (anything else raises as a CPU-only PyTorch does).
    """
    if map_location is not None and not callable(map_location) \
            and not isinstance(map_location, dict):
        _check_device(map_location)
    with _open(f, "r") as raw:
        try:
            z = zipfile.ZipFile(raw)
        except zipfile.BadZipFile:
            raw.seek(0)
            if raw.read(4) == b"\x80\x02\x8a\x0a":  # a pickled magic number: PyTorch < 1.6
                raise RuntimeError(
                    "torch.load: this file is in PyTorch's legacy format (before 1.6, or saved "
                    "with _use_new_zipfile_serialization=False), which minigrad does not read; "
                    "load it with PyTorch and save it again with the default format") from None
            raise RuntimeError("Invalid magic number; corrupt file?") from None
        with z:
            if "minigrad/data.json" not in z.namelist():
                if is_pytorch_file(z):  # written by PyTorch: read without running its code
                    return load_pytorch_file(z, map_location, weights_only)
                raise RuntimeError("torch.load: this file was written neither by minigrad's "
                                   "torch.save nor by PyTorch's")
            doc = json.loads(z.read("minigrad/data.json"))
            if doc.get("format") != _FORMAT or doc.get("version", 0) > _VERSION:
                raise RuntimeError("torch.load: unknown file format version")
            return _Reader(z).decode(doc["root"])


class _open:
    """A path (opened and closed here) or an already open binary file (left open)."""

    def __init__(self, f, mode: str) -> None:
        self.f, self.mode, self.fh = f, mode, None

    def __enter__(self):
        if isinstance(self.f, (str, os.PathLike)):
            self.fh = open(self.f, self.mode + "b")  # noqa: SIM115 - closed in __exit__
            return self.fh
        return self.f

    def __exit__(self, *exc) -> None:
        if self.fh is not None:
            self.fh.close()
