"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode, as context managers,
decorators (of functions and generators), per thread, against PyTorch."""

from __future__ import annotations

import threading

import pytest
from helpers import assert_same_program
from helpers import both as run_both

import minigrad as mg


def state(L) -> tuple:
    x = L.ones(2, requires_grad=True)
    y = x * 2
    return L.is_grad_enabled(), y.requires_grad, y.grad_fn is not None


def test_no_grad_block_records_nothing_and_restores(torch):
    def run(L):
        with L.no_grad() as entered:
            inside = state(L)
        return entered, inside, state(L)

    m, t = run_both(torch, run)
    assert m == t


def test_nested_modes(torch):
    def run(L):
        out = []
        with L.no_grad():
            out.append(state(L))
            with L.enable_grad():
                out.append(state(L))
                with L.set_grad_enabled(False):
                    out.append(state(L))
                out.append(state(L))
            out.append(state(L))
        out.append(state(L))
        return out

    m, t = run_both(torch, run)
    assert m == t


def test_modes_restore_after_an_exception(torch):
    def run(L):
        try:
            with L.no_grad():
                raise KeyError
        except KeyError:
            pass
        return state(L)

    m, t = run_both(torch, run)
    assert m == t


def test_decorators_with_and_without_parentheses(torch):
    def run(L):
        @L.no_grad()
        def a():
            return state(L)

        @L.no_grad
        def b():
            return state(L)

        @L.enable_grad
        def c():
            return state(L)

        @L.set_grad_enabled(False)
        def d():
            return state(L)

        @L.inference_mode
        def e():
            return state(L), L.is_inference_mode_enabled()

        @L.inference_mode(False)
        def f():
            return state(L), L.is_inference_mode_enabled()

        with L.no_grad():
            inner = c()
        return a(), b(), inner, d(), state(L), e(), f(), a.__name__, b.__name__

    m, t = run_both(torch, run)
    assert m == t


def test_set_grad_enabled_as_a_function_call(torch):
    def run(L):
        L.set_grad_enabled(False)
        off = state(L)
        L.set_grad_enabled(True)
        return off, state(L), repr(L.set_grad_enabled(True)).replace("torch.", "minigrad.")

    m, t = run_both(torch, run)
    assert m == t


def test_set_grad_enabled_rejects_a_non_bool(torch):
    def run(L):
        try:
            L.set_grad_enabled(lambda: 1)
        except TypeError as e:
            return str(e)

    m, t = run_both(torch, run)
    assert m == t and m is not None


def test_decorated_generator_holds_the_mode_only_while_running(torch):
    def run(L):
        @L.no_grad()
        def gen():
            got = yield state(L)
            yield got, state(L)

        g = gen()
        first = next(g)
        between = state(L)
        second = g.send("sent")
        return first, between, second

    m, t = run_both(torch, run)
    assert m == t


def test_inference_mode_makes_inference_tensors(torch):
    def run(L):
        x = L.ones(2, requires_grad=True)
        with L.inference_mode():
            inside = state(L), L.is_inference_mode_enabled()
            y = x * 2
        outside = L.is_inference_mode_enabled()
        errors = []
        for action in (lambda: y.requires_grad_(), lambda: y.add_(1)):
            try:
                action()
            except RuntimeError as e:
                errors.append(str(e).replace("torch.", "minigrad."))
        return inside, outside, y.is_inference(), x.is_inference(), y.requires_grad, errors

    m, t = run_both(torch, run)
    assert m == t


def test_aliases_made_in_inference_mode_keep_their_source_s_kind(torch):
    """detach() and views inside inference_mode are inference tensors only if their source is;
    new results always are (and a detached normal tensor can still be written in place)."""
    def run(L):
        x, leaf = L.ones(3, requires_grad=True), L.ones(2)
        with L.inference_mode():
            made = (x.detach(), x.view(3), x[1:], leaf.detach(), x * 2, L.ones(2))
            inner = L.ones(2)
            again = (inner.detach(), inner.view(2))
        d = made[3]
        d.add_(1)  # a normal tensor: in-place changes outside inference mode are allowed
        return [t.is_inference() for t in made + again], leaf.tolist()

    m, t = run_both(torch, run)
    assert m == t


def test_data_is_an_inference_tensor_only_if_its_source_is(torch):
    """``.data`` follows its source, in inference mode or not (a fuzz finding: minigrad made
    a normal tensor's ``.data`` an inference tensor there), with a version counter of its own."""
    def run(L):
        x, out = L.tensor([2.5, 3.]), []
        with L.inference_mode():
            d, inner = x.data, L.ones(2)
            out += [d.is_inference(), inner.data.is_inference()]
        d.remainder_(2.)  # a normal tensor: changed in place outside inference mode
        return out + [inner.data.is_inference(), x.tolist(), x._version, d._version]

    m, t = run_both(torch, run)
    assert m == t


def test_grad_mode_is_per_thread(torch):
    def run(L):
        seen = {}

        def worker():
            seen["worker"] = L.is_grad_enabled()
            with L.no_grad():
                seen["worker_inside"] = L.is_grad_enabled()

        with L.no_grad():
            t = threading.Thread(target=worker)
            t.start()
            t.join()
            seen["main"] = L.is_grad_enabled()
        return seen

    m, t = run_both(torch, run)
    assert m == t == {"worker": True, "worker_inside": False, "main": False}


def test_thread_switching_modes_does_not_disturb_another_thread():
    flags = []
    go, done = threading.Event(), threading.Event()

    def worker():
        mg.set_grad_enabled(False)
        go.set()
        done.wait(5)
        flags.append(mg.is_grad_enabled())

    t = threading.Thread(target=worker)
    t.start()
    go.wait(5)
    assert mg.is_grad_enabled()
    x = mg.ones(1, requires_grad=True)
    assert (x * 2).requires_grad
    done.set()
    t.join()
    assert flags == [False]


def test_backward_inside_no_grad_still_works(torch):
    def run(L):
        x = L.tensor([1., 2.], requires_grad=True)
        loss = (x * x).sum()
        with L.no_grad():
            loss.backward()
        return x.grad.tolist(), x.grad.requires_grad

    m, t = run_both(torch, run)
    assert m == t


def test_no_grad_rejects_decorating_a_non_callable():
    with pytest.raises(TypeError):
        mg.no_grad()(3)


@pytest.mark.parametrize("make", ["L.tensor([1., 2.], requires_grad=True)",
                                  "L.tensor([1., 2.], requires_grad=True) * 2",
                                  "L.tensor([1., 2., 3.], requires_grad=True)[1:]",
                                  "L.tensor([1., 2.])"])
def test_detach_in_place_changes_nothing_in_inference_mode(torch, make):
    """PyTorch skips detach_'s autograd kernel in inference mode: the tensor keeps its
    requires_grad and grad_fn, and a view raises nothing (a fuzz finding); in no_grad it is
    detached as usual."""
    def run(L):
        out = []
        for mode in (L.inference_mode, L.no_grad):
            x = eval(make, {"L": L})  # noqa: S307 - the test's own expressions
            with mode():
                try:
                    x.detach_()
                except RuntimeError as e:
                    out.append(str(e)[:30])
            out.append((x.requires_grad, x.is_leaf, x.grad_fn and x.grad_fn.name()))
        return out

    m, t = run_both(torch, run)
    assert m == t


# ops on an inference tensor that requires grad (made so in inference mode), outside it:
# PyTorch skips autograd when every operand is an inference tensor; a Python number wrapped
# in a tensor, an index tensor or a normal operand brings it back (views of it never require
# grad). Each line: (requires_grad, grad_fn name) or the error, as PyTorch gives them.
INFERENCE_OPERANDS = [
    "a.relu()", "F.relu(a)", "a.exp()", "a.sum()", "a.sigmoid()", "-a", "a.sign()", "a.T",
    "a.reshape(3, 2)", "a[None].expand(2, 2, 3)", "lib.cat([a, a])", "a.softmax(0)",
    "F.mse_loss(a, a)", "a @ a.T", "a.clamp(0)", "a.lerp(a, 0.5)", "a.pow(2)", "a.max()",
    "a.max(0)[0]", "a.tril()", "a.chunk(2)[0]", "a[:, 1:]", "F.leaky_relu(a)", "a.prod()",
    "a * 2", "a * 2.0", "2 * a", "a + 1", "a / 2", "2 / a", "a * b", "a - b", "a[[0]]",
    "lib.where(a > 0, a, 0.)", "a.masked_fill(a > 1, 0.)", "a.index_select(0, lib.tensor([0]))",
    "a.gather(0, lib.zeros(1, 3, dtype=lib.long))", "a.xlogy(2)", "a // 2", "a.relu_()",
    "a.detach()", "a.float()", "a == 1", "a.new_ones(2)", "F.dropout(a, 0.0)",
    # in place: the leaf's refusal where autograd runs, else the inference tensor's
    "a.mul_(2)", "a.add_(b)", "a.exp_()", "a.clamp_(0)", "a.clamp_min_(0)", "a.fill_(2.)",
    "a.fill_(lib.tensor(2.))", "a.pow_(2)", "a.lerp_(a, 0.5)", "a.lerp_(b, 0.5)", "a.zero_()",
    "a.addcmul_(a, a, value=2)", "a.nan_to_num_(0.)", "F.hardtanh_(a)", "a.sub_(1)",
]


@pytest.mark.parametrize("code", INFERENCE_OPERANDS)
def test_inference_operands_alone_record_nothing(torch, code):
    def run(L):
        with L.inference_mode():
            a = L.ones(2, 3, requires_grad=True) + 0.5
            a.requires_grad_()
        env = {"lib": L, "F": L.nn.functional, "a": a, "b": L.ones(2, 3)}
        try:
            out = eval(code, env)  # noqa: S307 - the test's own expressions
        except RuntimeError as e:
            return str(e)
        return out.requires_grad, out.grad_fn and out.grad_fn.name(), out.is_inference()

    m, t = run_both(torch, run)
    assert m == t


def test_data_of_views_and_inference_tensors_taken_in_inference_mode(torch):
    """``.data`` taken in inference mode follows its source, as ``detach()`` does: a normal
    tensor's can then be changed in place outside (fuzz seed 4975)."""
    def run(L):
        x, y = L.ones(3), L.tensor([2.]).norm(0).flatten()
        with L.inference_mode():
            made = [x.data, y.data, x[0:2].data, L.ones(2).data]
        made[1].remainder_(float("nan"))
        return [t.is_inference() for t in made], repr(made[1].tolist()), repr(y.tolist())

    m, t = run_both(torch, run)
    assert m == t


# `.data =` across inference mode (fuzz seed 6440): an inference tensor given normal data is no
# longer an inference tensor but still has no version counter, so every view of it (which
# reads the counter) raises, even in inference mode, while copies, detach and requires_grad_
# work; a normal tensor given inference data makes inference views (no version, no in-place)
_NO_COUNTER = ("a = torch.zeros(3, 1)\nwith torch.inference_mode():\n    v = a.flip(1)\n"
               "v.data = a\n")
_INFERENCE_DATA = ("w = torch.ones(3)\nwith torch.inference_mode():\n    wi = w * 2\n"
                   "v = torch.ones(3, dtype=torch.int64)\nv.data = wi\n")
DATA_SWAPS = [_NO_COUNTER + f"r = ({e}, v.is_inference())" for e in (
    "v[-3]", "v[0:1]", "v[None]", "v.t()", "v.reshape(3)", "v.split(1)", "v.view(3)",
    "v[torch.tensor([0])].is_inference()", "(v + 1).is_inference()", "v.detach().sum()",
    "v.clone()", "v.requires_grad_().requires_grad")]
DATA_SWAPS += [_NO_COUNTER + "with torch.inference_mode():\n    r = v[0]"]
DATA_SWAPS += [_INFERENCE_DATA + f"r = {e}" for e in (
    "v[0:2].is_inference()", "v[0:2]._version", "v[0:2].add_(1)", "v.t()[0:1].is_inference()",
    "v.detach().is_inference()", "(v[0:2] * 2).is_inference()", "v.add_(1)")]


@pytest.mark.parametrize("code", DATA_SWAPS)
def test_views_after_data_swapped_across_inference_mode(torch, code):
    assert_same_program(torch, code)


# autograd saves an op's operands before its kernel checks their shapes: an inference operand
# that would be saved raises first (fuzz seeds 7100, 7421); hypot saves only an operand that
# needs a gradient, fmod/remainder both only for other's gradient
_SAVED_FIRST = ("x = torch.tensor([[1., -2., 3.], [4., 5., -6.]]).t().requires_grad_()\n"
                "with torch.inference_mode():\n    i = x.new_zeros((6,))\n")
SAVED_FIRST = [_SAVED_FIRST + f"r = {e}" for e in (
    "i.fmod(x)", "i.remainder(x)", "torch.atan2(x, i)", "torch.fmax(i, x)", "torch.fmin(x, i)",
    "torch.hypot(i, x)", "x.fmod(i)", "torch.atan2(x, i[:2])", "x.fmod(i[:2])",
    "torch.dist(x, i)", "torch.dist(x, i.bool())", "torch.dist(i, i)",
    "torch.nn.functional.group_norm(i.bool().reshape(1, 2, 3), 1, x[:2, 0])",
    "torch.nn.functional.group_norm(i.reshape(1, 2, 3), 1, x[:2, 0], x[:2, 0].double())",
    "torch.nn.functional.group_norm(i.reshape(1, 2, 3), 1, None, x[:2, 0])")]


@pytest.mark.parametrize("code", SAVED_FIRST)
def test_inference_operand_refused_before_the_shapes_are_checked(torch, code):
    assert_same_program(torch, code)


# an inference tensor detached outside inference mode is still one, but has a version counter
# of its own: in-place changes are allowed there (fuzz seed 7125); its views and its base not
_DETACHED = "with torch.inference_mode():\n    a = torch.ones(3) * 2\nd = a.detach()\n"
DETACHED = [_DETACHED + f"r = ({e}, a, d.is_inference())" for e in (
    "d.fill_(3.)", "d.add_(1)._version", "d.zero_()", "d.copy_(torch.ones(3))", "a.fill_(3.)",
    "a.view(3).fill_(1.)")]
DETACHED += ["with torch.inference_mode():\n    a = torch.ones(3) * 2\n    d = a.detach()\n"
             "r = d.is_inference(), d.add_(1)"]


@pytest.mark.parametrize("code", DETACHED)
def test_inference_tensor_detached_outside_inference_mode(torch, code):
    assert_same_program(torch, code)
