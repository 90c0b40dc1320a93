"""Arguments of PyTorch's signatures that minigrad accepts but does not implement raise,
naming the argument, instead of being ignored (``torch.tensor(x, pin_memory=True)`` must not
quietly give ordinary memory). (``out=`` is supported: tests/ops/test_out_argument.py.)"""

from __future__ import annotations

import pytest

import minigrad as mg

a, b = mg.tensor([1., 2.]), mg.tensor([3., 4.])
x64 = mg.tensor([1., 2.], dtype=mg.float64, requires_grad=True)
CALLS = {
    "tensor pin_memory": (lambda: mg.tensor([1.], pin_memory=True), "pin_memory"),
    "clone memory_format": (lambda: a.clone(memory_format="channels_last"), "memory_format"),
    "to memory_format": (lambda: a.to(mg.float64, memory_format="channels_last"),
                         "memory_format"),
    "grad is_grads_batched": (lambda: mg.autograd.grad(
        (mg.ones(2, requires_grad=True) * 2).sum(), mg.ones(1, requires_grad=True),
        is_grads_batched=True), "is_grads_batched"),
    "gradcheck check_forward_ad": (lambda: mg.autograd.gradcheck(
        lambda t: t * t, (x64,), check_forward_ad=True), "check_forward_ad"),
    "gradcheck check_batched_grad": (lambda: mg.autograd.gradcheck(
        lambda t: t * t, (x64,), check_batched_grad=True), "check_batched_grad"),
    "gradgradcheck check_fwd_over_rev": (lambda: mg.autograd.gradgradcheck(
        lambda t: t * t, (x64,), check_fwd_over_rev=True), "check_fwd_over_rev"),
    "load_state_dict assign": (lambda: mg.nn.Linear(1, 1).load_state_dict(
        mg.nn.Linear(1, 1).state_dict(), assign=True), "assign"),
}


@pytest.mark.parametrize("case", sorted(CALLS))
def test_an_unsupported_argument_raises_naming_it(case):
    call, name = CALLS[case]
    with pytest.raises(NotImplementedError, match=f"does not support {name}="):
        call()


def test_the_defaults_of_those_arguments_are_accepted():
    assert mg.add(a, b, out=None).tolist() == [4., 6.]
    assert mg.zeros(2, device="cpu", out=None).tolist() == [0., 0.]
    assert a.clone(memory_format=None).tolist() == [1., 2.]


@pytest.mark.parametrize("make", [lambda L: L.zeros(2, device="cuda"),
                                  lambda L: L.tensor([1.], device="cuda:0"),
                                  lambda L: L.arange(3, device="cuda")])
def test_a_cuda_device_raises_as_in_a_cpu_only_pytorch(torch, make):
    with pytest.raises(AssertionError) as expected:
        make(torch)
    with pytest.raises(AssertionError) as got:
        make(mg)
    assert str(got.value) == str(expected.value)
