import minigrad as torch


def test_mean_of_product_backward_gives_pytorch_tutorial_gradient():
    x = torch.ones(2, 2, requires_grad=True)
    out = ((x + 2) * (x + 2) * 3).mean()
    out.backward()
    assert x.grad.tolist() == [[4.5, 4.5], [4.5, 4.5]]
