"""Running the hooks of a node, in PyTorch's order, with PyTorch's checks.

For every node the engine runs, in this order:

1. tensor hooks (``tensor.register_hook``) of the node's outputs; for ``AccumulateGrad``, the
   leaf's hooks. Each may return a replacement gradient;
2. ``retain_grad`` of the node's outputs (it sees the gradient after all tensor hooks);
3. node pre-hooks (``grad_fn.register_prehook``), which may replace the gradients received;
4. the node itself (for a leaf: the update of ``.grad``, then the leaf's post-accumulate hooks);
5. node hooks (``grad_fn.register_hook``), which may replace the gradients computed.

Hooks always see Tensors; the engine works on NumPy arrays unless ``create_graph=True``.

>>> import minigrad as torch
>>> x = torch.tensor(2., requires_grad=True)
>>> y = x * 3
>>> seen = []
>>> _ = y.register_hook(lambda g: seen.append(("tensor hook", g.item())))
>>> _ = y.grad_fn.register_prehook(lambda gs: seen.append(("pre-hook", gs[0].item())))
>>> _ = y.grad_fn.register_hook(lambda gi, go: seen.append(("hook", gi[0].item())))
>>> y.backward(torch.tensor(10.))
>>> seen
[('tensor hook', 10.0), ('pre-hook', 10.0), ('hook', 30.0)]
"""

from __future__ import annotations

from .._state import local as _mode
from .._tensor import Tensor
from .zero_tensor import ZeroArray, as_grad

__all__ = ["tensor_pre_hooks", "leaf_hooks", "pre_hooks", "post_hooks", "store_retained"]


def _as_tensor(g):
    return g if g is None or isinstance(g, Tensor) else as_grad(g)  # (a ZeroArray: flagged)


def _raw(g):
    """Back to what the engine works with: arrays, or Tensors under create_graph."""
    if g is None or _mode.grad_enabled:
        return g
    return g._data.view(ZeroArray) if g._zero else g._data


def _hook_name(hook) -> str:
    return getattr(hook, "__name__", "<unknown>")


def _checked(hook, before, after):
    """PyTorch's checks on a gradient a hook returned in place of ``before``."""
    if after is None:
        return None
    if not isinstance(after, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(after).__name__}'")
    if before is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if after._data.shape != before._data.shape:
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the size of value")
    if after._data.dtype != before._data.dtype:
        raise RuntimeError(
            f"hook '{_hook_name(hook)}' has changed the type of value (was "
            f"torch.{before.dtype._legacy_name} got torch.{after.dtype._legacy_name})")
    return after


def _run_grad_hooks(hooks, g):
    """Call each hook on gradient ``g`` (a Tensor); a hook may return a replacement."""
    for hook in list(hooks.values()):
        res = hook(g)
        if res is not None:
            g = _checked(hook, g, res)
    return g


def store_retained(t, g) -> None:
    """``retain_grad``: keep a copy of gradient ``g`` in the non-leaf ``t.grad``."""
    if type(g) is Tensor or isinstance(g, Tensor):
        new = g.clone() if _mode.grad_enabled else Tensor._wrap(g._data.copy())
    else:
        new = Tensor._wrap(g.copy())
    t._grad = new if t._grad is None else t._grad + new


def tensor_pre_hooks(node, grads):
    """Steps 1 and 2 for a non-leaf node: returns the (possibly replaced) gradients."""
    single = node._num_outputs == 1
    grads = [grads] if single else list(grads)
    if node._tensor_pre_hooks:
        for nr, hooks in list(node._tensor_pre_hooks.items()):
            if hooks and grads[nr] is not None:
                grads[nr] = _raw(_run_grad_hooks(hooks, _as_tensor(grads[nr])))
    if node._retains_grad:
        for nr, ref in list(node._retains_grad.items()):
            t = ref()
            if t is not None and grads[nr] is not None:
                store_retained(t, grads[nr])
    return grads[0] if single else grads


def leaf_hooks(var, grad):
    """Step 1 for an ``AccumulateGrad`` node: the hooks registered on the leaf ``var``."""
    if grad is None:
        return None
    return _raw(_run_grad_hooks(var._hooks, _as_tensor(grad)))


def pre_hooks(node, grads):
    """Step 3: ``fn(grad_outputs)`` may return a tuple of new gradients."""
    single = node._num_outputs == 1
    values = tuple(_as_tensor(g) for g in ([grads] if single else grads))
    for hook in list(node._pre_hooks.values()):
        res = hook(values)
        if res is not None:
            values = _checked_tuple(hook, values, res)
    raw = [_raw(g) for g in values]
    return raw[0] if single else raw


def post_hooks(node, grad_inputs, grad_outputs):
    """Step 5: ``fn(grad_inputs, grad_outputs)`` may return a tuple of new ``grad_inputs``."""
    single = node._num_outputs == 1
    outs = tuple(_as_tensor(g) for g in ([grad_outputs] if single else grad_outputs))
    ins = tuple(_as_tensor(g) for g in grad_inputs)
    for hook in list(node._post_hooks.values()):
        res = hook(ins, outs)
        if res is not None:
            ins = _checked_tuple(hook, ins, res)
    return tuple(_raw(g) for g in ins)


def _checked_tuple(hook, before: tuple, after) -> tuple:
    if not isinstance(after, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(after).__name__}'")
    if len(after) != len(before):
        raise RuntimeError(
            f"hook '{_hook_name(hook)}' has returned an incorrect number of values (got "
            f"{len(after)}, but expected {len(before)})")
    return tuple(_checked(hook, b, a) for b, a in zip(before, after))
