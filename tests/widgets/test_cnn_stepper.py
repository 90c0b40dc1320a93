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
