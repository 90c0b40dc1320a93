"""The check every test here makes: a program that seeds and draws prints the same numbers on
minigrad as on PyTorch, bit for bit (``same_draws``)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad


def _arrays(result):
    """A program's result as a flat list of NumPy arrays (tensors, numbers, nested lists)."""
    if isinstance(result, (list, tuple)):
        return [a for r in result for a in _arrays(r)]
    if hasattr(result, "detach"):
        return [result.detach().numpy()]
    return [np.asarray(result)]


@pytest.fixture
def same_draws(torch):
    """``same_draws(program)`` runs ``program(lib)`` on both libraries and asserts every value
    it returns is identical (same dtype, same shape, same bits); returns minigrad's values."""
    def check(program):
        ours, theirs = _arrays(program(minigrad)), _arrays(program(torch))
        assert len(ours) == len(theirs)
        for i, (m, t) in enumerate(zip(ours, theirs)):
            assert m.dtype == t.dtype and m.shape == t.shape, (i, m.dtype, t.dtype, m.shape)
            if m.tobytes() != t.tobytes():  # bit for bit: 0.0 and -0.0 differ too
                unequal = m != t
                if m.dtype.kind == "f":
                    unequal |= np.signbit(m) != np.signbit(t)
                differ = np.flatnonzero(unequal)
                raise AssertionError(f"result {i}: {differ.size} of {m.size} values differ, "
                                     f"first at {differ[:3]}: {m.ravel()[differ[:3]]} (minigrad)"
                                     f" vs {t.ravel()[differ[:3]]} (PyTorch)")
        return ours

    return check
