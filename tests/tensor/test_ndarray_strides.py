"""The strides of a tensor made from a NumPy array (``tensor``, ``as_tensor``, ``from_numpy``)
and of what is made of it, against PyTorch: PyTorch keeps the array's strides (a copy with
``preserve_format``), NumPy's strides of 0 of an empty array included, and its views, ``detach``
and ``clone`` keep them; a new result (``x + 1``) is row-major."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import assert_same_for_each

pytestmark = pytest.mark.torch

ARRAYS = ["np.array([])", "np.zeros((0, 3))", "np.array([]).reshape(0, 3)", "np.zeros((2, 0))",
          "np.arange(6.).reshape(2, 3).T", "np.arange(6.).reshape(2, 3)[:, ::2]",
          "np.broadcast_to(np.arange(3.), (2, 3))", "np.arange(3.)[:, None]",
          "np.arange(6.).reshape(3, 2).T[:1]", "np.array([], dtype='int64')[::2]",
          "np.zeros((0, 3)).T"]
MAKERS = ["L.tensor(a)", "L.tensor(a, dtype=L.float32)", "L.as_tensor(a)",
          "L.from_numpy(a.copy() if a.base is not None and not a.flags.writeable else a)",
          "L.tensor(L.from_numpy(a.copy()))"]
USES = ["x", "x[::2]", "x.unsqueeze(0)", "x.t() if x.dim() == 2 else x", "x + 1", "x.clone()",
        "x.view(-1)", "x[None]", "x.contiguous()", "x.expand(2, *x.shape)", "x.sum(0)",
        "x.detach()", "x[..., :0]", "x.squeeze()", "x.flatten()", "x[5::3]"]


def _layout(L, array, make_use):
    make, use = make_use
    a = eval(array, {"np": np})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (PyTorch's warning for a read-only array)
            y = eval(use, {"x": eval(make, {"L": L, "a": a})})
    except (RuntimeError, IndexError) as e:
        return type(e).__name__
    return tuple(y.shape), y.stride(), y.is_contiguous()


@pytest.mark.parametrize("array", ARRAYS)
def test_tensor_of_an_ndarray_has_its_strides_as_in_pytorch(torch, array):
    assert_same_for_each(torch, [(m, u) for m in MAKERS for u in USES],
                         lambda L, make_use: _layout(L, array, make_use))
