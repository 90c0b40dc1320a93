"""repr/str of tensors: character for character what PyTorch prints (with ``torch.`` -> ``minigrad.``).

Every test builds the same data in both libraries (from NumPy arrays or the same calls) and
compares the printed strings; PyTorch is the oracle, no expected string is written by hand.
"""

from __future__ import annotations

import contextlib
import inspect
import math
import timeit
import warnings

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
from minigrad import _tensor_str
from minigrad.nn.parameter import Parameter

NAN, INF = math.nan, math.inf


def as_torch_text(text: str) -> str:
    return text.replace("minigrad.", "torch.")


@contextlib.contextmanager
def both_printoptions(torch, **options):
    """Set the same print options in both libraries, restoring the defaults afterwards."""
    torch.set_printoptions(**options)
    mg.set_printoptions(**options)
    try:
        yield
    finally:
        torch.set_printoptions(profile="default")
        mg.set_printoptions(profile="default")


def assert_same_repr(torch, array: np.ndarray, grad: str = "none") -> None:
    """Print ``array`` as a tensor in both libraries; ``grad`` is "none", "leaf" or "op"."""
    tensors = []
    for lib in (torch, mg):
        t = lib.tensor(array)
        if grad != "none":
            t.requires_grad_(True)
            if grad == "op":
                t = t * 2
        tensors.append(t)
    expected, got = repr(tensors[0]), repr(tensors[1])
    assert as_torch_text(got) == expected, f"\ntorch:\n{expected}\nminigrad:\n{got}"
    assert str(tensors[1]) == got


# ------------------------------------------------------------------ explicit cases
TUTORIAL_CASES = {
    "mixed_magnitudes_use_scientific": lambda L: L.tensor([1.0240e+02, 1.0240e+03, 1.0240e-01]),
    "leaf_requires_grad": lambda L: L.tensor([[-18.1909, 1.4176], [1.5632, -0.6163]],
                                             requires_grad=True),
    "add_grad_fn": lambda L: L.ones(2, 2, requires_grad=True) + 2,
    "mean_grad_fn_0d": lambda L: ((L.ones(2, 2, requires_grad=True) + 2) * 3).mean(),
    "long_zeros": lambda L: L.zeros(5, 3, dtype=L.long),
    "int_and_float_list": lambda L: L.tensor([5.5, 3]),
    "scalar_float": lambda L: L.tensor(3.14159),
    "scalar_int": lambda L: L.tensor(5),
    "scalar_bool": lambda L: L.tensor(True),
    "scalar_nan": lambda L: L.tensor(NAN),
    "scalar_zero": lambda L: L.tensor(0.0),
    "scalar_float64": lambda L: L.tensor(0.5, dtype=L.float64),
    "scalar_requires_grad": lambda L: L.tensor(-2.0, requires_grad=True),
    "whole_floats_float64": lambda L: L.tensor([[1, 2], [3, 4]], dtype=L.float64),
    "int32": lambda L: L.tensor([[1, -20], [300, 4]], dtype=L.int32),
    "uint8": lambda L: L.tensor([0, 7, 255], dtype=L.uint8),
    "bools": lambda L: L.tensor([[True, False], [False, True]]),
    "tiny_and_one": lambda L: L.tensor([1e-10, 1.0]),
    "nan_inf": lambda L: L.tensor([NAN, INF, -INF, 0.0]),
    "nan_inf_with_fraction": lambda L: L.tensor([NAN, INF, -INF, 1.25]),
    "nan_inf_with_whole": lambda L: L.tensor([NAN, -INF, 3.0, -40.0]),
    "negative_zero_whole": lambda L: L.tensor([-0.0, 2.0]),
    "negative_zero_fraction": lambda L: L.tensor([-0.0, 2.5]),
    "just_below_1e_minus_4_in_float32": lambda L: L.tensor([1e-4, 0.5]),
    "exactly_1e_minus_4_in_float64": lambda L: L.tensor([1e-4, 0.05], dtype=L.float64),
    "exactly_1e8": lambda L: L.tensor([1e8, 1e6]),
    "over_1e8": lambda L: L.tensor([123456789.0, 1.0]),
    "ratio_exactly_1000": lambda L: L.tensor([1.0, 1000.0]),
    "ratio_above_1000": lambda L: L.tensor([1.0, 1000.5]),
    "rounding_widens": lambda L: L.tensor([9.99996, 0.5]),
    "three_digit_exponent": lambda L: L.tensor([1e-300, 1e300, -1.0], dtype=L.float64),
    "row_wraps": lambda L: L.linspace(-100, 100, 50),
    "int_row_wraps": lambda L: L.tensor(np.arange(-60, 60) * 1000),
    "three_d": lambda L: L.tensor(np.arange(24).reshape(2, 3, 4)),
    "four_d": lambda L: L.tensor(np.arange(48.0).reshape(2, 2, 3, 4)) / 7,
    "summarized_vector": lambda L: L.arange(2000.0),
    "summarized_matrix": lambda L: L.tensor(np.arange(5000).reshape(50, 100)),
    "summarized_4d": lambda L: L.tensor(np.arange(3 * 7 * 8 * 9.0).reshape(3, 7, 8, 9)) - 500,
    "summarized_only_some_dims": lambda L: L.ones(2, 600, 2) * 0.5,
    "just_over_threshold": lambda L: L.arange(1001),
    "empty_float": lambda L: L.tensor([]),
    "empty_matrix": lambda L: L.zeros(0, 3),
    "empty_int32_3d": lambda L: L.zeros(2, 0, 4, dtype=L.int32),
    "empty_bool": lambda L: L.tensor([], dtype=L.bool),
    "empty_int64": lambda L: L.tensor([], dtype=L.int64),
    "empty_requires_grad": lambda L: L.zeros(3, 0, dtype=L.float64, requires_grad=True),
    "dtype_suffix_wraps": lambda L: L.ones(3, 4, 13, dtype=L.float64) / 3,
    "two_suffixes_wrap": lambda L: L.ones(5, 5, 10, dtype=L.float64, requires_grad=True) * 2,
    "suffix_fits_with_torch_name": lambda L: L.ones(2, 2, 5, dtype=L.float64) / 3,
}


@pytest.mark.parametrize("build", TUTORIAL_CASES.values(), ids=TUTORIAL_CASES.keys())
def test_tutorial_tensor_prints_as_in_pytorch(torch, build):
    expected, got = repr(build(torch)), repr(build(mg))
    assert as_torch_text(got) == expected, f"\ntorch:\n{expected}\nminigrad:\n{got}"


def test_float64_default_dtype_moves_the_dtype_suffix(torch):
    def build(lib):
        lib.set_default_dtype(lib.float64)
        try:
            return repr([lib.tensor([1.5, 2.0]), lib.tensor([1.5], dtype=lib.float32),
                         lib.tensor([]), lib.tensor([], dtype=lib.float32)])
        finally:
            lib.set_default_dtype(lib.float32)

    assert as_torch_text(build(mg)) == build(torch)


def test_tensor_subclass_prints_with_its_own_name(torch):
    def build(lib):
        class MyTensor(lib.Tensor):
            pass

        return repr([MyTensor([1.0, 2.5]), MyTensor([1, 2])])

    assert build(mg) == build(torch)


def test_parameter_prints_as_tensor_after_its_heading(torch):
    def build(lib, param):
        class MyParam(param):
            pass

        return repr([param(lib.tensor([1.5, 2.0])), param(lib.tensor([1, 2]), requires_grad=False),
                     param(lib.tensor(1.0, dtype=lib.float64)), MyParam(lib.ones(2))])

    assert as_torch_text(build(mg, Parameter)) == build(torch, torch.nn.Parameter)


def test_tensor_contents_replaces_the_numbers(torch):
    def build(lib):
        return [lib.tensor([1.0, 2.0]).__repr__(tensor_contents="[...]"),
                lib.zeros(0, 2, dtype=lib.int32).__repr__(tensor_contents="<none>")]

    assert [as_torch_text(s) for s in build(mg)] == build(torch)


@pytest.mark.parametrize("spec", ["", ".3f", ">12", "e"])
@pytest.mark.parametrize("value", [0.1, -2.5, 7, True])
def test_format_of_0d_tensor_formats_its_value(torch, spec, value):
    assert format(mg.tensor(value), spec) == format(torch.tensor(value), spec)


def test_format_of_1d_tensor_is_its_repr_or_raises_like_pytorch(torch):
    assert as_torch_text(f"{mg.tensor([1.0, 2.0])}") == f"{torch.tensor([1.0, 2.0])}"
    with pytest.raises(TypeError) as expected:
        format(torch.tensor([1.0]), ".2f")
    with pytest.raises(TypeError, match="^" + str(expected.value) + "$"):
        format(mg.tensor([1.0]), ".2f")


def test_format_of_0d_parameter_does_not_format_its_value(torch):
    assert f"{Parameter(mg.tensor(2.0))}" == f"{torch.nn.Parameter(torch.tensor(2.0))}"
    with pytest.raises(TypeError) as expected:
        format(torch.nn.Parameter(torch.tensor(2.0)), ".2f")
    with pytest.raises(TypeError, match="^" + str(expected.value) + "$"):
        format(Parameter(mg.tensor(2.0)), ".2f")


# ------------------------------------------------------------------ print options
OPTION_CASES = [
    dict(precision=2),
    dict(precision=0),
    dict(precision=10, linewidth=200),
    dict(threshold=5),
    dict(threshold=0),
    dict(edgeitems=1, threshold=10),
    dict(edgeitems=0, threshold=3),
    dict(linewidth=40),
    dict(linewidth=10),
    dict(sci_mode=True),
    dict(sci_mode=False),
    dict(profile="short"),
    dict(profile="full"),
    dict(profile="short", precision=6),
]
OPTION_DATA = [
    np.array([1.12345, -20.5, 3e-3]),
    np.array([1e-6, 1.0, 5e9]),
    np.array([0.0, -0.0, NAN]),
    np.arange(10),
    np.arange(40.0).reshape(5, 8) / 3,
    np.arange(2000.0).reshape(10, 20, 10),
    np.array([[True, False, True]] * 7),
    np.array(2.5),
]


@pytest.mark.parametrize("options", OPTION_CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_set_printoptions_changes_printing_as_in_pytorch(torch, options):
    with both_printoptions(torch, **options):
        for array in OPTION_DATA:
            assert_same_repr(torch, array)
            if array.dtype.kind == "f":
                assert_same_repr(torch, array, grad="op")


def test_set_printoptions_takes_pytorchs_arguments(torch):
    params = inspect.signature(torch.set_printoptions).parameters
    assert list(inspect.signature(mg.set_printoptions).parameters) == list(params)


def test_get_printoptions_and_context_manager_match_pytorch(torch):
    from torch import _tensor_str as torch_str

    assert _tensor_str.get_printoptions() == torch_str.get_printoptions()
    with both_printoptions(torch, profile="full", sci_mode=True):
        assert _tensor_str.get_printoptions() == torch_str.get_printoptions()
    with _tensor_str.printoptions(precision=1), torch_str.printoptions(precision=1):
        assert _tensor_str.get_printoptions() == torch_str.get_printoptions()
        assert as_torch_text(repr(mg.tensor([1.25]))) == repr(torch.tensor([1.25]))
    assert _tensor_str.get_printoptions() == torch_str.get_printoptions()


def test_unknown_profile_changes_only_sci_mode(torch):
    with both_printoptions(torch, precision=3):
        torch.set_printoptions(profile="nope", sci_mode=True)
        mg.set_printoptions(profile="nope", sci_mode=True)
        assert mg._tensor_str.get_printoptions() == torch._tensor_str.get_printoptions()


# ------------------------------------------------------------------ Hypothesis
def _floats(lo, hi):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


VALUE_RANGES = {
    "unit": _floats(-10, 10),
    "tiny": _floats(-1e-4, 1e-4),
    "huge": _floats(-1e12, 1e12),
    "whole": st.integers(-10**6, 10**6).map(float),
    "special": st.sampled_from([NAN, INF, -INF, 0.0, -0.0, 1.0, 2.5, 1e-5, 1e9]),
}
VALUE_RANGES["mixed"] = st.one_of(*VALUE_RANGES.values())
SHAPES = st.one_of(
    hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5),
    hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=14),  # often > 1000 elements
    st.sampled_from([(1001,), (3, 400), (2, 0, 3)]),
)


@st.composite
def arrays(draw):
    """A NumPy array of a dtype PyTorch shares, in one of several value ranges."""
    shape = draw(SHAPES)
    dtype = draw(st.sampled_from(["float32", "float64", "int64", "int32", "bool"]))
    if dtype == "bool":
        return draw(hnp.arrays(np.bool_, shape))
    if dtype.startswith("int"):
        info = np.iinfo(dtype)
        ints = st.one_of(st.integers(-9, 9), st.integers(int(info.min), int(info.max)))
        return draw(hnp.arrays(dtype, shape, elements=ints, fill=ints))
    values = VALUE_RANGES[draw(st.sampled_from(sorted(VALUE_RANGES)))]
    array = draw(hnp.arrays(np.float64, shape, elements=values, fill=values))
    with np.errstate(over="ignore"):
        return array.astype(dtype)


@given(array=arrays(), grad=st.sampled_from(["none", "leaf", "op"]))
def test_random_tensor_prints_as_in_pytorch(torch, array, grad):
    if array.dtype.kind != "f":
        grad = "none"
    assert_same_repr(torch, array, grad)


@given(array=arrays(),
       precision=st.integers(0, 8),
       threshold=st.sampled_from([0, 5, 50, 1000, INF]),
       edgeitems=st.integers(0, 4),
       linewidth=st.integers(5, 150),
       sci_mode=st.sampled_from([None, True, False]))
def test_random_tensor_with_random_printoptions_prints_as_in_pytorch(
        torch, array, precision, threshold, edgeitems, linewidth, sci_mode):
    with both_printoptions(torch, precision=precision, threshold=threshold,
                           edgeitems=edgeitems, linewidth=linewidth, sci_mode=sci_mode):
        assert_same_repr(torch, array)


# ------------------------------------------------------------------ speed
def test_printing_a_5x5_tensor_takes_well_under_a_millisecond():
    t = mg.randn(5, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seconds = min(timeit.repeat(lambda: repr(t), number=50, repeat=5)) / 50
    assert seconds < 500e-6  # about 40 us on a laptop; the target is 100 us
