"""Widget timings on 1,000-node graphs (``python bench/bench_widgets.py``); not a test.

Prints, for a long chain and for a wide tree of about 1,000 nodes each:

* the time to build the graph model and its DOT source (walk, names, shortening, DOT text),
  target under 50 ms;
* the kernel-side time of one ``BackwardStepper.step()`` (engine step, ``.grad`` bookkeeping,
  the panel with the node's chain rule, numbers put in, and the contributions summed at each
  fork, and the node states), target under 20 ms per step.
"""

from __future__ import annotations

import statistics
import time

from minigrad_widgets import BackwardStepper, build_graph, limit_graph, to_dot

import minigrad as mg

DRAW_TARGET = 0.050
STEP_TARGET = 0.020


def chain(n: int = 1000):
    """``y = y * w`` n times: n MulBackward0 nodes, two leaves, one output."""
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    w = mg.tensor([1.0, 1.0], requires_grad=True)
    y = x
    for _ in range(n):
        y = y * w
    return y.sum(), {"x": x, "w": w}


def wide(leaves: int = 333):
    """The sum of squares of many leaves, added pairwise: about 3 nodes per leaf, no chains."""
    xs = [mg.tensor(float(i), requires_grad=True) for i in range(leaves)]
    terms = [a * a for a in xs]
    while len(terms) > 1:
        pairs = [terms[i] + terms[i + 1] for i in range(0, len(terms) - 1, 2)]
        terms = pairs + terms[len(pairs) * 2:]
    return terms[0], {f"x{i}": t for i, t in enumerate(xs)}


def time_drawing(loss, names, repeats: int = 20) -> tuple[int, float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        g = build_graph([loss], names=names)
        source = to_dot(limit_graph(g)).source
        times.append(time.perf_counter() - start)
    assert source.startswith("digraph")
    return len(g.nodes), statistics.median(times)


def time_steps(make) -> tuple[int, float, float]:
    loss, names = make()
    stepper = BackwardStepper(loss, names=names)
    times = []
    while stepper.step_index < stepper.total_steps:
        start = time.perf_counter()
        stepper.step()
        times.append(time.perf_counter() - start)
        kinds = {s["kind"] for s in stepper.panel["sections"]}
        assert "contrib" in kinds and ("rule" in kinds or "accumulate" in stepper.panel)
    return len(times), statistics.mean(times), max(times)


def _verdict(value: float, target: float) -> str:
    return "ok" if value < target else "OVER TARGET"


def main() -> None:
    print("minigrad_widgets on 1,000-node graphs")
    for name, make in (("chain", chain), ("wide tree", wide)):
        loss, names = make()
        nodes, seconds = time_drawing(loss, names)
        print(f"  {name:<10} model + DOT, {nodes} nodes: {seconds * 1e3:7.2f} ms "
              f"(target < {DRAW_TARGET * 1e3:.0f} ms) {_verdict(seconds, DRAW_TARGET)}")
    for name, make in (("chain", chain), ("wide tree", wide)):
        steps, mean, worst = time_steps(make)
        print(f"  {name:<10} step(), {steps} steps: mean {mean * 1e3:6.3f} ms, worst "
              f"{worst * 1e3:6.3f} ms (target < {STEP_TARGET * 1e3:.0f} ms) "
              f"{_verdict(mean, STEP_TARGET)}")


if __name__ == "__main__":
    main()
