"""No NumPy ``RuntimeWarning`` reaches the learner: PyTorch computes ``0 * inf``, ``inf - inf``,
``3e38 * 10`` and ``1 / 0`` silently (NaN, inf), and so must minigrad, forward and backward.

Every op of :data:`op_table_pointwise.SPECIAL_OPS` runs (value, gradient, second derivative)
on the special values and on values near float32's largest; programs beyond the op table
(in-place ops, optimisers, losses, products, casts, ``autograd.functional``) run on mixes of
them. Whatever warning minigrad gives, PyTorch must give too. And NumPy's own settings are left
as the learner had them: minigrad quiets NumPy only inside its own computations.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from op_table_pointwise import SPECIAL_OPS
from test_ops_special_values import _steps, inputs

import minigrad

VALUES = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3e38, -3e38, 1.0], dtype=np.float32)


def warned(fn) -> list:
    """The warnings ``fn()`` gives (an exception it raises is compared elsewhere)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            fn()
        except Exception:  # noqa: BLE001, S110 - only the warnings matter here
            pass
    return sorted({(w.category.__name__, str(w.message)) for w in caught})


def extra_warnings(torch, fn, *args) -> list:
    """The warnings minigrad gives for ``fn(lib, *args)`` that PyTorch does not."""
    mine = warned(lambda: fn(minigrad, *args))
    return [w for w in mine if w not in warned(lambda: fn(torch, *args))] if mine else []


@pytest.mark.parametrize("case", SPECIAL_OPS, ids=repr)
def test_ops_at_special_and_huge_values_give_no_numpy_warning(case, torch):
    huge = [[np.full(s, v, np.float32) for s in case.shapes] for v in (3e38, -3e38)]
    for arrays in inputs(case) + huge:
        extra = extra_warnings(torch, _steps, case, arrays)
        assert not extra, f"{case.name} at {[a.tolist() for a in arrays]}: {extra}"


def _optimise(L, name, a, b):
    p = L.tensor(a, requires_grad=True)
    kwargs = {"momentum": 0.9} if name == "SGD" else {}
    opt = getattr(L.optim, name)([p], lr=0.1, weight_decay=0.1, **kwargs)
    for _ in range(2):
        opt.zero_grad()
        (p * L.tensor(b)).sum().backward()
        opt.step()


_INF, _NAN = np.full(3, np.inf, np.float32), np.full(3, np.nan, np.float32)


def _rows(a, b, c):
    return np.stack([a, b, c])


PROGRAMS = {
    "add_": lambda L, a, b, c: L.tensor(a).add_(L.tensor(b), alpha=3.0),
    "sub_": lambda L, a, b, c: L.tensor(a).sub_(L.tensor(b)),
    "mul_": lambda L, a, b, c: L.tensor(a).mul_(L.tensor(b)),
    "mul_number_": lambda L, a, b, c: L.tensor(a).mul_(1e30),
    "x * 1e39": lambda L, a, b, c: L.tensor(a) * 1e39,
    "x + 1e39": lambda L, a, b, c: L.tensor(a) + 1e39,
    "2 - x": lambda L, a, b, c: 3e38 - L.tensor(a) * 2,
    "addcmul_": lambda L, a, b, c: L.tensor(a).addcmul_(L.tensor(b), L.tensor(c), value=2),
    "square_": lambda L, a, b, c: L.tensor(a).square_(),
    "pow_": lambda L, a, b, c: L.tensor(a).pow_(3),
    "copy_ to int": lambda L, a, b, c: L.zeros(3, dtype=L.int8).copy_(L.tensor(a)),
    "setitem int": lambda L, a, b, c: L.zeros(3, dtype=L.int64).__setitem__(0, L.tensor(a)[0]),
    "outer": lambda L, a, b, c: L.outer(L.tensor(a), L.tensor(b)),
    "einsum": lambda L, a, b, c: L.einsum("i,j->ij", L.tensor(a), L.tensor(b)),
    "einsum contraction": lambda L, a, b, c: L.einsum(
        "ij,jk->ik", L.tensor(_rows(a, b, c)), L.tensor(_rows(c, b, a))),
    "x // y": lambda L, a, b, c: L.tensor(a) // L.tensor(b),
    "int64 min // -1": lambda L, a, b, c: L.tensor([-2**63, 7]) // -1,
    "div floor": lambda L, a, b, c: L.div(L.tensor(a), L.tensor(b), rounding_mode="floor"),
    "div trunc": lambda L, a, b, c: L.div(L.tensor(a), L.tensor(b), rounding_mode="trunc"),
    "logsumexp of -inf": lambda L, a, b, c: L.tensor(_rows(a, b, -_INF)).logsumexp(1),
    "nanmean of NaN": lambda L, a, b, c: L.tensor(_rows(a, b, _NAN)).nanmean(1),
    "matmul of t": lambda L, a, b, c: L.tensor(_rows(a, b, c)).t() @ L.tensor(_rows(c, b, a)),
    "mv": lambda L, a, b, c: L.tensor(_rows(a, b, c)) @ L.tensor(c),
    "dot": lambda L, a, b, c: L.tensor(a) @ L.tensor(b),
    "linear": lambda L, a, b, c: L.nn.functional.linear(
        L.tensor(_rows(a, b, c)), L.tensor(_rows(c, b, a)), L.tensor(a)),
    "softmax": lambda L, a, b, c: L.tensor(_rows(a, b, c)).softmax(1),
    "BCELoss, inf weight": lambda L, a, b, c: L.nn.functional.binary_cross_entropy(
        L.tensor(_rows(a, b, c)).sigmoid(), L.tensor(_rows(c, b, a)).sigmoid(),
        weight=L.tensor(_INF)),
    "mse_loss": lambda L, a, b, c: L.nn.functional.mse_loss(L.tensor(a), L.tensor(b)),
    "huber_loss": lambda L, a, b, c: L.nn.functional.huber_loss(L.tensor(a), L.tensor(b)),
    "smooth_l1_loss": lambda L, a, b, c: L.nn.functional.smooth_l1_loss(L.tensor(a),
                                                                        L.tensor(b)),
    "BCE with logits": lambda L, a, b, c: L.nn.functional.binary_cross_entropy_with_logits(
        L.tensor(a), L.tensor(b), pos_weight=L.tensor(c)),
    "nll_loss, a zero weight": lambda L, a, b, c: [L.nn.functional.nll_loss(
        L.tensor(_rows(a, b, c), requires_grad=True), L.tensor([0, 1, 2]),
        weight=L.tensor([0.0, 1.0, 0.0]), reduction=r).sum().backward()
        for r in ("mean", "sum", "none")],
    "cross_entropy, all weights zero": lambda L, a, b, c: L.nn.functional.cross_entropy(
        L.tensor(_rows(a, b, c), requires_grad=True), L.tensor([0, 1, 2]),
        weight=L.zeros(3)).backward(),
    "layer_norm": lambda L, a, b, c: L.nn.functional.layer_norm(L.tensor(_rows(a, b, c)), (3,)),
    "float16 x[0] = 70000.": lambda L, a, b, c: L.zeros(2, dtype=L.float16).__setitem__(
        0, 70000.0),
    "L1Loss backward": lambda L, a, b, c: L.nn.L1Loss()(
        L.tensor(a, requires_grad=True), L.tensor(b)).backward(),
    "SGD": lambda L, a, b, c: _optimise(L, "SGD", a, b),
    "Adam": lambda L, a, b, c: _optimise(L, "Adam", a, b),
    "backward": lambda L, a, b, c: (L.tensor(a, requires_grad=True) * L.tensor(b)).sum()
    .backward(),
    "functional.vjp": lambda L, a, b, c: L.autograd.functional.vjp(
        lambda t: t * t, L.tensor(a), L.tensor(b)),
    "functional.hessian": lambda L, a, b, c: L.autograd.functional.hessian(
        lambda t: (t * t * 3e38).sum(), L.tensor(a)),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_programs_at_special_values_give_no_numpy_warning(name, torch):
    program = PROGRAMS[name]
    for seed in range(8):
        rng = np.random.default_rng(seed)
        a, b, c = (rng.choice(VALUES, 3) for _ in range(3))
        extra = extra_warnings(torch, program, a, b, c)
        assert not extra, f"{name} at {a}, {b}, {c}: {extra}"


def test_the_check_can_fail(torch):
    """NumPy's own warning, from a program that computes with NumPy, is noticed."""
    def leaky(lib):
        return np.float32(3e38) * np.float32(10) if lib is minigrad else None

    assert extra_warnings(torch, leaky) == [
        ("RuntimeWarning", "overflow encountered in scalar multiply")]


def _numpy_still_warns() -> bool:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.ones(1, np.float32) * np.float32(3e38) * np.float32(10)
    return [str(w.message) for w in caught] == ["overflow encountered in multiply"]


def test_the_learners_own_numpy_code_keeps_its_warnings():
    x = minigrad.tensor([3e38, 0.0], requires_grad=True)
    (x * x + x).sum().backward()
    assert _numpy_still_warns()
    with pytest.raises(RuntimeError, match="must match the size"):
        x * minigrad.ones(3)  # an error inside a quiet computation puts the settings back
    assert _numpy_still_warns()
    stepper = minigrad.autograd.engine.steps((x * x).sum())
    next(stepper)  # the stepper hands control back between nodes
    assert _numpy_still_warns()
    list(stepper)
    assert _numpy_still_warns()
    opt = minigrad.optim.SGD([x], lr=0.1)
    opt.step()
    assert _numpy_still_warns()
