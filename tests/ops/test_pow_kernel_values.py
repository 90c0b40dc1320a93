"""``x ** 2``, ``x ** 3`` and ``x ** -2`` in float32/float64 give PyTorch's bits: its kernel
multiplies (``x * x * x``, ``1 / (x * x)``) where NumPy's ``power`` rounds differently (lesson 1
takes the cube of 3.1). Other exponents go through PyTorch's vectorised ``pow`` (SLEEF), which
minigrad does not follow to the last bit."""

import numpy as np
import pytest

import minigrad

pytestmark = pytest.mark.torch

X = np.linspace(-3, 3, 1001)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("exponent", [2, 3, -2, 2.0, 3.0, -2.0])
def test_pow_by_a_small_integer_gives_pytorchs_bits(torch, dtype, exponent):
    def run(lib):
        x = lib.tensor(X.astype(dtype), requires_grad=True)
        y = x ** exponent
        y.sum().backward()
        return y.detach().numpy(), x.grad.numpy()
    (mine, mine_grad), (theirs, theirs_grad) = run(minigrad), run(torch)
    assert np.array_equal(mine, theirs, equal_nan=True)
    if exponent != -2:  # (its gradient computes x ** -3: the general pow)
        assert np.array_equal(mine_grad, theirs_grad, equal_nan=True)


def test_the_cube_of_lesson_1_is_pytorchs(torch):
    assert (minigrad.tensor(3.1) ** 3).item() == (torch.tensor(3.1) ** 3).item()
