"""``index_put``'s gradients where the values were broadcast to the indexed elements, against
PyTorch (a fuzz finding: one value put at three indices got a gradient of three elements, and
the final backward crashed in NumPy).

The values' gradient is ``grad[indices]``: summed back to the values' shape, first and second
order (PyTorch's ``sum_to`` nodes), in place and out of place; where it cannot be (one value of
shape ``[1, 1]`` filling a 1-d mask), PyTorch's "invalid gradient" error.
"""

from __future__ import annotations

import pytest
from helpers import snippet_outcome

import minigrad as mg

pytestmark = pytest.mark.torch

INDICES = ["(lib.tensor([0, 0, 1]),)", "(lib.tensor([1, 3, 3]), lib.tensor([0, 1, 1]))",
           "(lib.tensor([True, False, True, True]),)",
           "(lib.tensor([[True, False], [True, True], [False, False], [True, True]]),)"]
VALUES = ["()", "(1,)", "(1, 1)", "(2,)", "(1, 2)"]

SETUP = ("x = lib.zeros(4, 2, requires_grad=True)\n"
         "v = lib.arange(2.)[:int(lib.tensor({shape}).prod())].reshape({shape}).requires_grad_()\n"
         "idx = {idx}\ng = lib.arange(8.).reshape(4, 2)\n")
FORMS = {
    "out of place": "y = x.index_put(idx, v, accumulate={acc})\ny.backward(g)\n"
                    "out = x.grad, v.grad",
    "in place": "y = x * 1\ny.index_put_(idx, v, accumulate={acc})\ny.backward(g)\n"
                "out = x.grad, v.grad",
    "second order": "y = x.index_put(idx, v, accumulate={acc})\n"
                    "gx, gv = lib.autograd.grad(y, (x, v), g.requires_grad_(), create_graph=True)\n"
                    "out = gv, gv.grad_fn.name(), "
                    "[n and n.name() for n, _ in gv.grad_fn.next_functions]",
}


@pytest.mark.parametrize("acc", [False, True])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("idx", INDICES)
@pytest.mark.parametrize("shape", VALUES)
def test_the_values_gradient_is_summed_to_their_shape(torch, shape, idx, form, acc):
    code = SETUP.format(shape=shape, idx=idx) + FORMS[form].format(acc=acc)
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)


def test_one_value_at_three_indices_of_a_0d_view_as_the_fuzzer_found_it(torch):
    code = ("v1 = lib.tensor([1e30], requires_grad=True)\n"
            "v9 = v1[()].index_put((lib.tensor([0, 0, 0]),), v1)\n"
            "v1.sum().backward()\n(v9.double().sum() + v1.double().sum()).backward()\n"
            "out = v1.grad")
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)
