"""Reading files written by PyTorch's ``torch.save`` (its zip format), never running their code.

Such a file is a zip archive: ``<name>/data.pkl`` is a pickle of the saved object in which each
tensor is a call of ``torch._utils._rebuild_tensor_v2`` on a *storage*, and ``<name>/data/<key>``
holds each storage's raw bytes. A pickle can name any Python function to call, so it is read
here as PyTorch reads it with ``weights_only=True``: only an allow-list of names (the rebuild
functions, ``OrderedDict``, the storage types, dtypes, ``torch.device``, ``torch.Size`` and a
few builtins) may appear; anything else raises ``pickle.UnpicklingError`` before it is called.

>>> import io, pickle, zipfile, minigrad as torch
>>> buf = io.BytesIO()
>>> with zipfile.ZipFile(buf, "w") as z:  # a "checkpoint" whose pickle would call os.system
...     z.writestr("evil/data.pkl", b"cos\\nsystem\\n(S'echo hi'\\ntR.")
>>> try:
...     torch.load(buf)
... except pickle.UnpicklingError as e:
...     print(str(e).splitlines()[3])
Trying to load unsupported GLOBAL os.system whose module os is blocked.
"""

from __future__ import annotations

import codecs
import collections
import pickle
import zipfile

import numpy as np

from . import _dtype
from ._device import device
from ._tensor import Size, Tensor

__all__ = ["is_pytorch_file", "load_pytorch_file", "add_safe_globals", "clear_safe_globals",
           "get_safe_globals", "safe_globals"]

_user_allowed: list = []  # what add_safe_globals was given: objects or (object, "module.name")

_BLOCKED = ("sys", "os", "posix", "nt")  # as in PyTorch: never allowed
_STORAGES = {"FloatStorage": np.float32, "DoubleStorage": np.float64, "LongStorage": np.int64,
             "IntStorage": np.int32, "ByteStorage": np.uint8, "BoolStorage": np.bool_,
             "HalfStorage": np.float16, "BFloat16Storage": None, "ShortStorage": np.int16,
             "CharStorage": np.int8, "ComplexFloatStorage": np.complex64,
             "ComplexDoubleStorage": np.complex128}
_CUDA_MESSAGE = (
    "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
    "If you are running on a CPU-only machine, please use torch.load with "
    "map_location=torch.device('cpu') to map your storages to the CPU.")


class _StorageType:
    """What ``torch.FloatStorage`` (etc.) stands for in a file: the storage's element type."""

    def __init__(self, name: str) -> None:
        self.name = name


def is_pytorch_file(z: zipfile.ZipFile) -> bool:
    return any(n.endswith("/data.pkl") or n == "data.pkl" for n in z.namelist())


def load_pytorch_file(z: zipfile.ZipFile, map_location, weights_only):
    """The object a PyTorch zip file holds, with minigrad tensors in place of PyTorch's."""
    pkl = next(n for n in z.namelist() if n.endswith("/data.pkl") or n == "data.pkl")
    prefix = pkl[: -len("data.pkl")]
    big = prefix + "byteorder" in z.namelist() and z.read(prefix + "byteorder") == b"big"
    with z.open(pkl) as fh:
        return _Unpickler(fh, z, prefix, big, map_location, weights_only).load()


class _Unpickler(pickle.Unpickler):
    """A pickle reader that only knows the allowed names and reads storages from the zip."""

    def __init__(self, fh, z, prefix: str, big: bool, map_location, weights_only) -> None:
        super().__init__(fh, encoding="utf-8")
        self.z, self.prefix, self.big = z, prefix, big
        self.map_location, self.weights_only = map_location, weights_only
        self.storages: dict = {}

    def find_class(self, module: str, name: str):
        if module == "__builtin__":  # a protocol-2 pickle's name for builtins
            module = "builtins"
        full = f"{module}.{name}"
        if module in _BLOCKED or module.split(".")[0] in _BLOCKED:
            raise pickle.UnpicklingError(_blocked_message(full, module))
        allowed = _allowed()
        if full in allowed:
            return allowed[full]
        for entry in _user_allowed:
            obj, name_ = entry if isinstance(entry, tuple) else (entry, _qualified(entry))
            if name_ == full:
                return obj
        raise pickle.UnpicklingError(_unsupported_message(full, self.weights_only))

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"):
            raise pickle.UnpicklingError(f"torch.load: unknown persistent id {pid!r}")
        _, kind, key, location, numel = pid
        if str(location).startswith("cuda") and self.map_location is None:
            raise RuntimeError(_CUDA_MESSAGE)
        if key not in self.storages:
            self.storages[key] = self._read_storage(kind, str(key), int(numel))
        return self.storages[key]

    def _read_storage(self, kind, key: str, numel: int) -> np.ndarray:
        np_type = _STORAGES.get(getattr(kind, "name", None), None)
        name = getattr(kind, "name", repr(kind))
        if np_type is None or np.dtype(np_type) not in _SUPPORTED:
            dtype = name.replace("Storage", "").lower()
            raise RuntimeError(f"torch.load: the file holds a tensor of PyTorch's {dtype} type "
                               "({name}), which minigrad does not have (it has float32, "
                               "float64, int64, int32, uint8 and bool)".replace("{name}", name))
        dt = np.dtype(np_type).newbyteorder(">" if self.big else "<")
        raw = bytearray(self.z.read(f"{self.prefix}data/{key}"))
        return np.frombuffer(raw, dtype=dt, count=numel).astype(np_type, copy=False)


_SUPPORTED = {np.dtype(t) for t in (np.float32, np.float64, np.int64, np.int32, np.uint8,
                                    np.bool_)}


# ---------------------------------------------------------------- the allowed names
def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad=False,
                       backward_hooks=None, metadata=None):
    """A tensor over ``storage`` (shared with the other tensors of the same storage)."""
    item = storage.itemsize
    data = np.lib.stride_tricks.as_strided(storage[storage_offset:], shape=tuple(size),
                                           strides=tuple(s * item for s in stride))
    t = Tensor._wrap(data)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_parameter(data, requires_grad, backward_hooks, state=None):
    from .nn.parameter import Parameter

    return Parameter(data, requires_grad=requires_grad)


def _encode(text: str, encoding: str = "latin1"):
    return codecs.encode(text, encoding)  # how protocol 2 pickles bytes


def _allowed() -> dict:
    allowed = {"collections.OrderedDict": collections.OrderedDict,
               "collections.Counter": collections.Counter,
               "torch._utils._rebuild_tensor_v2": _rebuild_tensor_v2,
               "torch._utils._rebuild_parameter": _rebuild_parameter,
               "torch._utils._rebuild_parameter_with_state": _rebuild_parameter,
               "torch.device": device, "torch.Size": Size, "_codecs.encode": _encode,
               "builtins.bytearray": bytearray, "builtins.set": set,
               "builtins.complex": complex}
    for name in _STORAGES:
        allowed["torch." + name] = _StorageType(name)
    for name in ("float32", "float64", "int64", "int32", "uint8", "bool"):
        allowed["torch." + name] = getattr(_dtype, name)
    return allowed


# ---------------------------------------------------------------- allowing more names
def _qualified(obj) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"


def add_safe_globals(safe_globals: list) -> None:
    """Allow these classes or functions (or ``(object, "module.name")`` pairs) in loaded files:
    do it only for names you trust, since loading then calls them."""
    _user_allowed.extend(safe_globals)


def clear_safe_globals() -> None:
    """Forget what :func:`add_safe_globals` allowed."""
    _user_allowed.clear()


def get_safe_globals() -> list:
    """What :func:`add_safe_globals` allowed."""
    return list(_user_allowed)


class safe_globals:
    """Context manager: ``add_safe_globals(names)`` inside it only."""

    def __init__(self, safe_globals: list) -> None:
        self.safe_globals = list(safe_globals)

    def __enter__(self) -> None:
        self._before = list(_user_allowed)
        _user_allowed.extend(self.safe_globals)

    def __exit__(self, *args) -> None:
        _user_allowed[:] = self._before


def _blocked_message(full: str, module: str) -> str:
    return (
        "Weights only load failed. In PyTorch 2.6, we changed the default value of the "
        "`weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` "
        "with `weights_only` set to `False` will likely succeed, but it can result in arbitrary "
        f"code execution. Do it only if you got the file from a trusted source.\n\n\nTrying to "
        f"load unsupported GLOBAL {full} whose module {module} is blocked.\n\nCheck the "
        "documentation of torch.load to learn more about types accepted by default with "
        "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


def _unsupported_message(full: str, weights_only) -> str:
    if weights_only is False:  # PyTorch would run the pickle; minigrad never does
        return (f"torch.load: this file names {full}, and minigrad never runs code from a file "
                "(not even with weights_only=False): it loads tensors, state_dicts and plain "
                "containers of them. Load the file with PyTorch and save a state_dict instead.")
    return (
        "Weights only load failed. This file can still be loaded, to do so you have two "
        "options, \x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. "
        "\n\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in "
        "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to "
        "`False` will likely succeed, but it can result in arbitrary code execution. Do it only "
        "if you got the file from a trusted source.\n\t(2) Alternatively, to load with "
        "`weights_only=True` please check the recommended steps in the following error message."
        f"\n\tWeightsUnpickler error: Unsupported global: GLOBAL {full} was not an allowed "
        "global by default. Please use `torch.serialization.add_safe_globals([" + full + "])` "
        "or the `torch.serialization.safe_globals([" + full + "])` context manager to allowlist "
        "this global if you trust this class/function.\n\nCheck the documentation of torch.load "
        "to learn more about types accepted by default with weights_only "
        "https://pytorch.org/docs/stable/generated/torch.load.html.")

