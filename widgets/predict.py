"""Prediction mode: the learner names the node they think runs next; was it, and why?

The rule that decides is the engine's: a node is *ready* once every node that sends it a
gradient has run; of the ready nodes, a leaf's ``AccumulateGrad`` goes first, then the node
created last in the forward pass (PyTorch's ``sequence_nr``). Two ready leaves are a tie:
every ``AccumulateGrad`` has the same priority, and which one the engine's priority queue (a
binary heap) hands out first is an accident of the heap, not a rule a learner can know. So
any ready leaf is a right guess while leaves are ready; the stepper then runs the engine's
steps up to and including that leaf (each one a ready leaf, all counted right), and says
that it was a tie. :func:`judge` says which rule settles the learner's guess.
"""

from __future__ import annotations

from typing import NamedTuple

from ._format import is_leaf_node, is_tensor

__all__ = ["Score", "senders_of", "judge", "resolve", "ready_leaves", "same_node"]


class Score(NamedTuple):
    """Predictions right so far, of those asked (one per step: the first guess counts)."""

    right: int
    asked: int

    def __str__(self) -> str:
        return f"{self.right}/{self.asked}"


def senders_of(order) -> dict:
    """node -> the nodes of ``order`` that send it a gradient (its consumers in the forward)."""
    senders: dict = {}
    for node in order:
        for child, _ in node.next_functions:
            if child is not None:
                senders.setdefault(child, []).append(node)
    return senders


def resolve(view, graph, guess) -> list:
    """The autograd nodes a guess can mean: a node id (``"n3"``), a node name
    (``"MulBackward0"``, or as drawn with its tag: ``"MulBackward0 #2"``), a learner's name
    (``"x"``, ``"y"``), a tensor, or a node itself."""
    if is_tensor(guess):
        return [_node_of_tensor(graph, guess)]
    if not isinstance(guess, str):
        return [guess]
    if guess in view.by_id:
        gnode = view.by_id[guess]
        return list(gnode.members) or ([gnode.obj] if gnode.obj is not None else [])
    tensor = graph.names.tensor_named(guess)
    if tensor is not None:
        return [_node_of_tensor(graph, tensor)]
    found = [n.obj for n in graph.nodes if n.obj is not None and n.obj.name() == guess]
    found = found or [n.obj for n in graph.nodes if n.tag and n.label == guess]  # "Mul… #2"
    if not found:
        raise ValueError(f"no node {guess!r} in this graph: give a node id such as 'n1', "
                         "a node name such as 'MulBackward0', or a tensor's name")
    return found


def _node_of_tensor(graph, t):
    """A tensor's node: its ``grad_fn``, or for a leaf its ``AccumulateGrad`` in the graph."""
    if t.grad_fn is not None:
        return t.grad_fn
    for n in graph.nodes:
        if n.kind == "leaf" and n.tensor is t:
            return n.obj
    raise ValueError("this tensor is not part of the graph being stepped through")


def judge(candidates, expected, done: set, planned: list, senders: dict) -> tuple[bool, str, dict]:
    """(right, message key, values) for a guess among ``candidates`` when ``expected`` runs
    next, ``done`` have run and ``planned`` is every node backward runs."""
    if expected in candidates or any(_same(c, expected) for c in candidates):
        if not is_leaf_node(expected):
            return True, "predict.right", {}
        others = [n for n in ready_leaves(done, planned, senders) if not _same(n, expected)]
        return True, ("predict.right_tie" if others else "predict.right_leaf"), {"nodes": others}
    guess = candidates[0]
    if guess in done:
        return False, "predict.already", {}
    if guess not in set(planned):
        return False, "predict.never", {}
    waiting = [s for s in senders.get(guess, []) if s not in done and s in set(planned)]
    if waiting:
        return False, "predict.waiting", {"nodes": waiting}
    if is_leaf_node(expected) and is_leaf_node(guess):  # a tie: the heap's order is no rule
        return True, "predict.tie", {"nodes": [n for n in ready_leaves(done, planned, senders)
                                               if not _same(n, guess)]}
    if is_leaf_node(expected):
        return False, "predict.leaf_first", {}
    return False, "predict.later_first", {}


def ready_leaves(done: set, planned: list, senders: dict) -> list:
    """The leaves (``AccumulateGrad``) whose gradients have all arrived and that have not run:
    the engine may run any of them next."""
    plan = set(planned)
    return [n for n in planned if is_leaf_node(n) and n not in done
            and not any(s not in done and s in plan for s in senders.get(n, []))]


def same_node(a, b) -> bool:
    """One autograd node (two look-ups of one leaf's ``AccumulateGrad`` count as one)."""
    return a is b or _same(a, b)


def _same(a, b) -> bool:
    """Two AccumulateGrad look-ups of one leaf count as the same node."""
    return is_leaf_node(a) and is_leaf_node(b) and a.variable is b.variable
