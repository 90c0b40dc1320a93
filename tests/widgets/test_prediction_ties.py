"""The prediction quiz never grades a heap tie: at each step it accepts exactly the nodes
PyTorch's engine could run next, and nothing else.

PyTorch's ready queue pops the ready node with the highest ``sequence_nr``; every
``AccumulateGrad`` has the same one (2⁶⁴ − 1), so two ready leaves are a tie that the heap
breaks by accident. The model here reads only the graph and ``_sequence_nr`` (of real PyTorch
or of minigrad), not the widget's rule, and every path of right guesses is walked: at each
state every node of the graph is guessed on a fresh quiz, and it must be accepted exactly
when it is one of the model's candidates.
"""

from __future__ import annotations

import pytest
from minigrad_widgets import BackwardStepper

import minigrad

PROGRAMS = {  # a name for the test id -> build(lib) -> (output, {name: leaf})
    "a*b+a (lesson 3)": lambda L, a, b, c, d: (a * b + a, {"a": a, "b": b}),
    "x*w, y*y+w": lambda L, a, b, c, d: ((a * b) * (a * b) + b, {"a": a, "b": b}),
    "a*b+c*d": lambda L, a, b, c, d: (a * b + c * d, {"a": a, "b": b, "c": c, "d": d}),
    "(a*b*c).sum() three leaves": lambda L, a, b, c, d: ((a * b * c).sum(),
                                                         {"a": a, "b": b, "c": c}),
    "a*b*c*d": lambda L, a, b, c, d: (a * b * c * d, {"a": a, "b": b, "c": c, "d": d}),
}


def _build(lib, program):
    a, b, c, d = (lib.tensor(v, requires_grad=True) for v in (2., -3., 0.5, 4.))
    return PROGRAMS[program](lib, a, b, c, d)


def _seq(node) -> int:
    nr = node._sequence_nr
    return nr() if callable(nr) else nr


def _key(node):
    variable = getattr(node, "variable", None)
    return ("leaf", id(variable)) if variable is not None else ("node", id(node))


def _nodes(output) -> list:
    """The graph's nodes in a fixed depth-first order (one entry per leaf), so that position i
    is the same node in every fresh build of a program."""
    order, seen, stack = [], set(), [output.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or _key(node) in seen:
            continue
        seen.add(_key(node))
        order.append(node)
        stack.extend(child for child, _ in reversed(node.next_functions))
    return order


def _candidates(nodes, done: set) -> set:
    """What the engine could run next: the ready nodes of the highest sequence number."""
    index = {_key(n): i for i, n in enumerate(nodes)}
    senders = {i: set() for i in range(len(nodes))}
    for i, node in enumerate(nodes):
        for child, _ in node.next_functions:
            if child is not None:
                senders[index[_key(child)]].add(i)
    ready = [i for i in range(len(nodes)) if i not in done and senders[i] <= done]
    top = max(_seq(nodes[i]) for i in ready)
    return {i for i in ready if _seq(nodes[i]) == top}


def _quiz(lib, program, path):
    """A fresh quiz on a fresh graph, after the right guesses ``path`` (node positions)."""
    output, names = _build(lib, program)
    nodes = _nodes(output)
    quiz = BackwardStepper(output, predict=True, names=names)
    for i in path:
        before = quiz.score.right
        quiz.predict(nodes[i])
        assert quiz.score.right > before, (path, i)
    return quiz, nodes


def _done(quiz, nodes) -> set:
    index = {_key(n): i for i, n in enumerate(nodes)}
    # the stepper's record of the steps taken (the test reads which node each step ran)
    return {index[_key(rec.node)] for rec in quiz._log.records[:quiz.step_index]}


def _walk(lib, program, path=()) -> int:
    quiz, nodes = _quiz(lib, program, path)
    done = _done(quiz, nodes)
    if len(done) == len(nodes):
        assert quiz.score == (len(nodes), len(nodes))
        return 1
    candidates = _candidates(nodes, done)
    for i in range(len(nodes)):
        if i in done:
            continue
        fresh, fresh_nodes = _quiz(lib, program, path)
        before = fresh.score
        message = fresh.predict(fresh_nodes[i])
        accepted = fresh.score.right > before.right
        assert accepted == (i in candidates), (program, path, i, message)
        if accepted:  # it ran, and so did only other candidates (the heap's tie order)
            ran = _done(fresh, fresh_nodes) - done
            assert i in ran and ran <= candidates, (program, path, i, ran)
            assert ("tie" in message) == (len(candidates) > 1), message
    return sum(_walk(lib, program, (*path, i)) for i in sorted(candidates))


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_the_quiz_accepts_exactly_what_pytorchs_engine_could_run_next(torch, program):
    paths = _walk(torch, program)
    assert paths >= 1


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_the_quiz_on_minigrad_accepts_exactly_the_ready_nodes_of_top_priority(program):
    paths = _walk(minigrad, program)
    assert paths >= 1


def test_after_mul_either_leaf_of_lesson_3s_quiz_is_right_in_both_languages(torch):
    for lib in (minigrad, torch):
        for order in (("a", "b"), ("b", "a")):
            for lang, word in (("en", "tie"), ("zh", "哪个先都算对")):
                output, names = _build(lib, "a*b+a (lesson 3)")
                quiz = BackwardStepper(output, predict=True, names=names, lang=lang)
                messages = [quiz.predict(g) for g in ("AddBackward0", "MulBackward0", *order)]
                assert quiz.score == (4, 4) and quiz.step_index == quiz.total_steps == 4
                assert word in messages[2], messages
