"""torch.load reads files written by PyTorch's torch.save (zip format: data.pkl + data/<key>)
as PyTorch's weights_only=True load does: the same objects, printed the same, and the same
refusal of anything that is not an allowed name, without ever running code from the file."""

from __future__ import annotations

import os
import pickle

import numpy as np
import pytest

import minigrad as mg

X = np.arange(10, dtype=np.float32)


def shown(obj) -> str:
    """What a learner sees of a loaded object (with the attributes print leaves out)."""
    if isinstance(obj, dict):
        inner = ", ".join(f"{k!r}: {shown(v)}" for k, v in obj.items())
        meta = getattr(obj, "_metadata", None)
        return f"{type(obj).__name__}({{{inner}}}, _metadata={meta!r})"
    if isinstance(obj, (list, tuple)):
        return type(obj).__name__ + "[" + ", ".join(shown(v) for v in obj) + "]"
    if hasattr(obj, "grad_fn"):
        return (f"{obj!r} {type(obj).__name__} {obj.dtype} stride={obj.stride()} "
                f"contiguous={obj.is_contiguous()} leaf={obj.is_leaf}")
    return repr(obj)


def objects(torch):
    """What PyTorch saves, by case."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    model(torch.ones(2, 3)).sum().backward()
    opt.step()
    x = torch.tensor(X)
    return {
        "tensor": torch.tensor([[1.5, -2.0], [0.25, 3.0]]),
        "dict_of_tensors": {"w": torch.tensor(X).reshape(2, 5), "b": torch.zeros(3),
                            "step": 7, "name": "run-1"},
        "state_dict": model.state_dict(),
        "optimizer_state_dict": opt.state_dict(),
        "checkpoint": {"epoch": 3, "model": model.state_dict(), "loss": 0.25,
                       "optimizer": opt.state_dict()},
        "views_of_one_storage": {"part": x[2:5], "all": x, "t": x.view(2, 5).t()},
        "dtypes": [torch.tensor([1, 2]), torch.tensor([True, False]),
                   torch.tensor([1, 2], dtype=torch.uint8), torch.tensor([3], dtype=torch.int32),
                   torch.tensor([1.0], dtype=torch.float64), torch.tensor(2.5),
                   torch.zeros(0, 3)],
        "parameter_and_grad": {"p": torch.nn.Parameter(torch.ones(2)),
                               "q": torch.nn.Parameter(torch.ones(2), requires_grad=False),
                               "g": torch.ones(2, requires_grad=True)},
        "plain_values": [1, 2.5, None, True, "x", (1, 2), {3}, b"by", 2 ** 70, float("inf"),
                         complex(1, 2), torch.float64, torch.device("cpu"), torch.Size([2, 3])],
    }


@pytest.mark.parametrize("case", ["tensor", "dict_of_tensors", "state_dict",
                                  "optimizer_state_dict", "checkpoint", "views_of_one_storage",
                                  "dtypes", "parameter_and_grad", "plain_values"])
def test_files_pytorch_wrote_load_as_pytorch_loads_them(torch, tmp_path, case):
    path = tmp_path / f"{case}.pt"
    torch.save(objects(torch)[case], path)
    assert shown(mg.load(path)) == shown(torch.load(path))
    with open(path, "rb") as f:  # an open file works too
        assert shown(mg.load(f, map_location="cpu")) == shown(torch.load(path))


def test_tensors_of_one_storage_still_share_it(torch, tmp_path):
    torch.save(objects(torch)["views_of_one_storage"], tmp_path / "v.pt")
    for lib in (mg, torch):
        d = lib.load(tmp_path / "v.pt")
        d["part"][0] = 100.0
        assert d["all"][2].item() == 100.0 and d["t"][2, 0].item() == 100.0


def test_a_pytorch_state_dict_drives_a_minigrad_model_to_the_same_outputs(torch, tmp_path):
    torch.manual_seed(0)
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    torch.save(theirs.state_dict(), tmp_path / "m.pt")
    mine = mg.nn.Sequential(mg.nn.Linear(3, 4), mg.nn.Tanh(), mg.nn.Linear(4, 2))
    mine.load_state_dict(mg.load(tmp_path / "m.pt"))
    data = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    # the weights are the same bits; float32 matmuls may sum in another order (last digits)
    np.testing.assert_allclose(mine(mg.tensor(data)).detach().numpy(),
                               theirs(torch.tensor(data)).detach().numpy(), rtol=1e-5, atol=1e-6)


class Foo:  # a class a file may name
    pass


class Boom:
    """Loading a pickle of this would run a shell command (in an unrestricted unpickler)."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def refusal(lib, path, **kwargs):
    try:
        lib.load(path, **kwargs)
    except pickle.UnpicklingError as e:
        return str(e)
    return "loaded"


@pytest.mark.parametrize("what", ["custom_class", "numpy_array", "shell_command"])
def test_disallowed_names_are_refused_with_pytorchs_message(torch, tmp_path, what):
    marker = tmp_path / "ran"
    obj = {"custom_class": {"x": Foo()}, "numpy_array": {"a": np.ones(2)},
           "shell_command": Boom(marker)}[what]
    torch.save(obj, tmp_path / "f.pt")
    assert refusal(mg, tmp_path / "f.pt") == refusal(torch, tmp_path / "f.pt") != "loaded"
    assert not marker.exists()


def test_weights_only_false_still_runs_no_code(torch, tmp_path):
    marker = tmp_path / "ran"
    torch.save(Boom(marker), tmp_path / "f.pt")
    message = refusal(mg, tmp_path / "f.pt", weights_only=False)
    assert "never runs code from a file" in message and "posix.system" in message \
        or "blocked" in message
    torch.save({"x": Foo()}, tmp_path / "g.pt")
    message = refusal(mg, tmp_path / "g.pt", weights_only=False)
    assert "never runs code from a file" in message and "Foo" in message
    assert not marker.exists()


def test_what_minigrad_cannot_hold_is_refused_with_a_clear_message(torch, tmp_path):
    torch.save(torch.ones(2, dtype=torch.float16), tmp_path / "h.pt")
    with pytest.raises(RuntimeError, match="float16|half.*minigrad does not have"):
        mg.load(tmp_path / "h.pt")
    torch.save(torch.ones(2), tmp_path / "old.pt", _use_new_zipfile_serialization=False)
    with pytest.raises(RuntimeError, match="legacy format"):
        mg.load(tmp_path / "old.pt")


def test_minigrads_own_files_still_round_trip(tmp_path):
    obj = {"w": mg.tensor([1.0, 2.0], requires_grad=True), "n": 3}
    mg.save(obj, tmp_path / "own.pt")
    back = mg.load(tmp_path / "own.pt")
    assert repr(back) == repr(obj) and back["w"].requires_grad


class Box:
    """A class a checkpoint may hold, allowed by name with safe_globals."""


def test_classes_allowed_with_safe_globals_load_as_in_pytorch(torch, tmp_path):
    box = Box()
    box.w = torch.tensor([1.0, 2.0])
    box.note = "hi"
    torch.save({"box": box}, tmp_path / "box.pt")
    results = []
    for lib in (mg, torch):
        assert refusal(lib, tmp_path / "box.pt") != "loaded"
        with lib.serialization.safe_globals([Box]):
            loaded = lib.load(tmp_path / "box.pt")["box"]
            assert Box in lib.serialization.get_safe_globals()
        assert Box not in lib.serialization.get_safe_globals()
        results.append((type(loaded).__name__, repr(loaded.w), loaded.note))
        lib.serialization.add_safe_globals([(Box, f"{Box.__module__}.Box")])
        assert type(lib.load(tmp_path / "box.pt")["box"]) is Box
        lib.serialization.clear_safe_globals()
        assert refusal(lib, tmp_path / "box.pt") != "loaded"
    assert results[0] == results[1]
