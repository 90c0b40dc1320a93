# The first chapter of the classic Chinese book-and-notebook tutorials (the style of
# 《深度学习框架PyTorch：入门与实践》's "Tensor 与 Autograd", re-typed in my own words, not copied):
# `import torch as t`, t.Tensor(rows, cols) and t.Tensor(list), size(), add(out=), in-place add_,
# NumPy sharing memory both ways, view/unsqueeze/squeeze, resize_, a mask, Variable with .data and
# .grad.data.zero_(), the derivative of x^2 * e^x checked against the hand formula, and a linear
# regression trained with .data updates. Seeded: minigrad draws PyTorch's numbers. The float32
# training lines ("第", "w =") are compared with a tolerance, the rest exactly.
import numpy as np
import torch as t
from torch.autograd import Variable

t.manual_seed(1000)

# 构建 5x3 的矩阵，只是分配了空间，未初始化（所以只看形状）
x = t.Tensor(5, 3)
print('未初始化张量的形状：', x.size(), x.size()[1], x.size(1), x.shape)
x = t.Tensor([[1, 2], [3, 4]])  # 用列表的数据创建 tensor
print(x, x.tolist(), x.type())
print('元素个数：', x.numel(), x.nelement())

# 加法的三种写法
x = t.rand(5, 3)
y = t.rand(5, 3)
print(t.equal(x + y, t.add(x, y)))
result = t.Tensor(5, 3)  # 预先分配空间
t.add(x, y, out=result)  # 结果写入 result
print(result)
print('不改变 y：', t.equal(y.add(x), x + y))
y.add_(x)  # 函数名以 _ 结尾的会修改自身
print('改变了 y：', t.equal(y, result))

# Tensor 与 NumPy 共享内存
a = t.ones(5)
b = a.numpy()  # Tensor -> NumPy
print(a, b, b.dtype)
a = np.ones(5)
b = t.from_numpy(a)  # NumPy -> Tensor
print(a, b)
b.add_(1)  # b 改变，a 也跟着改变
print(a, b)

# 常用操作
a = t.arange(0, 6)
print(a.view(2, 3))
b = a.view(-1, 3)  # -1 表示自动计算这一维的大小
print(b.shape, b.unsqueeze(1).shape, b.unsqueeze(-2).shape)
c = b.view(1, 1, 1, 2, 3)
print(c.squeeze(0).shape, c.squeeze().shape)
a[1] = 100  # a 与 b 共享内存，修改 a 也会改 b
print(b)
b.resize_(1, 3)  # 改变形状，仍在同一块内存上
print(b)
b.resize_(3, 3)  # 旧的数据依旧保存着，多出的元素是新分配的空间（未初始化，所以只看前两行）
print(b[:2])
a = t.randn(3, 4)
print(a[0], a[:, 0], a[0][2], a[0, -1])
print(a > 1)
print(a[a > 1])  # 用掩码选出大于 1 的元素
print(a[t.LongTensor([0, 1])].shape)
print(t.max(a, dim=1)[1], a.max(), t.clamp(a, min=0.5)[0])

# Variable 与自动求导
x = Variable(t.ones(2, 2), requires_grad=True)
y = x.sum()
print(y, y.grad_fn)
y.backward()
print(x.grad)
y.backward()  # 梯度是累加的，再反向传播一次梯度变成 2
print(x.grad)
x.grad.data.zero_()  # 清零
y.backward()
print(x.grad)


def f(x):
    """计算 y = x^2 * e^x"""
    return x ** 2 * t.exp(x)


def gradf(x):
    """手动求导：dy/dx = 2x e^x + x^2 e^x"""
    return 2 * x * t.exp(x) + x ** 2 * t.exp(x)


x = Variable(t.randn(3, 4), requires_grad=True)
y = f(x)
y.backward(t.ones(y.size()))  # gradient 形状与 y 一致
print('自动求导与手动求导一致：', t.allclose(x.grad, gradf(x).data))
print(y.grad_fn, y.grad_fn.next_functions)

# 用 .data 手动更新参数的线性回归 y = 2x + 3
t.manual_seed(1000)


def get_fake_data(batch_size=8):
    """产生随机数据：y = x * 2 + 3，加上一些噪声"""
    x = t.rand(batch_size, 1) * 20
    y = x * 2 + (1 + t.randn(batch_size, 1)) * 3
    return x, y


w = Variable(t.rand(1, 1), requires_grad=True)
b = Variable(t.zeros(1, 1), requires_grad=True)
lr = 0.0005
for ii in range(2000):
    x, y = get_fake_data()
    x, y = Variable(x), Variable(y)
    y_pred = x.mm(w) + b.expand_as(y)
    loss = 0.5 * (y_pred - y) ** 2
    loss = loss.sum()
    loss.backward()
    w.data.sub_(lr * w.grad.data)
    b.data.sub_(lr * b.grad.data)
    w.grad.data.zero_()
    b.grad.data.zero_()
    if ii % 500 == 0:
        print('第 %d 次迭代，损失 %.4f' % (ii, loss.item()))
print('w =', w.data.squeeze().item(), ' b =', b.data.squeeze().item())
