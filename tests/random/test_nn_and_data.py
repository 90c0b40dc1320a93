"""Where tutorials draw without saying so: layer initialisation, ``nn.init``, dropout and a
shuffled ``DataLoader`` consume the generator as PyTorch's do, so a seeded tutorial prints
PyTorch's weights, masks and batches."""

from __future__ import annotations

import pytest


def test_default_initialisation_of_layers_matches(same_draws):
    def program(lib):
        lib.manual_seed(0)
        nn = lib.nn
        layers = [nn.Linear(3, 2), nn.Linear(20, 30), nn.Linear(4, 1, bias=False),
                  nn.Embedding(10, 3), nn.Embedding(5, 4, padding_idx=1),
                  nn.Sequential(nn.Linear(784, 16), nn.ReLU(), nn.Linear(16, 10))]
        return [p for layer in layers for p in layer.parameters()] + [lib.rand(2)]

    same_draws(program)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nn_init_functions_match(same_draws, dtype):
    def program(lib):
        lib.manual_seed(1)
        init, dt = lib.nn.init, getattr(lib, dtype)
        g = lib.Generator().manual_seed(8)
        out = []
        for shape in [(3, 5), (16, 4), (7, 9)]:
            out += [init.uniform_(lib.empty(*shape, dtype=dt), -2, 3),
                    init.normal_(lib.empty(*shape, dtype=dt), 1, 0.2),
                    init.xavier_uniform_(lib.empty(*shape, dtype=dt), gain=2),
                    init.xavier_normal_(lib.empty(*shape, dtype=dt)),
                    init.kaiming_uniform_(lib.empty(*shape, dtype=dt), a=5 ** 0.5),
                    init.kaiming_normal_(lib.empty(*shape, dtype=dt), mode="fan_out"),
                    init.uniform_(lib.empty(*shape, dtype=dt), generator=g),
                    init.normal_(lib.empty(*shape, dtype=dt), generator=g)]
        return out

    same_draws(program)


def test_dropout_masks_match(same_draws):
    def program(lib):
        lib.manual_seed(2)
        F = lib.nn.functional
        x = lib.arange(1.0, 41.0).reshape(5, 8)
        drop = lib.nn.Dropout(0.5)
        out = [F.dropout(x, 0.2), F.dropout(x.double(), 0.7), drop(x), drop(x[:, :3])]
        drop.eval()
        out.append(drop(x))  # no draw in eval mode
        y = x.clone()
        F.dropout(y, 0.4, inplace=True)
        return out + [y, F.dropout(x, 0.0), F.dropout(x, 1.0), lib.rand(3)]

    same_draws(program)


def test_a_shuffled_dataloader_gives_pytorchs_batches(same_draws):
    def program(lib):
        data = lib.utils.data
        lib.manual_seed(0)
        ds = data.TensorDataset(lib.arange(20.0).reshape(10, 2), lib.arange(10))
        out = []
        for loader in (data.DataLoader(ds, batch_size=4, shuffle=True),
                       data.DataLoader(ds, batch_size=3, shuffle=True, drop_last=True),
                       data.DataLoader(ds, batch_size=4),  # draws a seed too, as PyTorch
                       data.DataLoader(ds, batch_size=4, shuffle=True,
                                       generator=lib.Generator().manual_seed(5))):
            for _ in range(2):  # each epoch a new order
                out += [t for batch in loader for t in batch]
        sampler = data.RandomSampler(range(50), replacement=True, num_samples=70)
        out.append(lib.tensor(list(sampler)))
        out.append(lib.tensor(list(data.SubsetRandomSampler([3, 5, 7, 9]))))
        weighted = data.WeightedRandomSampler([0.1, 0.9, 0.4, 0.0, 2.0], 12)
        out += [lib.tensor(list(weighted)), lib.tensor(list(data.WeightedRandomSampler(
            [1.0, 3.0, 2.0], 3, replacement=False, generator=lib.Generator().manual_seed(4))))]
        loader = data.DataLoader(ds, batch_size=3, sampler=data.WeightedRandomSampler([1.0] * 10, 7))
        out += [t for batch in loader for t in batch]
        parts = data.random_split(range(10), [0.3, 0.7], generator=lib.Generator().manual_seed(1))
        out += [lib.tensor(list(p)) for p in parts]
        return out + [lib.randn(3)]

    same_draws(program)


def test_the_seeded_linear_regression_tutorial_draws_the_same_data_and_weights(torch):
    """d2l's concise linear regression as printed: the synthetic data (``torch.normal``), the
    first batch of a shuffled loader and the starting weights are exact; the trained weights
    agree to float32 summation order."""
    import minigrad

    def run(lib):
        lib.manual_seed(42)
        true_w, true_b = lib.tensor([2, -3.4]), 4.2
        X = lib.normal(0, 1, (1000, len(true_w)))
        y = lib.matmul(X, true_w) + true_b
        y += lib.normal(0, 0.01, y.shape)
        loader = lib.utils.data.DataLoader(lib.utils.data.TensorDataset(X, y.reshape(-1, 1)),
                                           batch_size=10, shuffle=True)
        net = lib.nn.Sequential(lib.nn.Linear(2, 1))
        net[0].weight.data.normal_(0, 0.01)
        net[0].bias.data.fill_(0)
        start = [repr(X[:2]), repr(next(iter(loader))[0][:2]), repr(net[0].weight)]
        trainer = lib.optim.SGD(net.parameters(), lr=0.03)
        for _ in range(3):
            for xb, yb in loader:
                loss = lib.nn.MSELoss()(net(xb), yb)
                trainer.zero_grad()
                loss.backward()
                trainer.step()
        return start, net[0].weight.detach().numpy(), repr(lib.rand(2))

    (ours, w_ours, after_ours), (theirs, w_theirs, after_theirs) = run(minigrad), run(torch)
    assert ours == theirs
    assert abs(w_ours - w_theirs).max() < 1e-5
    assert after_ours == after_theirs  # the generator moved exactly as PyTorch's did
