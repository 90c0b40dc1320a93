"""``index_put``: its gradients where the values were broadcast to the indexed elements, against
PyTorch (a fuzz finding: one value put at three indices got a gradient of three elements, and
the final backward crashed in NumPy).

The values' gradient is ``grad[indices]``: summed back to the values' shape, first and second
order (PyTorch's ``sum_to`` nodes), in place and out of place; where it cannot be (one value of
shape ``[1, 1]`` filling a 1-d mask), PyTorch's "invalid gradient" error. With an empty
tuple of indices, PyTorch fails inside; minigrad raises a RuntimeError that says so.
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


# ---------------------------------------------------------------- no indices at all
@pytest.mark.parametrize("form", ["x.index_put((), v, accumulate={acc})",
                                  "x.clone().index_put_((), v, accumulate={acc})",
                                  "lib.index_put(x, [], v, accumulate={acc})"])
@pytest.mark.parametrize("acc", [False, True])
@pytest.mark.parametrize("vshape", ["()", "(1,)", "(3,)"])
@pytest.mark.parametrize("shape", ["()", "(2,)", "(2, 3)"])
def test_an_empty_tuple_of_indices_raises_a_runtime_error(torch, shape, vshape, acc, form):
    """PyTorch fails inside (internal errors that depend on the shapes); minigrad raises a
    RuntimeError saying so, where it used to write the whole tensor."""
    code = (f"x = lib.zeros({shape}, requires_grad=True) * 1\nv = lib.ones({vshape})\n"
            f"out = {form.format(acc=acc)}")
    mine, theirs = snippet_outcome(mg, code), snippet_outcome(torch, code)
    assert mine[0] == theirs[0] == "RuntimeError"
    assert "shape mismatch" in mine[1] or "empty tuple of indices" in mine[1]


def test_writing_the_whole_tensor_with_an_empty_index_still_works(torch):
    code = "x = lib.zeros(2, 3)\nx[()] = lib.arange(3.)\nx[...] = x * 2\nout = x"
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)
