"""No op returns an alias of its input where PyTorch returns a new tensor (and views are views
of the same base as PyTorch's): every public tensor method and ``torch`` function is called on
0-d and size-1 inputs with a few argument sets; where PyTorch accepts the call, the result is
changed in place and we compare whether the input changed, ``_is_view()`` and ``_base``."""

from __future__ import annotations

import warnings

import pytest

import minigrad as mg

pytestmark = pytest.mark.torch

ARGS = [(), (0,), (0, True), (-1,), ((0,),), (1,), ((1,),), ((),), (1, 1), ((1, 1),)]
INPUTS = {"0-d": lambda lib: lib.tensor(0.5), "size-1": lambda lib: lib.tensor([0.5]),
          "1x1": lambda lib: lib.tensor([[0.5]])}
# not ops on the tensor's values (graph, storage or conversion methods), and functions that
# change global state (print options, default dtype, random number generators, files)
NOT_OPS = {"backward", "register_hook", "register_post_accumulate_grad_hook", "retain_grad",
           "numpy", "tolist", "item", "detach", "type", "to", "cpu", "cuda", "data_ptr",
           "new_empty", "new_zeros", "new_ones", "new_full", "new_tensor", "apply_", "map_",
           "save", "load", "normal", "bernoulli", "multinomial", "poisson", "rand", "randn",
           "randint", "randperm", "rand_like", "randn_like", "randint_like", "random",
           "uniform", "exponential", "geometric", "cauchy", "log_normal"}
GLOBAL = ("set_", "use_", "seed", "manual_seed", "initial_seed", "get_", "enable_", "compile")


def _is_op(name: str) -> bool:
    return not name.startswith(("_",) + GLOBAL) and not name.endswith("_") and name not in NOT_OPS


def _aliasing(lib, fn, make, args):
    """(input changed by ``y.add_(1)``, y._is_view(), y._base is input) for ``y = fn(x, *args)``,
    or None when the result is not a float32 tensor."""
    x = make(lib)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = fn(lib, x, *args)
    if isinstance(y, (tuple, list)):
        y = y[0]
    if not isinstance(y, (lib.Tensor,)) or y.dtype != lib.float32:
        return None
    before = x.clone()
    view = y._is_view()
    try:
        y.add_(1)
    except RuntimeError as e:  # (an expanded view refuses; a diagonal does not)
        return str(e)
    return bool((x != before).any()), view, (y._base is x) if view else None


def _method(name):
    return lambda lib, x, *args: getattr(x, name)(*args)


def _function(name, listed=False):
    return lambda lib, x, *args: getattr(lib, name)(*([x] if listed else [x]), *args)


def _cases():
    import torch

    out = {}
    for n in sorted(dir(mg.Tensor)):
        if _is_op(n) and callable(getattr(mg.Tensor, n)) and hasattr(torch.Tensor, n):
            out["Tensor." + n] = _method(n)
    for n in sorted(dir(mg)):
        obj = getattr(mg, n)
        if _is_op(n) and callable(obj) and not isinstance(obj, type) and hasattr(torch, n):
            out["torch." + n] = _function(n)
    for n in ("cat", "stack", "hstack", "vstack", "broadcast_tensors", "atleast_1d"):
        if hasattr(mg, n):
            out[f"torch.{n}(list)"] = (lambda name: lambda lib, x, *a: getattr(lib, name)(
                [x], *a))(n)
    return out


def test_no_op_returns_an_alias_where_pytorch_returns_a_new_tensor(torch):
    compared, wrong = 0, []
    for name, fn in _cases().items():
        for inp, make in INPUTS.items():
            for args in ARGS:
                try:
                    theirs = _aliasing(torch, fn, make, args)
                except Exception:  # noqa: BLE001 (PyTorch refuses these arguments: no case)
                    continue
                try:
                    mine = _aliasing(mg, fn, make, args)
                except Exception:  # noqa: BLE001 (errors are compared by the op tables)
                    continue
                if theirs is None:  # not a float32 tensor: a dtype question, not aliasing
                    continue
                compared += 1
                if mine != theirs:
                    wrong.append(f"{name}{args} on {inp}: minigrad {mine}, PyTorch {theirs}")
    assert not wrong, "\n".join(wrong)
    assert compared > 800, compared  # the loop really covers the ops


@pytest.mark.parametrize("code", [
    "x = torch.tensor(0.98); y = x.prod(0); y.exp_(); r = x",
    "x = torch.tensor([0.98]); y = x.sum(0, keepdim=True); y.exp_(); r = x",
    "x = torch.tensor(0.98); y = x.reshape(()); y.exp_(); r = (x, y._is_view())",
    "x = torch.tensor([[0.98]]); y = x.contiguous(); y.exp_(); r = (x, y is x)",
    "x = torch.tensor([0.98]); y = x.flatten(); y.exp_(); r = (x, y is x)",
    "x = torch.tensor([0.98]); y = torch.cat([x]); y.exp_(); r = (x, y._is_view())",
])
def test_aliasing_program_as_pytorch(torch, code):
    from helpers import assert_same_program

    assert_same_program(torch, code)
