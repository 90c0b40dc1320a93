"""Hooks: tensor hooks (leaf and non-leaf) that may replace the gradient, removable handles,
retain_grad, node hooks and pre-hooks, post-accumulate hooks, their order and their checks;
all compared with PyTorch."""

from __future__ import annotations

import functools

import pytest
from helpers import both, on_both


def values(grads):
    return [None if g is None else g.tolist() for g in grads]


@on_both
def test_all_kinds_of_hooks_run_in_pytorchs_order_with_pytorchs_values(L):
    log = []
    x = L.tensor(3., requires_grad=True)
    m = x * 2
    m.register_hook(lambda g: log.append(("tensor hook 1", g.item())) or g * 10)
    m.retain_grad()
    m.register_hook(lambda g: log.append(("tensor hook 2", g.item())) or g + 1)
    m.grad_fn.register_prehook(lambda go: log.append(("pre", values(go))))
    m.grad_fn.register_hook(lambda gi, go: log.append(("post", values(gi), values(go))))
    acc = m.grad_fn.next_functions[0][0]
    x.register_hook(lambda g: log.append(("leaf hook", g.item())))
    acc.register_prehook(lambda go: log.append(("leaf pre", values(go))))
    acc.register_hook(lambda gi, go: log.append(("leaf post", values(gi), values(go))))
    x.register_post_accumulate_grad_hook(lambda t: log.append(("accumulated", t.grad.item())))
    (m * 1).backward()
    return log, m.grad.item(), x.grad.item()


@on_both
def test_hooks_replacing_gradients(L):
    x = L.tensor([1., 2.], requires_grad=True)
    w = L.tensor([3., 4.], requires_grad=True)
    h = x * w
    h.register_hook(lambda g: g * 2)
    x.register_hook(lambda g: g + 100)
    h.grad_fn.register_prehook(lambda go: (go[0] * 3,))
    h.grad_fn.register_hook(lambda gi, go: (gi[0], gi[1] * -1))
    (h * h).sum().backward()
    return x.grad.tolist(), w.grad.tolist()


@on_both
def test_removed_hooks_do_not_run_and_handles_work_as_context_managers(L):
    log = []
    x = L.tensor([1., 2.], requires_grad=True)
    y = x * 2
    h1 = x.register_hook(lambda g: log.append("leaf"))
    h2 = y.register_hook(lambda g: log.append("non-leaf"))
    h3 = y.grad_fn.register_prehook(lambda go: log.append("pre"))
    h4 = y.grad_fn.register_hook(lambda gi, go: log.append("post"))
    with x.register_hook(lambda g: log.append("scoped")):
        pass
    for h in (h1, h2, h3, h4):
        h.remove()
    h1.remove()  # removing twice is harmless
    y.sum().backward()
    return log, x.grad.tolist()


@on_both
def test_hooks_of_the_same_tensor_run_in_registration_order(L):
    log = []
    x = L.tensor(1., requires_grad=True)
    y = x * 2
    for i in range(4):
        y.register_hook(lambda g, i=i: log.append(i) or g * (i + 1))
    y.backward()
    return log, x.grad.item()


@on_both
def test_hooks_on_two_outputs_of_one_node(L):
    log = []
    x = L.tensor([1., 2., 3., 4.], requires_grad=True)
    a, b = x.split(2)
    b.register_hook(lambda g: log.append("b") or g * 10)
    a.register_hook(lambda g: log.append("a") or g * 2)
    (a.sum() + b.sum()).backward()
    return log, x.grad.tolist()


@on_both
def test_retain_grad_sees_gradient_after_all_tensor_hooks(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 5)
    (y * y).sum().backward()
    return y.grad.tolist(), x.grad.tolist(), y.retains_grad, x.retains_grad


@on_both
def test_tensor_hooks_apply_to_what_autograd_grad_returns(L):
    x = L.tensor(3., requires_grad=True)
    x.register_hook(lambda g: g * 10)
    m_ = x * 2
    m_.register_hook(lambda g: g * 100)
    o = m_ * m_
    alone = L.autograd.grad(o, [m_], retain_graph=True)
    with_leaf = L.autograd.grad(o, [m_, x])
    return values(alone), values(with_leaf)


@on_both
def test_hook_may_return_a_tensor_of_another_layout_but_same_shape(L):
    x = L.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    y = x * 1
    y.register_hook(lambda g: g.t().contiguous().t())
    y.sum().backward()
    return x.grad.tolist()


def my_hook(g, k):
    return g.sum()


class CallableHook:
    def __call__(self, g):
        return g.sum()


def named_hook(g):
    return g.sum()


BAD_HOOKS = {
    "tensor_hook_returns_number": lambda L, y: y.register_hook(lambda g: 5),
    "tensor_hook_changes_size": lambda L, y: y.register_hook(lambda g: L.ones(3)),
    "tensor_hook_changes_dtype": lambda L, y: y.register_hook(
        lambda g: g.to(L.float64)),
    "named_tensor_hook_changes_size": lambda L, y: y.register_hook(named_hook),
    "partial_tensor_hook": lambda L, y: y.register_hook(functools.partial(my_hook, k=1)),
    "callable_object_hook": lambda L, y: y.register_hook(CallableHook()),
    "leaf_hook_changes_size": lambda L, y: y.grad_fn.next_functions[0][0].variable
    .register_hook(lambda g: L.ones(4)),
    "prehook_returns_number": lambda L, y: y.grad_fn.register_prehook(lambda go: 5),
    "prehook_returns_list": lambda L, y: y.grad_fn.register_prehook(lambda go: [go[0]]),
    "prehook_returns_two": lambda L, y: y.grad_fn.register_prehook(lambda go: (go[0], go[0])),
    "prehook_returns_float": lambda L, y: y.grad_fn.register_prehook(lambda go: (1.0,)),
    "prehook_changes_dtype": lambda L, y: y.grad_fn.register_prehook(
        lambda go: (go[0].to(L.float64),)),
    "posthook_returns_one": lambda L, y: y.grad_fn.register_hook(lambda gi, go: (gi[0],)),
    "posthook_changes_size": lambda L, y: y.grad_fn.register_hook(
        lambda gi, go: (L.ones(3), None)),
    "posthook_fills_a_none": lambda L, y: y.grad_fn.register_hook(
        lambda gi, go: (gi[0], L.ones(2))),
    "posthook_returns_list": lambda L, y: y.grad_fn.register_hook(lambda gi, go: list(gi)),
}


@pytest.mark.parametrize("case", list(BAD_HOOKS))
def test_bad_hook_results_raise_pytorchs_errors(torch, case):
    def run(L):
        x = L.tensor([1., 2.], requires_grad=True)
        y = x * 2
        BAD_HOOKS[case](L, y)
        try:
            y.sum().backward()
        except Exception as e:  # noqa: BLE001 - compared with torch's
            return type(e).__name__, str(e).replace("torch.", "minigrad.")

    m, t = both(torch, run)
    assert t is not None
    assert m == t


@on_both
def test_post_accumulate_grad_hook_rules(L):
    out = []
    x = L.tensor([1., 2.], requires_grad=True)
    for target in (x * 2, L.ones(2)):
        try:
            target.register_post_accumulate_grad_hook(lambda t: None)
        except RuntimeError as e:
            out.append(str(e))
    seen = []
    x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.tolist()))
    (x * x).sum().backward()
    (x * 3).sum().backward()
    return out, seen


@on_both
def test_node_metadata_is_a_persistent_dict(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.grad_fn.metadata["note"] = "mine"
    return y.grad_fn.metadata, type(y.grad_fn.metadata).__name__


@on_both
def test_hooks_run_in_the_grad_mode_create_graph_sets(L):
    seen = []
    x = L.tensor([1., 2.], requires_grad=True)
    y = x * 2

    def hook(g):
        seen.append((L.is_grad_enabled(), g.requires_grad))
        return None

    y.register_hook(hook)
    y.sum().backward(retain_graph=True)
    L.autograd.grad(y.sum(), x, create_graph=True)
    return seen


@on_both
def test_retain_grad_follows_in_place_changes_but_hooks_stay(L):
    log = []
    x = L.tensor([1., 2., 3.], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: log.append(("before", g.tolist())))
    y.retain_grad()
    y.mul_(3)
    y.register_hook(lambda g: log.append(("after", g.tolist())))
    w = x * 2
    w.retain_grad()
    w[1:].mul_(3)  # through a view: w's grad_fn becomes CopySlices
    ((y * y).sum() + (w * w).sum()).backward()
    return log, y.grad.tolist(), w.grad.tolist(), x.grad.tolist(), w.grad_fn.name()


@on_both
def test_a_hook_on_a_view_reads_its_history_first(L):
    """register_hook reads a view's grad_fn (as PyTorch's does): a view made before its base
    required grad takes a hook; one made in inference mode whose base changed in place after
    (unsqueeze_ under no_grad) is refused with PyTorch's error."""
    out = []
    v0 = L.tensor([[-1., 2., 3.]], dtype=L.float64)
    v10 = v0[-1]
    v0.requires_grad_()
    v10.register_hook(lambda g: g * 3)
    (v10 * 2).sum().backward()
    out.append((v0.grad, v10.grad_fn))
    x = L.tensor(1.5).requires_grad_()
    with L.inference_mode():
        v = x[...]
    with L.no_grad():
        x.unsqueeze_(0)
    try:
        v.register_hook(lambda g: g * 2)
    except RuntimeError as e:
        out.append(str(e))
    return out


@on_both
def test_hooks_may_be_registered_on_a_view_whose_base_came_to_require_grad(L):
    base = L.tensor([1., 2., 3.])
    view = base[-1]  # taken before the base required grad: no grad_fn, yet requires_grad
    base.requires_grad_()
    seen = []
    view.register_hook(lambda g: seen.append(g.tolist()))
    view.register_post_accumulate_grad_hook(lambda t: seen.append("accumulated"))
    (view * 2).backward()  # the view leads nowhere: neither hook runs, no .grad
    return view.requires_grad, view.is_leaf, seen, base.grad, view.grad
