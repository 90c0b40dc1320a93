# The optimizer comparison of the classic Chinese tutorials (the style of 莫烦Python's "加速神经网络
# 训练 (Optimizer)", re-typed in my own words, not copied): four copies of one small network
# trained on the same noisy curve with SGD, SGD with momentum, RMSprop and Adam through a shuffled
# DataLoader, the loss history of each, then a learning-rate schedule (StepLR, and
# ExponentialLR) printed with get_last_lr(). Seeded: minigrad draws PyTorch's numbers, starting
# weights and shuffles. Float32 training (matrix products sum in another order than PyTorch's
# BLAS): the lines starting "第" and "最终" are compared with a tolerance, the rest exactly.
import copy

import torch
import torch.nn.functional as F
import torch.utils.data as Data

torch.manual_seed(1)

LR = 0.01
BATCH_SIZE = 32
EPOCH = 4

# 假数据：带噪声的抛物线
x = torch.unsqueeze(torch.linspace(-1, 1, 256), dim=1)
y = x.pow(2) + 0.1 * torch.normal(torch.zeros(*x.size()))
print('数据：', x.shape, y.shape)

torch_dataset = Data.TensorDataset(x, y)
loader = Data.DataLoader(dataset=torch_dataset, batch_size=BATCH_SIZE, shuffle=True)
print('每轮的批次数：', len(loader))


class Net(torch.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.hidden = torch.nn.Linear(1, 20)  # 隐藏层
        self.predict = torch.nn.Linear(20, 1)  # 输出层

    def forward(self, x):
        x = F.relu(self.hidden(x))
        return self.predict(x)


# 四个一模一样的网络，各用一种优化器
net = Net()
nets = [copy.deepcopy(net) for _ in range(4)]
opt_SGD = torch.optim.SGD(nets[0].parameters(), lr=LR)
opt_Momentum = torch.optim.SGD(nets[1].parameters(), lr=LR, momentum=0.8)
opt_RMSprop = torch.optim.RMSprop(nets[2].parameters(), lr=LR, alpha=0.9)
opt_Adam = torch.optim.Adam(nets[3].parameters(), lr=LR, betas=(0.9, 0.99))
optimizers = [opt_SGD, opt_Momentum, opt_RMSprop, opt_Adam]
names = ['SGD', 'Momentum', 'RMSprop', 'Adam']
print(opt_Adam)

loss_func = torch.nn.MSELoss()
losses_his = [[], [], [], []]  # 记录每种优化器的损失

for epoch in range(EPOCH):
    for step, (b_x, b_y) in enumerate(loader):
        for net, opt, l_his in zip(nets, optimizers, losses_his):
            output = net(b_x)
            loss = loss_func(output, b_y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            l_his.append(loss.data.numpy())
    print('第', epoch, '轮：', '  '.join('%s %.4f' % (n, h[-1]) for n, h in zip(names, losses_his)))

print('记录的损失个数：', [len(h) for h in losses_his], type(losses_his[0][0]).__name__)
for name, net in zip(names, nets):
    print('最终 %-8s 全部数据上的损失 %.5f' % (name, loss_func(net(x), y).item()))
print('Adam 的状态：', sorted(opt_Adam.state[nets[3].hidden.weight].keys()),
      opt_Adam.state[nets[3].hidden.weight]['step'])

# 学习率调度：每 2 轮把学习率乘以 0.5
opt = torch.optim.SGD(Net().parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(6):
    opt.step()
    scheduler.step()
    print('轮次', epoch, '学习率', scheduler.get_last_lr())
opt = torch.optim.Adam(Net().parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
for epoch in range(3):
    opt.step()
    scheduler.step()
print('指数衰减后的学习率：', opt.param_groups[0]['lr'], scheduler.state_dict()['last_epoch'])
