"""Inside Function.forward grad mode is off (so x.numpy() works), inference tensors have no
_version, Tensor._is_view(), and the legacy torch.autograd.Variable: against PyTorch."""

from __future__ import annotations

import warnings

import pytest

import minigrad as mg


def outcome(fn):
    """What calling ``fn`` gives: its value, or the exception type and message; and warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", fn())
        except Exception as e:  # noqa: BLE001 -- the type and message are what is compared
            result = (type(e).__name__, str(e))
    return result, [(w.category.__name__, str(w.message)) for w in caught]


def function_forward(lib):
    seen = []

    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append((lib.is_grad_enabled(), x.requires_grad, x.numpy().tolist()))
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen.append(lib.is_grad_enabled())
            return g * 2

    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = Double.apply(x)
    y.sum().backward()
    seen.append(outcome(lambda: x.numpy()))  # grad mode is on again: refused
    with lib.no_grad():
        seen.append(outcome(lambda: x.numpy().tolist()))
    seen.append((y.grad_fn.name(), x.grad.tolist()))
    return seen


def test_function_forward_runs_without_grad_mode_as_in_pytorch(torch):
    assert function_forward(mg) == function_forward(torch)


def inference(lib):
    with lib.inference_mode():
        t = lib.ones(2)
    x = lib.ones(2, requires_grad=True)
    return [outcome(lambda: t._version), outcome(lambda: t.is_inference()),
            outcome(lambda: x._version), outcome(lambda: str(t * x)),
            outcome(lambda: (t * x).sum().backward())]


def test_inference_tensors_raise_on_version_as_in_pytorch(torch):
    assert inference(mg) == inference(torch)


def views(lib):
    a = lib.ones(3, 4)
    made = [a[0], a.t(), a.view(12), a.reshape(12), a.clone(), a.detach(), a[[0]], a.T,
            a.unsqueeze(0), a.expand(2, 3, 4), a.contiguous(), a.t().contiguous(), a.flatten(),
            a.narrow(0, 0, 1), a.split(2)[0], a.diagonal(), a.squeeze(), a.t().reshape(12),
            a[:, 1], a.permute(1, 0), a.unbind(0)[1], a.chunk(2, 1)[0], a.movedim(0, 1)]
    return [(v._is_view(), v._base is a) for v in made] + [a._is_view(), a._base]


def test_is_view_and_base_as_in_pytorch(torch):
    assert views(mg) == views(torch)


VARIABLE_CALLS = {
    "plain": lambda lib: ((lib.ones(2),), {}),
    "requires_grad": lambda lib: ((lib.ones(2),), {"requires_grad": True}),
    "positional": lambda lib: ((lib.ones(2), True), {}),
    "volatile": lambda lib: ((lib.ones(2),), {"volatile": True}),
    "volatile_and_grad": lambda lib: ((lib.ones(2), True, True), {}),
    "empty": lambda lib: ((), {}),
    "not_a_tensor": lambda lib: (([1, 2],), {}),
    "unknown_keyword": lambda lib: ((lib.ones(2),), {"foo": 1}),
    "twice": lambda lib: ((lib.ones(2),), {"data": lib.ones(2)}),
    "grad_fn_number": lambda lib: ((lib.ones(2), False, False, 1), {}),
    "grad_fn_node": lambda lib: ((lib.ones(2), False, False,
                                  (lib.ones(1, requires_grad=True) * 2).grad_fn), {}),
    "integer_requires_grad": lambda lib: ((lib.ones(2, dtype=lib.int64),),
                                          {"requires_grad": True}),
    "of_a_result": lambda lib: (((lib.ones(2, requires_grad=True) * 2),), {}),
}


def variable(lib, case):
    args, kwargs = VARIABLE_CALLS[case](lib)

    def make():
        v = lib.autograd.Variable(*args, **kwargs)
        return (str(v), v.requires_grad, v.grad_fn, v.is_leaf, type(v).__name__,
                isinstance(v, lib.autograd.Variable))

    return outcome(make)


@pytest.mark.parametrize("case", VARIABLE_CALLS)
def test_variable_behaves_as_pytorchs_legacy_constructor(torch, case):
    assert variable(mg, case) == variable(torch, case)


def test_plain_tensors_pass_isinstance_variable(torch):
    for lib in (mg, torch):
        assert isinstance(lib.ones(1), lib.autograd.Variable)
        assert not isinstance([1.0], lib.autograd.Variable)


def edges_and_versions(lib):
    graph = lib.autograd.graph
    a = lib.ones(2, requires_grad=True)
    b = a * 2
    out = []
    for t in (a, b, b.unbind(0)[1]):
        e = graph.get_gradient_edge(t)
        out.append((e.node.name(), e.output_nr, e.ownership_token, type(e).__name__))
    out.append(outcome(lambda: graph.get_gradient_edge(lib.ones(2))))
    c = lib.ones(2)
    graph.increment_version(c)
    graph.increment_version([c, c])
    out.append(c._version)
    y = c * a
    graph.increment_version(c)  # an in-place change autograd did not see: backward refuses
    out.append(outcome(lambda: y.sum().backward()))
    return out


def test_gradient_edges_and_increment_version_as_in_pytorch(torch):
    assert edges_and_versions(mg) == edges_and_versions(torch)


def sized(lib):
    lib.manual_seed(0)
    calls = [lambda: lib.randn(size=(2,)), lambda: lib.rand(size=(2, 1)),
             lambda: lib.zeros(size=(2,)), lambda: lib.ones(size=[1, 2]),
             lambda: lib.empty(size=(2,)).shape, lambda: lib.randn(size=(), requires_grad=True),
             lambda: lib.zeros(2, size=(2,)), lambda: lib.randn(2, size=(2,))]
    results = [outcome(lambda c=call: str(c()))[0] for call in calls]
    return [(kind, text.split("\n")[0]) for kind, text in results]  # (first lines)


def test_creation_takes_size_as_a_keyword_as_d2l_writes_it(torch):
    assert sized(mg) == sized(torch)
