"""torch.utils.data, torch.save/load and sampling with generators, against PyTorch."""

from __future__ import annotations

import io
import pickle
import zipfile

import numpy as np
import pytest
from helpers import assert_same_outcome

import minigrad as mg


def batches(lib, n=7, **kw):
    data = lib.utils.data
    X = lib.tensor(np.arange(2 * n, dtype=np.float32).reshape(n, 2))
    ds = data.TensorDataset(X, lib.arange(n))
    loader = data.DataLoader(ds, **kw)
    return len(ds), len(loader), [[repr(t) for t in b] for b in loader]


@pytest.mark.parametrize("kw", [dict(), dict(batch_size=3), dict(batch_size=3, drop_last=True),
                                dict(batch_size=7), dict(batch_size=10, drop_last=True),
                                dict(batch_size=None)])
def test_dataloader_batches_match_torch(torch, kw):
    assert batches(mg, **kw) == batches(torch, **kw)


@pytest.mark.parametrize("samples", [[1.0, 2.0, 3.0], [(1, 2.0), (3, 4.0)], [{"a": 1}, {"a": 2}],
                                     [np.ones(2), np.zeros(2)], [[1, 2], [3, 4]]])
def test_default_collate_matches_torch(torch, samples):
    def first(lib):
        return repr(next(iter(lib.utils.data.DataLoader(samples, batch_size=2))))

    assert first(mg) == first(torch)


def test_shuffle_is_a_permutation_each_epoch_and_repeats_with_a_seeded_generator():
    def epochs(seed):
        g = mg.Generator().manual_seed(seed)
        ds = mg.utils.data.TensorDataset(mg.arange(10))
        loader = mg.utils.data.DataLoader(ds, batch_size=4, shuffle=True, generator=g)
        return [[int(i) for b in loader for i in b[0]] for _ in range(3)]

    first = epochs(0)
    assert all(sorted(e) == list(range(10)) for e in first)
    assert first[0] != first[1]  # a new order each epoch
    assert epochs(0) == first and epochs(1) != first


def test_dataset_errors_match_torch(torch):
    def errors(lib):
        data = lib.utils.data
        out = []
        for fn in (lambda: data.TensorDataset(lib.ones(3), lib.ones(4)),
                   lambda: data.Dataset()[0],
                   lambda: data.DataLoader([1], shuffle=True, sampler=[0]),
                   lambda: data.DataLoader([1], batch_size=0)):
            try:
                fn()
                out.append(None)
            except Exception as e:
                out.append((type(e).__name__, str(e)))
        return out

    assert errors(mg) == errors(torch)


def test_random_split_gives_disjoint_parts_of_the_given_sizes():
    ds = mg.utils.data.TensorDataset(mg.arange(10))
    a, b = mg.utils.data.random_split(ds, [7, 3], generator=mg.Generator().manual_seed(0))
    seen = sorted(int(a[i][0]) for i in range(len(a))) + sorted(int(b[i][0]) for i in range(3))
    assert (len(a), len(b)) == (7, 3) and sorted(seen) == list(range(10))


# ---------------------------------------------------------------- sampling
def test_generators_make_sampling_repeatable_and_independent_of_the_global_seed():
    def draw(seed):
        g = mg.Generator().manual_seed(seed)
        mg.manual_seed(123)  # must not matter
        return [f(g).tolist() for f in (
            lambda g: mg.rand(3, generator=g), lambda g: mg.randn(3, generator=g),
            lambda g: mg.randint(0, 10, (3,), generator=g), lambda g: mg.randperm(5, generator=g),
            lambda g: mg.normal(0.0, 1.0, size=(2,), generator=g))]

    assert draw(5) == draw(5) and draw(5) != draw(6)
    assert sorted(draw(5)[3]) == list(range(5))


@pytest.mark.parametrize("code", [
    "lib.normal(0., 1., size=(2, 3)).shape", "lib.normal(0., 1., size=(2,)).dtype",
    "lib.normal(lib.zeros(2, 3), 1.).shape", "lib.normal(2., lib.ones(4)).shape",
    "lib.normal(0., -1., size=(2,))", "lib.normal(lib.zeros(2), lib.ones(3))",
    "lib.normal(lib.zeros(3, requires_grad=True), 1.).grad_fn.name()",
    "lib.normal(1., lib.ones(3, requires_grad=True)).grad_fn.name()",
    "lib.normal(lib.zeros(3, requires_grad=True), lib.ones(3, requires_grad=True)).grad_fn.name()",
    "lib.randperm(6).dtype", "lib.randperm(6, dtype=lib.float32).dtype", "lib.randperm(0)",
    "lib.zeros(3).normal_().shape", "lib.zeros(3).uniform_(2, 3).ge(2).all()",
    "(lib.zeros(3, requires_grad=True) * 1).normal_().grad_fn.name()",
    "(lib.zeros(3, requires_grad=True) * 1).uniform_().grad_fn.name()",
    "lib.zeros(3, requires_grad=True).normal_()",
    "lib.bernoulli(lib.full((4,), 0.5)).dtype", "lib.multinomial(lib.ones(3), 2).dtype",
    "lib.ones(2, 3).new_zeros(2)", "lib.ones(2, dtype=lib.float64).new_ones((2, 2))",
    "lib.ones(2).new_full((3,), 7)", "lib.ones(2).new_tensor([1, 2])",
    "lib.ones(2, dtype=lib.int64).new_tensor([1., 2.5])", "lib.ones(2).new_empty(3).shape",
])
def test_sampling_and_new_factories_match_torch(torch, code):
    assert_same_outcome(torch, code)


def test_gradient_through_a_sample_is_zero_as_in_torch(torch):
    def grads(lib):
        mean = lib.zeros(3, requires_grad=True)
        std = lib.ones(3, requires_grad=True)
        lib.normal(mean, std).sum().backward()
        return mean.grad.tolist(), std.grad.tolist()

    assert grads(mg) == grads(torch)


# ---------------------------------------------------------------- save / load
def roundtrip(obj):
    buf = io.BytesIO()
    mg.save(obj, buf)
    buf.seek(0)
    return mg.load(buf), buf


def test_a_checkpoint_round_trips_model_and_optimizer(tmp_path):
    model = mg.nn.Sequential(mg.nn.Linear(2, 3), mg.nn.ReLU(), mg.nn.Linear(3, 1))
    opt = mg.optim.Adam(model.parameters(), lr=0.1)
    model(mg.ones(4, 2)).sum().backward()
    opt.step()
    path = tmp_path / "ckpt.pt"
    mg.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": 3}, path)
    ck = mg.load(path, weights_only=True)
    twin = mg.nn.Sequential(mg.nn.Linear(2, 3), mg.nn.ReLU(), mg.nn.Linear(3, 1))
    twin.load_state_dict(ck["model"])
    opt2 = mg.optim.Adam(twin.parameters(), lr=0.1)
    opt2.load_state_dict(ck["opt"])
    for (k, a), (_, b) in zip(model.state_dict().items(), twin.state_dict().items()):
        assert np.array_equal(a.numpy(), b.numpy()), k
    assert repr(ck["opt"]["param_groups"]) == repr(opt.state_dict()["param_groups"])
    assert ck["epoch"] == 3


@pytest.mark.parametrize("obj", [
    mg.tensor([1.0, 2.0]), mg.tensor([[1, 2]], dtype=mg.int32), mg.tensor(True),
    mg.tensor([1.0], dtype=mg.float64, requires_grad=True), mg.nn.Parameter(mg.ones(2)),
    [1, 2.5, "a", None, (1, 2)], {"x": {1: float("inf")}, "s": mg.Size([2, 3])},
    {"d": mg.float64},
])
def test_values_round_trip_with_dtype_and_requires_grad(obj):
    back, _ = roundtrip(obj)
    assert repr(back) == repr(obj) and type(back) is type(obj)


def test_a_tensor_saved_twice_loads_as_one_tensor():
    t = mg.ones(2)
    back, _ = roundtrip([t, t])
    assert back[0] is back[1]


def test_the_file_is_a_zip_of_json_and_npy_without_pickles():
    _, buf = roundtrip({"w": mg.ones(2, 2)})
    names = zipfile.ZipFile(buf).namelist()
    assert names == ["minigrad/data.json", "minigrad/tensors/0.npy"]


class _Boom:
    def __reduce__(self):
        return (exec, ("import sys; sys.modules['boom'] = 1",))


def test_loading_never_runs_code_from_the_file(tmp_path):
    import sys

    evil = tmp_path / "evil.pt"
    evil.write_bytes(pickle.dumps(_Boom()))
    with pytest.raises(RuntimeError):
        mg.load(evil)
    payload = tmp_path / "evil.zip"
    with zipfile.ZipFile(payload, "w") as z:
        z.writestr("minigrad/data.json", '{"format": "minigrad.save", "version": 1, '
                                         '"root": {"tensor": 0, "requires_grad": false}}')
        z.writestr("minigrad/tensors/0.npy", pickle.dumps(_Boom()))
    with pytest.raises(ValueError):
        mg.load(payload)
    assert "boom" not in sys.modules


def test_saving_a_whole_module_says_to_save_its_state_dict():
    with pytest.raises(TypeError, match="state_dict"):
        mg.save(mg.nn.Linear(2, 2), io.BytesIO())


def test_map_location_cuda_raises_as_a_cpu_only_torch(torch):
    _, buf = roundtrip(mg.ones(1))
    buf.seek(0)
    with pytest.raises(AssertionError, match="CUDA"):
        mg.load(buf, map_location="cuda")


def test_torch_utils_data_is_there_after_a_plain_import():
    import subprocess
    import sys

    code = "import minigrad as torch; print(torch.utils.data.DataLoader.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "DataLoader", out.stderr
