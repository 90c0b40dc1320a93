"""Hook handles: ``RemovableHandle`` and the ordered hook dicts that hand them out.

As in ``torch.utils.hooks``, this module depends on nothing else in the package, so that both
``Tensor`` and the graph's ``Node`` can keep hooks without importing each other.

>>> hooks = Hooks()
>>> handle = hooks.add(print)
>>> len(hooks); handle.remove(); len(hooks)
1
0
"""

from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict

__all__ = ["RemovableHandle", "Hooks"]


class RemovableHandle:
    """Returned by ``register_hook``; ``handle.remove()`` takes the hook away again."""

    _next_id = itertools.count()

    def __init__(self, hooks: dict):
        self.hooks_dict_ref = weakref.ref(hooks)
        self.id = next(RemovableHandle._next_id)

    def remove(self) -> None:
        hooks = self.hooks_dict_ref()
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


class Hooks(OrderedDict):
    """An ordered id -> hook mapping that hands out removable handles."""

    def add(self, fn) -> RemovableHandle:
        handle = RemovableHandle(self)
        self[handle.id] = fn
        return handle
