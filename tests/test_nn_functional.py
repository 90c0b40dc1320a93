"""nn.functional, the layers and nn.init, differentially against PyTorch 2.13."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
import minigrad.nn.functional as F

pytestmark = pytest.mark.torch


def norm(text: str) -> str:
    return re.sub(r"\btorch\b", "minigrad", text)


def tree(fn):
    """A grad_fn graph as nested (node class name, input_nr, children) tuples."""
    if fn is None:
        return None
    return (type(fn).__name__, tuple((tree(f), nr) for f, nr in fn.next_functions))


def find(fn, name):
    """The first node called ``name`` on the first-input path down from ``fn``."""
    while type(fn).__name__ != name:
        fn = fn.next_functions[0][0]
    return fn


def raised(fn):
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value).__name__, norm(str(info.value))


def both_raise(torch, build):
    assert raised(lambda: build(mg)) == raised(lambda: build(torch))


def pair(torch, array, requires_grad=True):
    """The same values as a minigrad tensor and a torch tensor."""
    array = np.asarray(array)
    return (mg.tensor(array, requires_grad=requires_grad),
            torch.tensor(array, requires_grad=requires_grad))


def close(m, t, tol=1e-5):
    if m is None or t is None:
        return m is None and t is None
    return m.dtype.name == str(t.dtype).split(".")[1] and \
        np.allclose(m.detach().numpy(), t.detach().numpy(), rtol=tol, atol=tol)


def ints(lib, *shape):
    return lib.zeros(shape, dtype=lib.int64)


def rng(seed=0):
    return np.random.default_rng(seed)


def f32(*shape, seed=0):
    return rng(seed).standard_normal(shape).astype(np.float32)


# ---------------------------------------------------------------- linear
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shape", [(3,), (4, 3), (5, 4, 3), (2, 5, 4, 3)])
@pytest.mark.parametrize("input_grad", [True, False])
def test_linear_records_torchs_graph_and_gradients(torch, bias, shape, input_grad):
    layer, tlayer = mg.nn.Linear(3, 2, bias=bias), torch.nn.Linear(3, 2, bias=bias)
    tlayer.load_state_dict({k: torch.tensor(v.numpy()) for k, v in layer.state_dict().items()})
    x, tx = pair(torch, f32(*shape), requires_grad=input_grad)
    out, tout = layer(x), tlayer(tx)
    assert tree(out.grad_fn) == tree(tout.grad_fn)
    assert close(out, tout)
    g = f32(*tout.shape, seed=1)
    out.backward(mg.tensor(g))
    tout.backward(torch.tensor(g))
    for name, p in layer.named_parameters():
        assert close(p.grad, tlayer.get_parameter(name).grad)
    assert close(x.grad, tx.grad)


def test_linear_addmm_puts_the_bias_first_and_the_transposed_weight_last(torch):
    layer = mg.nn.Linear(3, 2)
    x = mg.ones(4, 3, requires_grad=True)
    node = layer(x).grad_fn
    (b, _), (xin, _), (wt, _) = node.next_functions
    assert node.name() == "AddmmBackward0" and b.variable is layer.bias
    assert xin.variable is x and wt.name() == "TBackward0"
    assert wt.next_functions[0][0].variable is layer.weight


def test_functional_linear_matches_torch_without_a_module(torch):
    x, tx = pair(torch, f32(4, 3))
    w, tw = pair(torch, f32(2, 3, seed=1))
    b, tb = pair(torch, f32(2, seed=2))
    for args, targs in (((x, w), (tx, tw)), ((x, w, b), (tx, tw, tb))):
        out, tout = F.linear(*args), torch.nn.functional.linear(*targs)
        assert tree(out.grad_fn) == tree(tout.grad_fn) and close(out, tout)


def test_linear_initialisation_follows_torchs_bounds():
    for fan_in, fan_out in ((3, 2), (64, 128), (1, 1)):
        layer = mg.nn.Linear(fan_in, fan_out)
        bound = 1 / math.sqrt(fan_in)
        w, b = layer.weight.detach().numpy(), layer.bias.detach().numpy()
        assert w.shape == (fan_out, fan_in) and b.shape == (fan_out,)
        assert w.dtype == b.dtype == np.float32
        assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    big = mg.nn.Linear(400, 300).weight.detach().numpy()
    # uniform on [-1/20, 1/20]: spread and coverage of the interval
    assert abs(big.std() - (1 / 20) / math.sqrt(3)) < 1e-3
    assert big.min() < -0.049 and big.max() > 0.049


def test_linear_draws_from_minigrads_generator():
    mg.manual_seed(3)
    a = mg.nn.Linear(4, 4).weight.detach().numpy().copy()
    mg.manual_seed(3)
    b = mg.nn.Linear(4, 4).weight.detach().numpy()
    assert np.array_equal(a, b)


@pytest.mark.parametrize("build", [
    lambda lib: lib.nn.Linear(3, 2)(lib.zeros(4, 5)),
    lambda lib: lib.nn.Linear(3, 2)(lib.zeros(5)),
    lambda lib: lib.nn.Linear(3, 2)(lib.zeros(2, 4, 5)),
    lambda lib: lib.nn.Linear(3, 2, bias=False)(lib.zeros(4, 5)),
    lambda lib: lib.nn.Linear(3, 2)(lib.zeros(4, 3, dtype=lib.float64)),
    lambda lib: lib.nn.Linear(3, 2)(lib.zeros(())),
    lambda lib: lib.nn.Linear(3, 2)(lib.zeros(4, 3, dtype=lib.int64)),
    lambda lib: lib.nn.functional.linear([1.0], lib.zeros(2, 1)),
    lambda lib: lib.nn.functional.relu([1.0]),
    lambda lib: lib.nn.functional.tanh([1.0]),
    lambda lib: lib.nn.functional.softmax(lib.zeros(4, 3, dtype=lib.int64), 1),
], ids=lambda f: "")
def test_bad_layer_inputs_raise_like_torch(torch, build):
    both_raise(torch, build)


def test_empty_batches_give_torchs_results(torch):
    for build in (lambda lib: lib.nn.Linear(3, 2)(lib.zeros(0, 3)),
                  lambda lib: lib.nn.functional.cross_entropy(lib.zeros(0, 3),
                                                              ints(lib, 0)),
                  lambda lib: lib.nn.functional.mse_loss(lib.zeros(0), lib.zeros(0)),
                  lambda lib: lib.nn.functional.mse_loss(lib.zeros(0), lib.zeros(0),
                                                         reduction="sum")):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = build(mg)
        expected = build(torch)
        assert out.shape == tuple(expected.shape)
        np.testing.assert_array_equal(out.numpy(), expected.numpy())


def test_linear_with_float64_dtype(torch):
    layer = mg.nn.Linear(3, 2, dtype=mg.float64)
    assert layer.weight.dtype == layer.bias.dtype == mg.float64
    assert layer(mg.ones(1, 3, dtype=mg.float64)).dtype == mg.float64


# ---------------------------------------------------------------- activations
ACTIVATIONS = [
    ("relu", lambda F, x: F.relu(x)),
    ("tanh", lambda F, x: F.tanh(x)),
    ("sigmoid", lambda F, x: F.sigmoid(x)),
    ("softmax1", lambda F, x: F.softmax(x, dim=1)),
    ("softmax-1", lambda F, x: F.softmax(x, -1)),
    ("softmax0", lambda F, x: F.softmax(x, 0)),
    ("log_softmax1", lambda F, x: F.log_softmax(x, 1)),
    ("log_softmax-2", lambda F, x: F.log_softmax(x, dim=-2)),
]


@pytest.mark.parametrize("name,fn", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
def test_activations_match_torch(torch, name, fn):
    x, tx = pair(torch, f32(4, 3) * 3)
    out, tout = fn(F, x), fn(torch.nn.functional, tx)
    assert close(out, tout) and tree(out.grad_fn) == tree(tout.grad_fn)
    for attr in ("_saved_dim",):
        assert getattr(out.grad_fn, attr, None) == getattr(tout.grad_fn, attr, None)
    g = f32(4, 3, seed=1)
    out.backward(mg.tensor(g))
    tout.backward(torch.tensor(g))
    assert close(x.grad, tx.grad)


@pytest.mark.parametrize("shape", [(3,), (2, 3), (2, 3, 4), (2, 3, 4, 5)])
def test_softmax_without_dim_warns_and_picks_torchs_dim(torch, shape):
    x, tx = pair(torch, f32(*shape))
    for fn in ("softmax", "log_softmax"):
        with warnings.catch_warnings(record=True) as mine:
            warnings.simplefilter("always")
            out = getattr(F, fn)(x)
        with warnings.catch_warnings(record=True) as theirs:
            warnings.simplefilter("always")
            tout = getattr(torch.nn.functional, fn)(tx)
        assert [str(w.message) for w in mine] == [str(w.message) for w in theirs]
        assert close(out, tout)


def test_activation_modules_match_torch(torch):
    x, tx = pair(torch, f32(2, 5))
    for make in (lambda nn: nn.ReLU(), lambda nn: nn.Tanh(), lambda nn: nn.Sigmoid(),
                 lambda nn: nn.Softmax(dim=1), lambda nn: nn.LogSoftmax(dim=0),
                 lambda nn: nn.Identity(), lambda nn: nn.Flatten(0)):
        m, t = make(mg.nn), make(torch.nn)
        assert repr(m) == repr(t)
        out, tout = m(x), t(tx)
        assert close(out, tout) and tree(out.grad_fn) == tree(tout.grad_fn)


def test_relu_inplace_module_changes_its_input(torch):
    for lib in (mg, torch):
        x = lib.tensor([-1.0, 2.0])
        y = lib.nn.ReLU(inplace=True)(x)
        assert y is x and x.tolist() == [0.0, 2.0]


# ---------------------------------------------------------------- mse_loss
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_values_gradients_and_node_match_torch(torch, reduction):
    x, tx = pair(torch, f32(4, 3))
    y, ty = pair(torch, f32(4, 3, seed=1), requires_grad=False)
    loss = F.mse_loss(x, y, reduction=reduction)
    tloss = torch.nn.functional.mse_loss(tx, ty, reduction=reduction)
    assert close(loss, tloss) and tree(loss.grad_fn) == tree(tloss.grad_fn)
    node, tnode = loss.grad_fn, tloss.grad_fn
    assert node._saved_reduction == tnode._saved_reduction
    assert node._saved_self is x and node._saved_target is y
    g = np.ones(tloss.shape, np.float32) * 0.5
    loss.backward(mg.tensor(g))
    tloss.backward(torch.tensor(g))
    assert close(x.grad, tx.grad)


def test_mse_loss_gives_the_target_a_gradient_when_it_needs_one(torch):
    x, tx = pair(torch, f32(4, 3))
    y, ty = pair(torch, f32(4, 3, seed=1))
    loss, tloss = F.mse_loss(x, y), torch.nn.functional.mse_loss(tx, ty)
    assert tree(loss.grad_fn) == tree(tloss.grad_fn)
    loss.backward()
    tloss.backward()
    assert close(x.grad, tx.grad) and close(y.grad, ty.grad)


@pytest.mark.parametrize("xs,ys", [((4, 3), (3,)), ((4, 3), (4, 1)), ((3,), (4, 3)),
                                   ((4, 1), (1, 3))])
def test_mse_loss_broadcasts_with_torchs_warning(torch, xs, ys):
    x, tx = pair(torch, f32(*xs))
    y, ty = pair(torch, f32(*ys, seed=1), requires_grad=False)
    with warnings.catch_warnings(record=True) as mine:
        warnings.simplefilter("always")
        loss = F.mse_loss(x, y)
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        tloss = torch.nn.functional.mse_loss(tx, ty)
    assert [norm(str(w.message)) for w in theirs] == [str(w.message) for w in mine]
    assert close(loss, tloss) and tree(loss.grad_fn) == tree(tloss.grad_fn)
    loss.backward()
    tloss.backward()
    assert close(x.grad, tx.grad)


def test_mse_loss_promotes_dtypes_and_returns_float32_grads(torch):
    x, tx = pair(torch, f32(4, 3))
    y, ty = pair(torch, f32(4, 3, seed=1).astype(np.float64), requires_grad=False)
    loss, tloss = F.mse_loss(x, y), torch.nn.functional.mse_loss(tx, ty)
    assert close(loss, tloss) and tree(loss.grad_fn) == tree(tloss.grad_fn)
    loss.backward()
    tloss.backward()
    assert close(x.grad, tx.grad)


def test_mse_loss_legacy_arguments_and_bad_reduction_match_torch(torch):
    x, tx = pair(torch, f32(4, 3))
    y, ty = pair(torch, f32(4, 3, seed=1), requires_grad=False)
    for kwargs in ({"size_average": False}, {"reduce": False},
                   {"size_average": True, "reduce": True}):
        with warnings.catch_warnings(record=True) as mine:
            warnings.simplefilter("always")
            loss = F.mse_loss(x, y, **kwargs)
        with warnings.catch_warnings(record=True) as theirs:
            warnings.simplefilter("always")
            tloss = torch.nn.functional.mse_loss(tx, ty, **kwargs)
        assert [str(w.message) for w in mine] == [str(w.message) for w in theirs]
        assert close(loss, tloss)
    both_raise(torch, lambda lib: lib.nn.functional.mse_loss(
        lib.zeros(2), lib.zeros(2), reduction="foo"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        both_raise(torch, lambda lib: lib.nn.functional.mse_loss(lib.zeros(4, 3),
                                                                 lib.zeros(4)))


def test_mse_loss_module_matches_torch(torch):
    x, tx = pair(torch, f32(6))
    y, ty = pair(torch, f32(6, seed=1), requires_grad=False)
    for reduction in ("mean", "sum", "none"):
        m, t = mg.nn.MSELoss(reduction=reduction), torch.nn.MSELoss(reduction=reduction)
        assert repr(m) == repr(t) and m.reduction == t.reduction
        assert close(m(x, y), t(tx, ty))


def test_mse_loss_supports_double_backward(torch):
    x, tx = pair(torch, f32(4, 3))
    y, ty = pair(torch, f32(4, 3, seed=1), requires_grad=False)
    for lib, a, b in ((mg, x, y), (torch, tx, ty)):
        (g,) = lib.autograd.grad(lib.nn.functional.mse_loss(a, b), a, create_graph=True)
        (g * g).sum().backward()
    assert close(x.grad, tx.grad)


# ---------------------------------------------------------------- nll_loss / cross_entropy
CE_CASES = [
    ("mean", {}), ("sum", {}), ("none", {}),
    ("mean", {"ignore_index": 2}), ("none", {"ignore_index": 0}),
    ("mean", {"weight": [1.0, 2.0, 0.5]}), ("sum", {"weight": [1.0, 2.0, 0.5]}),
    ("none", {"weight": [1.0, 2.0, 0.5]}),
    ("mean", {"weight": [1.0, 2.0, 0.5], "ignore_index": 1}),
]


def _kwargs(lib, kwargs):
    out = dict(kwargs)
    if "weight" in out:
        out["weight"] = lib.tensor(out["weight"])
    return out


@pytest.mark.parametrize("reduction,kwargs", CE_CASES)
def test_cross_entropy_matches_torch(torch, reduction, kwargs):
    x, tx = pair(torch, f32(5, 3) * 2)
    t, tt = pair(torch, np.array([0, 2, 1, 1, 0]), requires_grad=False)
    loss = F.cross_entropy(x, t, reduction=reduction, **_kwargs(mg, kwargs))
    tloss = torch.nn.functional.cross_entropy(tx, tt, reduction=reduction,
                                              **_kwargs(torch, kwargs))
    assert close(loss, tloss) and tree(loss.grad_fn) == tree(tloss.grad_fn)
    node, tnode = loss.grad_fn, tloss.grad_fn
    for attr in ("_saved_ignore_index", "_saved_reduction"):
        assert getattr(node, attr) == getattr(tnode, attr)
    assert close(node._saved_total_weight, tnode._saved_total_weight)
    assert close(node._saved_weight, tnode._saved_weight)
    assert node._saved_target is t and node._saved_self.grad_fn is node.next_functions[0][0]
    g = np.full(tloss.shape, 0.7, np.float32)
    loss.backward(mg.tensor(g))
    tloss.backward(torch.tensor(g))
    assert close(x.grad, tx.grad)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_on_one_sample_and_on_extra_dimensions_matches_torch(torch, reduction):
    cases = [((3,), np.array(1)), ((2, 3, 4), np.array([[0, 1, 2, 1], [2, 2, 0, 1]])),
             ((2, 3, 2, 2), np.zeros((2, 2, 2), np.int64))]
    for shape, target in cases:
        x, tx = pair(torch, f32(*shape))
        t, tt = pair(torch, target, requires_grad=False)
        loss = F.nll_loss(x, t, reduction=reduction)
        tloss = torch.nn.functional.nll_loss(tx, tt, reduction=reduction)
        assert close(loss, tloss) and tree(loss.grad_fn) == tree(tloss.grad_fn)
        loss.sum().backward()
        tloss.sum().backward()
        assert close(x.grad, tx.grad)
        ce = F.cross_entropy(x, t, reduction=reduction)
        tce = torch.nn.functional.cross_entropy(tx, tt, reduction=reduction)
        assert close(ce, tce) and tree(ce.grad_fn) == tree(tce.grad_fn)
        assert find(ce.grad_fn, "LogSoftmaxBackward0")._saved_dim == \
            find(tce.grad_fn, "LogSoftmaxBackward0")._saved_dim


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_with_class_probabilities_matches_torch(torch, reduction):
    for shape, dim in (((4, 3), 1), ((3,), 0), ((2, 3, 5), 1)):
        x, tx = pair(torch, f32(*shape))
        p = np.exp(f32(*shape, seed=1))
        p /= p.sum(axis=dim, keepdims=True)
        t, tt = pair(torch, p, requires_grad=False)
        loss = F.cross_entropy(x, t, reduction=reduction)
        tloss = torch.nn.functional.cross_entropy(tx, tt, reduction=reduction)
        assert close(loss, tloss) and tree(loss.grad_fn) == tree(tloss.grad_fn)
        loss.sum().backward()
        tloss.sum().backward()
        assert close(x.grad, tx.grad)


@pytest.mark.parametrize("build", [
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3), lib.tensor([0, 5, 1, 1])),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3), lib.tensor([0, -1, 1, 1])),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3), lib.tensor([0., 2, 1, 1])),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3), lib.tensor([0, 2, 1])),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3), ints(lib, 4, 2)),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3), lib.tensor([0, 1, 2, 1]),
                                                reduction="foo"),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3),
                                                lib.tensor([0, 1, 2, 1], dtype=lib.int32)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(4, 3), ints(lib)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(3), ints(lib, 2)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(()), ints(lib)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(4, 3), ints(lib, 4),
                                           weight=lib.ones(2)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(4, 3, dtype=lib.float64),
                                           ints(lib, 4), weight=lib.ones(3)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(4, 3), ints(lib, 4),
                                           weight=lib.ones(3, requires_grad=True)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(2, 3, 4), ints(lib, 2, 5)),
    lambda lib: lib.nn.functional.cross_entropy([1.0], [1]),
    lambda lib: lib.nn.functional.mse_loss(lib.zeros(3, dtype=lib.int64), lib.zeros(3)),
    lambda lib: lib.nn.functional.mse_loss(lib.zeros(3, dtype=lib.int32),
                                           lib.zeros(3, dtype=lib.int64)),
    lambda lib: lib.nn.functional.mse_loss(lib.zeros(3, dtype=lib.bool),
                                           lib.zeros(3, dtype=lib.bool)),
    lambda lib: lib.nn.functional.mse_loss([1.0], [1.0]),
], ids=lambda f: "")
def test_bad_loss_arguments_raise_like_torch(torch, build):
    both_raise(torch, build)


def test_nll_loss_accepts_uint8_targets(torch):
    x, tx = pair(torch, f32(4, 3))
    t = np.array([0, 2, 1, 1], np.uint8)
    assert close(F.nll_loss(x, mg.tensor(t)), torch.nn.functional.nll_loss(tx, torch.tensor(t)))


def test_loss_modules_match_torch(torch):
    x, tx = pair(torch, f32(5, 3))
    t, tt = pair(torch, np.array([0, 2, 1, 1, 0]), requires_grad=False)
    w = np.array([1.0, 2.0, 0.5], np.float32)
    for make in (lambda nn, lib: nn.CrossEntropyLoss(),
                 lambda nn, lib: nn.CrossEntropyLoss(reduction="sum", ignore_index=1),
                 lambda nn, lib: nn.CrossEntropyLoss(weight=lib.tensor(w)),
                 lambda nn, lib: nn.NLLLoss(weight=lib.tensor(w), reduction="none")):
        m, tm = make(mg.nn, mg), make(torch.nn, torch)
        assert repr(m) == repr(tm) and list(m.state_dict()) == list(tm.state_dict())
        assert close(m(x, t), tm(tx, tt))


def test_cross_entropy_supports_double_backward(torch):
    x, tx = pair(torch, f32(4, 3))
    t, tt = pair(torch, np.array([0, 2, 1, 1]), requires_grad=False)
    for lib, a, b in ((mg, x, t), (torch, tx, tt)):
        (g,) = lib.autograd.grad(lib.nn.functional.cross_entropy(a, b), a, create_graph=True)
        (g * g).sum().backward()
    assert close(x.grad, tx.grad)


def test_nll_loss_backward_twice_raises_like_torch(torch):
    def twice(lib):
        x = lib.zeros(2, 3, requires_grad=True)
        loss = lib.nn.functional.cross_entropy(x, lib.tensor([0, 1]))
        loss.backward()
        loss.backward()

    both_raise(torch, twice)


@given(n=st.integers(1, 9), c=st.integers(1, 6), seed=st.integers(0, 2**16),
       reduction=st.sampled_from(["mean", "sum", "none"]))
def test_cross_entropy_matches_torch_on_random_shapes(torch, n, c, seed, reduction):
    x, tx = pair(torch, f32(n, c, seed=seed) * 4)
    target = rng(seed).integers(0, c, n)
    t, tt = pair(torch, target, requires_grad=False)
    loss = F.cross_entropy(x, t, reduction=reduction)
    tloss = torch.nn.functional.cross_entropy(tx, tt, reduction=reduction)
    assert close(loss, tloss)
    loss.sum().backward()
    tloss.sum().backward()
    assert close(x.grad, tx.grad)


# ---------------------------------------------------------------- init
def test_calculate_gain_matches_torch(torch):
    for args in (("linear",), ("conv2d",), ("sigmoid",), ("tanh",), ("relu",), ("selu",),
                 ("leaky_relu",), ("leaky_relu", 0.2), ("leaky_relu", 1)):
        assert mg.nn.init.calculate_gain(*args) == torch.nn.init.calculate_gain(*args)
    for args in (("foo",), ("leaky_relu", "x"), ("leaky_relu", True)):
        both_raise(torch, lambda lib, args=args: lib.nn.init.calculate_gain(*args))


@pytest.mark.parametrize("name", ["kaiming_uniform_", "kaiming_normal_", "xavier_uniform_",
                                  "xavier_normal_"])
def test_fan_based_initialisers_have_torchs_spread(torch, name):
    shape = (200, 150, 3)
    m = getattr(mg.nn.init, name)(mg.empty(*shape))
    t = getattr(torch.nn.init, name)(torch.empty(*shape))
    assert m.shape == shape and m.dtype == mg.float32
    assert abs(m.numpy().std() / t.numpy().std() - 1) < 0.02
    if "uniform" in name:
        assert abs(np.abs(m.numpy()).max() / np.abs(t.numpy()).max() - 1) < 0.01
    both_raise(torch, lambda lib: getattr(lib.nn.init, name)(lib.zeros(3)))


def test_initialisers_fill_in_place_and_return_the_tensor(torch):
    for lib in (mg, torch):
        w = lib.zeros(3, 4, requires_grad=True)
        assert lib.nn.init.constant_(w, 2.5) is w and w.tolist() == [[2.5] * 4] * 3
        assert lib.nn.init.ones_(w) is w and w.tolist() == [[1.0] * 4] * 3
        assert lib.nn.init.zeros_(w) is w and not w.detach().numpy().any()
        u = lib.nn.init.uniform_(w, -0.5, 0.5)
        assert u is w and np.abs(w.detach().numpy()).max() <= 0.5 and w.grad_fn is None
        assert lib.nn.init.normal_(w, 3.0, 0.01) is w and abs(w.mean().item() - 3.0) < 0.1
    both_raise(torch, lambda lib: lib.nn.init.kaiming_uniform_(lib.zeros(3, 2), mode="x"))


def test_kaiming_on_an_empty_tensor_warns_like_torch(torch):
    for lib in (mg, torch):
        with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
            lib.nn.init.kaiming_uniform_(lib.zeros(0, 2))
