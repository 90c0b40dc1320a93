"""PyTorch's ``TypeError`` for an operand of a binary op that is neither a tensor nor a number.

An operator (``t * 'x'``) returns ``NotImplemented`` for such an operand, so that Python raises
its own ``unsupported operand type(s)`` error, as it does for PyTorch; the names a learner calls
(``torch.mul``, ``t.mul``, ``t.mul_``) raise PyTorch's message. PyTorch's wording depends on the
op's signatures: an op with one signature names the argument (``mul(): argument 'other'
(position 2) must be Tensor, not str``), an op with several says ``received an invalid
combination of arguments``.

The arithmetic ops (add, sub, mul, div) find a bad operand where they convert their operands
and answer it there (:func:`bad_operand`), so a call costs nothing extra: ``torch.mul``,
``Tensor.mul`` and ``Tensor.__mul__`` are copies of one function that know how they were called
(:func:`minigrad._ops._core.called_as`). The other ops are wrapped here with the checks.

>>> import minigrad as torch
>>> torch.mul(torch.ones(2), 'x')
Traceback (most recent call last):
TypeError: mul(): argument 'other' (position 2) must be Tensor, not str
>>> torch.ones(2).eq('x')
Traceback (most recent call last):
TypeError: eq() received an invalid combination of arguments - got (str), but expected one of:
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .._types import invalid_combination
from ._core import FUNCTION, METHOD, MISSING, OPERATOR, called_as, to_tensor

__all__ = ["check_functions", "check_methods", "bad_operand", "var_signature_error"]

_NUMBER = (int, float, bool, np.number, np.bool_)
_OK = (Tensor, np.ndarray)  # (an ndarray too: minigrad's own formulas pass them)
_MISSING = MISSING

# One signature that takes only tensors: the name PyTorch gives the second parameter.
TENSOR_ONLY = {"atan2": "other", "arctan2": "other", "hypot": "other", "fmax": "other",
               "fmin": "other", "maximum": "other", "minimum": "other", "logical_and": "other",
               "logical_or": "other", "logical_xor": "other", "matmul": "other",
               "dot": "tensor", "mm": "mat2", "mv": "vec", "bmm": "mat2", "outer": "vec2",
               "isclose": "other", "allclose": "other", "equal": "other"}
# One signature for a bad operand (a tensor or a number).
NUMBERS = {"add", "sub", "mul", "div"}
# Several signatures: "received an invalid combination of arguments".
OVERLOADED = {"subtract", "multiply", "divide", "true_divide", "floor_divide", "remainder",
              "fmod", "pow", "rsub", "xlogy", "eq", "ne", "lt", "le", "gt", "ge", "greater",
              "greater_equal", "less", "less_equal", "not_equal", "bitwise_and", "bitwise_or",
              "bitwise_xor"}
# torch.op(2, t) is allowed for these; torch.op(2, 3) makes a tensor for the first group.
BOTH_NUMBERS = {"add", "sub", "mul", "div", "subtract", "multiply", "divide", "true_divide",
                "floor_divide"}
NUMBER_FIRST = BOTH_NUMBERS | {"pow", "xlogy", "remainder", "bitwise_and", "bitwise_or",
                               "bitwise_xor"}
# Ops with more operands, all overloaded: how many must follow ``input`` (numbers or tensors).
MORE = {"lerp": 2, "masked_fill": 2, "clamp": 0, "clamp_min": 1, "clamp_max": 1, "clip": 0}
# What PyTorch prints after "but expected" when add/sub get too few arguments.
_ALPHA = {True: "(Tensor other, *, Number alpha = 1)",
          False: "(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)"}


def _type_name(x) -> str:
    cls = type(x)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"


def _accepts(name: str, x) -> bool:
    return isinstance(x, _OK) or (name not in TENSOR_ONLY and isinstance(x, _NUMBER))


def _error(name: str, given: tuple, kwargs: dict, method: bool) -> TypeError:
    """The error for ``name(*given, **kwargs)``; ``given`` starts with ``input`` unless
    ``method`` (then ``self`` is not shown, as PyTorch does not show it)."""
    if name.rstrip("_") in OVERLOADED:
        return invalid_combination(name, given, kwargs)
    param = TENSOR_ONLY.get(name.rstrip("_"), "other")
    if len(given) < 2 - method:
        if name.rstrip("_") in ("add", "sub"):
            text = str(invalid_combination(name, given, kwargs))
            return TypeError(text.replace("one of:", _ALPHA[method]))
        if name == "div" or (name in ("mm", "bmm") and not method):
            return invalid_combination(name, given, kwargs)
        return TypeError(f'{name}() missing 1 required positional arguments: "{param}"')
    if not method and not isinstance(given[0], Tensor):
        param, value, position = "input", given[0], 1
    else:
        value, position = given[1 - method], 2 - method
    return TypeError(f"{name}(): argument '{param}' (position {position}) must be Tensor, "
                     f"not {_type_name(value)}")


def bad_operand(form: tuple, fn, input, other, kwargs=None):
    """An op's answer to an operand it cannot use, on its rare path (the checks cost nothing
    on the common one): NotImplemented for an operator (``x * 'a'``: Python then tries the
    other operand and raises its own error); ``torch.add(1, 2)`` computed on a tensor, as
    PyTorch allows it; else PyTorch's TypeError for the call ``form`` names (see
    :func:`_core.called_as`)."""
    name, how = form
    if how == OPERATOR:
        return NotImplemented
    kwargs = kwargs or {}
    if how == FUNCTION and name in BOTH_NUMBERS and isinstance(input, _NUMBER) \
            and isinstance(other, _NUMBER):
        return fn(to_tensor(input), other, **kwargs)
    given = (other,) if how == METHOD else (input, other)
    raise _error(name, tuple(a for a in given if a is not MISSING), kwargs, how == METHOD)


def _has_forms(fn) -> bool:
    """Whether ``fn`` answers a bad operand itself (a ``_form`` keyword): no wrapper needed."""
    return "_form" in (getattr(fn, "__kwdefaults__", None) or {})


def _function(fn, name: str):
    def checked(input=_MISSING, other=_MISSING, *args, **kwargs):
        if isinstance(input, Tensor) and _accepts(name, other):
            return fn(input, other, *args, **kwargs)
        given = tuple(a for a in (input, other) if a is not _MISSING) + args
        both = isinstance(input, _NUMBER) and isinstance(other, _NUMBER)
        if other is _MISSING or not _accepts(name, other) or not (
                name in NUMBER_FIRST and isinstance(input, _NUMBER) or isinstance(input, _OK)):
            raise _error(name, given, kwargs, False)
        if both:
            if name not in BOTH_NUMBERS:
                raise _error(name, given, kwargs, False)
            input = to_tensor(input)
        return fn(input, other, *args, **kwargs)

    checked.__name__ = checked.__qualname__ = name
    checked.__doc__ = fn.__doc__
    checked.__wrapped__ = fn
    return checked


def _method(fn, name: str):
    def checked(self, other=_MISSING, *args, **kwargs):
        if _accepts(name.rstrip("_"), other):
            return fn(self, other, *args, **kwargs)
        given = (() if other is _MISSING else (other,)) + args
        raise _error(name, given, kwargs, True)

    checked.__name__ = checked.__qualname__ = name
    checked.__doc__ = fn.__doc__
    checked.__wrapped__ = fn
    return checked


def _more(fn, name: str, method: bool):
    """``fn`` checked as an op with several operands (``lerp``, ``clamp``, ``masked_fill``)."""
    base, need = name.rstrip("_"), MORE[name.rstrip("_")]
    nones = base in ("clamp", "clip")  # clamp(min=None, max=...) leaves one bound open

    def checked(*args, **kwargs):
        operands = args[1:] + tuple(kwargs.values())
        if len(operands) < need or not isinstance(args[0] if args else None, Tensor) \
                or not all(_accepts(base, a) or (nones and a is None) for a in operands):
            raise invalid_combination(name, args[method:], kwargs)
        return fn(*args, **kwargs)

    checked.__name__ = checked.__qualname__ = name
    checked.__doc__ = fn.__doc__
    checked.__wrapped__ = fn
    return checked


# ---------------------------------------------------------------- dim= of reductions
# name -> (how PyTorch reports a bad dim, whether a tuple of dims is allowed, whether an explicit
# None is); "overload": "invalid combination", "tuple"/"int": "must be tuple of ints"/"int".
DIMS = {"sum": ("overload", True, True), "mean": ("overload", True, True),
        "std": ("overload", True, True), "var": ("overload", True, True),
        "all": ("overload", True, True), "any": ("overload", True, True),
        "count_nonzero": ("overload", True, True), "prod": ("overload", False, False),
        "squeeze": ("overload", True, False), "max": ("overload", False, False),
        "min": ("overload", False, False), "nansum": ("tuple", True, True),
        "nanmean": ("tuple", True, True), "amax": ("tuple", True, True),
        "amin": ("tuple", True, True), "logsumexp": ("tuple", True, False),
        "flip": ("tuple", True, False), "argmax": ("int", False, True),
        "argmin": ("int", False, True), "cumsum": ("int", False, False),
        "cumprod": ("int", False, False), "softmax": ("int", False, False),
        "log_softmax": ("int", False, False), "median": ("int", False, False),
        "unsqueeze": ("int", False, False), "unbind": ("int", False, False)}


# keepdim= without dim=: which of them refuse it, and how (std, var, amax... take it)
KEEPDIM_NEEDS_DIM = {"sum": "overload", "mean": "overload", "prod": "overload",
                     "max": "overload", "min": "overload", "count_nonzero": "overload",
                     "logsumexp": "missing", "median": "missing"}
# ...and of these the second positional argument is not ``keepdim``
NO_KEEPDIM = {"softmax", "log_softmax", "cumsum", "cumprod", "unsqueeze", "unbind", "flip",
              "squeeze"}


def _dim_ok(d) -> bool:
    if isinstance(d, (bool, np.bool_)):
        return False
    return isinstance(d, (int, np.integer)) or (
        isinstance(d, Tensor) and d._data.size == 1 and d._data.dtype.kind in "iu")


def _dim_error(name, dim, keep, given, kwargs, method):
    """The TypeError for a bad ``dim`` (or ``keepdim``) of reduction ``name``, or None."""
    style, tuples, none = DIMS[name]
    if name in ("std", "var") and isinstance(dim, bool):
        return None  # x.std(True): the old ``unbiased`` argument
    if name in ("max", "min") and isinstance(dim, Tensor):
        return None  # max(x, y): the elementwise maximum
    pos = 2 - method
    param = "dims" if name == "flip" else "dim"
    if dim is _MISSING and keep is not _MISSING and name in KEEPDIM_NEEDS_DIM:
        if KEEPDIM_NEEDS_DIM[name] == "overload":  # x.sum(keepdim=True): no such signature
            return invalid_combination(name, given, kwargs)
        return TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if dim is not _MISSING and not (_dim_ok(dim) or (none and dim is None)):
        seq = isinstance(dim, (tuple, list))
        if seq and tuples:
            bad = [(i, d) for i, d in enumerate(dim, 1) if not _dim_ok(d)]
            if not bad:
                return _bad_keepdim(name, style, dim, keep, given, kwargs, pos)
            i, d = bad[0]
            return TypeError(f"{name}(): argument '{param}' failed to unpack the object at pos "
                             f"{i} with error \"type must be tuple of ints,but got "
                             f"{type(d).__name__}\"")
        if style == "overload":
            return invalid_combination(name, given, kwargs)
        kind = "tuple of ints" if style == "tuple" else "int"
        where = "" if param in kwargs or "axis" in kwargs else f" (position {pos})"
        return TypeError(f"{name}(): argument '{param}'{where} must be {kind}, not "
                         f"{type(dim).__name__}")
    return _bad_keepdim(name, style, dim, keep, given, kwargs, pos)


def _bad_keepdim(name, style, dim, keep, given, kwargs, pos):
    """The TypeError for a ``keepdim`` that is not a bool, or None: std and var, and the
    overloaded reductions called without ``dim``, fit none of their signatures."""
    if keep is _MISSING or isinstance(keep, bool):
        return None
    if name in ("std", "var") or (dim is _MISSING and style == "overload"):
        return invalid_combination(name, given, kwargs)
    return _keep_error(name, keep, kwargs, pos)


def _keep_error(name, keep, kwargs, pos) -> TypeError:
    where = "" if "keepdim" in kwargs or "keepdims" in kwargs else f" (position {pos + 1})"
    return TypeError(f"{name}(): argument 'keepdim'{where} must be bool, not "
                     f"{type(keep).__name__}")


# var/std (and var_mean/std_mean, which take no out=) bind their arguments to one of three
# signatures: (positional parameters, keyword-only ones, required ones)
_VAR_SIGNATURES = ((("dim", "unbiased", "keepdim"), ("out",), ("dim",)),
                   (("dim",), ("correction", "keepdim", "out"), ()),
                   (("unbiased",), (), ()))


def _var_value_ok(param: str, v) -> bool:
    if param in ("unbiased", "keepdim"):
        return isinstance(v, bool)
    if param == "dim":  # (the elements of a tuple: checked with the other reductions' dims)
        return v is None or isinstance(v, (tuple, list)) or _dim_ok(v)
    if param == "correction":
        return v is None or isinstance(v, _NUMBER) or isinstance(v, Tensor)
    return v is None or isinstance(v, Tensor)  # out


def _fits(signature, args: tuple, kwargs: dict, out: bool) -> bool:
    positional, keyword, required = signature
    if len(args) > len(positional):
        return False
    bound = dict(zip(positional, args))
    for k, v in kwargs.items():
        if k in bound or k not in positional + keyword or (k == "out" and not out):
            return False
        bound[k] = v
    return all(r in bound for r in required) and all(
        _var_value_ok(k, v) for k, v in bound.items())


def var_signature_error(name: str, args: tuple, kwargs: dict, method: bool, given=None):
    """PyTorch's TypeError for arguments of ``name`` (var, std, var_mean, std_mean) that fit
    none of its signatures (``x.var(0, 1)``: ``unbiased`` must be a bool), or None. ``args``
    start with ``input`` unless ``method``; ``given``: the keywords as the call gave them
    (``axis=`` for ``dim=``)."""
    shown = kwargs if given is None else given
    rest, kw = args, dict(kwargs)
    out = not method and name in ("var", "std")
    if not method:
        if args:
            input, rest = args[0], args[1:]
        else:
            input = kw.pop("input", None)
        if not isinstance(input, Tensor):
            return _var_error(name, args, shown, method, out)
    if any(_fits(sig, rest, kw, out and sig is not _VAR_SIGNATURES[2]) for sig in _VAR_SIGNATURES):
        return None
    return _var_error(name, args, shown, method, out)


def _var_error(name: str, args: tuple, kwargs: dict, method: bool, out: bool) -> TypeError:
    first = "" if method else "Tensor input, "
    tail = ", Tensor out = None" if out else ""
    signatures = (f"tuple of ints dim, bool unbiased = True, bool keepdim = False"
                  f"{', *' if out else ''}{tail}",
                  f"tuple of ints dim = None, *, Number correction = None, bool keepdim = False"
                  f"{tail}", "bool unbiased = True")
    text = str(invalid_combination(name, args, kwargs))
    return TypeError(text + "".join(f"\n * ({first}{s})" for s in signatures) + "\n")


def _dims(fn, name: str, method: bool):
    """``fn`` with PyTorch's checks of its ``dim`` and ``keepdim`` arguments."""
    param = "dims" if name == "flip" else "dim"

    def checked(*args, **kwargs):
        if not kwargs and len(args) == 1 and method:  # x.sum(): nothing to check
            return fn(*args)
        rest, given = args[1:], kwargs
        if method and "out" in kwargs:  # (only the torch function takes out=)
            if name in ("std", "var", "all", "any", "count_nonzero", "squeeze"):
                raise invalid_combination(name, rest, kwargs)
            raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
        if "axis" in kwargs and not rest and param not in kwargs and name != "flip":
            kwargs = dict(kwargs)  # NumPy's name: PyTorch takes x.sum(axis=1) as dim=1
            kwargs[param] = kwargs.pop("axis")
        if "keepdims" in kwargs and "keepdim" not in kwargs and name not in NO_KEEPDIM \
                and name != "count_nonzero":
            kwargs = dict(kwargs)  # NumPy's name too: x.sum(1, keepdims=True)
            kwargs["keepdim"] = kwargs.pop("keepdims")
        if name in ("var", "std"):  # (one check of all their arguments)
            error = var_signature_error(name, args[method:], kwargs, method, given)
            if error is not None:
                raise error
        dim = rest[0] if rest else kwargs.get(param, _MISSING)
        keep = kwargs.get("keepdim", _MISSING)
        if len(rest) > 1 and name not in NO_KEEPDIM:
            keep = rest[1]
        error = _dim_error(name, dim, keep, args[method:], given, method)
        if error is not None:
            raise error
        return fn(*args, **kwargs)

    checked.__name__ = checked.__qualname__ = name
    checked.__doc__ = fn.__doc__
    checked.__wrapped__ = fn
    return checked


def _operator(fn):
    """A dunder that leaves an operand it cannot use to Python (``unsupported operand``)."""
    def op(self, other):
        if isinstance(other, _OK) or isinstance(other, _NUMBER):
            return fn(self, other)
        return NotImplemented

    op.__name__ = fn.__name__
    return op


_ALL = sorted(set(TENSOR_ONLY) | NUMBERS | OVERLOADED)
# operators whose op answers a bad operand itself (see bad_operand), by the op's name
OPERATORS = {"__add__": "add", "__sub__": "sub", "__mul__": "mul", "__truediv__": "div",
             "__eq__": "eq", "__ne__": "ne", "__lt__": "lt", "__le__": "le", "__gt__": "gt",
             "__ge__": "ge"}


def check_methods() -> None:
    """Give ``Tensor``'s binary methods PyTorch's checks: the form of an op that answers a bad
    operand itself (:func:`bad_operand`), a wrapper around the others."""
    for name in _ALL:
        for n in (name, name + "_"):
            fn = Tensor.__dict__.get(n)
            if fn is not None:
                setattr(Tensor, n, called_as(fn, n, METHOD) if _has_forms(fn) else
                        _method(fn, n))
    for dunder, name in OPERATORS.items():
        fn = Tensor.__dict__[dunder]
        if _has_forms(fn):
            setattr(Tensor, dunder, called_as(fn, name, OPERATOR))
    for name in MORE:
        for n in (name, name + "_"):
            if n in Tensor.__dict__:
                setattr(Tensor, n, _more(Tensor.__dict__[n], n, True))
    for name in DIMS:
        if name in Tensor.__dict__:
            setattr(Tensor, name, _dims(Tensor.__dict__[name], name, True))
    for dunder in ("__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__iadd__",
                   "__isub__", "__imul__", "__itruediv__", "__iand__", "__ior__", "__ixor__",
                   "__ipow__", "__ifloordiv__", "__imod__"):
        if dunder in Tensor.__dict__:
            setattr(Tensor, dunder, _operator(Tensor.__dict__[dunder]))


def check_functions(namespace: dict) -> None:
    """Wrap the binary functions of ``namespace`` (``minigrad``'s) with the checks above."""
    for name in _ALL:
        fn = namespace.get(name)
        if fn is not None and not hasattr(fn, "__wrapped__"):
            # (a number first, torch.eq(2, t), is refused before the op runs: a wrapper)
            namespace[name] = called_as(fn, name, FUNCTION) if _has_forms(fn) and \
                name in NUMBER_FIRST else _function(fn, name)
    for name in MORE:
        fn = namespace.get(name)
        if fn is not None and not hasattr(fn, "__wrapped__"):
            namespace[name] = _more(fn, name, False)
    for name in DIMS:
        fn = namespace.get(name)
        if fn is not None and not hasattr(fn, "__wrapped__"):
            namespace[name] = _dims(fn, name, False)
