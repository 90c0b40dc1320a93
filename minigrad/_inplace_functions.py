"""``torch.sin_(x)``, ``torch.relu_(x)``, ``torch.zero_(x)``...: PyTorch's module-level in-place
functions. Each is the tensor method of the same name (``x.sin_()``), with the checks of a
function's first argument, so a leaf that requires grad is refused as the method refuses it.

>>> import minigrad as torch
>>> x = torch.tensor([0.0, 1.0])
>>> torch.exp_(x) is x, x
(True, tensor([1.0000, 2.7183]))
"""

from __future__ import annotations

from ._tensor import Tensor

# PyTorch 2.13's module-level functions that are also in-place tensor methods, all of them
# (tests/ops/test_inplace_functions.py keeps the list whole: an op given its in-place method
# needs no edit here)
_NAMES = """abs_ acos_ acosh_ addmv_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ as_strided_
asin_ asinh_ atan_ atanh_ ceil_ clamp_ clamp_max_ clamp_min_ clip_ conj_physical_ cos_
cosh_ deg2rad_ detach_ erf_ erfc_ exp2_ exp_ expm1_ fill_ fix_ floor_ frac_ gcd_ i0_
index_put_ lcm_ ldexp_ log10_ log1p_ log2_ log_ logit_ nan_to_num_ neg_ negative_
rad2deg_ reciprocal_ relu_ resize_as_ resize_as_sparse_ round_ rsqrt_ sigmoid_ sin_
sinc_ sinh_ sqrt_ square_ tan_ tanh_ trunc_ xlogy_ zero_""".split()


def _function(name: str):
    method = getattr(Tensor, name)

    def fn(*args, **kwargs):
        if "input" in kwargs:
            args = (kwargs.pop("input"), *args)
        if not args:
            raise TypeError(f'{name}() missing 1 required positional arguments: "input"')
        if not isinstance(args[0], Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type(args[0]).__name__}")
        return method(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``torch.{name}(input, ...)``: ``input.{name}(...)``, in place."
    return fn


def functions() -> dict:
    """The functions, by name, for the in-place methods ``Tensor`` has (once the ops are
    attached to it)."""
    return {name: _function(name) for name in _NAMES if hasattr(Tensor, name)}
