"""In-place ops against torch: errors, version counters, rebased histories, CopySlices,
views whose base changed, and the error a modified saved tensor raises in backward."""

from __future__ import annotations

import numpy as np
import pytest
from op_table import assert_close, assert_same_error, assert_same_graph

import minigrad as mg

pytestmark = pytest.mark.torch

X = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], dtype=np.float32)
Y = np.array([0.5, -1.5, 2.0], dtype=np.float32)


def _leaves(lib):
    return lib.tensor(X, requires_grad=True), lib.tensor(Y, requires_grad=True)


# ---------------------------------------------------------------- refusals
LEAF_ERRORS = {
    "mul_": lambda x: x.mul_(2),
    "iadd": lambda x: x.__iadd__(1),
    "zero_": lambda x: x.zero_(),
    "fill_": lambda x: x.fill_(1),
    "copy_": lambda x: x.copy_(x.detach()),
    "setitem_all": lambda x: x.__setitem__(slice(None), 0),
    "view_mul_": lambda x: x[0].mul_(2),
    "view_of_view_add_": lambda x: x.t()[1:].add_(1),
    "setitem_row": lambda x: x.__setitem__(0, 1.0),
    "setitem_index": lambda x: x.__setitem__([0, 0], 1.0),
    "masked_fill_": lambda x: x.masked_fill_(x > 0, 0.0),
    "view_made_in_no_grad": lambda x: _no_grad_view(x * 1).mul_(2),
    "view_of_leaf_made_in_no_grad": lambda x: _no_grad_view(x).mul_(2),
    "split_output": lambda x: (x * 1).split(1)[0].add_(1),
    "chunk_output": lambda x: (x * 1).chunk(3, 1)[2].mul_(2),
}


def _no_grad_view(t):
    import torch as real_torch

    lib = real_torch if isinstance(t, real_torch.Tensor) else mg
    with lib.no_grad():
        return t[0]


def test_in_place_on_a_leaf_is_allowed_without_grad_and_bumps_the_version(torch):
    def run(lib):
        x = _leaves(lib)[0]
        v = x[0]
        with lib.no_grad():
            x.mul_(2)
            x[1] += 1
        return x, v

    (tx, tv), (mx, mv) = run(torch), run(mg)
    assert_close(mx, tx)
    assert (mx._version, mv._version) == (tx._version, tv._version) == (3, 3)
    assert mx.is_leaf and mx.grad_fn is None
    assert mv.grad_fn.name() == tv.grad_fn.name() == "AsStridedBackward0"
    assert_same_graph(tv.grad_fn, mv.grad_fn, [tx], [mx])


# ---------------------------------------------------------------- history and versions
def test_in_place_op_rebases_history_onto_its_node(torch):
    def run(lib):
        x, y = _leaves(lib)
        a = x * 1
        old = a.grad_fn
        a.mul_(y)
        a += 1
        return x, y, a, old

    tx, ty, ta, t_old = run(torch)
    mx, my, ma, m_old = run(mg)
    assert ma.grad_fn.name() == "AddBackward0"
    assert ma.grad_fn.next_functions[0][0].next_functions[0][0] is m_old
    assert_same_graph(ta.grad_fn, ma.grad_fn, [tx, ty], [mx, my])
    assert ma._version == ta._version == 2
    saved_self = ma.grad_fn.next_functions[0][0]._saved_self
    assert saved_self.grad_fn.name() == "CloneBackward0" and saved_self is not ma
    assert ma.grad_fn.next_functions[0][0]._saved_other is my


def test_augmented_assignment_keeps_the_tensor_and_its_dtype(torch):
    for lib in (torch, mg):
        a = lib.tensor([1, 2])
        b = a
        a += 1
        a *= 3
        assert a is b and a.tolist() == [6, 9] and str(a.dtype).endswith("int64")
        f = lib.tensor([1.0, 2.0])
        f += lib.tensor([1.0, 2.0], dtype=lib.float64)
        assert str(f.dtype).endswith("float32")


def test_writing_into_a_view_changes_the_base_and_bumps_both_versions(torch):
    views = {
        "select": lambda t: t[1], "slice": lambda t: t[:, 1:], "t": lambda t: t.t(),
        "view": lambda t: t.view(-1), "unsqueeze": lambda t: t.unsqueeze(0),
        "permute": lambda t: t.permute(1, 0), "narrow": lambda t: t.narrow(1, 0, 2),
        "split": lambda t: t.split(1)[1], "unbind": lambda t: t.unbind(1)[0],
        "ellipsis": lambda t: t[...], "diagonal_steps": lambda t: t[::1, ::2],
    }
    for name, view in views.items():
        results = []
        for lib in (torch, mg):
            base = lib.tensor(X)
            v = view(base)
            v.add_(10)
            v2 = view(base)
            base[0, 0] = 100.0
            results.append((base.tolist(), v.tolist(), v2.tolist(), base._version, v._version,
                            v._base is base))
        assert results[1] == results[0], name


def test_advanced_indexing_copies_and_reshape_of_non_contiguous_copies(torch):
    for lib in (torch, mg):
        base = lib.tensor(X)
        picked = base[[0, 1]]
        picked += 1
        flat = base.t().reshape(-1)
        flat += 1
        assert base.tolist() == X.tolist()
        assert picked._base is None and flat._base is None
        same = base.reshape(3, 2)
        assert same._base is base
        assert base.contiguous() is base and base.float() is base and base.to("cpu") is base


# ---------------------------------------------------------------- CopySlices and stale views
def test_in_place_on_a_view_rebases_the_base_with_copy_slices(torch):
    def run(lib):
        x, y = _leaves(lib)
        a = x * 1
        w = a[:, 1]
        v = a[1]
        v.mul_(y)
        return x, y, a, v, w

    t, m = run(torch), run(mg)
    for tt, mm in zip(t[2:], m[2:]):
        assert mm.grad_fn.name() == tt.grad_fn.name()
        assert_same_graph(tt.grad_fn, mm.grad_fn, t[:2], m[:2])
    for name in ("_saved_size", "_saved_stride", "_saved_storage_offset"):
        assert getattr(m[3].grad_fn, name) == getattr(t[3].grad_fn, name)
        assert getattr(m[4].grad_fn, name) == getattr(t[4].grad_fn, name)
    for tt, mm in zip(t[2:], m[2:]):
        (tt * tt).sum().backward(retain_graph=True)
        (mm * mm).sum().backward(retain_graph=True)
        for tl, ml in zip(t[:2], m[:2]):
            assert_close(ml.grad, tl.grad, rtol=1e-5, atol=1e-5)


def test_overlapping_in_place_ops_on_views_give_torch_gradients(torch):
    def run(lib):
        x, y = _leaves(lib)
        a = x * 2
        a[0, 1:] *= y[1:]
        a.t()[1].sub_(y[:2] * 2)
        a[:, [0, 2, 0]] = y[:2, None].expand(2, 3) ** 2
        b = a.t()[::2]
        b.div_(y[:2] + 3)
        (a * a).sum().backward()
        return x.grad, y.grad, a

    for m, t in zip(run(mg), run(torch)):
        assert_close(m, t, rtol=1e-4, atol=1e-5)


def test_second_derivative_through_copy_slices_matches_torch(torch):
    def run(lib):
        x, y = _leaves(lib)
        a = x * x
        a[0].mul_(y)
        a[:, 1:] = a[:, :2] * 1 * y[0]  # (a[:, :2] * y[0] would save a view modified here)
        g, = lib.autograd.grad((a ** 3).sum(), x, create_graph=True)
        (g * g).sum().backward()
        return g, x.grad, y.grad

    for m, t in zip(run(mg), run(torch)):
        assert_close(m, t, rtol=1e-4, atol=1e-4)


# ---------------------------------------------------------------- modified saved tensors
SAVED = {
    "input_of_mul": lambda x: _then(x * 1, lambda a: a * a, lambda a: a.mul_(2)),
    "input_after_add": lambda x: _then(x + 1, lambda a: a * a, lambda a: a.sub_(2, alpha=2)),
    "output_of_exp": lambda x: _then(x * 1, lambda a: a.exp(), lambda a, b: b.mul_(2)),
    "output_then_setitem": lambda x: _then(x * 1, lambda a: a.exp(), lambda a, b: b.__setitem__(
        0, 1.0)),
    "view_of_modified_base": lambda x: _then(x * 1, lambda a: a[0] * a[0], lambda a: a.mul_(2)),
    "base_modified_through_view": lambda x: _then(x * 1, lambda a: a * a,
                                                  lambda a: a[0].add_(1)),
    "after_setitem": lambda x: _then(x * 1, lambda a: a * a, lambda a: a.__setitem__(0, 1.0)),
    "transposed_view_saved": lambda x: _then(x.t() * 1, lambda a: a.t() * a.t(),
                                             lambda a: a.mul_(2)),
    "mul_with_itself": lambda x: _then(x * 1, lambda a: a, lambda a: a.mul_(a)),
}


def _then(a, op, modify):
    b = op(a)
    try:
        modify(a, b)
    except TypeError:
        modify(a)
    b.sum().backward()


# both tables: in place on a leaf is refused at once, a modified saved tensor fails backward
ERRORS = {**{f"leaf-{name}": fn for name, fn in LEAF_ERRORS.items()},
          **{f"saved-{name}": fn for name, fn in SAVED.items()}}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_refused_in_place_and_modified_saved_tensors_raise_torch_errors(torch, name):
    fn = ERRORS[name]
    assert_same_error(lambda: fn(_leaves(torch)[0]), lambda: fn(_leaves(mg)[0]))


def test_saved_result_of_an_in_place_op_follows_the_tensor(torch):
    def run(lib):
        x = _leaves(lib)[0]
        a = (x * 1).exp_()
        versions = [a.grad_fn._saved_result._version]
        b = a.sigmoid()
        b.sum().backward(retain_graph=True)
        a.sigmoid_()
        versions.append(a.grad_fn._saved_result._version)
        return versions, x.grad, lambda: b.sum().backward()

    (tv, tg, t_again), (mv, mg_, m_again) = run(torch), run(mg)
    assert mv == tv == [1, 2]
    assert_close(mg_, tg)
    assert_same_error(t_again, m_again)  # exp_'s saved result was changed by sigmoid_


# ---------------------------------------------------------------- assignment
def test_setitem_converts_values_and_false_does_nothing(torch):
    for lib in (torch, mg):
        i = lib.zeros(3, dtype=lib.int64)
        i[0] = 2.7
        i[False] = 5
        b = lib.zeros(3, dtype=lib.bool)
        b[1] = 2
        f = lib.zeros(2, 3)
        f[0] = lib.tensor([1, 2, 3])
        f[1, 1] = lib.tensor(4.0, dtype=lib.float64)
        assert (i.tolist(), b.tolist(), f.tolist(), i._version) == (
            [2, 0, 0], [False, True, False], [[1, 2, 3], [0, 4, 0]], 1)


def test_repeated_index_assignment_gradient_matches_torch(torch):
    def run(lib):
        x, y = _leaves(lib)
        a = lib.zeros(5)
        a[[1, 1, 4, 0]] = y[[0, 1, 2, 2]] * 2
        a[[3, 3]] += x[0, :2]
        (a * lib.arange(5.0)).sum().backward()
        return a, x.grad, y.grad

    for m, t in zip(run(mg), run(torch)):
        assert_close(m, t)


# ---------------------------------------------------------------- views made in no_grad mode
def test_view_made_in_no_grad_mode_requires_grad_but_leads_nowhere(torch):
    def run(lib):
        x = _leaves(lib)[0]
        with lib.no_grad():
            v, pieces, plain = x[0], (x * 1).split(1), lib.ones(2)[0]
            shown = repr(v)
        y = v * 2 + x[1]
        y.sum().backward()
        edges = [f is None for f, _ in (v * 2).grad_fn.next_functions]
        return (shown.replace("torch.", "minigrad."), v.requires_grad, v.is_leaf,
                pieces[0].requires_grad, plain.requires_grad, edges, x.grad.tolist(), v.grad)

    assert run(mg) == run(torch)


NO_GRAD_VIEW_ERRORS = {
    "backward_from_it": lambda lib, v: v.backward(v.detach()),
    "in_place_on_it": lambda lib, v: v.add_(1),
    "in_place_on_split_piece": lambda lib, v: v.split(1)[0].mul_(2),
}


@pytest.mark.parametrize("name", sorted(NO_GRAD_VIEW_ERRORS))
def test_view_made_in_no_grad_mode_errors_match_torch(torch, name):
    def run(lib):
        a = _leaves(lib)[0] * 1
        with lib.no_grad():
            v = a[0]
            pieces = a.split(1)
        return lambda: NO_GRAD_VIEW_ERRORS[name](lib, pieces[0] if "split" in name else v)

    assert_same_error(run(torch), run(mg))


def test_printing_a_view_after_its_base_changed_shows_its_new_node(torch):
    def run(lib):
        x = _leaves(lib)[0]
        a = x * 1
        v = a[0]
        a.mul_(2)
        text = repr(v)
        a[1] = 5.0
        return text + repr(a)

    assert run(mg) == run(torch)


def test_a_view_can_be_made_a_leaf_that_requires_grad(torch):
    def run(lib):
        x = lib.arange(6.0).view(2, 3).requires_grad_()
        (x * x).sum().backward()
        return x.is_leaf, x._base is not None, x.grad.tolist()

    assert run(mg) == run(torch)


def test_iterating_gives_unbind_views(torch):
    def run(lib):
        x = _leaves(lib)[0]
        rows = list(x * 1)
        names = [(r.grad_fn.name(), r.output_nr, r._base is not None) for r in rows]
        try:
            rows[1].mul_(2)
        except RuntimeError as e:
            return names, str(e)

    assert run(mg) == run(torch)
