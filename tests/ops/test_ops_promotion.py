"""Binary elementwise ops against PyTorch over dtypes, scalars and shapes (Hypothesis).

Type promotion (bool < integers < floats, dimensioned tensors over 0-d tensors over Python
numbers), broadcasting, and the errors for shapes that do not broadcast must all be PyTorch's.
"""

from __future__ import annotations

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from op_table import assert_close, assert_same_error, dtype_name

import minigrad as mg

pytestmark = pytest.mark.torch

DTYPES = ["bool", "uint8", "int32", "int64", "float32", "float64"]

BINARY = {
    "add": lambda L, a, b: a + b,
    "radd": lambda L, a, b: b + a,
    "sub": lambda L, a, b: a - b,
    "rsub": lambda L, a, b: b - a,
    "mul": lambda L, a, b: a * b,
    "rmul": lambda L, a, b: b * a,
    "div": lambda L, a, b: a / b,
    "rdiv": lambda L, a, b: b / a,
    "pow": lambda L, a, b: a ** b,
    "rpow": lambda L, a, b: b ** a,
    "add_fn": lambda L, a, b: L.add(a, b),
    "mul_fn": lambda L, a, b: L.mul(a, b),
    "pow_fn": lambda L, a, b: L.pow(a, b),
}
TENSOR_ONLY = {
    "maximum": lambda L, a, b: L.maximum(a, b),
    "minimum": lambda L, a, b: L.minimum(a, b),
    "clamp_min": lambda L, a, b: L.clamp_min(a, b),
    "clamp_max": lambda L, a, b: a.clamp_max(b),
}


def _make(lib, values, dtype, kind):
    """A tensor of ``values`` (n-d or 0-d), or the Python number ``values.flat[0]``."""
    if kind == "python":
        v = values.flat[0]
        return bool(v) if dtype == "bool" else (float(v) if "float" in dtype else int(v))
    arr = np.asarray(values.flat[0]) if kind == "0d" else values
    return lib.tensor(arr.astype(dtype))


def _compare(torch, op, a_spec, b_spec):
    results = []
    for lib in (torch, mg):
        a, b = _make(lib, *a_spec), _make(lib, *b_spec)
        results.append(lambda lib=lib, a=a, b=b: op(lib, a, b))
    t_call, m_call = results
    try:
        t_out = t_call()
    except Exception:  # noqa: BLE001 - then minigrad must raise the same
        assert_same_error(t_call, m_call)
        return
    m_out = m_call()
    assert dtype_name(m_out.dtype) == dtype_name(t_out.dtype)
    assert_close(m_out, t_out, rtol=1e-6, atol=1e-6)


operand = st.tuples(st.sampled_from(DTYPES), st.sampled_from(["nd", "0d", "python"]))


@given(op=st.sampled_from(sorted(BINARY)), a=operand, b=operand, seed=st.integers(0, 2**16))
def test_binary_op_dtype_and_values_match_torch(torch, op, a, b, seed):
    a = (a[0], "nd" if a[1] == "python" else a[1])  # the left operand is always a tensor
    rng = np.random.default_rng(seed)
    va, vb = rng.integers(1, 4, (2, 3)), rng.integers(1, 4, (2, 3))
    _compare(torch, BINARY[op], (va, *a), (vb, *b))


@given(op=st.sampled_from(sorted(TENSOR_ONLY)), da=st.sampled_from(DTYPES),
       db=st.sampled_from(DTYPES), zero_d=st.booleans(), seed=st.integers(0, 2**16))
def test_tensor_pair_ops_promote_like_torch(torch, op, da, db, zero_d, seed):
    rng = np.random.default_rng(seed)
    va, vb = rng.integers(0, 4, (3,)), rng.integers(0, 4, (3,))
    _compare(torch, TENSOR_ONLY[op], (va, da, "nd"), (vb, db, "0d" if zero_d else "nd"))


@given(op=st.sampled_from(sorted(BINARY) + sorted(TENSOR_ONLY)),
       shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=3))
def test_broadcasting_shapes_match_torch(torch, op, shapes):
    a_shape, b_shape = shapes.input_shapes
    rng = np.random.default_rng(0)
    va, vb = rng.uniform(0.5, 2, a_shape), rng.uniform(0.5, 2, b_shape)
    fn = {**BINARY, **TENSOR_ONLY}[op]
    _compare(torch, fn, (va, "float32", "nd"), (vb, "float32", "nd"))


@given(op=st.sampled_from(sorted(BINARY) + sorted(TENSOR_ONLY)),
       a_shape=hnp.array_shapes(min_dims=1, max_dims=3, max_side=4),
       b_shape=hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))
def test_shapes_that_do_not_broadcast_raise_torch_error(torch, op, a_shape, b_shape):
    try:
        np.broadcast_shapes(a_shape, b_shape)
    except ValueError:
        fn = {**BINARY, **TENSOR_ONLY}[op]
        assert_same_error(lambda: fn(torch, torch.ones(a_shape), torch.ones(b_shape)),
                          lambda: fn(mg, mg.ones(a_shape), mg.ones(b_shape)))


@pytest.mark.parametrize("a_shape, b_shape", [((2, 3), (3, 2)), ((4, 1, 3), (2, 5, 3)),
                                              ((3,), (2,)), ((2, 3), (5,))])
def test_shape_mismatch_names_the_dimension_like_torch(torch, a_shape, b_shape):
    for op in (lambda L, a, b: a + b, lambda L, a, b: a * b, lambda L, a, b: a / b):
        assert_same_error(lambda op=op: op(torch, torch.ones(a_shape), torch.ones(b_shape)),
                          lambda op=op: op(mg, mg.ones(a_shape), mg.ones(b_shape)))


def test_broadcast_gradients_sum_back_to_each_input_shape(torch):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in [(4, 1, 3), (2, 1), (3,)]]
    grads = []
    for lib in (torch, mg):
        a, b, c = (lib.tensor(x, requires_grad=True) for x in arrays)
        ((a * b + c) ** 2 / (c.exp() + 1)).sum().backward()
        grads.append([a.grad, b.grad, c.grad])
    for t, m in zip(*grads):
        assert_close(m, t, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("expr", [
    "x + 2", "2 + x", "x * 2", "2 * x", "x - 2", "2 - x", "x / 2", "2 / x", "x ** 2", "2 ** x",
    "x * True", "x + 2.5", "x * L.tensor(2)", "x * L.tensor(2.5, dtype=L.float64)",
])
def test_tensor_with_number_graph_matches_torch(torch, expr):
    """``x + 2`` is AddBackward0 with a None edge; ``2 / x`` is MulBackward0 over Reciprocal..."""
    outs = []
    for L in (torch, mg):
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        outs.append(eval(expr, {"x": x, "L": L}))  # noqa: S307 - fixed test expressions
    t, m = outs
    assert_close(m, t)
    t_fns = [(f.name() if f else None, nr) for f, nr in t.grad_fn.next_functions]
    m_fns = [(f.name() if f else None, nr) for f, nr in m.grad_fn.next_functions]
    assert (m.grad_fn.name(), m_fns) == (t.grad_fn.name(), t_fns)
    for name in [n for n in dir(t.grad_fn) if n.startswith("_saved_")]:
        tv, mv = getattr(t.grad_fn, name), getattr(m.grad_fn, name)
        if isinstance(tv, torch.Tensor):
            assert_close(mv, tv)
        else:
            assert (type(mv), mv) == (type(tv), tv)


MIXED = ["x * i", "i * x", "x / i", "i / x", "x + i", "x - i", "i - x", "x ** i", "i ** x",
         "x * d0", "x / d0", "d0 / x", "x ** d0", "d0 ** x", "x * 2", "2.5 / x", "L.maximum(x, i)",
         "L.minimum(d0, x)", "x.clamp(i, i + 2)", "x.clamp_min(i)", "x * b", "b * x + x",
         "x * d", "d / x"]


@pytest.mark.parametrize("expr", MIXED)
def test_gradient_keeps_the_leaf_dtype_with_mixed_dtype_operands(torch, expr):
    """A float32 leaf gets a float32 gradient even through an int or float64 operand."""
    grads = []
    for L in (torch, mg):
        x = L.tensor([0.5, 1.5, 2.0], requires_grad=True)
        env = {"x": x, "L": L, "i": L.tensor([1, 2, 3]), "b": L.tensor([True, False, True]),
               "d0": L.tensor(2.5, dtype=L.float64), "d": L.tensor([1.0, 2.0, 3.0], dtype=L.float64)}
        out = eval(expr, env)  # noqa: S307 - fixed test expressions
        out.sum().backward()
        grads.append((out, x.grad))
    (t_out, t_grad), (m_out, m_grad) = grads
    assert_close(m_out, t_out)
    assert_close(m_grad, t_grad)
