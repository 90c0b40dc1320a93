"""``torch.autograd.graph.register_multi_grad_hook``: one hook for the gradients of several
tensors, called once all of them that take part in a backward pass are computed.

>>> import minigrad as torch
>>> a, b = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
>>> seen = []
>>> h = torch.autograd.graph.register_multi_grad_hook((a, b), lambda gs: seen.append(
...     [None if g is None else g.tolist() for g in gs]))
>>> (a * 2 + b * 3).sum().backward()
>>> seen
[[[2.0, 2.0], [3.0, 3.0]]]
"""

from __future__ import annotations

__all__ = ["register_multi_grad_hook"]


class _Handles:
    def __init__(self, handles) -> None:
        self.handles = handles

    def remove(self) -> None:
        for h in self.handles:
            h.remove()


def register_multi_grad_hook(tensors, fn, *, mode: str = "all"):
    """Call ``fn(grads)`` (a tuple, ``None`` for tensors without a gradient) once the gradients
    of ``tensors`` are computed; with ``mode="any"``, ``fn(grad)`` for the first one."""
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    grads: dict[int, object] = {}
    fired = []

    def make_hook(i):
        def hook(grad):
            if mode == "any":
                if not fired:
                    fired.append(True)
                    fn(grad)
                return None
            grads[i] = grad
            if len(grads) == _expected(tensors):
                fn(tuple(grads.get(k) for k in range(len(tensors))))
                grads.clear()
            return None

        return hook

    return _Handles([t.register_hook(make_hook(i)) for i, t in enumerate(tensors)
                     if t.requires_grad])


def _expected(tensors) -> int:
    return sum(1 for t in tensors if t.requires_grad)
