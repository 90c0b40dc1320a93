"""Sampling: ``normal``, ``randperm``, ``bernoulli``, ``multinomial`` and the in-place
``normal_``/``uniform_``/``bernoulli_``/``random_``/``exponential_``, each taking ``generator=``.

Samples are not differentiable in PyTorch: ``normal(mean, std)`` records ``NormalBackward1/2/3``
whose gradient for ``mean`` and ``std`` is zero (no reparameterisation), and ``x.normal_()``
records ``NormalBackward0`` (zero gradient for ``x``). minigrad does the same.

The numbers come from minigrad's generator (NumPy's PCG64), not PyTorch's: seeding makes a
program repeatable, but it does not draw PyTorch's values.

>>> import minigrad as torch
>>> g = torch.Generator().manual_seed(0)
>>> sorted(torch.randperm(4, generator=g).tolist())
[0, 1, 2, 3]
>>> torch.normal(torch.zeros(3, requires_grad=True), 1.).grad_fn.name()
'NormalBackward1'
"""

from __future__ import annotations

import numpy as np

from ._creation import _finish, _gen, _np, _size
from ._dtype import int64
from ._ops.inplace import apply_inplace
from ._tensor import Tensor
from .autograd.graph import Node, record, should_record

__all__ = ["normal", "randperm", "bernoulli", "multinomial", "poisson"]


# ---------------------------------------------------------------- nodes: samples have zero grads
def _zeros(g):
    return Tensor._wrap(np.zeros_like(g._data)) if isinstance(g, Tensor) else np.zeros_like(g)


class NormalBackward0(Node):
    """z = self.normal_():  z no longer depends on self; dz/dself = 0."""

    def backward(self, g):
        return (_zeros(g),)


class NormalBackward1(Node):
    """z = normal(mean, float std):  dz/dmean = 0 (a sample is not reparameterised)."""

    def backward(self, g):
        return (_zeros(g),)


class NormalBackward2(NormalBackward1):
    """z = normal(float mean, std):  dz/dstd = 0."""


class NormalBackward3(Node):
    """z = normal(mean, std):  dz/dmean = dz/dstd = 0."""

    def backward(self, g):
        return _zeros(g), _zeros(g)


class UniformBackward0(NormalBackward0):
    """z = self.uniform_():  dz/dself = 0."""


class BernoulliBackward0(NormalBackward0):
    """z = self.bernoulli_(p):  dz/dself = 0."""


class RandomBackward0(NormalBackward0):
    """z = self.random_():  dz/dself = 0."""


class ExponentialBackward0(NormalBackward0):
    """z = self.exponential_():  dz/dself = 0."""


# ---------------------------------------------------------------- normal
def _check_std(std) -> None:
    low = std._data.min(initial=0.0) if isinstance(std, Tensor) else std
    if low < 0:
        if isinstance(std, Tensor):
            raise RuntimeError("normal expects all elements of std >= 0.0")
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, device=None,
           requires_grad: bool = False, out=None) -> Tensor:
    """Samples from normal distributions of the given ``mean`` and ``std`` (numbers or tensors).

    With two numbers, ``size`` gives the shape; with tensors, their broadcast shape.
    """
    tm, ts = isinstance(mean, Tensor), isinstance(std, Tensor)
    _check_std(std)
    rng = _gen(generator)
    if not (tm or ts):
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments - got "
                            "(float, float), but expected a size")
        data = rng.normal(mean, std, _size((size,))).astype(_np(dtype))
        return _finish(data, requires_grad, device)
    if tm and ts and mean.numel() != std.numel() and mean.shape != std.shape:
        raise RuntimeError(f"The size of tensor a ({mean.shape[-1]}) must match the size of "
                           f"tensor b ({std.shape[-1]}) at non-singleton dimension 0")
    m = mean._data if tm else mean
    s = std._data if ts else std
    like = mean if tm else std
    shape = np.broadcast_shapes(np.shape(m), np.shape(s))
    data = (m + s * rng.standard_normal(shape)).astype(like._data.dtype)
    inputs = [t for t in (mean, std) if isinstance(t, Tensor)]
    out = Tensor._wrap(data)
    if should_record(*inputs):
        node = (NormalBackward3() if tm and ts else NormalBackward1() if tm else NormalBackward2())
        record(node, out, *inputs, broadcast=True)
    return out


# ---------------------------------------------------------------- permutations and draws
def randperm(n: int, *, generator=None, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """A random permutation of ``0 .. n-1``."""
    if n < 0:
        raise RuntimeError(f"n must be non-negative, got{n}")
    data = _gen(generator).permutation(n).astype((dtype or int64).np)
    return _finish(data, requires_grad, device)


def bernoulli(input, p=None, *, generator=None) -> Tensor:
    """1 with probability ``input`` (elementwise), else 0; same dtype as ``input``."""
    probs = input._data if p is None else np.full_like(input._data, p)
    if probs.size and (probs.min() < 0 or probs.max() > 1):
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could "
                           "this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    data = (_gen(generator).random(probs.shape) < probs).astype(input._data.dtype)
    return Tensor._wrap(data)


def multinomial(input, num_samples: int, replacement: bool = False, *,
                generator=None) -> Tensor:
    """Indices drawn with the (unnormalised) weights in each row of ``input``."""
    w = input._data.astype(np.float64)
    rows = w.reshape(-1, w.shape[-1])
    if not replacement and num_samples > rows.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    rng = _gen(generator)
    out = np.stack([rng.choice(len(r), num_samples, replace=replacement, p=r / r.sum())
                    for r in rows])
    return Tensor._wrap(out.reshape(w.shape[:-1] + (num_samples,)).astype(np.int64))


def poisson(input, generator=None) -> Tensor:
    """Poisson samples with rates ``input``."""
    return Tensor._wrap(_gen(generator).poisson(input._data).astype(input._data.dtype))


# ---------------------------------------------------------------- in-place samplers
def _sampler(node_cls, draw):
    def out_of_place(input, *args, generator=None):
        data = draw(_gen(generator), input._data.shape, *args).astype(input._data.dtype)
        out = Tensor._wrap(data)
        return record(node_cls(), out, input) if should_record(input) else out

    def sample_(self, *args, generator=None):
        return apply_inplace(self, out_of_place, *args, generator=generator)

    return sample_


def _random_ints(rng, shape, low=None, high=None):
    if low is None:
        low, high = 0, 2**24
    elif high is None:
        low, high = 0, low
    return rng.integers(low, high, size=shape)


Tensor.normal_ = (_sampler(
    NormalBackward0, lambda rng, shape, mean=0.0, std=1.0: rng.normal(mean, std, shape)))
Tensor.uniform_ = (_sampler(
    UniformBackward0, lambda rng, shape, a=0.0, b=1.0: rng.uniform(a, b, shape)))
Tensor.bernoulli_ = (_sampler(
    BernoulliBackward0, lambda rng, shape, p=0.5: rng.random(shape) < p))
Tensor.exponential_ = (_sampler(
    ExponentialBackward0, lambda rng, shape, lambd=1.0: rng.exponential(1 / lambd, shape)))
Tensor.random_ = (_sampler(RandomBackward0, _random_ints))
Tensor.bernoulli = bernoulli
Tensor.multinomial = multinomial


# ---------------------------------------------------------------- new_* factories
def _new(fill):
    def new(self, *size, dtype=None, device=None, requires_grad: bool = False):
        data = fill(_size(size), (dtype or self.dtype).np)
        return _finish(data, requires_grad, device)

    return new


Tensor.new_zeros = _new(np.zeros)
Tensor.new_ones = _new(np.ones)
Tensor.new_empty = _new(np.zeros)


def new_full(self, size, fill_value, *, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """A tensor of ``size`` filled with ``fill_value``, with this tensor's dtype by default."""
    from ._tensor_data import fill_value as checked

    d = dtype or self.dtype
    data = np.full(_size((size,)), checked(fill_value, d, "new_full"), d.np)
    return _finish(data, requires_grad, device)


def new_tensor(self, data, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A copy of ``data`` as a new leaf, with this tensor's dtype by default."""
    from ._creation import tensor

    return tensor(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


Tensor.new_full = new_full
Tensor.new_tensor = new_tensor
