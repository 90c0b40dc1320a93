"""``minigrad.nn``: layers, losses and the ``Module`` base class, as ``torch.nn``.

>>> import minigrad as torch
>>> from minigrad import nn
>>> model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
>>> model
Sequential(
  (0): Linear(in_features=2, out_features=4, bias=True)
  (1): ReLU()
  (2): Linear(in_features=4, out_features=1, bias=True)
)
>>> list(model.state_dict())
['0.weight', '0.bias', '2.weight', '2.bias']
"""

from . import functional, init, modules
from .modules import *  # noqa: F403  (every layer, as torch.nn does; the list is modules.__all__)
from .parameter import Parameter

__all__ = ["Parameter", "functional", "init", *modules.__all__]
