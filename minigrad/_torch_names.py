"""Classes that print as PyTorch's: ``type(p)`` is ``<class 'torch.nn.parameter.Parameter'>``.

Tutorials print types (``for p in net.parameters(): print(type(p), p.size())``), and a learner
comparing with the tutorial should see the same line. A class made with the metaclass
:class:`TorchNamed` prints the module PyTorch defines it in: minigrad's own module, with
``minigrad`` read as ``torch`` and private parts (``_tensor``) left out, so ``Tensor`` prints
``torch.Tensor``; a class whose file is laid out otherwise names PyTorch's module in
``_torch_module``. A learner's own subclass (``class Net(nn.Module)``) prints as Python prints
it. Only the printed name changes: ``__module__`` stays minigrad's, so ``inspect.getsource``
and the docstring tests still find the code.

>>> import minigrad as torch
>>> type(torch.nn.Parameter(torch.ones(1))), torch.Size
(<class 'torch.nn.parameter.Parameter'>, <class 'torch.Size'>)
>>> torch.nn.Linear
<class 'torch.nn.modules.linear.Linear'>
"""

from __future__ import annotations

__all__ = ["TorchNamed", "torch_name"]


def torch_name(cls: type) -> str:
    """The dotted name PyTorch's class of the same role has (``torch.nn.modules.linear.Linear``)."""
    module = cls.__dict__.get("_torch_module", cls.__module__)
    if module == "minigrad" or module.startswith("minigrad."):
        module = ".".join(["torch"] + [p for p in module.split(".")[1:] if not p.startswith("_")])
    return f"{module}.{cls.__qualname__}"


class TorchNamed(type):
    """The metaclass of minigrad's public classes: ``repr(cls)`` names PyTorch's module."""

    def __repr__(cls) -> str:
        return f"<class '{torch_name(cls)}'>"
