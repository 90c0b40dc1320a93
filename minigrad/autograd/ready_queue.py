"""The engine's ready queue: PyTorch's ``std::priority_queue`` of nodes, as a list.

The node with the highest ``_sequence_nr`` comes out first. Nodes with equal numbers (every
``AccumulateGrad`` carries the same, largest number) come out in the order libstdc++'s binary
heap gives them, which is not insertion order; these two functions do exactly what its
``push_heap`` and ``pop_heap`` do, so that minigrad updates leaves in PyTorch's order.

>>> class N:
...     def __init__(self, seq): self._sequence_nr = seq
>>> heap = []
>>> for seq in (3, 9, 5):
...     heap_push(heap, N(seq))
>>> [heap_pop(heap)._sequence_nr for _ in range(3)]
[9, 5, 3]
"""

from __future__ import annotations

__all__ = ["heap_push", "heap_pop"]


def _sift_up(heap: list, hole: int, node) -> None:
    """libstdc++'s __push_heap: move ``node`` up from ``hole`` past parents it outranks."""
    seq = node._sequence_nr
    while hole > 0:
        parent = (hole - 1) // 2
        if not heap[parent]._sequence_nr < seq:
            break
        heap[hole] = heap[parent]
        hole = parent
    heap[hole] = node


def heap_push(heap: list, node) -> None:
    """libstdc++'s push_heap with PyTorch's comparison (higher sequence number on top)."""
    heap.append(node)
    _sift_up(heap, len(heap) - 1, node)


def heap_pop(heap: list):
    """libstdc++'s pop_heap + pop_back: take the top, re-heap the rest the same way C++ does."""
    top = heap[0]
    value = heap.pop()
    n = len(heap)
    if n == 0:
        return top
    hole = second = 0  # __adjust_heap: walk the hole down to a leaf along the larger children
    while second < (n - 1) // 2:
        second = 2 * (second + 1)
        if heap[second]._sequence_nr < heap[second - 1]._sequence_nr:
            second -= 1
        heap[hole] = heap[second]
        hole = second
    if n & 1 == 0 and second == (n - 2) // 2:
        second = 2 * (second + 1)
        heap[hole] = heap[second - 1]
        hole = second - 1
    _sift_up(heap, hole, value)  # then put the last element back in from there
    return top
