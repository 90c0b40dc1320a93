"""Float sums bit for bit: ``sum``, ``mean`` and the losses' reductions add in PyTorch's order.

Each case builds the same float32/float64 numbers in both libraries, reduces them, and compares
the result's bytes (``.numpy().tobytes()``): equal to the last bit, not close. The cases cover
1 to 100,000 elements (odd sizes, the 8-lane and 16-block edges, the 32,768 elements from which
PyTorch splits a sum between threads), 2-D and 3-D tensors summed over inner, outer and middle
dims, several dims, ``keepdim``, and views laid out otherwise in memory (transposes, steps,
permutes, expands). See minigrad/_summation.py for the order itself.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
from minigrad import _summation

SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255,
         256, 257, 511, 513, 1000, 1023, 4095, 4097, 10_000, 32_767, 32_768, 32_769, 65_537,
         100_000]
SHAPES = [(3, 5), (8, 8), (9, 17), (33, 16), (16, 33), (100, 100), (7, 1000), (1000, 7),
          (64, 65), (1, 50), (50, 1), (300, 120), (2, 3, 4), (5, 200, 3), (4, 1, 9),
          (17, 3, 129), (40, 30, 20), (64, 40, 16)]
# (dim, keepdim, view): the view is applied to the tensor first, in both libraries
CASES_2D = [(None, False, ""), (0, False, ""), (1, False, ""), (-1, True, ""), (0, True, ""),
            ((0, 1), False, ""), (None, False, ".t()"), (0, False, ".t()"), (1, False, ".t()"),
            (None, False, "[:, ::2]"), (0, False, "[:, ::2]"), (1, True, "[:, ::2]"),
            (1, False, "[::2]"), ((0, 1), True, "[::3, 1:]"), (0, False, "[1:, 2:]"),
            (1, False, ".unsqueeze(1).expand(-1, 3, -1)[:, 1]")]
CASES_3D = [(None, False, ""), (0, False, ""), (1, False, ""), (2, False, ""), (1, True, ""),
            ((0, 1), False, ""), ((1, 2), False, ""), ((0, 2), True, ""),
            (1, False, ".permute(2, 0, 1)"), (None, False, ".permute(1, 0, 2)"),
            ((0, 2), False, ".permute(2, 1, 0)"), (0, False, ".transpose(0, 2)"),
            (2, False, "[:, ::2]"), (1, False, "[..., 1:]")]


def _numbers(shape, dtype, seed):
    """Values of mixed sign and size (so that the order of additions shows)."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)).astype(dtype)


def _reduced(lib, x, op, dim, keepdim, view):
    t = eval("t" + view, {}, {"t": lib.tensor(x)})  # noqa: S307 - the table's own views
    if dim is None:
        return getattr(t, op)().numpy()
    return getattr(t, op)(dim, keepdim=keepdim).numpy()


def _bits(a) -> bytes:
    return np.ascontiguousarray(a).tobytes()


def _mismatches(torch, x, cases, ops=("sum", "mean")):
    bad, count = [], 0
    for op in ops:
        for dim, keepdim, view in cases:
            mine = _reduced(minigrad, x, op, dim, keepdim, view)
            theirs = _reduced(torch, x, op, dim, keepdim, view)
            count += 1
            if mine.shape != theirs.shape or _bits(mine) != _bits(theirs):
                bad.append((op, dim, keepdim, view, mine.ravel()[:3], theirs.ravel()[:3]))
    return bad, count


def test_minigrad_splits_a_sum_between_as_many_threads_as_pytorch(torch):
    assert minigrad.get_num_threads() == torch.get_num_threads()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_whole_sums_of_1_to_100000_elements_are_pytorchs_bit_for_bit(torch, dtype):
    bad, count = [], 0
    for n in SIZES:
        x = _numbers((n,), dtype, seed=n)
        b, c = _mismatches(torch, x, [(None, False, ""), (0, True, "")])
        bad += [(n,) + m for m in b]
        count += c
    assert count == 4 * len(SIZES)
    assert not bad, bad


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_sums_over_dims_and_views_are_pytorchs_bit_for_bit(torch, shape, dtype):
    x = _numbers(shape, dtype, seed=len(shape) * 1000 + shape[-1])
    bad, count = _mismatches(torch, x, CASES_2D if len(shape) == 2 else CASES_3D)
    assert count >= 2 * len(CASES_3D)
    assert not bad, bad


@pytest.mark.parametrize("threads", [1, 3])
def test_large_sums_follow_the_thread_count(torch, threads):
    """PyTorch cuts a sum of 32,768+ elements into one chunk per thread; so does minigrad,
    for the count ``set_num_threads`` gives (and it does change the last bit)."""
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    minigrad.set_num_threads(threads)
    try:
        x = _numbers((300, 400), "float32", seed=threads)
        bad, _ = _mismatches(torch, x, CASES_2D)
        y = _numbers((100_001,), "float32", seed=7)
        whole = [_reduced(lib, y, "sum", None, False, "") for lib in (minigrad, torch)]
    finally:
        torch.set_num_threads(before)
        minigrad.set_num_threads(before)
    assert not bad, bad
    assert _bits(whole[0]) == _bits(whole[1])
    assert _bits(whole[0]) != _bits(_summation.reduce_sum(y))  # the chunks matter


def test_set_num_threads_refuses_what_pytorch_refuses(torch):
    for wrong in (0, -1, 2.0, True):
        errors = []
        for lib in (minigrad, torch):
            with pytest.raises(RuntimeError) as info:
                lib.set_num_threads(wrong)
            errors.append(str(info.value))
        assert errors[0] == errors[1]


LOSSES = ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"]


@pytest.mark.parametrize("shape", [(5,), (64, 10), (100, 1), (1000,), (128, 3, 7), (3000, 20)],
                         ids=str)
def test_pointwise_losses_reduce_as_pytorch_bit_for_bit(torch, shape):
    a, b = _numbers(shape, "float32", 1), _numbers(shape, "float32", 2)
    bad = []
    for name in LOSSES:
        for reduction in ("mean", "sum"):
            out = [getattr(lib.nn.functional, name)(lib.tensor(a), lib.tensor(b),
                                                    reduction=reduction).numpy()
                   for lib in (minigrad, torch)]
            if _bits(out[0]) != _bits(out[1]):
                bad.append((name, reduction, out))
    assert not bad, bad


@pytest.mark.parametrize("batch", [1, 5, 16, 17, 64, 255, 256, 257, 4097, 70_000])
def test_nll_loss_adds_its_samples_in_pytorchs_cascade(torch, batch):
    rng = np.random.default_rng(batch)
    x = _numbers((batch, 10), "float32", batch)
    target = rng.integers(0, 10, batch)
    ignored = target.copy()
    ignored[::7] = -100
    weight = (rng.random(10) + 0.1).astype(np.float32)
    bad, count = [], 0
    for t in (target, ignored):
        for w in (None, weight):
            for reduction in ("mean", "sum"):
                out = [lib.nn.functional.nll_loss(
                    lib.tensor(x), lib.tensor(t), reduction=reduction,
                    weight=None if w is None else lib.tensor(w)).numpy()
                    for lib in (minigrad, torch)]
                count += 1
                if _bits(out[0]) != _bits(out[1]):
                    bad.append((reduction, w is not None, (t < 0).any(), out))
    assert count == 8
    assert not bad, bad


@pytest.mark.parametrize("shape", [(3, 6, 30, 38), (7, 4, 248), (1, 9, 5, 16, 3), (2, 4, 23, 9),
                                   (16, 5, 70, 60)])
def test_nll_loss_over_images_adds_in_the_same_cascade(torch, shape):
    """NllLoss2d (3-D to 5-D input) sums its loss and total weight in the cascade of 1-D/2-D
    input, over (sample, position); the total weight's bits too, and the gradient."""
    rng = np.random.default_rng(len(shape) * 100 + shape[-1])
    x = rng.standard_normal(shape).astype(np.float32)
    target = rng.integers(0, shape[1], (shape[0],) + shape[2:])
    weight = rng.uniform(0.01, 3, shape[1]).astype(np.float32)
    bad = []
    for ignore_index in (-100, 1):
        for reduction in ("mean", "sum"):
            got = []
            for lib in (minigrad, torch):
                xs = lib.tensor(x, requires_grad=True)
                loss = lib.nn.functional.nll_loss(xs, lib.tensor(target), lib.tensor(weight),
                                                  ignore_index=ignore_index, reduction=reduction)
                total = _bits(loss.grad_fn._saved_total_weight.numpy())
                loss.backward()
                got.append((_bits(loss.detach().numpy()), total, _bits(xs.grad.numpy())))
            if got[0] != got[1]:
                bad.append((ignore_index, reduction))
    assert not bad, bad


def test_above_the_size_limit_the_same_order_holds_when_lifted(torch, monkeypatch):
    """Tensors of more than ``EXACT_LIMIT`` elements keep NumPy's faster order; lifted, the
    order is PyTorch's there too (a million elements, cut between PyTorch's threads)."""
    monkeypatch.setattr(_summation, "EXACT_LIMIT", None)
    x = _numbers((1000, 1000), "float32", seed=11)
    bad, count = _mismatches(torch, x, [(None, False, ""), (0, False, ""), (1, False, ""),
                                        (0, False, ".t()"), (None, False, "[:, ::2]")])
    assert count == 10
    assert not bad, bad


def _fit_a_line(lib):
    """A training loop whose gradients are summed where a broadcast spread ``w`` and ``b``."""
    rng = np.random.default_rng(0)
    x = lib.tensor(rng.standard_normal((200, 3)).astype(np.float32))
    y = lib.tensor((rng.standard_normal((200, 1)) * 0.1).astype(np.float32)) + x[:, :1] * 2
    w = lib.tensor(np.array([[0.1, -0.2, 0.3]], np.float32), requires_grad=True)
    b = lib.tensor(np.array([0.5], np.float32), requires_grad=True)
    losses = []
    for _ in range(30):
        loss = (((x * w).sum(1, keepdim=True) + b - y) ** 2).mean()
        loss.backward()
        with lib.no_grad():
            w -= 0.05 * w.grad
            b -= 0.05 * b.grad
            w.grad.zero_()
            b.grad.zero_()
        losses.append(loss.item())
    return losses, _bits(w.detach().numpy()), _bits(b.detach().numpy())


def test_a_training_loop_with_broadcast_gradients_matches_bit_for_bit(torch):
    """The engine sums a broadcast operand's gradient back in PyTorch's order too (one sum
    over all the broadcast dims, as at::sum_to), so 30 steps print PyTorch's losses exactly."""
    assert _fit_a_line(minigrad) == _fit_a_line(torch)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bias_gradients_summed_over_the_batch_are_pytorchs_bit_for_bit(torch, dtype):
    """``x + b`` with ``b`` of the last dims' shape: the engine sums the gradient over the
    leading dims (nn.Linear's bias), a path of its own in _summation; rows and columns at the
    edges of its blocks (4 accumulators, 16-row blocks, 8 lanes, 32-column groups)."""
    bad, count = [], 0
    for lead in [(1,), (3,), (15,), (16,), (17,), (64,), (100,), (255,), (256,), (1000,),
                 (4, 17), (2, 1, 33)]:
        for m in [1, 3, 4, 8, 10, 31, 32, 33, 128]:
            x = _numbers(lead + (m,), dtype, seed=m + sum(lead))
            w = _numbers(lead + (m,), dtype, seed=m + 1)
            grads = []
            for lib in (minigrad, torch):
                b = lib.zeros(m, dtype=getattr(lib, dtype), requires_grad=True)
                ((lib.tensor(x) + b) * lib.tensor(w)).sum().backward()
                grads.append(b.grad.numpy())
            count += 1
            if _bits(grads[0]) != _bits(grads[1]):
                bad.append((lead, m, grads[0][:3], grads[1][:3]))
    assert count == 12 * 9
    assert not bad, bad
