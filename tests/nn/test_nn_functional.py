"""nn.functional, the layers and nn.init, differentially against PyTorch 2.13."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from helpers import both_raise, close, f32, ints, pair, tree

import minigrad as mg
import minigrad.nn.functional as F

pytestmark = pytest.mark.torch


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
        np.testing.assert_array_equal(out.detach().numpy(), expected.detach().numpy())


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


# ---------------------------------------------------------------- dropout
@pytest.mark.parametrize("p", [0.0, 0.3, 0.5, 1.0])
def test_dropout_records_a_scaled_mask_multiplication_like_torch(torch, p):
    x, tx = pair(torch, f32(200, 50))
    out, tout = F.dropout(x, p), torch.nn.functional.dropout(tx, p)
    assert tree(out.grad_fn) == tree(tout.grad_fn)
    if p == 0.0:
        assert out is x and tout is tx
        return
    mask, tmask = out.grad_fn._saved_other, tout.grad_fn._saved_other
    assert mask.dtype == mg.float32 and mask.shape == tuple(tmask.shape)
    assert set(np.unique(mask.numpy()).tolist()) <= set(np.unique(tmask.numpy()).tolist())
    kept = (mask.numpy() != 0).mean() if mask.dim() else 0.0
    assert abs(kept - (1 - p)) < 0.02
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.broadcast_to(mask.numpy(), x.shape))


def test_dropout_module_does_nothing_in_eval_mode_and_checks_p(torch):
    for lib in (mg, torch):
        drop = lib.nn.Dropout(0.4)
        x = lib.ones(10)
        assert drop.eval()(x) is x and lib.nn.functional.dropout(x, training=False) is x
        assert drop.train()(x) is not x
    assert repr(mg.nn.Dropout(0.2, inplace=True)) == repr(torch.nn.Dropout(0.2, inplace=True))
    both_raise(torch, lambda lib: lib.nn.Dropout(1.5))
    both_raise(torch, lambda lib: lib.nn.functional.dropout(lib.ones(3), -0.1))
    both_raise(torch, lambda lib: lib.nn.functional.dropout(lib.ones(3, dtype=lib.int64)))
    both_raise(torch, lambda lib: lib.nn.functional.dropout(
        lib.ones(3, requires_grad=True), inplace=True))


def test_inplace_dropout_changes_its_input(torch):
    for lib in (mg, torch):
        x = lib.ones(1000)
        y = lib.nn.functional.dropout(x, 0.5, inplace=True)
        assert y is x and x._version == 1 and 0.4 < (x == 0).float().mean().item() < 0.6
