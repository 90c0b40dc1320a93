"""nn.Module, nn.Parameter and the containers, compared with PyTorch 2.13."""

from __future__ import annotations

import copy
import pickle
import warnings
from collections import OrderedDict

import numpy as np
import pytest
from helpers import both_raise, norm, on_both, raised

import minigrad as mg

pytestmark = pytest.mark.torch


def copy_weights(src_mg, dst_torch, torch):
    dst_torch.load_state_dict({k: torch.tensor(v.numpy()) for k, v in
                               src_mg.state_dict().items()})


def mlp(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(),
                         nn.Sequential(nn.Linear(8, 3, bias=False), nn.Tanh()),
                         nn.Sigmoid(), nn.Softmax(dim=1), nn.Softmax(), nn.LogSoftmax(dim=0),
                         nn.MSELoss(), nn.CrossEntropyLoss(), nn.MSELoss(reduction="sum"),
                         nn.ReLU(inplace=True), nn.Identity(), nn.Flatten(), nn.NLLLoss(),
                         nn.Dropout(0.25))


class Net:
    """A user-defined module, built on either library."""

    @staticmethod
    def make(lib):
        class Net(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = lib.nn.Linear(2, 3)
                self.register_buffer("running", lib.zeros(3))
                self.register_buffer("scratch", lib.zeros(1), persistent=False)
                self.head = lib.nn.Linear(3, 1)

            def forward(self, x):
                return self.head(self.fc(x).relu())

        return Net()


# ---------------------------------------------------------------- Parameter
def test_parameter_repr_is_torchs(torch):
    for data in ([1.0, 2.0], [[1.5, -2.0]], 3.0):
        for rg in (True, False):
            assert repr(mg.nn.Parameter(mg.tensor(data), requires_grad=rg)) == \
                norm(repr(torch.nn.Parameter(torch.tensor(data), requires_grad=rg)))
    assert repr(mg.nn.Parameter()) == repr(torch.nn.Parameter())
    d64 = mg.nn.Parameter(mg.tensor([1.0], dtype=mg.float64))
    assert repr(d64) == norm(repr(torch.nn.Parameter(torch.tensor([1.0], dtype=torch.float64))))


def test_parameter_is_a_leaf_sharing_data_and_version_with_its_source(torch):
    for lib in (mg, torch):
        t = lib.tensor([1.0, 2.0])
        p = lib.nn.Parameter(t)
        assert isinstance(p, lib.Tensor) and p.is_leaf and p.requires_grad
        t.add_(1)
        assert p.tolist() == [2.0, 3.0] and p._version == t._version == 1


def test_parameter_from_a_non_leaf_is_a_detached_leaf(torch):
    for lib in (mg, torch):
        y = lib.tensor([1.0, 2.0], requires_grad=True) * 2
        p = lib.nn.Parameter(y)
        assert p.is_leaf and p.grad_fn is None and p.requires_grad


def test_results_of_ops_on_parameters_are_plain_tensors(torch):
    for lib in (mg, torch):
        p = lib.nn.Parameter(lib.tensor([1.0, 2.0]))
        assert type(p * 2) is lib.Tensor
        assert type(p.detach()) is lib.Tensor


def test_parameter_of_integers_raises_like_torch(torch):
    both_raise(torch, lambda lib: lib.nn.Parameter(lib.tensor([1, 2])))
    both_raise(torch, lambda lib: lib.nn.Parameter([1.0, 2.0]))


def test_parameter_survives_deepcopy_and_pickle():
    p = mg.nn.Parameter(mg.tensor([1.0, 2.0]))
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert type(q) is mg.nn.Parameter and q.requires_grad and q.tolist() == [1.0, 2.0]
        assert q._data is not p._data


# ---------------------------------------------------------------- registration
def test_reprs_match_torch(torch):
    assert repr(mlp(mg)) == norm(repr(mlp(torch)))
    assert repr(Net.make(mg)) == repr(Net.make(torch))
    assert repr(mg.nn.Module()) == repr(torch.nn.Module())
    assert repr(mg.nn.Linear(3, 2, bias=False)) == repr(torch.nn.Linear(3, 2, bias=False))


def test_named_parameters_buffers_children_and_modules_match_torch(torch):
    mm, tm = Net.make(mg), Net.make(torch)
    for method in ("named_parameters", "named_buffers", "named_children", "named_modules"):
        assert [n for n, _ in getattr(mm, method)()] == [n for n, _ in getattr(tm, method)()]
    assert [n for n, _ in mm.named_parameters(prefix="x", recurse=False)] == \
        [n for n, _ in tm.named_parameters(prefix="x", recurse=False)]
    assert [n for n, _ in mm.named_modules(prefix="m")] == \
        [n for n, _ in tm.named_modules(prefix="m")]
    assert len(list(mm.parameters())) == 4 and len(list(mm.children())) == 2
    assert list(mm.modules())[0] is mm


def test_shared_parameters_and_modules_are_listed_once_as_in_torch(torch):
    def build(lib):
        inner = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.ReLU())
        inner[1].w = inner[0].weight
        return lib.nn.Sequential(inner, inner)

    mm, tm = build(mg), build(torch)
    for kwargs in ({}, {"remove_duplicate": False}):
        assert [n for n, _ in mm.named_parameters(**kwargs)] == \
            [n for n, _ in tm.named_parameters(**kwargs)]
        assert [n for n, _ in mm.named_modules(**kwargs)] == \
            [n for n, _ in tm.named_modules(**kwargs)]
    assert [n for n, _ in mm.named_children()] == [n for n, _ in tm.named_children()]
    assert list(mm.state_dict()) == list(tm.state_dict())


def test_assigning_none_and_replacing_entries_behaves_like_torch(torch):
    for lib in (mg, torch):
        m = lib.nn.Linear(2, 3)
        m.bias = None
        assert repr(m) == "Linear(in_features=2, out_features=3, bias=False)"
        assert [n for n, _ in m.named_parameters()] == ["weight"]
        m.register_buffer("b", lib.zeros(1))
        m.b = lib.nn.Parameter(lib.zeros(1))  # a parameter replaces the buffer
        assert list(m._buffers) == [] and list(m._parameters) == ["weight", "bias", "b"]
        del m.b
        assert "b" not in m._parameters


@pytest.mark.parametrize("build", [
    lambda lib: setattr(lib.nn.Linear(2, 3), "weight", lib.zeros(3, 2)),
    lambda lib: setattr(lib.nn.Linear(2, 3), "weight", 3),
    lambda lib: lib.nn.Linear(2, 3).foo,
    lambda lib: lib.nn.Sequential().foo,
    lambda lib: lib.nn.Linear(2, 3).register_buffer("weight", lib.zeros(2)),
    lambda lib: lib.nn.Linear(2, 3).register_parameter("x.y", None),
    lambda lib: lib.nn.Linear(2, 3).register_parameter("", None),
    lambda lib: lib.nn.Linear(2, 3).register_parameter(1, None),
    lambda lib: lib.nn.Linear(2, 3).register_parameter("z", lib.zeros(2)),
    lambda lib: lib.nn.Linear(2, 3).register_buffer("a.b", None),
    lambda lib: lib.nn.Linear(2, 3).register_buffer("", None),
    lambda lib: lib.nn.Linear(2, 3).register_buffer(1, None),
    lambda lib: lib.nn.Linear(2, 3).add_module("a.b", lib.nn.ReLU()),
    lambda lib: lib.nn.Linear(2, 3).add_module("", None),
    lambda lib: lib.nn.Linear(2, 3).add_module("x", 3),
    lambda lib: lib.nn.Linear(2, 3).add_module("weight", lib.nn.ReLU()),
    lambda lib: lib.nn.Module().train("x"),
    lambda lib: lib.nn.Module()(1),
    lambda lib: lib.nn.ModuleList([lib.nn.ReLU()])(1),
    lambda lib: delattr(lib.nn.Module(), "zzz"),
], ids=lambda f: "")
def test_bad_registration_and_lookup_raise_like_torch(torch, build):
    both_raise(torch, build)


def test_type_errors_on_assignment_to_registered_names_match_torch(torch):
    def assign(lib, what, value):
        m = lib.nn.Module()
        m.register_buffer("a", lib.zeros(1))
        m.l = lib.nn.Linear(1, 1)
        setattr(m, what, value)

    both_raise(torch, lambda lib: assign(lib, "a", 3))
    both_raise(torch, lambda lib: assign(lib, "l", 3))
    both_raise(torch, lambda lib: lib.nn.Module().register_buffer("a", 3))
    both_raise(torch, lambda lib: lib.nn.Module().register_parameter(
        "p", lib.nn.Parameter(lib.zeros(1)) * 2))


def test_assigning_before_init_raises_like_torch(torch):
    def early(lib, what):
        class Early(lib.nn.Module):
            def __init__(self):
                if what == "parameter":
                    self.w = lib.nn.Parameter(lib.zeros(1))
                elif what == "module":
                    self.l = lib.nn.Linear(1, 1)
                elif what == "register_parameter":
                    self.register_parameter("w", None)
                else:
                    self.register_buffer("w", None)

        Early()

    for what in ("parameter", "module", "register_parameter", "register_buffer"):
        both_raise(torch, lambda lib, what=what: early(lib, what))


# ---------------------------------------------------------------- modes, hooks, apply
def test_train_eval_requires_grad_and_apply_return_self_and_recurse(torch):
    for lib in (mg, torch):
        m = mlp(lib)
        assert m.eval() is m and not m.training and not m[2][0].training
        assert m.train() is m and m[2][1].training
        assert m.requires_grad_(False) is m and not m[0].weight.requires_grad
        seen = []
        assert m.apply(lambda mod, seen=seen: seen.append(type(mod).__name__)) is m
        assert seen[-1] == "Sequential" and seen[2:4] == ["Linear", "Tanh"]


def test_zero_grad_sets_to_none_or_zeros_like_torch(torch):
    for lib in (mg, torch):
        m = lib.nn.Linear(2, 2)
        m(lib.ones(3, 2)).sum().backward()
        m.zero_grad(set_to_none=False)
        assert m.weight.grad.tolist() == [[0.0, 0.0], [0.0, 0.0]]
        assert not m.weight.grad.requires_grad
        m.zero_grad()
        assert m.weight.grad is None and m.bias.grad is None


def test_forward_hooks_see_and_replace_inputs_and_outputs(torch):
    results = []
    for lib in (mg, torch):
        m = lib.nn.Linear(2, 2)
        log = []

        def pre(mod, args, log=log, lib=lib):
            log.append(("pre", type(mod).__name__, len(args)))
            return args[0] * 0

        def post(mod, args, out, log=log):
            log.append(("post", args[0].tolist()))
            return out * 2

        h1, h2 = m.register_forward_pre_hook(pre), m.register_forward_hook(post)
        out = m(lib.ones(1, 2))
        h1.remove()
        h2.remove()
        m(lib.ones(1, 2))
        results.append((log, (out.detach() / m.bias.detach()).tolist()))
    assert results[0] == results[1]


def test_to_float64_casts_parameters_in_place(torch):
    for lib in (mg, torch):
        m = lib.nn.Linear(2, 2)
        w = m.weight
        assert m.to(lib.float64) is m and m.weight is w and w.dtype == lib.float64
        assert m.float().weight.dtype == lib.float32 and m.to("cpu") is m
        assert m.double().bias.dtype == lib.float64


# ---------------------------------------------------------------- state_dict
def test_state_dict_keys_values_and_detachment_match_torch(torch):
    mm, tm = Net.make(mg), Net.make(torch)
    msd, tsd = mm.state_dict(), tm.state_dict()
    assert type(msd) is OrderedDict and list(msd) == list(tsd)
    assert msd._metadata == tsd._metadata
    assert all(not v.requires_grad and v.grad_fn is None for v in msd.values())
    assert mm.state_dict(keep_vars=True)["fc.weight"] is mm.fc.weight
    assert np.shares_memory(msd["fc.weight"].numpy(), mm.fc.weight.detach().numpy())


def test_load_state_dict_copies_values_and_reports_keys_like_torch(torch):
    mm, tm = Net.make(mg), Net.make(torch)
    copy_weights(mm, tm, torch)
    x = np.array([[0.5, -1.0]], np.float32)
    assert np.allclose(mm(mg.tensor(x)).detach().numpy(), tm(torch.tensor(x)).detach().numpy())
    version = mm.fc.weight._version
    assert repr(mm.load_state_dict(mm.state_dict())) == \
        repr(tm.load_state_dict(tm.state_dict())) == "<All keys matched successfully>"
    assert mm.fc.weight._version == version + 1 and mm.fc.weight.requires_grad

    def sd(lib, model):
        d = model.state_dict()
        del d["fc.bias"]
        d["extra"] = lib.zeros(1)
        d["head.extra"] = lib.zeros(1)
        return d

    assert repr(mm.load_state_dict(sd(mg, mm), strict=False)) == \
        repr(tm.load_state_dict(sd(torch, tm), strict=False))
    assert raised(lambda: mm.load_state_dict(sd(mg, mm))) == \
        raised(lambda: tm.load_state_dict(sd(torch, tm)))


def test_load_state_dict_with_wrong_shapes_and_types_raises_like_torch(torch):
    def load(lib):
        m = lib.nn.Sequential(lib.nn.Linear(2, 2))
        m.load_state_dict({"0.weight": lib.zeros(3, 2), "0.bias": 3, "x": lib.zeros(1)})

    both_raise(torch, load)
    both_raise(torch, lambda lib: lib.nn.Linear(2, 2).load_state_dict([1]))
    both_raise(torch, lambda lib: lib.nn.Linear(2, 2).load_state_dict(
        {"weight": lib.zeros(3, 3)}, strict=False))


# ---------------------------------------------------------------- containers
def test_sequential_indexing_slicing_and_editing_match_torch(torch):
    def build(lib):
        nn = lib.nn
        return nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.Softmax(dim=0))

    mm, tm = build(mg), build(torch)
    assert len(mm) == len(tm) == 4
    assert repr(mm[-1]) == repr(tm[-1]) and repr(mm[1:3]) == repr(tm[1:3])
    assert type(mm[1:3]) is mg.nn.Sequential
    assert [repr(m) for m in mm] == [repr(m) for m in tm]
    for m, lib in ((mm, mg), (tm, torch)):
        del m[0]
        m[0] = lib.nn.Softmax(dim=1)
        assert m.append(lib.nn.ReLU()) is m
    assert repr(mm) == repr(tm)
    for idx in (20, -20, 1.5, "a"):
        assert raised(lambda idx=idx: mm[idx]) == raised(lambda idx=idx: tm[idx])
    both_raise(torch, lambda lib: lib.nn.Sequential(lib.nn.ReLU()).__setitem__(5, None))
    both_raise(torch, lambda lib: lib.nn.Sequential(3))


def test_sequential_from_ordered_dict_keeps_names(torch):
    def build(lib):
        return lib.nn.Sequential(OrderedDict([("a", lib.nn.ReLU()), ("b", lib.nn.Tanh())]))

    mm, tm = build(mg), build(torch)
    assert repr(mm) == repr(tm) and repr(mm.a) == "ReLU()" and repr(mm[0]) == "ReLU()"
    del mm[0]
    del tm[0]
    assert repr(mm) == repr(tm)


def test_sequential_runs_its_modules_in_order(torch):
    mm = mg.nn.Sequential(mg.nn.Linear(3, 4), mg.nn.Tanh(), mg.nn.Linear(4, 2))
    tm = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    copy_weights(mm, tm, torch)
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    assert np.allclose(mm(mg.tensor(x)).detach().numpy(), tm(torch.tensor(x)).detach().numpy(),
                       atol=1e-6)


def test_module_list_registers_and_prints_like_torch(torch):
    def build(lib):
        nn = lib.nn
        ml = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU()])
        ml.append(nn.ReLU()).extend([nn.Tanh()])
        return ml

    mm, tm = build(mg), build(torch)
    assert repr(mm) == repr(tm) and len(mm) == 5
    assert repr(mm[1:2]) == repr(tm[1:2]) and type(mm[1:2]) is mg.nn.ModuleList
    assert [n for n, _ in mm.named_parameters()] == [n for n, _ in tm.named_parameters()]
    assert raised(lambda: mm[7]) == raised(lambda: tm[7])


def test_module_list_insert_pop_and_del_renumber_like_torch(torch):
    def edit(lib):
        nn = lib.nn
        ml = nn.ModuleList([nn.Linear(2, 2), nn.ReLU(), nn.Tanh()])
        ml.insert(1, nn.Sigmoid())
        ml.insert(4, nn.Softmax(dim=1))
        popped = ml.pop(0)
        del ml[-1]
        return ml, popped

    (mm, mp), (tm, tp) = edit(mg), edit(torch)
    assert repr(mm) == repr(tm) and repr(mp) == repr(tp)
    assert list(mm._modules) == list(tm._modules)
    assert raised(lambda: mm.insert(-1, mg.nn.ReLU())) == raised(
        lambda: tm.insert(-1, torch.nn.ReLU()))


def test_module_deepcopy_gives_independent_parameters():
    m = mg.nn.Linear(2, 2)
    c = copy.deepcopy(m)
    assert type(c.weight) is mg.nn.Parameter and c.weight is not m.weight
    c.weight.data.numpy()[...] = 0
    assert m.weight.detach().numpy().any()


def test_module_is_importable_the_torch_way():
    import minigrad as torch
    import minigrad.nn.functional as F

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.nn.functional is F and torch.optim.SGD is torch.optim.sgd.SGD
        assert torch.nn.modules.linear.Linear is torch.nn.Linear


@on_both
def test_full_backward_hooks_see_and_replace_the_gradients_as_torchs_do(L):
    nn = L.nn
    L.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    calls = []

    def values(grads):  # float32 matrix products: the last bits may differ
        return [None if g is None else np.round(g.numpy(), 5).tolist() for g in grads]

    def record(m, gin, gout):
        calls.append(("hook", type(m).__name__, values(gin), values(gout)))

    def double_output_grad(m, gout):
        calls.append(("pre", type(m).__name__))
        return (gout[0] * 2,)

    model[2].register_full_backward_pre_hook(double_output_grad)
    model[2].register_full_backward_hook(record)
    model[1].register_full_backward_hook(lambda m, gin, gout: (gin[0] * 0.5,))
    handle = model[0].register_full_backward_hook(record)
    x = L.randn(2, 3, requires_grad=True)
    out = model(x)
    graph = (out.grad_fn.name(), [f.name() for f, _ in out.grad_fn.next_functions],
             model[0](x).grad_fn.next_functions[0][0].name())
    out.sum().backward()
    handle.remove()
    model(x).sum().backward()
    return graph, calls, values([x.grad])


def test_a_full_backward_hook_on_a_module_whose_inputs_need_no_grad_warns_as_torchs(torch):
    def run(L):
        layer = L.nn.Linear(2, 1)
        seen = []
        layer.register_full_backward_hook(lambda m, gin, gout: seen.append((gin, len(gout))))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            layer(L.ones(1, 2)).sum().backward()
        bad = L.nn.Linear(2, 1)
        bad.register_full_backward_hook(lambda m, gin, gout: (L.ones(1, 2),))
        return seen, [str(w.message) for w in caught], raised(
            lambda: bad(L.ones(1, 2)).sum().backward())

    assert run(mg) == run(torch)
