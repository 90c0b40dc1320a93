# d2l-zh 4.6 暂退法 (Dropout) and 7.5 批量规范化 (re-typed in my own words, not copied): dropout
# by hand with a mask drawn from torch.rand, then the concise nn.Sequential MLP with
# nn.Dropout and nn.BatchNorm1d, training and evaluation mode, the running statistics, and a few
# SGD steps on made-up data. Seeded: minigrad draws PyTorch's numbers, its dropout masks and its
# starting weights. Float32 training (matrix-product order): the lines starting "epoch" and
# the running mean line are compared with a tolerance, everything else exactly. SGD, not Adam:
# the gradient of a Linear bias just before BatchNorm is zero up to rounding (~1e-9), and Adam
# divides it by its own size, so its sign -- the last bits -- decides a full step; the printed
# running mean then differs in the second digit between any two summation orders.
import torch
from torch import nn

torch.manual_seed(3)


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    # dropout 为 1 时所有元素都被丢弃
    if dropout == 1:
        return torch.zeros_like(X)
    # dropout 为 0 时所有元素都被保留
    if dropout == 0:
        return X
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(X)
print(dropout_layer(X, 0.))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.))

# 简洁实现：在全连接层之后加上 BatchNorm1d 和 Dropout
net = nn.Sequential(nn.Flatten(),
                    nn.Linear(20, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.2),
                    nn.Linear(32, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.5),
                    nn.Linear(16, 3))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
print(net)
print('BatchNorm 的参数：', [name for name, _ in net[2].named_parameters()])
print('BatchNorm 的缓冲区：', [name for name, _ in net[2].named_buffers()])

features = torch.randn(64, 20)
labels = torch.randint(0, 3, (64,))
loss = nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=0.5)

print('训练模式：', net.training, net[4].training)
for epoch in range(4):
    net.train()
    for i in range(0, 64, 16):
        Xb, yb = features[i:i + 16], labels[i:i + 16]
        l = loss(net(Xb), yb)
        trainer.zero_grad()
        l.mean().backward()
        trainer.step()
    net.eval()
    with torch.no_grad():
        acc = (net(features).argmax(dim=1) == labels).float().mean()
        print(f'epoch {epoch + 1}, loss {loss(net(features), labels).mean().item():.5f}, '
              f'acc {acc.item():.4f}')
print('评估模式：', net.training, net[4].training)
print('记录的批次数：', net[2].num_batches_tracked)
print('running mean', net[2].running_mean[:4])

# 评估模式下 Dropout 不起作用，两次前向的结果相同
with torch.no_grad():
    print(torch.equal(net(features[:5]), net(features[:5])))
net.train()
print(net(features[:2]).shape, net(features[:2]).grad_fn)
