# The random parts of PyTorch's beginner tutorials, seeded as the tutorials seed them
# ("Tensors", "Build the Neural Network", "Datasets & DataLoaders"; re-typed): the printed
# samples, a layer's starting weights, a dropout mask and a shuffled loader's batches are
# PyTorch's own numbers under minigrad too. Only drawn values are printed, so the text must be
# identical (no float32 arithmetic whose summation order could differ).
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)
shape = (2, 3)
print(f"Random Tensor: \n {torch.rand(shape)} \n")
print(torch.randn(2, 4))
print(torch.randn(20).reshape(4, 5))
print(torch.randint(0, 10, (6,)), torch.randperm(7))

layer = nn.Linear(28 * 28 // 49, 4)
print(layer.weight, layer.bias, sep="\n")
emb = nn.Embedding(5, 3)
print(emb.weight)

dropout = nn.Dropout(p=0.5)
print(dropout(torch.ones(3, 6)))

g = torch.Generator().manual_seed(42)
print(torch.normal(2.0, 3.0, size=(2, 2), generator=g))

data = TensorDataset(torch.arange(12.0).reshape(6, 2), torch.arange(6))
train, test = random_split(data, [4, 2], generator=torch.Generator().manual_seed(1))
print(list(train.indices), list(test.indices))
loader = DataLoader(data, batch_size=4, shuffle=True)
for epoch in range(2):
    for X, y in loader:
        print(epoch, y.tolist(), X[:, 0].tolist())
print(torch.rand(3))
