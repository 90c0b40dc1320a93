"""PyTorch's ``bernoulli_(p)`` (and so dropout) on Intel CPUs: MKL's MCG31 stream seeded with
one word of the generator. PyTorch takes that path only on Intel, so on other machines it is
checked against MKL itself, called through ctypes (``pip install mkl`` provides it)."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from minigrad import _cpu, _sampling
from minigrad._mt19937 import Generator


def _mkl():
    candidates = [os.environ.get("MINIGRAD_MKL_RT", ""),
                  *map(str, sorted((Path(sys.prefix) / "lib").glob("libmkl_rt.so.*"))),
                  ctypes.util.find_library("mkl_rt") or ""]
    for path in filter(None, candidates):
        try:
            lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        except OSError:
            continue
        lib.MKL_Set_Threading_Layer(1)  # sequential
        return lib
    pytest.skip("Intel MKL is not installed (pip install mkl): PyTorch's Intel-only path for "
                "bernoulli_(p) cannot be compared here")


def _mkl_bernoulli(mkl, seed: int, n: int, p: float) -> np.ndarray:
    stream = ctypes.c_void_p()
    assert mkl.vslNewStream(ctypes.byref(stream), 1 << 20, ctypes.c_uint(seed)) == 0  # MCG31
    out = np.zeros(n, np.int32)
    assert mkl.viRngBernoulli(0, stream, n, out.ctypes.data_as(ctypes.c_void_p),
                              ctypes.c_double(p)) == 0
    mkl.vslDeleteStream(ctypes.byref(stream))
    return out.astype(bool)


@pytest.mark.parametrize("seed", [0, 3, 2**32 + 1])
def test_the_intel_path_draws_what_mkl_draws(monkeypatch, seed):
    mkl = _mkl()
    monkeypatch.setattr(_cpu, "MKL_BERNOULLI", True)
    for n, p in [(1, 0.5), (17, 0.3), (5000, 0.8), (3, 1e-9)]:
        g = Generator().manual_seed(seed)
        word = int(Generator().set_state(g.get_state()).random32(1)[0])
        ours = _sampling.bernoulli_scalar(g, n, p)
        assert np.array_equal(ours, _mkl_bernoulli(mkl, word, n, p))
        assert g.get_state().numpy().tobytes() == _advanced(seed, 1)  # one word, any n


def _advanced(seed: int, words: int) -> bytes:
    g = Generator().manual_seed(seed)
    g.random32(words)
    return g.get_state().numpy().tobytes()
