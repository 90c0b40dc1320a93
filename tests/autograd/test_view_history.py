"""Views and in-place changes of their base, against PyTorch: a view made before its base
started requiring grad (through an in-place op) reads its history from the base
(``AsStridedBackward0``), for every view op; views of views; the refusals for views made in
no_grad mode or by split/chunk/unbind; ``is_leaf`` and ``requires_grad`` of such views."""

from __future__ import annotations

import pytest
from helpers import assert_same_program

pytestmark = pytest.mark.torch

# each view op, as it is taken of `a` (a 2x3 tensor of ones; `a1` is 1x3, `a6` has 6 elements)
VIEWS = {
    "slice": "a[1:]", "step_slice": "a[:, ::2]", "select": "a[0]", "ellipsis": "a[...]",
    "none": "a[None]", "select_method": "a.select(1, 2)", "narrow": "a.narrow(1, 1, 2)",
    "view": "a6.view(2, 3)", "reshape": "a6.reshape(3, 2)", "flatten": "a.flatten()",
    "view_as": "a6.view_as(a)", "transpose": "a.transpose(0, 1)", "t": "a.t()",
    "T": "a.T", "mT": "a.mT", "permute": "a.permute(1, 0)", "movedim": "a.movedim(0, 1)",
    "unsqueeze": "a.unsqueeze(1)", "squeeze": "a1.squeeze()", "squeeze_dim": "a1.squeeze(0)",
    "expand": "a1.expand(4, 3)", "expand_as": "a1.expand_as(a)", "diagonal": "a.diagonal()",
    "unflatten": "a6.unflatten(0, (2, 3))", "view_of_view": "a[1:][:, 1:]",
    "t_of_slice": "a[:, 1:].t()", "swapaxes": "a.swapaxes(0, 1)",
    "as_strided": "a.as_strided((2, 2), (1, 2), 1)", "as_strided_of_view": "a[1].as_strided((2,), (2,))",
}
SETUP = "a = torch.ones(2, 3); a1 = torch.ones(1, 3); a6 = torch.ones(6); "
BASE = {"a6.": "a6", "a1.": "a1"}


def _base(view: str) -> str:
    return next((b for p, b in BASE.items() if view.startswith(p)), "a")


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_view_made_before_its_base_requires_grad_through_an_in_place_op(torch, name):
    view, base = VIEWS[name], _base(VIEWS[name])
    code = (f"{SETUP}v = {view}; w = torch.tensor(2., requires_grad=True); {base}.mul_(w); "
            "(v * torch.arange(float(v.numel())).reshape(v.shape)).sum().backward(); "
            "r = (v, v.is_leaf, v._is_view(), v._base is " + base + ", w.grad)")
    assert_same_program(torch, code)


PROGRAMS = {
    # the base starts requiring grad as a leaf: the old view requires grad but leads nowhere
    "leaf_base_requires_grad_later": "x = torch.ones(2, 2); v = x[0]; x.requires_grad_(); "
                                     "r = (v.requires_grad, v.grad_fn, v.is_leaf, (v * 2).grad_fn.next_functions)",
    "leaf_base_later_backward": "x = torch.ones(2, 2); v = x[0]; x.requires_grad_(); "
                                "v.sum().backward(); r = x.grad",
    "leaf_base_later_in_place_on_view": "x = torch.ones(2, 2); v = x[0]; x.requires_grad_(); "
                                        "v.mul_(2)",
    # the history moves on with each later change of the base
    "two_changes": "a = torch.ones(3); v = a[1:]; w = torch.tensor(2., requires_grad=True); "
                   "a.mul_(w); g1 = v.grad_fn; a.add_(1); v.sum().backward(); "
                   "r = (g1 is v.grad_fn, v.grad_fn, w.grad)",
    "sibling_view_changed": "a = torch.ones(3); v = a[1:]; v2 = a[:2]; "
                            "w = torch.tensor(2., requires_grad=True); v.mul_(w); "
                            "v2.sum().backward(); r = (a.grad_fn, v2.grad_fn, w.grad)",
    "view_of_view_of_changed": "a = torch.ones(3); v = a[1:]; vv = v[:1]; "
                               "w = torch.tensor(2., requires_grad=True); v.mul_(w); "
                               "vv.sum().backward(); r = (vv, w.grad)",
    "setitem_makes_base_require_grad": "a = torch.ones(3); v = a[1:]; "
                                       "w = torch.tensor(2., requires_grad=True); a[0] = w; "
                                       "v.sum().backward(); r = (v, w.grad)",
    "copy_makes_base_require_grad": "a = torch.ones(3); v = a[1:]; "
                                    "w = torch.tensor(2., requires_grad=True); a.copy_(w); "
                                    "(v * 3).sum().backward(); r = (v, w.grad)",
    "non_leaf_base": "x = torch.ones(3, requires_grad=True); b = x * 1; v = b[1:]; b.mul_(2); "
                     "v.sum().backward(); r = (v.grad_fn.next_functions[0][0], x.grad)",
    "detach_is_no_view_of_history": "a = torch.ones(2, 3); v = a.detach(); "
                                    "w = torch.tensor(2., requires_grad=True); a.mul_(w); "
                                    "r = (v, v._is_view())",
    "no_grad_change_keeps_plain_view": "a = torch.ones(3); v = a[1:]; a.mul_(2); r = v",
}
MULTI_VIEW = {  # `{view}` is one of the ops below, taken of `a`
    "of_base_changed_later": "a = torch.ones(2, 3); vs = {view}; "
                             "w = torch.tensor(2., requires_grad=True); a.mul_(w); "
                             "r = (vs[0].requires_grad, vs[-1] * 1)",
    "of_non_leaf_changed": "x = torch.ones(2, 3, requires_grad=True); a = x * 1; vs = {view}; "
                           "a.mul_(2); r = vs[-1].is_leaf",
    "output_changed_directly": "a = torch.ones(2, 3); vs = {view}; "
                               "w = torch.tensor(2., requires_grad=True); vs[0].mul_(w)",
    "changed_without_grad": "x = torch.ones(2, 3, requires_grad=True); a = x * 1; vs = {view}\n"
                            "with torch.no_grad():\n    a.mul_(2)\nr = vs[0].grad_fn",
}
for _op, _view in (("split", "a.split(1)"), ("chunk", "a.chunk(2)"), ("unbind", "a.unbind()"),
                   ("split_with_sizes", "a.split_with_sizes([1, 1])")):
    for _case, _code in MULTI_VIEW.items():
        PROGRAMS[f"{_op}_{_case}"] = _code.replace("{view}", _view)
for _when in ("view", "change"):
    PROGRAMS[f"no_grad_{_when}_then_base_changed"] = (
        "x = torch.ones(2, 3, requires_grad=True); a = x * 1\n"
        + ("with torch.no_grad():\n    v = a[0]\na.mul_(2)\n" if _when == "view" else
           "with torch.no_grad():\n    v = a[0]\n    a.mul_(2)\n") + "r = v * 1")
PROGRAMS["no_grad_multi_view_then_base_changed"] = (
    "x = torch.ones(2, 3, requires_grad=True); a = x * 1\n"
    "with torch.no_grad():\n    vs = a.split(1)\na.mul_(2)\nr = vs[0].grad_fn")

# a view made in no_grad mode requires grad exactly while its base does (PyTorch's view asks
# its base): it follows the base's requires_grad_ either way, and its printed form too; a view
# made a leaf of its own by requires_grad_ keeps its own flag (fuzz seed 6515)
for _name, _code in (
        ("base_stops", "b.requires_grad_(False); r = (v.requires_grad, repr(v))"),
        ("base_stops_and_starts", "b.requires_grad_(False); b.requires_grad_(); "
                                  "r = (v.requires_grad, repr(v), (v * 2).grad_fn)"),
        ("base_starts_later", "r = (v.requires_grad, repr(v))"),
        ("view_of_view", "w = v[0]\nb.requires_grad_(False); r = (v.requires_grad, "
                         "w.requires_grad)"),
        ("own_leaf", "b.requires_grad_(False)\nv.requires_grad_(); b.requires_grad_(); "
                     "b.requires_grad_(False); r = (v.requires_grad, v.is_leaf)"),
        ("grad_of_it", "r = torch.autograd.grad((v * 2).sum(), b, allow_unused=True)"),
        ("retain_grad", "v.retain_grad(); b.requires_grad_(False); r = v.retain_grad()"),
        ("matmul_folds", "r = (v.reshape(3, 1) @ torch.ones(2, 1, 3), torch.ones(2, 1, 3) @ "
                         "v.reshape(3, 1), (torch.ones(2, 2, 1, 3) @ v.reshape(3, 1)).grad_fn)"),
        ("matmul_shapes", "r = (v @ torch.ones(2, 3, 1), (v @ torch.ones(2, 3, 1)).grad_fn)"),
        ("needs_grad_checks", "b.requires_grad_(False)\nr = torch.nn.functional.nll_loss("
                              "torch.ones(2, 3), "
                              "torch.tensor([0, 1]), weight=v.reshape(3))")):
    _start = "b.requires_grad_(True); " if _name == "base_starts_later" else ""
    PROGRAMS[f"no_grad_view_follows_its_base_{_name}"] = (
        "b = torch.tensor([1., 2., 3.], requires_grad={})\nwith torch.no_grad():\n"
        "    v = b[None]\n{}{}".format(_name != "base_starts_later", _start, _code))

# addmm reads its input's history (and refuses a stale view made in no_grad mode) before its
# own dtype checks (fuzz seed 6826)
PROGRAMS["no_grad_view_stale_addmm_input"] = (
    "x = torch.ones(1, 1, requires_grad=True); a = x * 1\nwith torch.no_grad():\n    v = a[-1:]\n"
    "a.tanh_()\nr = torch.addmm(v, a, torch.ones(1, 1, dtype=torch.int64))")

# a view whose memory `.data =` swapped, then changed in place: its history is read from the
# base at the view's offset in its new memory (PyTorch's as_strided); elements that land
# outside the base get no gradient
for _name, _new in (("inside", "big[:2, :2]"), ("partly_outside", "big[0:4:2, 0:8:3]"),
                    ("outside", "big[5:7, 2:4]"), ("transposed", "big.t()[:2, :3]"),
                    ("own_result", "torch.tanh(v)[1:3, ::2]")):
    PROGRAMS[f"data_swapped_view_{_name}"] = (
        "x = torch.tensor([1., -2., -3., -4.], dtype=torch.float64, requires_grad=True); "
        "v = torch.tensordot(x, x, 0); big = torch.arange(100.).reshape(10, 10).double(); "
        f"v.data = {_new}\nwith torch.no_grad():\n    v += 1\n"
        "g = v.grad_fn; (v * 2).sum().backward(); "
        "r = (g, g._saved_size, g._saved_stride, g._saved_storage_offset, x.grad)")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_view_history_program_as_pytorch(torch, name):
    assert_same_program(torch, PROGRAMS[name])
