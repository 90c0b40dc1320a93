# d2l-zh 6.6 卷积神经网络（LeNet）(re-typed in my own words, not copied), trained on made-up
# 28x28 images instead of Fashion-MNIST: the original LeNet with Sigmoid and AvgPool2d as one
# nn.Sequential, each layer's output shape, Xavier initialisation through net.apply, the
# train_ch6 loop (SGD, CrossEntropyLoss, an Accumulator of loss / correct / count, evaluation on a
# test set in eval mode with the device taken from the parameters). Seeded: minigrad draws
# PyTorch's numbers, Xavier weights and shuffles. Float32 training (convolutions and matrix
# products sum in another order than PyTorch's kernels): the lines starting "epoch" and "loss"
# are compared with a tolerance, everything else exactly.
import torch
from torch import nn
from torch.utils import data

torch.manual_seed(6)

net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))

X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, 'output shape: \t', X.shape)

# 假的 Fashion-MNIST：每一类有一个固定的“模板”图像，加上噪声
templates = torch.rand(10, 1, 28, 28)


def make_images(n):
    labels = torch.randint(0, 10, (n,))
    images = templates[labels] + 0.5 * torch.randn(n, 1, 28, 28)
    return images, labels


train_iter = data.DataLoader(data.TensorDataset(*make_images(256)), batch_size=32, shuffle=True)
test_iter = data.DataLoader(data.TensorDataset(*make_images(64)), batch_size=32, shuffle=False)


class Accumulator:
    """在 n 个变量上累加"""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def __getitem__(self, idx):
        return self.data[idx]


def accuracy(y_hat, y):
    """预测正确的数量"""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


def evaluate_accuracy_gpu(net, data_iter, device=None):
    """在数据集上计算模型的精度"""
    if isinstance(net, nn.Module):
        net.eval()  # 设置为评估模式
        if not device:
            device = next(iter(net.parameters())).device
    metric = Accumulator(2)  # 正确预测的数量，总预测的数量
    with torch.no_grad():
        for X, y in data_iter:
            X = X.to(device)
            y = y.to(device)
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


def train_ch6(net, train_iter, test_iter, num_epochs, lr, device):
    """用 GPU 训练模型（这里只有 CPU）"""
    def init_weights(m):
        if type(m) == nn.Linear or type(m) == nn.Conv2d:
            nn.init.xavier_uniform_(m.weight)
    net.apply(init_weights)
    print('training on', device)
    net.to(device)
    optimizer = torch.optim.SGD(net.parameters(), lr=lr)
    loss = nn.CrossEntropyLoss()
    for epoch in range(num_epochs):
        metric = Accumulator(3)  # 训练损失之和，训练准确数之和，样本数
        net.train()
        for i, (X, y) in enumerate(train_iter):
            optimizer.zero_grad()
            X, y = X.to(device), y.to(device)
            y_hat = net(X)
            l = loss(y_hat, y)
            l.backward()
            optimizer.step()
            with torch.no_grad():
                metric.add(l * X.shape[0], accuracy(y_hat, y), X.shape[0])
        train_l = metric[0] / metric[2]
        train_acc = metric[1] / metric[2]
        test_acc = evaluate_accuracy_gpu(net, test_iter)
        print(f'epoch {epoch + 1}, loss {train_l:.3f}, train acc {train_acc:.3f}, '
              f'test acc {test_acc:.3f}')
    print(f'loss {train_l:.3f}, train acc {train_acc:.3f}, test acc {test_acc:.3f}')


def try_gpu(i=0):
    """如果存在，则返回 gpu(i)，否则返回 cpu()"""
    if torch.cuda.device_count() >= i + 1:
        return torch.device(f'cuda:{i}')
    return torch.device('cpu')


lr, num_epochs = 0.9, 5
train_ch6(net, train_iter, test_iter, num_epochs, lr, try_gpu())
print(net[0].weight.grad.shape, net[0].weight.device, net[-1].bias.grad_fn)
