"""How ``AccumulateGrad`` stores a leaf's ``.grad``, against PyTorch: the first gradient is
kept (stolen) when no other tensor object holds it and it obeys the layout contract (for each
dimension of the gradient, size other than 1: the leaf's stride at that index; size 1: a
stride other than 0), else copied into the leaf's shape and strides (broadcast as ``copy_``
does, when an in-place shape op changed the leaf since its node was made); a kept gradient
shares its memory and version counter with the tensor it views; later gradients are added in
place. Each snippet sets ``out`` to what a learner can see: shapes, strides, values, versions,
whether two tensors share memory (``data_ptr``), ``grad_fn`` names."""

from __future__ import annotations

import warnings

import pytest
from helpers import mg, snippet_outcome

pytestmark = pytest.mark.torch

PRELUDE = """
import numpy as np
def seen(t):
    return None if t is None else (tuple(t.shape), t.stride(), t.tolist(), t._version,
                                   type(t.grad_fn).__name__ if t.grad_fn is not None else None)
def same(a, b):
    return a.data_ptr() == b.data_ptr()
"""

SNIPPETS = {
    # in-place shape changes of the leaf under no_grad, then backward
    "unsqueeze_ after index_put (fuzz seed 1850)": """
v2 = lib.tensor(np.array([1.2107884], dtype='float32'), requires_grad=True)
v20 = v2.index_put((lib.tensor([0]),), v2)
with lib.no_grad(): v2.unsqueeze_(0)
sum(r.double().sum() for r in [v20]).backward()
out = seen(v2.grad)""",
    "unsqueeze_: the gradient copied into the new shape": """
x = lib.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
with lib.no_grad(): x.unsqueeze_(0)
y.sum().backward()
out = seen(x.grad), x.stride()""",
    "squeeze_: a gradient that obeys the contract is kept in its old shape": """
x = lib.tensor([[1.], [2.], [3.]], requires_grad=True)
y = x * 2
with lib.no_grad(): x.squeeze_(1)
y.sum().backward()
out = seen(x.grad)""",
    "t_: the copy into the new shape fails as copy_ does": """
x = lib.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
y = x * 2
with lib.no_grad(): x.t_()
y.sum().backward()
out = seen(x.grad)""",
    "transpose_ of a square leaf: copied into its strides": """
x = lib.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x * lib.tensor([[1., 10.], [100., 1000.]])
with lib.no_grad(): x.transpose_(0, 1)
y.sum().backward()
out = seen(x.grad)""",
    "a 0-d gradient of a leaf whose .data grew: kept 0-d (fuzz seed 6022)": """
x = lib.tensor(np.array(-3.5, dtype='float64'), requires_grad=True)
y = lib.stack([x, x.asin()], -1)
x.data = lib.tensor([[1., 2.], [3., 4.]])
y.double().sum().backward()
out = tuple(x.grad.shape), x.grad.dtype, x.shape""",
    "a 0-d gradient through stack, one path: kept 0-d": """
x = lib.tensor(np.array(0.5, dtype='float32'), requires_grad=True)
y = lib.stack([x, x * 2])
with lib.no_grad(): x.unsqueeze_(0)
y.sum().backward()
out = seen(x.grad)""",
    "an empty leaf unsqueezed (fuzz seed 3589)": """
v1 = lib.tensor(np.zeros((2, 0), dtype='float32'), requires_grad=True)
v14 = v1[-2, 1:]
with lib.no_grad(): v1.unsqueeze_(0)
sum(r.double().sum() for r in [v14]).backward()
out = tuple(v1.grad.shape)""",
    "unsqueeze_ with create_graph": """
x = lib.tensor([1., 2., 3.], requires_grad=True)
y = (x * x).sum()
with lib.no_grad(): x.unsqueeze_(0)
y.backward(create_graph=True)
out = seen(x.grad)""",
    "squeeze_ with create_graph": """
x = lib.tensor([[1.], [2.], [3.]], requires_grad=True)
y = (x * x).sum()
with lib.no_grad(): x.squeeze_(1)
y.backward(create_graph=True)
out = seen(x.grad)""",
    "unsqueeze_, then a second backward adds in place": """
x = lib.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
with lib.no_grad(): x.unsqueeze_(0)
y.sum().backward(retain_graph=True)
g = x.grad
y.sum().backward()
out = seen(x.grad), same(g, x.grad)""",
    # gradients that arrive with stride 0 (expand, sum, stack, cat, index)
    "a one-element leaf through double() and sum(): stride 0, copied": """
x = lib.tensor([[3.]], requires_grad=True)
x.double().sum().backward()
out = seen(x.grad)""",
    "stack of 0-d leaves: both keep views of one element (fuzz seed 5958)": """
a = lib.tensor(4.4, requires_grad=True)
b = lib.tensor(-0.9, requires_grad=True)
s = lib.stack([a, b], -1)
s.sum().backward()
first = same(a.grad, b.grad), a.grad._version
s.double().sum().backward()
out = first, seen(a.grad), seen(b.grad)""",
    "stack of one-element leaves: size 1 with stride 0 is copied": """
a = lib.tensor([4.], requires_grad=True)
b = lib.tensor([5.], requires_grad=True)
lib.stack([a, b]).sum().backward()
out = seen(a.grad), seen(b.grad), same(a.grad, b.grad)""",
    "cat of one-element leaves: copied": """
a = lib.tensor([4.], requires_grad=True)
b = lib.tensor([5.], requires_grad=True)
lib.cat([a, b]).sum().backward()
out = seen(a.grad), seen(b.grad), same(a.grad, b.grad)""",
    "stack then sum(0): rows of one broadcast gradient, kept and shared": """
a = lib.tensor([1., 2., 3.], requires_grad=True)
b = lib.tensor([4., 5., 6.], requires_grad=True)
s = lib.stack([a, b]).sum(0)
s.sum().backward(retain_graph=True)
first = same(a.grad, b.grad), a.grad.stride()
s.sum().backward()
out = first, seen(a.grad), seen(b.grad)""",
    "stack times a tensor: rows of one new gradient, one version counter": """
a = lib.tensor([1., 2., 3.], requires_grad=True)
b = lib.tensor([4., 5., 6.], requires_grad=True)
w = lib.tensor([[1., 2., 3.], [4., 5., 6.]])
(lib.stack([a, b]) * w).sum().backward(retain_graph=True)
first = b.grad.data_ptr() - a.grad.data_ptr(), a.grad._version
(lib.stack([a, b]) * w).sum().backward()
out = first, seen(a.grad), seen(b.grad)""",
    "sums of 0-d leaves: one root gradient, kept by both": """
x = lib.tensor(2., requires_grad=True)
y = lib.tensor(3., requires_grad=True)
(x.sum() + y.sum()).backward()
first = same(x.grad, y.grad)
(x.sum() + y.sum()).backward()
out = first, seen(x.grad), seen(y.grad)""",
    "expand of a one-element leaf: summed, kept": """
x = lib.tensor([2.], requires_grad=True)
x.expand(3).sum().backward()
out = seen(x.grad)""",
    "an indexed leaf: new memory": """
x = lib.tensor([2., 3.], requires_grad=True)
x[[1, 1]].sum().backward()
out = seen(x.grad)[:3]""",  # (not its version: PyTorch's backward wrote it with index_put_)
    "a ZeroTensor gradient of a sliced leaf is kept (fuzz seed 590)": """
x = lib.tensor([[3., -0.1], [-0.4, -0.7]])[::2].requires_grad_()
x.sgn().sum().backward()
out = x.grad.stride(), x.grad._is_zerotensor(), x.grad + 1""",
    # the gradient given to backward
    "a view of the given gradient is kept: memory and version shared": """
a = lib.tensor([1., 2.], requires_grad=True)
g = lib.tensor([[5., 6.]])
a[None].backward(g)
first = same(a.grad, g), g._version
a[None].backward(g)
out = first, seen(g), seen(a.grad)""",
    "the given gradient of a leaf itself is copied": """
a = lib.tensor([1., 2.], requires_grad=True)
g = lib.tensor([5., 6.])
a.backward(g)
out = same(a.grad, g), seen(a.grad), g._version""",
    "sum of a 0-d leaf keeps the given 0-d gradient": """
x = lib.tensor(2., requires_grad=True)
g = lib.tensor(3.)
x.sum().backward(g)
first = same(x.grad, g)
x.sum().backward(g)
out = first, seen(g), seen(x.grad)""",
    "the given gradient's version: its view's grad_fn replayed (fuzz seed 3726)": """
v0 = lib.tensor(np.array([], dtype='float64'), requires_grad=True)
v2 = lib.tensor(np.array([-1.0782476078488463], dtype='float64'), requires_grad=True)
v12 = v0[None, None]
v15 = v2.expand_as(v12)
v12.backward(v15)
first = type(v15.grad_fn).__name__, v15._version, v0.grad._version
sum(r.double().sum() for r in [v12, v15]).backward()
out = first, type(v15.grad_fn).__name__, v15._version, v0.grad._version, v2._version""",
    "create_graph: the first .grad is a recorded copy": """
x = lib.tensor([[1., 2.], [3., 4.]], requires_grad=True)
(x * x).sum().backward(create_graph=True)
out = seen(x.grad)""",
    "a transposed leaf gets a gradient in its own strides": """
x = lib.tensor([[1., 2., 3.], [4., 5., 6.]]).t().requires_grad_()
(x * 2).sum().backward()
out = seen(x.grad)""",
    "an expanded leaf gets a row-major gradient": """
x = lib.tensor([1., 2.]).expand(3, 2).requires_grad_()
(x * 2).sum().backward()
out = seen(x.grad)""",
}


@pytest.mark.parametrize("name", list(SNIPPETS))
def test_grad_is_stored_as_pytorch_stores_it(torch, name):
    code = PRELUDE + SNIPPETS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine, theirs = snippet_outcome(mg, code), snippet_outcome(torch, code)
    assert mine == theirs, f"{name}\n minigrad: {mine}\n PyTorch:  {theirs}"
