"""The stepper on a first CNN (conv -> ReLU -> max-pool, twice, then linear layers and a
cross-entropy loss), in minigrad and on PyTorch's own graph: it steps the whole backward, in
the order PyTorch's engine runs the nodes, and ends with the gradients ``backward()`` gives."""

from __future__ import annotations

import numpy as np
import pytest
from minigrad_widgets import BackwardStepper

import minigrad as mg

pytestmark = pytest.mark.torch


def lenet_loss(lib):
    """A small LeNet on four made-up 12x12 images, seeded: the same weights in both."""
    nn = lib.nn
    lib.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(2, 3, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Flatten(), nn.Linear(3 * 2 * 2, 5), nn.ReLU(), nn.Linear(5, 3))
    images, labels = lib.randn(4, 1, 10, 10), lib.tensor([0, 2, 1, 2])
    return net, nn.CrossEntropyLoss()(net(images), labels)


def engine_order(torch_loss) -> list:
    """The nodes in the order PyTorch's engine runs them (a pre-hook on every node)."""
    order, seen, stack = [], set(), [torch_loss.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        node.register_prehook(lambda grads, node=node: order.append(node.name()))
        stack.extend(f for f, _ in node.next_functions)
    torch_loss.backward()
    return order


def stepped(loss) -> list:
    stepper = BackwardStepper(loss)
    while stepper.step_index < stepper.total_steps:
        stepper.step()
    assert stepper.step_index == stepper.total_steps > 20
    return [rec.name for rec in stepper._log.records]


def test_the_stepper_steps_a_cnn_backward_in_pytorchs_engine_order(torch):
    _, t_loss = lenet_loss(torch)
    expected = engine_order(t_loss)
    assert "ConvolutionBackward0" in expected and "MaxPool2DWithIndicesBackward0" in expected
    _, m_loss = lenet_loss(mg)
    _, t_loss = lenet_loss(torch)
    assert stepped(m_loss) == expected
    assert stepped(t_loss) == expected


def test_stepping_a_cnn_to_the_end_gives_backwards_gradients(torch):
    t_net, t_loss = lenet_loss(torch)
    t_loss.backward()
    m_net, m_loss = lenet_loss(mg)
    BackwardStepper(m_loss).run()
    for (name, m), (_, t) in zip(m_net.named_parameters(), t_net.named_parameters()):
        # float32: the convolutions sum in another order than PyTorch's kernels
        np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-4, atol=1e-6,
                                   err_msg=name)


def blitz_net(lib):
    """The 60-minute blitz network as tests/fidelity/tutorials/pt_blitz_network.py writes it:
    a Module calling F.relu, F.max_pool2d and torch.flatten; seeded, the same weights in both."""
    nn, F = lib.nn, lib.nn.functional
    lib.manual_seed(1)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.conv2 = nn.Conv2d(1, 6, 5), nn.Conv2d(6, 16, 5)
            self.fc1, self.fc2 = nn.Linear(16 * 5 * 5, 12), nn.Linear(12, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            return self.fc2(F.relu(self.fc1(lib.flatten(x, 1))))

    net = Net()
    out = net(lib.randn(1, 1, 32, 32))
    return net, out, lib.randn(1, 10)


def main_chain(node) -> list:
    """The names from ``node`` back to the first convolution, always following the first input
    that is not a leaf's ``AccumulateGrad`` (as lenet_cnn.py prints it)."""
    names = []
    while node is not None:
        names.append(node.name())
        inner = [f for f, _ in node.next_functions if f is not None and "Accumulate" not in
                 f.name()]
        node = inner[0] if inner else None
    return names


def test_the_blitz_networks_graph_has_pytorchs_grad_fn_chain(torch):
    m_net, m_out, m_target = blitz_net(mg)
    _, t_out, t_target = blitz_net(torch)
    m_loss = mg.nn.MSELoss()(m_out, m_target)
    t_loss = torch.nn.MSELoss()(t_out, t_target)
    chain = main_chain(t_loss.grad_fn)
    assert chain[:3] == ["MseLossBackward0", "AddmmBackward0", "ReluBackward0"]
    assert chain[-3:] == ["MaxPool2DWithIndicesBackward0", "ReluBackward0",
                          "ConvolutionBackward0"]
    assert main_chain(m_loss.grad_fn) == chain
    t_first = t_loss.grad_fn.next_functions[0][0].next_functions[0][0]  # as the blitz prints
    m_first = m_loss.grad_fn.next_functions[0][0].next_functions[0][0]
    assert m_first.name() == t_first.name() == "torch::autograd::AccumulateGrad"
    assert m_first.variable is m_net.fc2.bias


def test_the_stepper_steps_every_node_of_the_blitz_backward_and_back(torch):
    m_net, m_out, m_target = blitz_net(mg)
    t_net, t_out, t_target = blitz_net(torch)
    t_loss = torch.nn.MSELoss()(t_out, t_target)
    expected = engine_order(t_loss)  # also runs PyTorch's backward
    chain = main_chain(t_loss.grad_fn)
    stepper = BackwardStepper(mg.nn.MSELoss()(m_out, m_target))
    names = []
    while stepper.step_index < stepper.total_steps:
        stepper.step()
        names.append(stepper._log.records[-1].name)
    assert names == expected and set(chain) <= set(names)
    assert names.count("torch::autograd::AccumulateGrad") == len(list(t_net.parameters()))
    while stepper.step_index > 0:  # back through every node: the gradients are gone again
        stepper.back()
    assert all(p.grad is None for p in m_net.parameters())
    stepper.run()
    for (name, m), (_, t) in zip(m_net.named_parameters(), t_net.named_parameters()):
        # float32: the convolutions sum in another order than PyTorch's kernels
        np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-4, atol=1e-6,
                                   err_msg=name)


def test_the_stepper_steps_the_blitz_backward_with_a_gradient_argument(torch):
    m_net, m_out, m_grad = blitz_net(mg)
    _, t_out, t_grad = blitz_net(torch)
    order, seen, stack = [], set(), [t_out.grad_fn]
    while stack:  # PyTorch's engine order for out.backward(gradient)
        node = stack.pop()
        if node is not None and node not in seen:
            seen.add(node)
            node.register_prehook(lambda grads, node=node: order.append(node.name()))
            stack.extend(f for f, _ in node.next_functions)
    t_out.backward(t_grad)
    stepper = BackwardStepper(m_out, m_grad)
    stepper.run()
    assert [rec.name for rec in stepper._log.records] == order
    assert m_net.conv1.bias.grad.shape == (6,)
