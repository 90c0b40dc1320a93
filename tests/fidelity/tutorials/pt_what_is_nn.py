# PyTorch's "What is torch.nn really?" (re-typed in my own words, not copied), on made-up 28x28
# "digits" instead of MNIST: logistic regression from scratch (log_softmax by hand, the negative
# log-likelihood that picks each row's target with input[range(n), target], accuracy), then the
# same model refactored step by step: F.cross_entropy, nn.Module with nn.Parameter, nn.Linear,
# optim, TensorDataset, DataLoader, a validation set, fit(), and a CNN written as nn.Sequential
# with a Lambda module and AdaptiveAvgPool2d. Seeded: minigrad draws PyTorch's numbers, weights
# and shuffles. Float32 training (matrix products and convolutions sum in another order than
# PyTorch's kernels; exp and log round differently in the last bit): the lines that report a
# loss or an accuracy (an epoch and its validation loss, or a loss or accuracy tensor first on
# its line) are compared with a tolerance, the rest exactly.
import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
n_train, n_valid = 320, 64
centres = torch.randn(10, 784)  # one made-up "prototype" per class
y_train = torch.randint(0, 10, (n_train,))
y_valid = torch.randint(0, 10, (n_valid,))
x_train = (centres[y_train] + 5.0 * torch.randn(n_train, 784)) / 4
x_valid = (centres[y_valid] + 5.0 * torch.randn(n_valid, 784)) / 4
print(x_train.shape, y_train.min(), y_train.max(), x_train.dtype, y_train.dtype)

# --- from scratch ---
weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


bs = 64
xb = x_train[0:bs]
preds = model(xb)
print(preds.shape, preds.grad_fn)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll
yb = y_train[0:bs]
print(loss_func(preds, yb))


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


print(accuracy(preds, yb))

lr = 0.5
epochs = 2
n = n_train
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(loss_func(model(xb), yb), accuracy(model(xb), yb))

# --- torch.nn.functional ---
loss_func = F.cross_entropy


def model(xb):
    return xb @ weights + bias


print(loss_func(model(xb), yb), accuracy(model(xb), yb))


# --- nn.Module, nn.Linear, optim, Dataset, DataLoader ---
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)


train_ds = TensorDataset(x_train, y_train)
train_dl = DataLoader(train_ds, batch_size=bs, shuffle=True)
valid_ds = TensorDataset(x_valid, y_valid)
valid_dl = DataLoader(valid_ds, batch_size=bs * 2)
print(len(train_ds), len(train_dl), len(valid_dl), train_ds[0][0].shape, train_ds[0][1])


def get_model():
    model = Mnist_Logistic()
    return model, optim.SGD(model.parameters(), lr=lr)


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, f"{val_loss:.5f}")


model, opt = get_model()
print(model)
fit(3, model, loss_func, opt, train_dl, valid_dl)


# --- a CNN as nn.Sequential, with a Lambda layer ---
class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x):
    return x.view(-1, 1, 28, 28)


model = nn.Sequential(
    Lambda(preprocess),
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
print(model)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
out = model(x_train[:2])
print(out.shape, out.grad_fn, out.grad_fn.next_functions[0][0])
fit(2, model, loss_func, opt, train_dl, valid_dl)
