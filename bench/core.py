"""Core benchmarks: minigrad against PyTorch (CPU) and a hand-written NumPy floor, in one run.

Each case times the same work three ways and reports medians of repeats; the targets come from
the core issue. These are measurements, not tests: machines are noisy, so nothing here fails.

Each library is timed in a fresh Python process of its own (``python -m bench.core CASE LIB``),
so neither pays for the other's objects: with PyTorch imported, every full garbage collection
also walks PyTorch's ~165,000 Python objects, which would slow minigrad's graph-building loops
for reasons that are not minigrad's. The workers run with glibc's malloc told to keep freed
memory (``MALLOC_MMAP_THRESHOLD_``/``MALLOC_TRIM_THRESHOLD_``): otherwise every 4 MB NumPy
array is a fresh ``mmap`` whose pages fault in on first touch, and the 1000x1000 case would
time the kernel's page-fault handling (PyTorch sidesteps it with its caching allocator).
All three run single-threaded (``OMP_NUM_THREADS=1`` and friends): on a 2-core machine a
threaded BLAS or PyTorch's thread pool swings by several times whenever anything else runs.
Times are the worker's CPU time (``time.process_time``): on a quiet machine that is the wall
time, and on a busy shared one the time other processes take the core away does not count.

    python -m bench            # all cases
    python -m bench --quick    # fewer repeats
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

import numpy as np

LIBS = ("minigrad", "tape", "torch", "floor")
_tape = None  # bench/tape.py, imported by the worker that times the tape
ROUNDS = 3  # each library timed in turn, round after round (interleaved), medians over rounds


def median_time(fn, *, number: int, repeat: int, setup=None) -> float:
    """Median over ``repeat`` runs of the mean CPU time of ``number`` calls (seconds).

    ``setup`` (untimed) runs before each repeat, e.g. to restore weights a training step moved.
    """
    if setup:
        setup()
    fn()  # warm up
    times = []
    for _ in range(repeat):
        if setup:
            setup()
        start = time.process_time()
        for _ in range(number):
            fn()
        times.append((time.process_time() - start) / number)
    return statistics.median(times)


def _lib(name: str):
    if name == "minigrad":
        if os.environ.get("BENCH_MINIGRAD_FROM"):  # a baseline version (``--baseline REV``)
            sys.path.insert(0, os.environ["BENCH_MINIGRAD_FROM"])
        import minigrad

        return minigrad
    import torch

    return torch


# ---------------------------------------------------------------- (a), (b): (x * y + x).sum()
def build_xyx(lib: str, n: int):
    rng = np.random.default_rng(0)
    xa = rng.random((n, n), dtype=np.float32)
    ya = rng.random((n, n), dtype=np.float32)
    if lib == "floor":
        def run():
            u = xa * ya + xa
            u.sum()
            g = np.broadcast_to(np.float32(1.0), u.shape)  # d sum / d u
            gx = g * ya + g  # through x * y and through + x
            gy = g * xa
            return gx, gy

        return run, None
    if lib == "tape":
        tape, x, y = _tape.Tape(), _tape.Var(xa), _tape.Var(ya)

        def run():
            x.grad = y.grad = None
            tape.backward(_tape.total(tape, _tape.add(tape, _tape.mul(tape, x, y), x)))

        return run, None
    m = _lib(lib)
    x = m.tensor(xa, requires_grad=True)
    y = m.tensor(ya, requires_grad=True)

    def run():
        x.grad = None
        y.grad = None
        (x * y + x).sum().backward()

    return run, None


# ---------------------------------------------------------------- (c): MLP training step
def build_mlp(lib: str):
    rng = np.random.default_rng(0)
    batch, n_in, n_hidden, n_out, lr = 64, 64, 128, 10, 0.1
    xa = rng.standard_normal((batch, n_in)).astype(np.float32)
    labels = rng.integers(0, n_out, batch)
    weights = [(rng.standard_normal((n_hidden, n_in)) * 0.1).astype(np.float32),
               np.zeros(n_hidden, np.float32),
               (rng.standard_normal((n_out, n_hidden)) * 0.1).astype(np.float32),
               np.zeros(n_out, np.float32)]
    if lib == "floor":
        return _mlp_floor(xa, labels, weights, lr)
    if lib == "tape":
        return _mlp_tape(xa, labels, weights, lr)
    m = _lib(lib)
    model = m.nn.Sequential(m.nn.Linear(n_in, n_hidden), m.nn.ReLU(),
                            m.nn.Linear(n_hidden, n_out))
    opt = m.optim.SGD(model.parameters(), lr=lr)
    loss_fn = m.nn.CrossEntropyLoss()
    x, target = m.tensor(xa), m.tensor(labels)

    def restore():  # every repeat trains from the same weights
        with m.no_grad():
            for p, a in zip(model.parameters(), weights):
                p.copy_(m.tensor(a))

    def run():
        opt.zero_grad()
        loss_fn(model(x), target).backward()
        opt.step()

    return run, restore


def _mlp_floor(xa, labels, weights, lr):
    """The same step written by hand in NumPy: forward, backward, SGD update."""
    batch = xa.shape[0]
    params = [w.copy() for w in weights]
    rows = np.arange(batch)

    def restore():
        for p, w in zip(params, weights):
            p[...] = w

    def run():
        w1, b1, w2, b2 = params
        h = xa @ w1.T + b1
        r = np.maximum(h, 0)
        z = r @ w2.T + b2
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        p = e / e.sum(axis=1, keepdims=True)
        loss = -np.log(p[rows, labels]).mean()
        gz = p
        gz[rows, labels] -= 1
        gz /= batch
        gw2, gb2 = gz.T @ r, gz.sum(0)
        gh = (gz @ w2) * (h > 0)
        gw1, gb1 = gh.T @ xa, gh.sum(0)
        for prm, g in zip(params, (gw1, gb1, gw2, gb2)):
            prm -= lr * g
        return loss

    return run, restore


def _mlp_tape(xa, labels, weights, lr):
    """The same step on the lean tape (bench/tape.py); the data ``xa`` is a constant."""
    tape, x = _tape.Tape(), xa
    params = [_tape.Var(w.copy()) for w in weights]

    def restore():
        for p, w in zip(params, weights):
            p.value[...] = w

    def run():
        for p in params:
            p.grad = None
        w1, b1, w2, b2 = params
        h = _tape.relu(tape, _tape.linear(tape, x, w1, b1))
        loss = _tape.cross_entropy(tape, _tape.linear(tape, h, w2, b2), labels)
        tape.backward(loss)
        _tape.sgd_step(params, lr)
        return loss.value

    return run, restore


# ---------------------------------------------------------------- (d): a long chain
def build_chain(lib: str, n: int):
    if lib == "floor":
        def run():
            x = np.array([1.0], np.float32)
            values = [x]
            for _ in range(n):
                values.append(values[-1] * np.float32(1.0000001))
            g = np.ones_like(x)
            for _ in range(n):
                g = g * np.float32(1.0000001)
            return g

        return run, None
    if lib == "tape":
        def run():
            tape = _tape.Tape()
            x = _tape.Var(np.array([1.0], np.float32))
            y = x
            for _ in range(n):
                y = _tape.mul_number(tape, y, 1.0000001)
            tape.backward(_tape.total(tape, y))

        return run, None
    m = _lib(lib)

    def run():
        x = m.tensor([1.0], requires_grad=True)
        y = x
        for _ in range(n):
            y = y * 1.0000001
        y.sum().backward()

    return run, None


# name: (builder, title, (calls per repeat, repeats), (target x PyTorch, x floor, x tape))
CASES = {
    "tiny": (lambda lib: build_xyx(lib, 5), "(a) (x*y + x).sum() fwd+bwd, 5x5 float32",
             (3000, 7), (0.5, None, 3.5)),
    "big": (lambda lib: build_xyx(lib, 1000), "(b) (x*y + x).sum() fwd+bwd, 1000x1000 float32",
            (50, 7), (None, 1.15, None)),
    "mlp": (build_mlp, "(c) MLP 64-128-10, batch 64, cross-entropy, SGD step", (500, 7),
            (0.6, 1.3, 1.6)),
    "chain": (lambda lib: build_chain(lib, 100_000), "(d) chain of 100,000 multiplies, fwd+bwd",
              (1, 5), (0.5, None, 1.5)),
}


def measure(case: str, lib: str, number: int, repeat: int) -> float:
    """Time one case with one library in this process (seconds per call)."""
    if lib == "tape":
        global _tape
        from bench import tape as _tape
    run, setup = CASES[case][0](lib)
    return median_time(run, number=number, repeat=repeat, setup=setup)


def measure_isolated(case: str, lib: str, number: int, repeat: int,
                     minigrad_from: str | None = None) -> float | None:
    """Time one case with one library in a fresh process; None if that library is missing.

    ``minigrad_from``: a folder holding another version of the ``minigrad`` package (see
    :func:`baseline_source`), imported by the worker instead of this checkout's.
    """
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_=str(64 << 20),
               MALLOC_TRIM_THRESHOLD_=str(128 << 20), OMP_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
               BENCH_MINIGRAD_FROM=minigrad_from or "")
    proc = subprocess.run([sys.executable, "-m", "bench.core", case, lib, str(number),
                           str(repeat)], capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        if lib == "torch" and "No module named 'torch'" in proc.stderr:
            return None
        raise RuntimeError(f"benchmark {case}/{lib} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])["seconds"]


@dataclass
class Case:
    name: str
    minigrad: float
    torch: float | None
    floor: float
    target_torch: float | None = None  # minigrad time <= this x PyTorch's
    target_floor: float | None = None  # minigrad time <= this x the NumPy floor
    tape: float | None = None  # the lean tape's time (bench/tape.py)
    target_tape: float | None = None  # minigrad time <= this x the tape's

    def ratios(self):
        rt = self.minigrad / self.torch if self.torch else None
        return rt, self.minigrad / self.floor

    def tape_ratio(self):
        return self.minigrad / self.tape if self.tape else None

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
        if self.target_tape is not None and self.tape:
            out.append(f"{'met' if self.tape_ratio() <= self.target_tape else 'MISSED'} "
                       f"(<= {self.target_tape}x tape)")
        return out


def baseline_source(rev: str, folder: str) -> str:
    """Extract the ``minigrad`` package as it was at git revision ``rev`` into ``folder``
    (``git archive``), for timing the same cases against an earlier version in one run."""
    archive = subprocess.run(["git", "archive", rev, "minigrad"], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
    return folder


def run_baseline(case: str, folder: str, quick: bool = False) -> float:
    """Case ``case`` timed with the minigrad extracted into ``folder``."""
    _, _, (number, repeat), _targets = CASES[case]
    if quick:
        number, repeat = max(1, number // 5), 3
    return measure_isolated(case, "minigrad", number, repeat, minigrad_from=folder)


def run_case(case: str, quick: bool = False) -> Case:
    """One case, the libraries interleaved: each round times each library once, in turn, so a
    machine that gets busier or quieter during the run weighs on all of them alike."""
    _, title, (number, repeat), (target_torch, target_floor, target_tape) = CASES[case]
    if quick:
        number, repeat = max(1, number // 5), 3
    rounds = {lib: [] for lib in LIBS}
    for _ in range(ROUNDS):
        for lib in LIBS:
            rounds[lib].append(measure_isolated(case, lib, number, max(1, repeat // 2)))
    times = {lib: None if None in t else statistics.median(t) for lib, t in rounds.items()}
    return Case(title, times["minigrad"], times["torch"], times["floor"], target_torch,
                target_floor, times["tape"], target_tape)


def all_cases(quick: bool = False) -> list[Case]:
    return [run_case(case, quick) for case in CASES]


def mlp_case(number: int = 500, repeat: int = 7) -> Case:
    """Case (c) alone (handy while tuning the nn path)."""
    _, title, _, (tt, tf, tp) = CASES["mlp"]
    times = {lib: measure_isolated("mlp", lib, number, repeat) for lib in LIBS}
    return Case(title, times["minigrad"], times["torch"], times["floor"], tt, tf, times["tape"],
                tp)


if __name__ == "__main__":  # the worker: python -m bench.core CASE LIB NUMBER REPEAT
    case_name, lib_name, num, rep = sys.argv[1:5]
    print(json.dumps({"seconds": measure(case_name, lib_name, int(num), int(rep))}))
