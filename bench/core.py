"""Core benchmarks: minigrad against PyTorch (CPU) and a hand-written NumPy floor, in one run.

Each case times the same work three ways and reports medians of repeats; the targets come from
the core issue. These are measurements, not tests: machines are noisy, so nothing here fails.

    python -m bench            # all cases
    python -m bench --quick    # fewer repeats
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

import numpy as np

import minigrad as mg

try:
    import torch
except ImportError:  # the ratios against PyTorch are then left out
    torch = None


def median_time(fn, *, number: int, repeat: int, setup=None) -> float:
    """Median over ``repeat`` runs of the mean time of ``number`` calls (seconds).

    ``setup`` (untimed) runs before each repeat, e.g. to restore weights a training step moved.
    """
    if setup:
        setup()
    fn()  # warm up
    times = []
    for _ in range(repeat):
        if setup:
            setup()
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


@dataclass
class Case:
    name: str
    minigrad: float
    torch: float | None
    floor: float
    target_torch: float | None = None  # minigrad time <= this x PyTorch's
    target_floor: float | None = None  # minigrad time <= this x the NumPy floor

    def ratios(self):
        rt = self.minigrad / self.torch if self.torch else None
        return rt, self.minigrad / self.floor

    def verdicts(self) -> list[str]:
        rt, rf = self.ratios()
        out = []
        if self.target_torch is not None:
            out.append("n/a (no torch)" if rt is None else
                       f"{'met' if rt <= self.target_torch else 'MISSED'} "
                       f"(<= {self.target_torch}x torch)")
        if self.target_floor is not None:
            out.append(f"{'met' if rf <= self.target_floor else 'MISSED'} "
                       f"(<= {self.target_floor}x floor)")
        return out


# ---------------------------------------------------------------- (a), (b): (x * y + x).sum()
def xyx_case(n: int, *, number: int, repeat: int, target_torch=None, target_floor=None) -> Case:
    rng = np.random.default_rng(0)
    xa = rng.random((n, n), dtype=np.float32)
    ya = rng.random((n, n), dtype=np.float32)
    x = mg.tensor(xa, requires_grad=True)
    y = mg.tensor(ya, requires_grad=True)

    def run_minigrad():
        x.grad = None
        y.grad = None
        (x * y + x).sum().backward()

    def run_floor():
        u = xa * ya + xa
        u.sum()
        g = np.broadcast_to(np.float32(1.0), u.shape)  # d sum / d u
        gx = g * ya + g  # through x * y and through + x
        gy = g * xa
        return gx, gy

    t_torch = None
    if torch is not None:
        tx = torch.tensor(xa, requires_grad=True)
        ty = torch.tensor(ya, requires_grad=True)

        def run_torch():
            tx.grad = None
            ty.grad = None
            (tx * ty + tx).sum().backward()

        t_torch = median_time(run_torch, number=number, repeat=repeat)
    return Case(f"(x*y + x).sum() fwd+bwd, {n}x{n} float32",
                median_time(run_minigrad, number=number, repeat=repeat), t_torch,
                median_time(run_floor, number=number, repeat=repeat), target_torch, target_floor)


# ---------------------------------------------------------------- (c): MLP training step
def mlp_case(*, number: int, repeat: int) -> Case:
    rng = np.random.default_rng(0)
    batch, n_in, n_hidden, n_out, lr = 64, 64, 128, 10, 0.1
    xa = rng.standard_normal((batch, n_in)).astype(np.float32)
    labels = rng.integers(0, n_out, batch)
    w1 = (rng.standard_normal((n_hidden, n_in)) * 0.1).astype(np.float32)
    b1 = np.zeros(n_hidden, np.float32)
    w2 = (rng.standard_normal((n_out, n_hidden)) * 0.1).astype(np.float32)
    b2 = np.zeros(n_out, np.float32)

    model = mg.nn.Sequential(mg.nn.Linear(n_in, n_hidden), mg.nn.ReLU(),
                             mg.nn.Linear(n_hidden, n_out))
    _load(model, mg, w1, b1, w2, b2)
    opt = mg.optim.SGD(model.parameters(), lr=lr)
    loss_fn = mg.nn.CrossEntropyLoss()
    x, target = mg.tensor(xa), mg.tensor(labels)

    def run_minigrad():
        opt.zero_grad()
        loss_fn(model(x), target).backward()
        opt.step()

    params = [w1.copy(), b1.copy(), w2.copy(), b2.copy()]

    def restore():  # every repeat trains from the same weights, in all three
        _load(model, mg, w1, b1, w2, b2)
        for p, a in zip(params, (w1, b1, w2, b2)):
            p[...] = a
        if tmodel is not None:
            _load(tmodel, torch, w1, b1, w2, b2)
    rows = np.arange(batch)

    def run_floor():
        pw1, pb1, pw2, pb2 = params
        h = xa @ pw1.T + pb1
        r = np.maximum(h, 0)
        z = r @ pw2.T + pb2
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        p = e / e.sum(axis=1, keepdims=True)
        loss = -np.log(p[rows, labels]).mean()
        gz = p
        gz[rows, labels] -= 1
        gz /= batch
        gw2, gb2 = gz.T @ r, gz.sum(0)
        gh = (gz @ pw2) * (h > 0)
        gw1, gb1 = gh.T @ xa, gh.sum(0)
        for prm, g in zip(params, (gw1, gb1, gw2, gb2)):
            prm -= lr * g
        return loss

    t_torch = None
    tmodel = None
    if torch is not None:
        tmodel = torch.nn.Sequential(torch.nn.Linear(n_in, n_hidden), torch.nn.ReLU(),
                                     torch.nn.Linear(n_hidden, n_out))
        _load(tmodel, torch, w1, b1, w2, b2)
        topt = torch.optim.SGD(tmodel.parameters(), lr=lr)
        tloss = torch.nn.CrossEntropyLoss()
        tx, ttarget = torch.tensor(xa), torch.tensor(labels)

        def run_torch():
            topt.zero_grad()
            tloss(tmodel(tx), ttarget).backward()
            topt.step()

        t_torch = median_time(run_torch, number=number, repeat=repeat, setup=restore)
    return Case("MLP 64-128-10, batch 64, cross-entropy, SGD step",
                median_time(run_minigrad, number=number, repeat=repeat, setup=restore), t_torch,
                median_time(run_floor, number=number, repeat=repeat, setup=restore), 0.6, 1.3)


def _load(model, lib, w1, b1, w2, b2) -> None:
    with lib.no_grad():
        for p, a in zip(model.parameters(), (w1, b1, w2, b2)):
            p.copy_(lib.tensor(a))


# ---------------------------------------------------------------- (d): a long chain
def chain_case(n: int, *, repeat: int) -> Case:
    def run(lib):
        x = lib.tensor([1.0], requires_grad=True)
        y = x
        for _ in range(n):
            y = y * 1.0000001
        y.sum().backward()

    def run_floor():
        x = np.array([1.0], np.float32)
        values = [x]
        for _ in range(n):
            values.append(values[-1] * np.float32(1.0000001))
        g = np.ones_like(x)
        for _ in range(n):
            g = g * np.float32(1.0000001)
        return g

    t_torch = median_time(lambda: run(torch), number=1, repeat=repeat) if torch else None
    return Case(f"chain of {n:,} multiplies, fwd+bwd",
                median_time(lambda: run(mg), number=1, repeat=repeat), t_torch,
                median_time(run_floor, number=1, repeat=repeat), 0.5, None)


def all_cases(quick: bool = False) -> list[Case]:
    r = 3 if quick else 7
    return [
        xyx_case(5, number=500 if quick else 3000, repeat=r, target_torch=0.5),
        xyx_case(1000, number=3 if quick else 10, repeat=r, target_floor=1.15),
        mlp_case(number=100 if quick else 500, repeat=r),
        chain_case(100_000, repeat=3),
    ]
