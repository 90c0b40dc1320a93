"""``saved_tensors_hooks``: choose how the tensors a node saves for backward are kept.

Inside ``saved_tensors_hooks(pack_hook, unpack_hook)`` every tensor an op saves for its
backward is given to ``pack_hook`` (in no_grad mode), and the node keeps what it returns. When
the backward (or ``grad_fn._saved_<name>``) needs the tensor, ``unpack_hook`` gets that object
back and must return a tensor with the same values. The innermost pair of hooks is the one used.
minigrad's hooks apply to every thread (PyTorch keeps them per thread).

>>> import minigrad as torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> log = []
>>> def pack(t):
...     log.append("pack")
...     return t.numpy().copy()
>>> def unpack(a):
...     log.append("unpack")
...     return torch.from_numpy(a)
>>> with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
...     y = (x * x).sum()
>>> y.backward()
>>> log, x.grad
(['pack', 'pack', 'unpack', 'unpack'], tensor([2., 4.]))
"""

from __future__ import annotations

import contextlib

from .saved import default_hooks

__all__ = ["saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks"]

_disabled: list = []  # the error message while disable_saved_tensors_hooks is active


class saved_tensors_hooks:
    """Context manager: tensors saved for backward inside it go through ``pack_hook`` and come
    back through ``unpack_hook``.

    Raises ``RuntimeError`` (with the message given there) inside
    ``disable_saved_tensors_hooks``. See the module docstring for an example.
    """

    def __init__(self, pack_hook, unpack_hook) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        if _disabled:
            raise RuntimeError(_disabled[-1])
        default_hooks.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *args: object) -> None:
        default_hooks.pop()


class save_on_cpu(saved_tensors_hooks):
    """Keep saved tensors on the CPU (where minigrad's tensors always are) and move them back
    to their device for backward.

    >>> import minigrad as torch
    >>> a = torch.tensor([1., 2.], requires_grad=True)
    >>> with torch.autograd.graph.save_on_cpu():
    ...     y = (a * a).sum()
    >>> y.backward(); a.grad
    tensor([2., 4.])
    """

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor):
            return (tensor.device, tensor.cpu())

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str):
    """Context manager: ``saved_tensors_hooks`` raises ``RuntimeError(error_message)`` inside.

    Entering it while saved tensors hooks are active raises that error at once, as in PyTorch.

    >>> import minigrad as torch
    >>> with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    ...     try:
    ...         with torch.autograd.graph.save_on_cpu():
    ...             pass
    ...     except RuntimeError as e:
    ...         print(e)
    no hooks here
    """
    _disabled.append(error_message)
    try:
        if default_hooks:
            raise RuntimeError(error_message)
        yield
    finally:
        _disabled.pop()
