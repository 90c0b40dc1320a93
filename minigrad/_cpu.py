"""Where PyTorch's random numbers depend on the CPU, and what minigrad does about it.

PyTorch compiles its CPU kernels several times (``default``, ``avx2``, ``avx512``) and picks
one at start-up (``torch.backends.cpu.get_cpu_capability()``; the ``ATEN_CPU_CAPABILITY``
environment variable overrides it). Three things in sampling change with that choice:

- ``AVX2_NORMAL``: float32 ``randn`` of 16+ elements uses 8-lane polynomial ``log``/``sincos``
  (x86 with AVX2, also on AVX512 machines); otherwise the C library's ``logf``/``cosf``/
  ``sinf``, which minigrad then calls too (``c_float``).
- ``FUSED``: whether ``u * (to - from) + from`` (uniform) and ``z * std + mean`` (normal, one
  sample at a time) are one fused multiply-add (builds with FMA: x86 AVX2/AVX512, and ARM)
  or two roundings (x86 ``default``). The 16-at-a-time normal path fuses in every x86 build.
- ``MKL_BERNOULLI``: on Intel CPUs ``bernoulli_(p)`` (and dropout) uses MKL's generator.

minigrad reads the same facts (``/proc/cpuinfo`` on Linux, the platform elsewhere) and the
same environment variable, so it draws what PyTorch draws on the same machine.

``ONEDNN_ISA`` is the instruction set oneDNN (PyTorch's float32 convolutions) builds its
kernels for: ``"avx512"`` (avx512_core: F, BW, VL and DQ), ``"avx2"`` or ``""`` (no x86 JIT
kernels; ``ONEDNN_MAX_CPU_ISA`` lowers it). ``nn/_conv_kernels.py`` reads it: which kernel runs
decides whether a NaN meets the zero padding.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform

import numpy as np

__all__ = ["AVX2_NORMAL", "FUSED", "MKL_BERNOULLI", "ONEDNN_ISA", "c_float"]


def _cpuinfo() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            return f.read(8192)
    except OSError:
        return ""


_X86 = platform.machine().lower() in ("x86_64", "amd64", "i686", "x86")
_INFO = _cpuinfo()
_CAPABILITY = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()
_HAS_AVX2 = (" avx2" in _INFO and " fma" in _INFO) if _INFO else _X86  # no cpuinfo: assume so

AVX2_NORMAL = _X86 and _HAS_AVX2 and _CAPABILITY != "default"
FUSED = AVX2_NORMAL or not _X86
_INTEL = "GenuineIntel" in _INFO if _INFO else "Intel" in platform.processor()
MKL_BERNOULLI = _X86 and _INTEL


def _onednn_isa() -> str:
    avx512 = all(f" {flag}" in _INFO for flag in ("avx512f", "avx512bw", "avx512vl", "avx512dq"))
    isa = "avx512" if _X86 and avx512 else "avx2" if _X86 and _HAS_AVX2 else ""
    cap = os.environ.get("ONEDNN_MAX_CPU_ISA", os.environ.get("DNNL_MAX_CPU_ISA", "")).lower()
    if cap and isa == "avx512" and not cap.startswith("avx512") and cap != "all":
        isa = "avx2" if cap.startswith("avx2") else ""
    elif cap and isa == "avx2" and not cap.startswith(("avx2", "avx512")) and cap != "all":
        isa = ""
    return isa


ONEDNN_ISA = _onednn_isa()


def _libm():
    try:
        return ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    except OSError:
        return None


_LIBM = _libm()


def c_float(name: str, x: np.ndarray) -> np.ndarray:
    """The C library's float32 ``name`` (``"logf"``, ``"cosf"``, ``"sinf"``) on every element,
    as PyTorch's scalar kernel calls it; NumPy in float64, rounded, if there is no libm."""
    if _LIBM is None:
        return getattr(np, name[:-1])(x.astype(np.float64)).astype(np.float32)
    fn = getattr(_LIBM, name)
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return np.fromiter(map(fn, x.ravel().tolist()), np.float32, x.size).reshape(x.shape)
