"""``DataLoader``: batches of samples from a dataset, in order or shuffled.

Everything runs in this process (``num_workers`` is accepted; there are no worker processes).
"""

from __future__ import annotations

import collections.abc

import numpy as np

from ..._creation import _gen, tensor
from ..._sampling import random_default
from ..._tensor import Tensor
from ..._torch_names import TorchNamed
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["DataLoader", "default_collate"]


def default_collate(batch):
    """Stack a list of samples into a batch, as PyTorch's ``default_collate`` does.

    Tensors are stacked; numbers and NumPy arrays become tensors; tuples and lists are
    collated position by position (a tuple gives a list); dicts key by key.
    """
    from ..._ops.join import stack

    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(list(batch), 0)
    if isinstance(elem, np.ndarray):
        return stack([tensor(b) for b in batch], 0)
    if isinstance(elem, (bool, int, float, np.number)):
        return tensor(np.array(batch))
    if isinstance(elem, (str, bytes)):
        return list(batch)
    if isinstance(elem, collections.abc.Mapping):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, collections.abc.Sequence):
        if any(len(b) != len(elem) for b in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        columns = [default_collate(list(samples)) for samples in zip(*batch)]
        return columns if isinstance(elem, tuple) else type(elem)(columns)
    raise TypeError("default_collate: batch must contain tensors, numpy arrays, numbers, dicts "
                    f"or lists; found {type(elem)}")


def _convert(sample):
    """What ``batch_size=None`` yields for a sample: NumPy arrays become tensors."""
    if isinstance(sample, np.ndarray):
        return tensor(sample)
    if isinstance(sample, tuple):
        return [_convert(s) for s in sample]
    return sample


class DataLoader(metaclass=TorchNamed):
    """Iterate over ``dataset`` in batches of ``batch_size`` (shuffled each epoch if asked).

    ``generator`` makes the shuffling repeatable; ``drop_last`` drops a final short batch.
    """

    def __init__(self, dataset, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler=None, batch_sampler=None, num_workers: int = 0, collate_fn=None,
                 pin_memory: bool = False, drop_last: bool = False, timeout: float = 0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        self.dataset, self.num_workers = dataset, num_workers
        self.batch_size, self.drop_last, self.generator = batch_size, drop_last, generator
        self._iterable = isinstance(dataset, IterableDataset)
        if sampler is None and not self._iterable:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.sampler, self.batch_sampler = sampler, batch_sampler
        self.collate_fn = collate_fn or (default_collate if self._auto_batch else _convert)

    @property
    def _auto_batch(self) -> bool:
        return self.batch_sampler is not None or (self._iterable and self.batch_size is not None)

    def __iter__(self):
        # Each iter() draws a base seed for worker processes, as PyTorch's does (workers or not):
        # it moves the generator, so the random numbers that follow stay PyTorch's.
        random_default(_gen(self.generator), 1, "int64")
        if self._iterable:
            return self._iter_stream()
        if self.batch_sampler is not None:
            return (self.collate_fn([self.dataset[i] for i in b]) for b in self.batch_sampler)
        return (self.collate_fn(self.dataset[i]) for i in self.sampler)

    def _iter_stream(self):
        if self.batch_size is None:
            yield from (self.collate_fn(s) for s in self.dataset)
            return
        batch = []
        for sample in self.dataset:
            batch.append(sample)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)
