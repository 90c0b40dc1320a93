# d2l-zh 3.6 softmax回归的从零开始实现 (re-typed in my own words, not copied), on made-up
# "images" instead of Fashion-MNIST: softmax by hand, the cross-entropy that picks each row's
# true-class probability with y_hat[range(len(y_hat)), y], accuracy, an Accumulator, and a few
# epochs of minibatch SGD. Seeded: minigrad draws PyTorch's numbers, and the DataLoader shuffles
# with PyTorch's generator. Float32 training (matrix products sum in another order than PyTorch's
# BLAS): the lines starting "epoch" are compared with a tolerance, everything else exactly.
import torch
from torch.utils import data

torch.manual_seed(42)

# 造一个小数据集：每张“图像”有 28*28 个像素，共 10 类
num_inputs, num_outputs = 784, 10
num_examples = 300
features = torch.randn(num_examples, num_inputs)
labels = torch.randint(0, num_outputs, (num_examples,))
batch_size = 64
train_iter = data.DataLoader(data.TensorDataset(features, labels), batch_size, shuffle=True)

# 初始化模型参数
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)

X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition  # 这里应用了广播机制


X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print('softmax 的输出：', X_prob)
# 每行之和 rounded to 4 decimals: PyTorch's float32 exp (a vectorised library routine) and
# NumPy's differ in the last bit, so the raw sum is 0.99999994 in one and 1.0 in the other, and
# a tensor holding 0.99999994 prints as 1.0000, not 1. (listed in docs/coverage.md)
print('每行之和：', X_prob.sum(1).round(decimals=4))


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


# 定义损失函数：用 range 作为下标取出真实类别的预测概率
y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])
print(y_hat[range(len(y_hat)), y])


def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])


print('交叉熵：', cross_entropy(y_hat, y))


def accuracy(y_hat, y):
    """计算预测正确的数量"""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


print('准确率：', accuracy(y_hat, y) / len(y))


class Accumulator:
    """在 n 个变量上累加"""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def evaluate_accuracy(net, data_iter):
    metric = Accumulator(2)  # 正确预测数、预测总数
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


def sgd(params, lr, batch_size):
    """小批量随机梯度下降"""
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


def train_epoch_ch3(net, train_iter, loss, updater):
    metric = Accumulator(3)  # 训练损失总和、训练准确数、样本数
    for X, y in train_iter:
        y_hat = net(X)
        l = loss(y_hat, y)
        l.sum().backward()
        updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    return metric[0] / metric[2], metric[1] / metric[2]


lr = 0.1


def updater(batch_size):
    return sgd([W, b], lr, batch_size)


print('训练前的准确率：', evaluate_accuracy(net, train_iter))
for epoch in range(3):
    train_loss, train_acc = train_epoch_ch3(net, train_iter, cross_entropy, updater)
    print(f'epoch {epoch + 1}, loss {train_loss:.5f}, train acc {train_acc:.3f}')
print(W.grad.abs().sum() == 0, b.grad_fn, W.is_leaf)
