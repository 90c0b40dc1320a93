"""``torch.utils.data``: datasets, samplers and ``DataLoader``.

>>> import minigrad as torch
>>> from minigrad.utils.data import DataLoader, TensorDataset
>>> ds = TensorDataset(torch.arange(6.).reshape(3, 2), torch.tensor([0, 1, 0]))
>>> [y for _, y in DataLoader(ds, batch_size=2)]
[tensor([0, 1]), tensor([0])]
"""

from .dataloader import DataLoader, default_collate
from .dataset import (
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset",
           "random_split", "DataLoader", "default_collate", "Sampler", "SequentialSampler",
           "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler", "BatchSampler"]
