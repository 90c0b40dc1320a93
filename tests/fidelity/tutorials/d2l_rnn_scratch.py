# d2l-zh 8.5 循环神经网络的从零开始实现 (re-typed in my own words, not copied), on a made-up
# vocabulary of 12 tokens instead of The Time Machine: one-hot inputs with F.one_hot, the
# parameters drawn with torch.randn, an RNN cell H = tanh(X W_xh + H W_hh + b_h) stepped through
# time, the outputs concatenated, gradient clipping by the global norm, a few training steps with
# the hidden state detached between minibatches, and greedy prediction. Seeded: minigrad draws
# PyTorch's numbers. Float32 training (matrix products sum in another order than PyTorch's
# BLAS, and the errors grow through the tanh recurrence): the lines starting "困惑度" (perplexity)
# and "梯度范数" are compared with a tolerance, everything else exactly.
import math

import torch
from torch.nn import functional as F

torch.manual_seed(0)

vocab_size, num_hiddens = 12, 32
# 一个假的语料：周期为 6 的词元序列，加上一点随机词元
corpus = torch.tensor([i % 6 for i in range(200)])
noise = torch.randint(0, vocab_size, (200,))
mask = torch.rand(200) < 0.1
corpus = torch.where(mask, noise, corpus)
print('语料的前 20 个词元：', corpus[:20].tolist())

print(F.one_hot(torch.tensor([0, 2]), vocab_size))
X = torch.arange(10).reshape((2, 5))
print('转置后独热编码的形状：', F.one_hot(X.T, vocab_size).shape)


def get_params(vocab_size, num_hiddens):
    num_inputs = num_outputs = vocab_size

    def normal(shape):
        return torch.randn(size=shape) * 0.01

    # 隐藏层参数
    W_xh = normal((num_inputs, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens)
    # 输出层参数
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs)
    # 附加梯度
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params


def init_rnn_state(batch_size, num_hiddens):
    return (torch.zeros((batch_size, num_hiddens)), )


def rnn(inputs, state, params):
    # inputs 的形状：(时间步数量, 批量大小, 词表大小)
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)


class RNNModelScratch:
    """从零开始实现的循环神经网络模型"""
    def __init__(self, vocab_size, num_hiddens, get_params, init_state, forward_fn):
        self.vocab_size, self.num_hiddens = vocab_size, num_hiddens
        self.params = get_params(vocab_size, num_hiddens)
        self.init_state, self.forward_fn = init_state, forward_fn

    def __call__(self, X, state):
        X = F.one_hot(X.T, self.vocab_size).type(torch.float32)
        return self.forward_fn(X, state, self.params)

    def begin_state(self, batch_size):
        return self.init_state(batch_size, self.num_hiddens)


net = RNNModelScratch(vocab_size, num_hiddens, get_params, init_rnn_state, rnn)
state = net.begin_state(X.shape[0])
Y, new_state = net(X, state)
print('输出形状：', Y.shape, '状态个数：', len(new_state), '状态形状：', new_state[0].shape)
print('输出的 grad_fn：', Y.grad_fn.name(), new_state[0].grad_fn.name())


def predict_ch8(prefix, num_preds, net):
    """在 prefix 后面生成新词元"""
    state = net.begin_state(batch_size=1)
    outputs = [prefix[0]]

    def get_input():
        return torch.tensor([outputs[-1]]).reshape((1, 1))

    for y in prefix[1:]:  # 预热期
        _, state = net(get_input(), state)
        outputs.append(y)
    for _ in range(num_preds):  # 预测 num_preds 步
        y, state = net(get_input(), state)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return outputs


print('训练前的预测：', predict_ch8([0, 1, 2], 6, net))


def grad_clipping(params, theta):
    """裁剪梯度"""
    norm = torch.sqrt(sum(torch.sum(p.grad ** 2) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm


def seq_data_iter_sequential(corpus, batch_size, num_steps):
    """顺序分区：相邻的小批量在原始序列上也相邻"""
    num_tokens = ((len(corpus) - 1) // batch_size) * batch_size
    Xs = corpus[:num_tokens].reshape(batch_size, -1)
    Ys = corpus[1:num_tokens + 1].reshape(batch_size, -1)
    num_batches = Xs.shape[1] // num_steps
    for i in range(0, num_steps * num_batches, num_steps):
        yield Xs[:, i: i + num_steps], Ys[:, i: i + num_steps]


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


loss = torch.nn.CrossEntropyLoss()
lr, batch_size, num_steps = 1.0, 4, 8
for epoch in range(6):
    state = None
    total, count = 0.0, 0
    for X, Y in seq_data_iter_sequential(corpus, batch_size, num_steps):
        if state is None:
            state = net.begin_state(batch_size=X.shape[0])
        else:
            for s in state:
                s.detach_()  # 切断与之前小批量的计算图
        y = Y.T.reshape(-1)
        y_hat, state = net(X, state)
        l = loss(y_hat, y.long()).mean()
        l.backward()
        norm = grad_clipping(net.params, 1)
        sgd(net.params, lr, 1)
        total += l.item() * y.numel()
        count += y.numel()
    print(f'困惑度 {math.exp(total / count):.4f}，第 {epoch + 1} 轮')
print(f'梯度范数（最后一批）：{norm.item():.4f}')
print('训练后的预测：', predict_ch8([0, 1, 2], 6, net))
