"""NumPy's ``keepdims=`` (like ``axis=``) is taken for ``keepdim=`` by PyTorch's reductions:
d2l writes ``X.sum(1, keepdims=True)`` in its softmax from scratch."""

import pytest
from helpers import assert_same_outcome

pytestmark = pytest.mark.torch

X = "lib.tensor([[1., 2., 3.], [4., 5., 7.]], requires_grad=True)"


@pytest.mark.parametrize("call", [
    "{x}.sum(1, keepdims=True)", "lib.sum({x}, 1, keepdims=True)", "{x}.mean(1, keepdims=True)",
    "{x}.max(1, keepdims=True)", "{x}.min(dim=1, keepdims=True)", "{x}.amax(1, keepdims=True)",
    "{x}.std(1, keepdims=True)", "{x}.var(1, keepdims=True)", "{x}.logsumexp(1, keepdims=True)",
    "{x}.argmax(1, keepdims=True)", "{x}.prod(1, keepdims=True)", "({x} > 2).all(1, keepdims=True)",
    "({x} > 2).any(1, keepdims=True)", "{x}.sum(1, keepdim=True, keepdims=False)",
    "{x}.sum(axis=1, keepdims=True)", "{x}.nansum(1, keepdims=True)",
    "{x}.median(1, keepdims=True)", "{x}.argmin(keepdims=True)", "{x}.amin(keepdims=True)",
    "{x}.std_mean(1, keepdims=True)", "lib.std_mean({x}, 1, keepdims=True)",
    "lib.var_mean({x}, 1, keepdims=True)", "{x}.cumsum(1, keepdims=True)",
    "({x}.exp() / {x}.exp().sum(1, keepdims=True)).sum()",
    # a keepdims= that is not a bool: PyTorch's message names the keyword, no position
    "lib.amin({x}, 0, keepdims=1.5)", "{x}.amax(0, keepdims=1e30)", "{x}.sum(0, keepdims=2.5)",
    "lib.amin({x}, 0, 1.5)",
])
def test_keepdims_is_taken_for_keepdim_as_in_pytorch(torch, call):
    assert_same_outcome(torch, call.replace("{x}", X))
