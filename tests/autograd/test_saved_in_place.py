"""Saved tensors against in-place changes, ``detach_()`` and freeing, program by program against
PyTorch: the same exception type and message (the tensor's type string, shape, "output 0 of
X", versions, hint), or the same gradients where PyTorch raises nothing.

Each program ends in a backward (or an access to a ``_saved_*`` value); ``r`` is the result
compared when nothing raises.
"""

from __future__ import annotations

import pytest
from helpers import assert_same_program

_X = "x = torch.tensor([[0.3, 0.7, 0.5], [0.9, 0.2, 0.4]], requires_grad=True)\n"


def _programs(table: dict):
    """Parametrize ``code`` over a table of programs, named by their keys."""
    return pytest.mark.parametrize("code", list(table.values()), ids=list(table))

# ---------------------------------------------------------------- a saved input, detached in place
DETACH = {
    # PyTorch reads the very tensor it saved: its history gone, a backward refuses it
    "non_leaf_input_detached": "y = x * 1; z = y.sin(); y.detach_()\n"
                               "z.sum().backward(); r = x.grad",
    "detached_then_modified_says_detached_first": "y = x * 1; z = y.sin(); y.detach_(); "
                                                  "y.add_(1)\nz.sum().backward(); r = x.grad",
    "detached_under_create_graph": "y = x * 1; z = y * y; y.detach_()\n"
                                   "r = torch.autograd.grad(z.sum(), x, create_graph=True)",
    "detached_through_autograd_grad": "y = x.exp(); z = y.cos(); y.detach_()\n"
                                      "r = torch.autograd.grad(z.sum(), x)",
    "detached_saved_other_of_mul": "c = (x * 2).sum(0); z = x * c; c.detach_()\n"
                                   "z.sum().backward(); r = x.grad",
    # a leaf when saved: detaching it is no error (it had no history to lose)
    "leaf_input_detached_is_fine": "c = torch.tensor([1., 2., 3.]); z = x * c; c.detach_()\n"
                                   "z.sum().backward(); r = x.grad",
    # reading `_saved_self` is no backward: no error; changed since, the node is named
    "saved_self_of_detached_input_reads": "y = x * 1; z = y.sin(); y.detach_()\n"
                                          "r = z.grad_fn._saved_self",
    "saved_self_of_detached_and_modified_input": "y = x * 1; z = y.sin(); y.detach_(); "
                                                 "y.add_(1)\nr = z.grad_fn._saved_self",
    # a saved output detached: the node that saved it is its history, nothing is lost
    "saved_output_detached": "y = x.relu(); z = y * 1; y.detach_()\n"
                             "z.sum().backward(); r = x.grad",
}

# ---------------------------------------------------------------- `.data =` on a saved input
# PyTorch keeps the input tensor itself: a backward reads the data it has then (no version
# changes, no error)
DATA = {
    "leaf_weight_given_new_data": "w = torch.tensor([4., 5., 6.], requires_grad=True)\n"
                                  "y = (x[0] * w).sum(); w.data = torch.tensor([7., 8., 9.])\n"
                                  "y.backward(); r = (x.grad, w.grad)",
    "constant_given_new_data": "c = torch.tensor([4., 5., 6.]); y = (x[1] * c).sum()\n"
                               "c.data = c.data - 1; y.backward(); r = x.grad",
    "leaf_squared_given_new_data": "y = (x ** 2).sum(); x.data = x.data * 2\n"
                                   "y.backward(); r = x.grad",
    "non_leaf_given_new_data": "a = x * 1; y = (a ** 2).sum(); a.data = a.data + 1\n"
                               "y.backward(); r = x.grad",
    "leaf_given_data_of_another_shape": "y = (x ** 2).sum(); x.data = torch.ones(2, 2)\n"
                                        "y.backward(); r = x.grad",
    "constant_given_data_of_another_shape": "c = torch.ones(2, 3); y = (x * c).sum()\n"
                                            "c.data = torch.ones(2); y.backward(); r = x.grad",
    "data_changed_in_place": "c = torch.tensor([4., 5., 6.]); y = (x[1] * c).sum()\n"
                             "c.data.sub_(1); y.backward(); r = x.grad",
}


@_programs(DATA)
def test_a_saved_input_given_new_data_is_read_as_pytorch_reads_it(torch, code):
    assert_same_program(torch, _X + code)


# ---------------------------------------------------------------- what the message names
MESSAGE = {
    # a saved input is described as it is now: shape after unsqueeze_, its new grad_fn
    "input_unsqueezed_in_place": "y = x * 1; z = y * y; y.unsqueeze_(0)\nz.sum().backward()",
    "input_transposed_in_place": "y = x + 0; z = y.sin(); y.t_()\nz.sum().backward()",
    "leaf_constant_then_recorded_in_place": "c = torch.ones(2, 3); z = x * c\n"
                                            "c.add_(x)\nz.sum().backward()",
    # a saved output is described as it was saved: its shape then, the node that saved it
    "output_unsqueezed_in_place": "y = x.exp(); y.unsqueeze_(0)\ny.sum().backward()",
    "output_changed_in_no_grad": "y = x.tanh()\nwith torch.no_grad(): y.mul_(2)\n"
                                 "y.sum().backward()",
    # "output 0" for a saved input even where it is output 1 of its node
    "second_output_saved_as_input": "v, i = x.max(1); z = v.sin()\n"
                                    "with torch.no_grad(): v.add_(1)\nz.sum().backward()",
    "copy_node_named_in_full": "a = torch.zeros(2, 3); a.copy_(x); z = a.sin()\n"
                               "with torch.no_grad(): a.mul_(2)\nz.sum().backward()",
    "copy_slices_node_named_in_full": "a = torch.zeros(2, 3); a[0] = x[1]; z = a.sin()\n"
                                      "with torch.no_grad(): a.mul_(2)\nz.sum().backward()",
    # inputs in name order, then outputs: pow's self is named before its result
    "pow_self_before_result": "e = torch.tensor(2); y = x ** e\nwith torch.no_grad(): x.mul_(1)\n"
                              "y.mul_(2)\nr = torch.autograd.grad(y.sum(), x)",
    # (its pos_weight, by name, before self: as the backward written from its rule reads them)
    "bce_logits_pos_weight_before_self":
        "y = x * 1; p = torch.tensor([2.]); w = torch.ones(1) * 1\n"
        "loss = torch.nn.functional.binary_cross_entropy_with_logits(y, x.detach(), weight=w, "
        "pos_weight=p)\nwith torch.no_grad(): y.mul_(1); p.mul_(1)\n"
        "r = torch.autograd.grad(loss, x)",
    "double_tensor_type": "y = x.double() * 1; z = y.cos(); y.add_(1)\nz.sum().backward()",
}


@_programs(DETACH)
def test_a_saved_input_detached_in_place_raises_as_in_pytorch(torch, code):
    assert_same_program(torch, _X + code)


@_programs(MESSAGE)
def test_the_modified_message_describes_the_tensor_as_pytorch_does(torch, code):
    assert_same_program(torch, _X + code)


# ---------------------------------------------------------------- freed by a backward
_TWICE = "s = y.sum(); s.backward()\ns.backward(); r = x.grad"
FREED = {
    # PyTorch keeps a Python number it multiplies or divides by as a tensor: freed too
    "times_a_number": "y = x * 2",
    "a_number_times": "y = 2.5 * x",
    "mul_method_number": "y = x.mul(3)",
    "divided_by_a_number": "y = x / 2",
    "true_divide_number": "y = torch.true_divide(x, 4)",
    # and the indices it gathered with
    "index_with_tensor": "y = x[torch.tensor([1, 0])]",
    "index_with_mask": "y = x[x > 0.4]",
    "index_put": "y = (x * 1).index_put((torch.tensor([0]),), torch.tensor(2.))",
    "sort_indices": "y = x.sort(1)[0]",
    "topk_indices": "y = x.topk(2)[0]",
    "median_dim_indices": "y = x.median(1)[0]",
    # ops that keep nothing a backward frees run again
    "add_a_number_twice_is_fine": "y = x + 2",
    "sum_twice_is_fine": "y = x.sum(0)",
    "view_twice_is_fine": "y = x.t().reshape(6)",
}
AFTER = {
    # a node made by an in-place op on a view lets go of everything: run once only
    "copy_slices_twice": "a = torch.zeros(2, 3); a[1, 1:] = x[0, 0]; s = a.sum()\n"
                         "s.backward(); s.backward()",
    "copy_slices_on_empty_slice_twice": "a = torch.zeros(2, 1); a[1, 1:] = x[0, 0]\n"
                                        "a.backward(torch.ones(2, 1)); a.sum().backward()",
    "copy_slices_retained": "a = torch.zeros(2, 3); a[1, 1:] = x[0, 0]; s = a.sum()\n"
                            "s.backward(retain_graph=True); s.backward(); r = x.grad",
    "saved_number_read_after_backward": "y = x * 2; y.sum().backward(); r = y.grad_fn._saved_other",
    "saved_indices_read_after_backward": "y = x[torch.tensor([1])]; y.sum().backward()\n"
                                         "r = y.grad_fn._saved_indices",
    "saved_dim_read_after_backward": "y = x.sort(1)[0]; y.sum().backward(); r = y.grad_fn._saved_dim",
    "retain_graph_twice_then_freed": "y = x * 2; s = y.sum(); s.backward(retain_graph=True)\n"
                                     "s.backward(retain_graph=True); s.backward(); s.backward()",
    "retain_graph_keeps_it": "y = x * 2; s = y.sum(); s.backward(retain_graph=True)\n"
                             "s.backward(); r = x.grad",
    "autograd_grad_then_backward": "y = x / 2; s = y.sum(); torch.autograd.grad(s, x)\n"
                                   "s.backward()",
    "autograd_grad_twice": "y = x * 3; s = y.sum(); torch.autograd.grad(s, x)\n"
                           "r = torch.autograd.grad(s, x)",
    "create_graph_keeps_it": "y = x * 3; s = y.sum(); torch.autograd.grad(s, x, create_graph=True)\n"
                             "r = torch.autograd.grad(s, x)",
    # the node nearer the output runs (and raises) first: floor_divide_'s, named in place
    "not_implemented_before_modified_result": "v = x.min(); v.floor_divide_(True)\n"
                                              "v.backward()",
    "floor_divide_in_place_named": "v = x * 1; v //= 2; v.sum().backward()",
    # a freed node is refused even where a later in-place change would be named
    "freed_before_modified": "y = x.tanh(); s = y.sum(); s.backward()\n"
                             "with torch.no_grad(): y.add_(1)\ns.backward()",
}


@_programs(FREED)
def test_a_second_backward_refuses_what_pytorch_freed(torch, code):
    assert_same_program(torch, _X + code + "\n" + _TWICE)


@_programs(AFTER)
def test_saved_values_after_a_backward_are_freed_as_in_pytorch(torch, code):
    assert_same_program(torch, _X + code)


# ---------------------------------------------------------------- kept even where the formula skips it
# PyTorch's formula unpacks every tensor its node saved, used or not: a change is refused
_CHANGE = {"input": "a.add_(1)", "input_in_no_grad": "with torch.no_grad(): a.mul_(2)",
           "output": "with torch.no_grad(): o.mul_(2)", "input_detached": "a.detach_()"}
UNREAD = {
    "pow_zero": "o = a.pow(0)",
    "number_to_the_power": "o = 2 ** a",
    "div_floor": "o = torch.div(a, c, rounding_mode='floor')",
    "div_trunc_divisor": "o = torch.div(c, a, rounding_mode='trunc')",
    "median": "o = a.median()",
    "masked_select": "o = a.masked_select(a > 0.4)",
    "sgn": "o = a.sgn()",
}


@pytest.mark.parametrize("change", list(_CHANGE.values()), ids=list(_CHANGE))
@_programs(UNREAD)
def test_a_saved_tensor_the_formula_does_not_read_is_checked_all_the_same(torch, code, change):
    setup = "a = x * 1; c = torch.tensor([1.5, 2., 4.])\n"
    assert_same_program(torch, _X + setup + code + "\n" + change + "\n"
                        "o.sum().backward(); r = x.grad")


def test_a_masked_select_mask_changed_in_place_is_refused(torch):
    assert_same_program(torch, _X + "m = x > 0.4; o = x.masked_select(m); m.logical_not_()\n"
                        "o.sum().backward(); r = x.grad")


# ---------------------------------------------------------------- kept only where a gradient needs it
# PyTorch keeps an operand only for the gradients that use it: changing one no gradient needs
# is no error (and the gradients are right whichever inputs require grad)
_OPERANDS = ("p = torch.tensor([0.5, 1.5, 2.], requires_grad={}); "
             "q = torch.tensor([1., 2., 3.], requires_grad={}); "
             "w = torch.tensor([0.25, 0.5, 4.], requires_grad={})\n")
KEPT = {
    "addcmul": "o = torch.addcmul(p, q, w, value=2)",
    "addcdiv": "o = torch.addcdiv(p, q, w, value=0.5)",
    "lerp_tensor_weight": "o = torch.lerp(p, q, w)",
    "hypot": "o = torch.hypot(q, w)",
    "atan2": "o = torch.atan2(q, w)",
    "pow_tensors": "o = q ** w",
    "mv": "o = torch.stack([p, q]).mv(w)",
}
_WHICH = ["TTT", "TFF", "FTF", "FFT", "TTF", "FTT"]


@pytest.mark.parametrize("which", _WHICH)
@_programs(KEPT)
def test_an_operand_no_gradient_needs_may_change_in_place(torch, code, which):
    flags = [c == "T" for c in which]
    changes = "".join(f"with torch.no_grad(): {n}.mul_(2)\n"
                      for n, f in zip("pqw", flags) if not f)
    assert_same_program(torch, _OPERANDS.format(*flags) + code + "\n" + changes +
                        "o.sum().backward(); r = (p.grad, q.grad, w.grad)")


@pytest.mark.parametrize("changed", "pqw")
@pytest.mark.parametrize("which", _WHICH)
@_programs(KEPT)
def test_changing_one_operand_in_place_is_refused_where_pytorch_kept_it(torch, code, which,
                                                                         changed):
    flags = [c == "T" for c in which]
    copies = "p0, q0, w0 = p, q, w; p, q, w = p * 1, q * 1, w * 1\n"
    assert_same_program(torch, _OPERANDS.format(*flags) + copies + code + "\n"
                        f"with torch.no_grad(): {changed}.mul_(2)\n"
                        "o.sum().backward(); r = (p0.grad, q0.grad, w0.grad)")


# ---------------------------------------------------------------- an in-place op on a view
# Its saved result is named by the view's history (AsStrided) while the view lives with it,
# else by the op's own node
ON_VIEW = {
    "view_kept_base_changed": "y = x * 1; v = y[0]; v.exp_()\n"
                              "with torch.no_grad(): y.mul_(2)\ny.sum().backward()",
    "view_dropped_base_changed": "y = x * 1; y[0].exp_()\n"
                                 "with torch.no_grad(): y.mul_(2)\ny.sum().backward()",
    "view_changed_again": "y = x * 1; v = y[0]; v.exp_(); v.mul_(2)\ny.sum().backward()",
    "column_view_changed_in_no_grad": "y = x * 1; v = y[:, 1]; v.sigmoid_()\n"
                                      "with torch.no_grad(): v.mul_(2)\ny.sum().backward()",
    "two_views_base_changed": "y = x * 1; v = y[0]; v.sigmoid_(); u = y[1]; u.tanh_()\n"
                              "with torch.no_grad(): y.mul_(2)\ny.sum().backward()",
    "transposed_view_base_changed": "y = x * 1; v = y.t(); v.tanh_(); y.add_(1)\n"
                                    "y.sum().backward()",
    "unchanged_gradient": "y = x - 0.5; v = y[0]; v.relu_()\ny.sum().backward(); r = x.grad",
    "unchanged_under_create_graph": "y = x - 0.5; v = y[0]; v.relu_()\n"
                                    "r = torch.autograd.grad(y.sum(), x, create_graph=True)",
}


@_programs(ON_VIEW)
def test_a_result_saved_by_an_in_place_op_on_a_view_is_named_as_in_pytorch(torch, code):
    assert_same_program(torch, _X + code)


# ---------------------------------------------------------------- which changed tensor is named
# Every operand a view of one base, of its own shape: one change to the base changes them all,
# and the message names the one PyTorch unpacks first (inputs by name, then outputs)
_VIEWS = ("x = torch.tensor([[0.3, 0.7, 0.5, 0.2], [0.9, 0.2, 0.4, 0.6], [0.6, 0.8, 0.35, 0.45],"
          " [0.15, 0.65, 0.55, 0.75]], requires_grad=True)\n"
          "y = x * 1; a = y[0:3, 0:3]; b = y[3, 0:3]; c = y[0:3, 3:4]\nF = torch.nn.functional\n")
ORDER = ["a * b", "a / b", "a ** b", "torch.atan2(a, b)", "torch.hypot(a, b)",
         "torch.maximum(a, b)", "torch.minimum(a, b)", "torch.fmax(a, b)", "torch.xlogy(a, b)",
         "torch.lerp(a, b, c)", "torch.addcmul(a, b, c)", "torch.addcdiv(a, b, c)",
         "torch.clamp(a, b, c)", "a.mv(b)", "a.mm(c)", "torch.addmm(b, a, a)",
         "F.layer_norm(a, (3,), b, b)", "F.linear(a, a, b)", "a.prod(0)", "a.norm(dim=0)",
         "a.median()", "a.pow(b)", "F.mse_loss(a, b.expand(3, 3))"]


@pytest.mark.parametrize("change", ["y.add_(1)", "with torch.no_grad(): y.add_(1)"])
@pytest.mark.parametrize("code", ORDER)
def test_the_first_changed_tensor_named_is_the_one_pytorch_checks_first(torch, code, change):
    assert_same_program(torch, _VIEWS + f"o = {code}\n{change}\no.sum().backward()")


# ---------------------------------------------------------------- nn: indices, targets and weights
_NN = ("F = torch.nn.functional; a = x * 1; k = torch.tensor([0, 2])\n"
       "w = torch.tensor([[1., 2., 0.5], [0.25, 1., 3.]])\n")
NN = {  # (the op, the change)
    "embedding_indices_changed": ("o = F.embedding(k, a)", "k.fill_(1)"),
    "embedding_module_indices_changed": ("o = torch.nn.Embedding(3, 2)(k)", "k.fill_(1)"),
    "nll_loss_weight_changed": ("o = F.nll_loss(a, k, weight=w[0])", "w.add_(1)"),
    "nll_loss_weight_view_changed_in_no_grad": ("o = F.nll_loss(a, k, weight=w[1])",
                                                "with torch.no_grad(): w[1].mul_(2)"),
    "cross_entropy_weight_changed": ("o = F.cross_entropy(a, k, weight=w[0])", "w.mul_(2)"),
    "cross_entropy_target_changed": ("o = F.cross_entropy(a, k)", "k.fill_(0)"),
    "mse_loss_target_changed": ("t = w.clone(); o = F.mse_loss(a, t)", "t.add_(1)"),
}


@pytest.mark.parametrize("second", [False, True], ids=["changed", "backward_twice"])
@pytest.mark.parametrize(("code", "change"), list(NN.values()), ids=list(NN))
def test_nn_functions_keep_what_pytorch_keeps(torch, code, change, second):
    # changed in place; or not changed, and a second backward (refused where PyTorch freed)
    change = "s = o.sum(); s.backward()" if second else change
    assert_same_program(torch, _X + _NN + code + "\n" + change + "\n"
                        "o.sum().backward(); r = x.grad")


# ---------------------------------------------------------------- saved tensors with hooks
_HOOKS = "with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):\n"
HOOKED = {
    # PyTorch checks no version through hooks
    "hooked_input_changed": _HOOKS + "    y = x * 1; z = y * y\ny.add_(1)\n"
                            "z.sum().backward(); r = x.grad",
    "hooked_input_detached": _HOOKS + "    y = x * 1; z = y.sin()\ny.detach_()\n"
                             "z.sum().backward(); r = x.grad",
    "hooked_number_freed": _HOOKS + "    y = x * 2; s = y.sum()\ns.backward(); s.backward()",
    "hooked_indices_freed": _HOOKS + "    y = x.sort(1)[0]; s = y.sum()\n"
                            "s.backward(); s.backward()",
    # register_hooks on a saved tensor changed since: no error then, none after
    "register_hooks_after_a_change": "y = x * 1; z = y * y; y.add_(1)\n"
                                     "z.grad_fn._raw_saved_self.register_hooks(lambda t: t, "
                                     "lambda t: t)\nz.sum().backward(); r = x.grad",
    "register_hooks_after_backward": "y = x * 2; y.sum().backward()\n"
                                     "y.grad_fn._raw_saved_other.register_hooks(lambda t: t, "
                                     "lambda t: t)",
    # the number x is multiplied by is a saved tensor PyTorch lets you hook
    "raw_saved_number_hooked": "y = x * 2; y.grad_fn._raw_saved_other.register_hooks("
                               "lambda t: t * 0 + 5, lambda t: t)\ny.sum().backward(); r = x.grad",
    "raw_saved_number_divisor_hooked": "y = x / 2; y.grad_fn._raw_saved_other.register_hooks("
                                       "lambda t: t * 0 + 4, lambda t: t)\n"
                                       "y.sum().backward(); r = (x.grad, y.grad_fn._saved_other)",
}


@_programs(HOOKED)
def test_saved_tensors_with_hooks_are_checked_as_in_pytorch(torch, code):
    assert_same_program(torch, _X + code)


# ---------------------------------------------------------------- a custom Function's saved tensors
_FUNCTION = """
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        y = t.exp()
        ctx.save_for_backward(t, y) if SAVE_INPUT else ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        return ctx.saved_tensors[-1] * g
"""
CUSTOM = {
    "output_changed": "y = Exp.apply(x)\nwith torch.no_grad(): y.mul_(2)\ny.sum().backward()",
    "output_unsqueezed": "y = Exp.apply(x); y.unsqueeze_(0)\ny.sum().backward()",
    "input_changed": "SAVE_INPUT = True; a = x * 1; y = Exp.apply(a); a.add_(1)\n"
                     "y.sum().backward()",
    "input_detached": "SAVE_INPUT = True; a = x * 1; y = Exp.apply(a); a.detach_()\n"
                      "y.sum().backward()",
    "input_detached_read": "SAVE_INPUT = True; a = x * 1; y = Exp.apply(a); a.detach_()\n"
                           "r = y.grad_fn.saved_tensors[0].grad_fn",
    "twice": "y = Exp.apply(x); s = y.sum(); s.backward(); s.backward()",
    "saved_tensors_after_backward": "y = Exp.apply(x); y.sum().backward(); y.grad_fn.saved_tensors",
}


@_programs(CUSTOM)
def test_a_custom_functions_saved_tensors_are_checked_as_in_pytorch(torch, code):
    assert_same_program(torch, "SAVE_INPUT = False\n" + _FUNCTION + _X + code)


# ---------------------------------------------------------------- //= and %= are in place
AUGMENTED = {
    "floor_divide_float": "a = torch.tensor([5., -7., 3.5]); b = a; b //= 2; r = (a, b is a, a._version)",
    "floor_divide_int": "a = torch.tensor([5, -7, 3]); b = a; b //= 2; r = (a, b is a, a._version)",
    "remainder_float": "a = torch.tensor([5., -7., 3.5]); b = a; b %= 2; r = (a, b is a, a._version)",
    "remainder_tensor": "a = torch.tensor([5, -7, 3]); b = a; b %= torch.tensor([2, 3, 2])\n"
                        "r = (a, b is a)",
    "floor_divide_int_by_float_refused": "a = torch.tensor([5, -7, 3]); a //= 2.5",
    "floor_divide_int_by_zero": "a = torch.tensor([5, -7, 3]); a //= 0",
    "leaf_refused": "x //= 2",
    "saved_then_divided_in_place": "y = x * 1; z = y * y; y %= 2; z.sum().backward()",
}


@_programs(AUGMENTED)
def test_floor_division_and_remainder_assignments_work_in_place(torch, code):
    assert_same_program(torch, _X + code)
