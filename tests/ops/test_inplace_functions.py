"""PyTorch's module-level in-place functions (``torch.sin_(x)``, ``torch.relu_(x)``,
``torch.zero_(x)``...) against PyTorch: on a tensor without history (the value, and that the
tensor itself is returned), on a non-leaf (the node), on a leaf that requires grad (the leaf
error), and with a first argument that is no tensor."""

import pytest
from helpers import assert_same_outcome

import minigrad

pytestmark = pytest.mark.torch

ARGS = {"clamp_": "0.2, 0.6", "clamp_max_": "0.6", "clamp_min_": "0.2", "clip_": "0.2, 0.6",
        "fill_": "2.0", "xlogy_": "2.0", "index_put_": "(lib.tensor([0]),), lib.tensor(9.0)"}
NAMES = sorted(minigrad._inplace_functions())
# PyTorch answers a wrong first argument of these with the list of their signatures (a
# TypeError minigrad words more briefly: only the type is compared)
SIGNATURES = {"clamp_", "clamp_max_", "clamp_min_", "clip_", "fill_", "xlogy_", "index_put_",
              "round_"}


def test_every_pytorch_in_place_function_minigrad_has_a_method_for_is_exported(torch):
    expected = {n for n in dir(torch) if n.endswith("_") and not n.startswith("_")
                and hasattr(torch.Tensor, n) and hasattr(minigrad.Tensor, n)}
    assert expected <= set(dir(minigrad))
    assert len(NAMES) >= 40


@pytest.mark.parametrize("name", NAMES)
def test_in_place_function_matches_pytorch(torch, name):
    extra = ", " + ARGS[name] if name in ARGS else ""
    x = "lib.tensor([0.25, 0.5, 0.75])"
    assert_same_outcome(torch, f"(lambda x: (lib.{name}(x{extra}) is x, x))({x})")
    if name not in ("detach_", "fill_", "zero_", "index_put_"):
        assert_same_outcome(torch, f"lib.{name}({x}.requires_grad_() * 1{extra}).grad_fn.name()")
    assert_same_outcome(torch, f"lib.{name}({x}.requires_grad_(){extra})")
    for bad in (f"lib.{name}(0.5{extra})", f"lib.{name}()"):
        if name in SIGNATURES:
            with pytest.raises(TypeError):
                eval(bad, {"lib": minigrad})  # noqa: S307
            with pytest.raises(TypeError):
                eval(bad, {"lib": torch})  # noqa: S307
        else:
            assert_same_outcome(torch, bad)


def test_the_list_of_in_place_functions_is_pytorchs_whole_list(torch):
    """So that an op declared with ``inplace=True`` needs no edit there (CONTRIBUTING.md)."""
    from minigrad._inplace_functions import _NAMES

    theirs = {n for n in dir(torch) if n.endswith("_") and not n.startswith("_")
              and callable(getattr(torch, n)) and hasattr(torch.Tensor, n)}
    assert set(_NAMES) == theirs
