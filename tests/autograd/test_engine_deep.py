"""Very long graphs: no RecursionError and no C-stack overflow, building, running, freeing.

Each case runs in a subprocess, so a crash of the interpreter (a deallocation that recurses
through a million nodes overflows the C stack) fails the test instead of killing pytest.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

pytestmark = pytest.mark.slow


def run_python(code: str, timeout: float = 60) -> str:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, f"exit code {proc.returncode}\n{proc.stderr[-3000:]}"
    return proc.stdout


def test_a_million_op_chain_backpropagates_and_is_freed_safely():
    out = run_python("""
        import gc, sys, weakref
        import minigrad as torch
        sys.setrecursionlimit(1000)  # the default: nothing may recurse per node
        x = torch.tensor([1.0], requires_grad=True)
        y = x
        for _ in range(1_000_000):
            y = y * 1.0000001
        y.sum().backward()
        print(round(x.grad.item(), 4))
        node = weakref.ref(y.grad_fn)
        del y            # frees a million nodes, each holding the next
        gc.collect()
        print(node() is None)
    """)
    grad, freed = out.split()
    factor, expected = np.float32(1.0000001), np.float32(1.0)
    for _ in range(1_000_000):  # the same float32 products the backward pass computes
        expected = expected * factor
    assert float(grad) == pytest.approx(float(expected), abs=1e-4)
    assert freed == "True"


def test_deep_graphs_with_saved_tensors_free_safely_without_a_backward():
    run_python("""
        import minigrad as torch
        from minigrad.autograd import Function

        class Double(Function):
            @staticmethod
            def forward(ctx, t):
                ctx.save_for_backward(t)
                return t * 2
            @staticmethod
            def backward(ctx, g):
                return g * 2

        w = torch.tensor([1.0], requires_grad=True)
        y = w
        for i in range(100_000):
            y = (y * w) if i % 3 == 0 else (y.exp() * 0.5 if i % 3 == 1 else Double.apply(y))
        y.sum().backward(retain_graph=True)   # saved tensors are kept
        del y                                  # and then freed with the graph
        print("ok")
    """)


def test_a_deep_chain_steps_and_grads_without_recursion():
    out = run_python("""
        import sys
        import minigrad as torch
        from minigrad.autograd import engine
        sys.setrecursionlimit(200)
        x = torch.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(50_000):
            y = y + x * 0.0
        n = sum(1 for _ in engine.steps(y, retain_graph=True))
        g, = torch.autograd.grad(y, x)
        print(n, x.grad.item(), g.item(), len(engine.execution_order(y)))
    """)
    assert out.split() == ["100001", "1.0", "1.0", "100001"]
