"""Sampling: ``normal``, ``randperm``, ``bernoulli``, ``multinomial`` and the in-place
``normal_``/``uniform_``/``bernoulli_``/``random_``/``exponential_``, each taking ``generator=``.

Samples are not differentiable in PyTorch: ``normal(mean, std)`` records ``NormalBackward1/2/3``
whose gradient for ``mean`` and ``std`` is zero (no reparameterisation), and ``x.normal_()``
records ``NormalBackward0`` (zero gradient for ``x``). minigrad does the same.

The numbers are PyTorch's: the generator is PyTorch's CPU Mersenne Twister (``_mt19937``) and
each sampler draws from it as PyTorch's CPU kernel does (``_sampling``), so after the same
``manual_seed`` both libraries print the same samples.

>>> import minigrad as torch
>>> g = torch.Generator().manual_seed(0)
>>> torch.randperm(4, generator=g)
tensor([0, 1, 3, 2])
>>> torch.normal(torch.zeros(3, requires_grad=True), 1.).grad_fn.name()
'NormalBackward1'
"""

from __future__ import annotations

import math

import numpy as np

from . import _cpu, _sampling
from ._creation import _finish, _gen, _np, _size
from ._dtype import int64
from ._ops.inplace import apply_inplace
from ._tensor import Tensor
from .autograd._rule import _r
from .autograd.graph import Node, record, should_record

__all__ = ["normal", "randperm", "bernoulli", "multinomial", "poisson"]


# ---------------------------------------------------------------- nodes: samples have zero grads
class NormalBackward0(Node):
    """The node of ``self.normal_()``: the result no longer depends on ``self``."""

    rule = _r("a.normal_(mean, std)  (in place)", a="zeros_like(grad)")


class NormalBackward1(Node):
    """The node of ``normal(mean, std)`` with a number ``std`` (a sample is not
    reparameterised: its gradient is zero)."""

    rule = _r("z = normal(mean, std)  (std a number)", mean="zeros_like(grad)")


class NormalBackward2(Node):
    """The node of ``normal(mean, std)`` with a number ``mean``."""

    rule = _r("z = normal(mean, std)  (mean a number)", std="zeros_like(grad)")


class NormalBackward3(Node):
    """The node of ``normal(mean, std)`` of two tensors."""

    rule = _r("z = normal(mean, std)", mean="zeros_like(grad)", std="zeros_like(grad)")


class PoissonBackward0(Node):
    """The node of ``poisson(rates)``."""

    rule = _r("z = poisson(rates)", rates="zeros_like(grad)")


class UniformBackward0(Node):
    """The node of ``self.uniform_()``."""

    rule = _r("a.uniform_(low, high)  (in place)", a="zeros_like(grad)")


class BernoulliBackward0(Node):
    """The node of ``self.bernoulli_(p)``."""

    rule = _r("a.bernoulli_(p)  (in place)", a="zeros_like(grad)")


class RandomBackward0(Node):
    """The node of ``self.random_()``."""

    rule = _r("a.random_(low, high)  (in place)", a="zeros_like(grad)")


class ExponentialBackward0(Node):
    """The node of ``self.exponential_()``."""

    rule = _r("a.exponential_(rate)  (in place)", a="zeros_like(grad)")


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

    With two numbers, ``size`` gives the shape; with tensors, their broadcast shape. As in
    PyTorch, standard samples are drawn first, then scaled by ``std`` and shifted by ``mean``.
    """
    tm, ts = isinstance(mean, Tensor), isinstance(std, Tensor)
    _check_std(std)
    gen = _gen(generator)
    if not (tm or ts):
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments - got "
                            "(float, float), but expected a size")
        shape = _size((size,))
        np_dtype = _sampling.float_kernel("normal_kernel_cpu", _np(dtype))
        data = _sampling.normal(gen, math.prod(shape), np_dtype, mean, std)
        return _finish(data.reshape(shape), requires_grad, device)
    if tm and ts and mean.numel() != std.numel() and mean.shape != std.shape:
        raise RuntimeError(f"The size of tensor a ({mean.shape[-1]}) must match the size of "
                           f"tensor b ({std.shape[-1]}) at non-singleton dimension 0")
    m = mean._data if tm else mean
    s = std._data if ts else std
    like = (mean if tm else std)._data.dtype
    shape = np.broadcast_shapes(np.shape(m), np.shape(s))
    if ts:  # normal_(0, 1), then mul_(std), add_(mean)
        z = _sampling.normal(gen, math.prod(shape), like).reshape(shape)
        data = (z * np.asarray(s, like)).astype(like) + np.asarray(m, like)
    else:   # normal_(0, std), then add_(mean)
        z = _sampling.normal(gen, math.prod(shape), like, 0.0, s).reshape(shape)
        data = z + np.asarray(m, like)
    inputs = [t for t in (mean, std) if isinstance(t, Tensor)]
    out = Tensor._wrap(data.astype(like))
    if should_record(*inputs):
        node = (NormalBackward3() if tm and ts else NormalBackward1() if tm else NormalBackward2())
        record(node, out, *inputs, broadcast=True)
    return out


# ---------------------------------------------------------------- permutations and draws
def randperm(n: int, *, generator=None, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """A random permutation of ``0 .. n-1``."""
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    data = _sampling.randperm(_gen(generator), n).astype((dtype or int64).np)
    return _finish(data, requires_grad, device)


def _check_p(probs) -> None:
    if probs.size and (probs.min() < 0 or probs.max() > 1):
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could "
                           "this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")


def bernoulli(input, p=None, *, generator=None) -> Tensor:
    """1 with probability ``input`` (elementwise), else 0; same dtype as ``input``."""
    if p is not None:
        return Tensor._wrap(np.empty_like(input._data)).bernoulli_(p, generator=generator)
    _check_p(input._data)
    data = _sampling.bernoulli(_gen(generator), input._data)
    return Tensor._wrap(data.astype(input._data.dtype))


def _check_weights(w: np.ndarray, num_samples: int, replacement: bool) -> None:
    if w.dtype.kind != "f":
        from ._dtype import from_numpy_dtype

        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: "
                           f"{from_numpy_dtype(w.dtype)._legacy_name[:-6]}")
    if w.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > w.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if w.size and not (np.isfinite(w).all() and w.min() >= 0):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if w.size and (w.sum(-1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


def multinomial(input, num_samples: int, replacement: bool = False, *,
                generator=None) -> Tensor:
    """Indices drawn with the (unnormalised) weights in each row of ``input``."""
    w = input._data
    _check_weights(w, num_samples, replacement)
    rows = np.ascontiguousarray(w.reshape(-1, w.shape[-1]))
    out = _sampling.multinomial(_gen(generator), rows, num_samples, replacement)
    return Tensor._wrap(out.reshape(w.shape[:-1] + (num_samples,)).astype(np.int64))


def poisson(input, generator=None) -> Tensor:
    """Poisson samples with rates ``input``."""
    rates = input._data
    if rates.size and not rates.min() >= 0:
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    out = Tensor._wrap(_sampling.poisson(_gen(generator), rates).astype(rates.dtype))
    return record(PoissonBackward0(), out, input) if should_record(input) else out


# ---------------------------------------------------------------- in-place samplers
def _sampler(node_cls, draw):
    """An in-place sampler ``x.<name>_(*args, generator=None)``: ``draw(generator, x._data,
    *args)`` gives the new values, written in place and recorded as PyTorch records them."""
    def out_of_place(input, *args, generator=None):
        data = draw(_gen(generator), input._data, *args).astype(input._data.dtype)
        out = Tensor._wrap(data)
        return record(node_cls(), out, input) if should_record(input) else out

    def sample_(self, *args, generator=None):
        return apply_inplace(self, out_of_place, *args, generator=generator)

    return sample_


def uniform_values(gen, target: np.ndarray, a=0.0, b=1.0) -> np.ndarray:
    """What ``target.uniform_(a, b)`` writes (PyTorch's draws, in memory order)."""
    dtype = _sampling.float_kernel("check_uniform_bounds", target.dtype)
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={a:g} > to={b:g}")
    return _sampling.in_memory_order(target, lambda n, *_: _sampling.uniform(gen, n, dtype, a, b))


def normal_values(gen, target: np.ndarray, mean=0.0, std=1.0) -> np.ndarray:
    """What ``target.normal_(mean, std)`` writes (PyTorch's draws, in memory order)."""
    dtype = _sampling.float_kernel("normal_kernel_cpu", target.dtype)
    _check_std(std)
    return _sampling.in_memory_order(
        target, lambda n, contiguous, _: _sampling.normal(gen, n, dtype, mean, std, contiguous))


def _bernoulli_values(gen, target: np.ndarray, p=0.5) -> np.ndarray:
    if not isinstance(p, Tensor):
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
        if _cpu.MKL_BERNOULLI:  # MKL fills a contiguous buffer, copied in C order
            return _sampling.bernoulli_scalar(gen, target.size, p).reshape(target.shape)
        return _sampling.in_memory_order(
            target, lambda n, *_: _sampling.bernoulli_scalar(gen, n, p))
    probs = np.broadcast_to(p._data, target.shape)
    _check_p(probs)
    return _sampling.in_memory_order(
        target, lambda n, _, p_flat: _sampling.bernoulli(gen, p_flat), probs)


def _random_values(gen, target: np.ndarray, low=None, high=None) -> np.ndarray:
    if low is None:
        return _sampling.in_memory_order(
            target, lambda n, *_: _sampling.random_default(gen, n, target.dtype))
    low, high = (0, low) if high is None else (low, high)
    return _sampling.in_memory_order(
        target, lambda n, *_: _sampling.random_ints(gen, n, int(low), int(high)))


def _exponential_values(gen, target, lambd=1.0):
    return _sampling.in_memory_order(target, lambda n, *_: _sampling.exponential(gen, n, lambd))


Tensor.normal_ = _sampler(NormalBackward0, normal_values)
Tensor.uniform_ = _sampler(UniformBackward0, uniform_values)
Tensor.bernoulli_ = _sampler(BernoulliBackward0, _bernoulli_values)
Tensor.exponential_ = _sampler(ExponentialBackward0, _exponential_values)
Tensor.random_ = _sampler(RandomBackward0, _random_values)
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
