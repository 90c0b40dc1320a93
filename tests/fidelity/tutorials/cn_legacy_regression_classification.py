# The classic Chinese tutorial repositories' first two programs (the style of 莫烦Python's
# "关系拟合 (回归)" and "区分类型 (分类)", re-typed in my own words, not copied), written with the
# legacy API they still show: Variable, torch.FloatTensor / LongTensor, x.type(torch.LongTensor),
# .data, .numpy(), F.softmax without dim. Seeded: minigrad draws PyTorch's numbers and starting
# weights. Float32 training: the lines starting "第" (the step reports) and "预测" are compared
# with a tolerance, everything else exactly.
import warnings

import numpy as np
import torch
import torch.nn.functional as F
from torch.autograd import Variable

warnings.simplefilter('ignore')  # F.softmax 不写 dim 会警告，旧教程就是这么写的
torch.manual_seed(1)

# ---------- 回归 ----------
x = torch.unsqueeze(torch.linspace(-1, 1, 100), dim=1)  # 把一维数据变成二维 (100, 1)
y = x.pow(2) + 0.2 * torch.rand(x.size())  # 带噪声的二次函数
x, y = Variable(x), Variable(y)
print('x 的形状：', x.size(), '类型：', x.type())
print('x 是 FloatTensor 吗？', isinstance(x.data, torch.FloatTensor))


class Net(torch.nn.Module):
    def __init__(self, n_feature, n_hidden, n_output):
        super(Net, self).__init__()
        self.hidden = torch.nn.Linear(n_feature, n_hidden)  # 隐藏层
        self.predict = torch.nn.Linear(n_hidden, n_output)  # 输出层

    def forward(self, x):
        x = F.relu(self.hidden(x))  # 激励函数
        x = self.predict(x)
        return x


net = Net(n_feature=1, n_hidden=10, n_output=1)
print(net)  # 打印网络结构

optimizer = torch.optim.SGD(net.parameters(), lr=0.2)
loss_func = torch.nn.MSELoss()  # 均方误差

for t in range(100):
    prediction = net(x)
    loss = loss_func(prediction, y)  # 预测值在前，真实值在后
    optimizer.zero_grad()  # 清空上一步的梯度
    loss.backward()  # 反向传播，计算梯度
    optimizer.step()  # 用梯度更新参数
    if t % 20 == 0:
        print('第 %d 步, 损失 Loss=%.4f' % (t, loss.data.numpy()))
print('预测值的前三个：', prediction.data.numpy()[:3].ravel().round(3))

# ---------- 分类 ----------
n_data = torch.ones(100, 2)
x0 = torch.normal(2 * n_data, 1)  # 第 0 类的数据，形状 (100, 2)
y0 = torch.zeros(100)  # 第 0 类的标签
x1 = torch.normal(-2 * n_data, 1)  # 第 1 类的数据
y1 = torch.ones(100)  # 第 1 类的标签
x = torch.cat((x0, x1), 0).type(torch.FloatTensor)  # 合并，FloatTensor = 32 位浮点
y = torch.cat((y0, y1), ).type(torch.LongTensor)  # 标签必须是 LongTensor = 64 位整数
print('数据类型：', x.type(), y.type(), x.dtype, y.dtype)
x, y = Variable(x), Variable(y)

net2 = torch.nn.Sequential(
    torch.nn.Linear(2, 10),
    torch.nn.ReLU(),
    torch.nn.Linear(10, 2),
)
print(net2)
optimizer = torch.optim.SGD(net2.parameters(), lr=0.02)
loss_func = torch.nn.CrossEntropyLoss()

for t in range(60):
    optimizer.zero_grad()  # 这次先清空梯度，效果一样
    out = net2(x)  # 输出的是还没有经过 softmax 的分数
    loss = loss_func(out, y)
    loss.backward()
    optimizer.step()
    if t % 15 == 0:
        prediction = torch.max(F.softmax(out), 1)[1]
        pred_y = prediction.data.numpy().squeeze()
        target_y = y.data.numpy()
        accuracy = sum(pred_y == target_y) / 200.
        print('第 %d 步, 损失=%.4f, 准确率=%.2f' % (t, loss.item(), accuracy))
print(type(pred_y), pred_y.dtype, type(target_y), target_y.dtype)

# 旧式构造函数
a = torch.FloatTensor([[1, 2], [3, 4]])
b = torch.LongTensor([1, 0])
print(a, a.type(), b, b.type())
print(torch.FloatTensor(2, 3).shape, torch.LongTensor(3).dtype)
print(a.type(torch.IntTensor), a.type('torch.DoubleTensor').type())
print(torch.from_numpy(np.array([1.5, 2.5])).type())
print(Variable(a, requires_grad=True).requires_grad, Variable(a).grad_fn)
