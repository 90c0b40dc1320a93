"""Indexing as the tutorials write it (a Python ``range``, lists, tuples of lists, bool lists,
mixed with slices, ``None`` and ``...``), on read (value, node, gradient) and on write, each
compared with PyTorch: d2l's and PyTorch's from-scratch cross-entropy is
``y_hat[range(len(y_hat)), y]``."""

import warnings

import pytest

import minigrad

pytestmark = pytest.mark.torch

CASES = [
    "out = x[range(4), y]", "out = x[range(2)]", "out = x[:, range(1, 3)]",
    "out = x[range(4), range(4)]", "out = x[range(0)]", "out = x[range(3, 0, -1)]",
    "out = x[None, range(2), ..., 1]", "out = x[range(5)]", "out = x[range(-1, 2)]",
    "out = -x[range(len(x)), y].log().mean()",
    "z = x.detach().clone(); z[range(2), [1, 2]] = 7.; out = z",
    "z = x.detach().clone(); z[range(2)] = 0.; out = z",
    "z = x.detach().clone(); z[:, range(0, 6, 2)] = -1.; out = z",
    "out = x[[True, False, True, False]]", "out = x[[0, 1], :][:, [2, 3]]",
    "out = x[([0, 1], [2, 3])]", "out = x[[0, 2], None, 1:3]", "out = x[..., [0, -1]]",
    "out = x[[True, False, True, False], 1:]", "out = x[range(2), 'a']",
    "out = x['a']", "out = x[b'a']", "out = x[1.5]", "out = x[[0, 'a']]", "out = x[0, 'a']",
]


def run(lib, code):
    x = (lib.arange(24.).reshape(4, 6) + 1).requires_grad_()
    env = {"x": x, "y": lib.tensor([0, 2, 5, 1]), "lib": lib}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, env)  # noqa: S102
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return type(e).__name__, str(e)
    out = env["out"]
    if not out.requires_grad:
        return repr(out)
    out.sum().backward()
    return repr(out.detach()), out.grad_fn.name(), repr(x.grad)


@pytest.mark.parametrize("code", CASES)
def test_index_form_matches_pytorch(torch, code):
    assert run(minigrad, code) == run(torch, code)
