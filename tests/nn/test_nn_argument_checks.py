"""nn.functional on inputs PyTorch rejects or treats specially (found by tests/fuzz): the same
exception type and message, or the same result, dtype and node, as PyTorch 2.13.

Each case is run on both libraries with the same inputs.
"""

from __future__ import annotations

import itertools
import math
import warnings

import pytest

CASES = [
    # losses: integer/bool operands, dtype of mixed operands, shapes that do not broadcast
    "F.mse_loss(lib.tensor([True, False]), lib.tensor([True, False, True]))",
    "F.l1_loss(lib.tensor([True, False]), lib.tensor([1., 2., 3.]))",
    "F.smooth_l1_loss(lib.tensor([1, 2]), lib.tensor([1, 2]), beta=0.5)",
    "F.smooth_l1_loss(lib.tensor([1., 2.]), lib.tensor([1, 3]), beta=0.5)",
    "F.smooth_l1_loss(lib.tensor([1, 2]), lib.tensor([1., 3.]), beta=0.5)",
    "F.smooth_l1_loss(lib.tensor([1., 5.]), lib.tensor([1., 2.], dtype=lib.float64))",
    "F.huber_loss(lib.tensor([1., 5.]), lib.tensor([1, 2]))",
    "F.huber_loss(lib.tensor([1., 5.]), lib.tensor([1., 2.], dtype=lib.float64))",
    "F.huber_loss(lib.tensor([1., 5.], dtype=lib.float64), lib.tensor([1., 2.]))",
    "F.huber_loss(lib.tensor([1, 2]), lib.tensor([1, 2]))",
    "F.huber_loss(lib.tensor([1, 2]), lib.tensor([1., 2.]))",
    "F.huber_loss(lib.tensor([True]), lib.tensor([True]))",
    "F.huber_loss(lib.tensor([True]), lib.tensor([1]))",
    "F.huber_loss(lib.tensor([1]), lib.tensor([True]))",
    # binary cross-entropy: PyTorch's order of checks; NaN is out of [0, 1]
    "F.binary_cross_entropy_with_logits(lib.tensor([1, 2]), lib.tensor([1, 2]))",
    "F.binary_cross_entropy_with_logits(lib.tensor([1], dtype=lib.int32), lib.tensor([1.]))",
    "F.binary_cross_entropy_with_logits(lib.tensor([True]), lib.tensor([True]))",
    "F.binary_cross_entropy_with_logits(lib.tensor([1.]), lib.tensor([True]))",
    "F.binary_cross_entropy_with_logits(lib.tensor([1.]), lib.tensor([1]))",
    # an inference tensor saved for backward: refused before the kernel's dtype checks
    "F.binary_cross_entropy_with_logits(lib.inference_mode()(lambda: lib.tensor([1]))(), "
    "lib.tensor([1.], requires_grad=True))",
    "F.binary_cross_entropy_with_logits(lib.tensor([1.], requires_grad=True), lib.tensor([1.]), "
    "pos_weight=lib.inference_mode()(lambda: lib.tensor([2.]))())",
    "F.binary_cross_entropy(lib.tensor([nan]), lib.tensor([1.]))",
    "F.binary_cross_entropy(lib.tensor([0.5]), lib.tensor([nan]))",
    "F.binary_cross_entropy(lib.tensor([0.5]), lib.tensor([2.]))",
    # nll_loss / cross_entropy
    "F.nll_loss(lib.tensor([1, 2]), lib.tensor(1))",
    "F.nll_loss(lib.tensor([[True, False]]), lib.tensor([1]))",
    "F.nll_loss(lib.zeros(2, 3, 2, dtype=lib.int64), lib.zeros(2, 2, dtype=lib.int64))",
    "F.nll_loss(lib.tensor([[1., 2.]]), lib.tensor([1., 2., 3.]))",
    "F.cross_entropy(lib.tensor(1.), lib.tensor(1.))",
    "F.cross_entropy(lib.tensor(1.), lib.tensor(True))",
    "F.cross_entropy(lib.tensor([1, 2]), lib.tensor([1, 0]))",
    "F.cross_entropy(lib.tensor([1, 2]), lib.tensor(1))",
    "F.cross_entropy(lib.tensor([[1., 2.]]), lib.tensor([[1, 0]]))",
    "F.cross_entropy(lib.tensor([[1., 2.]]), lib.tensor([1., 2., 3.]))",
    "F.cross_entropy(lib.tensor([]), lib.tensor([]))",
    "F.cross_entropy(lib.zeros(0, 3, requires_grad=True), lib.zeros(0, 3))",
    # one_hot, embedding, layer_norm, linear
    "F.one_hot(lib.tensor([]))",
    "F.one_hot(lib.tensor([1., 2.]))",
    "F.one_hot(lib.tensor([True]))",
    "F.one_hot(lib.tensor([1, 2], dtype=lib.int32))",
    "F.one_hot(lib.tensor([], dtype=lib.int64))",
    "F.one_hot(lib.tensor([], dtype=lib.int64), 3)",
    "F.embedding(lib.tensor(1), lib.ones(2))",
    "F.embedding(lib.tensor([1.]), lib.ones(2))",
    "F.embedding(lib.tensor(1), lib.ones(2, 2, 2))",
    "F.layer_norm(lib.tensor([1, 2]), (2,))",
    "F.layer_norm(lib.tensor(1.), ())",
    "F.layer_norm(lib.tensor(True), ())",
    "F.linear(lib.tensor([1., 2.]), lib.tensor([1., 2.]), lib.tensor(1.))",
    "F.linear(lib.tensor([1., 2.], requires_grad=True), lib.tensor([3., 4.]), "
    "lib.tensor(1., requires_grad=True))",
    "F.linear(lib.ones(3, 2), lib.tensor([1., 2.]))",
    # dtype and layout of results
    "F.binary_cross_entropy_with_logits(lib.tensor([1., 2.]), lib.tensor([1., 0.], "
    "dtype=lib.float64))",
    "F.binary_cross_entropy_with_logits(lib.tensor([1., 2.], dtype=lib.float64), "
    "lib.tensor([1., 0.]))",
    "lib.softmax(lib.ones(2, 3).t(), 0)", "lib.log_softmax(lib.ones(2, 3).t(), 1)",
]


def _outcome(lib, code: str):
    ns = {"lib": lib, "F": lib.nn.functional, "nan": math.nan}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (size-mismatch warnings: compared by tests/fuzz)
        try:
            r = eval(code, ns)
        except Exception as e:
            return ("raises", type(e).__name__, str(e).splitlines()[0])
    return ("value", str(r.dtype), tuple(r.shape), r.detach().numpy().round(5).tolist(),
            r.grad_fn.name() if r.grad_fn else None, r.is_contiguous())


def _same(a, b) -> bool:
    if a[0] == "value" and b[0] == "value":  # NaN == NaN here
        return a[:3] == b[:3] and a[4:] == b[4:] and repr(a[3]) == repr(b[3])
    return a == b


@pytest.mark.parametrize("code", CASES)
def test_functional_matches_pytorch_on_unusual_input(torch, mg, code):
    mine, theirs = _outcome(mg, code), _outcome(torch, code)
    assert _same(mine, theirs), f"{code}\n  minigrad {mine}\n  torch    {theirs}"


SHAPES = [(), (1,), (3,), (2, 3), (1, 1), (2, 3, 1), (0,), (2, 0)]


@pytest.mark.parametrize("fn", ["nll_loss", "cross_entropy"])
def test_class_losses_check_arguments_in_pytorchs_order(torch, mg, fn):
    """Every pair of shapes and dtypes (float32, int64, bool) of input and target: the same
    result dtype and shape, or the same exception, as PyTorch."""
    differ = []
    for xs, ts, xd, td in itertools.product(SHAPES, SHAPES, *[["float32", "int64", "bool"]] * 2):
        code = f"F.{fn}(lib.zeros({xs}, dtype=lib.{xd}), lib.zeros({ts}, dtype=lib.{td}))"
        mine, theirs = _outcome(mg, code), _outcome(torch, code)
        if not _same(mine, theirs):
            differ.append(f"{code}\n  minigrad {mine}\n  torch    {theirs}")
    assert not differ, f"{len(differ)} differ:\n" + "\n".join(differ[:10])


def test_linear_takes_pytorchs_path_for_every_shape_and_dtype(torch, mg):
    """F.linear: addmm for 2-D input with a bias, flattened addmm for a 1-D bias and a
    contiguous input, else matmul and an in-place add of the bias: so the node names, dtypes,
    contiguity and errors (their order too) are PyTorch's."""
    differ = []
    inputs = ["lib.ones({}, dtype=lib.{})".format(s, "{}") for s in
              [(2,), (3, 2), (2, 3, 2), (4, 2, 2, 2), (0, 2)]]
    inputs += ["lib.ones(2, 3, dtype=lib.{}).t()", "lib.ones(3, 2, 2, dtype=lib.{}).transpose(0, 1)"]
    for x, ws, bs, xd, wd, bd in itertools.product(
            inputs, [(), (2,), (5, 2), (2, 2)], [None, (), (5,), (2,), (1,)],
            *[["float32", "float64", "int64"]] * 3):
        if bs is None and bd != "float32":
            continue
        bias = "None" if bs is None else f"lib.ones({bs}, dtype=lib.{bd})"
        code = f"F.linear({x.format(xd)}, lib.ones({ws}, dtype=lib.{wd}), {bias})"
        mine, theirs = _outcome(mg, code), _outcome(torch, code)
        if not _same(mine, theirs):
            differ.append(f"{code}\n  minigrad {mine}\n  torch    {theirs}")
    assert not differ, f"{len(differ)} differ:\n" + "\n".join(differ[:10])


@pytest.mark.parametrize("code", [
    "F.mse_loss(x, x)", "F.smooth_l1_loss(x, x)", "F.huber_loss(x, x)", "F.softmax(x, 0)",
    "F.log_softmax(x, 0)", "F.softmax(x[0], 0)", "F.log_softmax(x[0], 0)",
    "F.binary_cross_entropy_with_logits(x, x.sigmoid())"])
def test_losses_and_softmax_at_infinity_give_nan_without_numpy_warnings(torch, mg, code):
    """inf - inf is NaN in both libraries; NumPy's RuntimeWarning must not reach the user."""
    outcomes = []
    for lib in (mg, torch):
        ns = {"F": lib.nn.functional, "x": lib.tensor([float("inf"), 1.0])}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = eval(code, ns)
        outcomes.append((repr(r.detach().numpy().tolist()), [str(w.message) for w in caught]))
    assert outcomes[0] == outcomes[1]


def test_loss_gradients_have_their_inputs_dtypes(mg):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    t = mg.tensor([1.0, 0.0], dtype=mg.float64, requires_grad=True)
    # (huber_loss's backward refuses a target of another dtype, as PyTorch's: see
    # tests/autograd/test_backward_dtype_errors.py)
    for loss in (mg.nn.functional.binary_cross_entropy_with_logits,
                 mg.nn.functional.smooth_l1_loss):
        x.grad = t.grad = None
        loss(x, t).backward()
        assert (x.grad.dtype, t.grad.dtype) == (mg.float32, mg.float64), loss.__name__


def test_layer_norm_is_one_native_node_with_pytorchs_gradients(torch, mg):
    """One NativeLayerNormBackward0 (input, weight, bias edges; mean and 1/std saved), with
    PyTorch's first and second derivatives."""
    import numpy as np

    x0 = np.random.default_rng(0).normal(size=(2, 3, 4))
    w0 = np.random.default_rng(1).normal(size=(4,))
    out = []
    for lib in (mg, torch):
        x, w = lib.tensor(x0, requires_grad=True), lib.tensor(w0, requires_grad=True)
        b = lib.tensor(w0 / 2, requires_grad=True)
        y = lib.nn.functional.layer_norm(x, (4,), w, b)
        fn = y.grad_fn
        meta = (fn.name(), len(fn.next_functions), tuple(fn._saved_result1.shape),
                tuple(fn._saved_normalized_shape))
        g, = lib.autograd.grad((y * y * y).sum(), x, create_graph=True)
        (g * g).sum().backward()
        out.append((meta, y.detach().numpy(), g.detach().numpy(), x.grad.numpy(),
                    w.grad.numpy(), b.grad.numpy()))
    assert out[0][0] == out[1][0]
    for mine, theirs in zip(out[0][1:], out[1][1:]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-9, atol=1e-9)
