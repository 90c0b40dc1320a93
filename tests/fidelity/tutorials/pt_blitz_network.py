# PyTorch's 60-minute blitz, "Neural Networks" (re-typed in my own words, not copied): the
# conv -> relu -> max-pool -> linear network on a 32x32 input, its parameters, a backward pass
# with a gradient argument, the grad_fn chain walked through next_functions, and the manual and
# optim.SGD weight updates. Seeded: minigrad draws PyTorch's numbers and starting weights.
# The losses are float32 (a convolution's and a matrix product's sums run in another order than
# PyTorch's kernels): the lines starting "loss" are compared with a tolerance.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        # one input image channel, six output channels, 5x5 square convolution
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        # affine layers y = Wx + b; 16 channels of 5x5 after the second pooling
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        c1 = F.relu(self.conv1(x))
        s2 = F.max_pool2d(c1, (2, 2))
        c3 = F.relu(self.conv2(s2))
        s4 = F.max_pool2d(c3, 2)  # a single number for a square window
        s4 = torch.flatten(s4, 1)
        f5 = F.relu(self.fc1(s4))
        f6 = F.relu(self.fc2(f5))
        return self.fc3(f6)


net = Net()
print(net)

params = list(net.parameters())
print(len(params))
print(params[0].size())  # conv1's .weight
print([tuple(p.shape) for p in params])

inp = torch.randn(1, 1, 32, 32)
out = net(inp)
print(out.shape, out.grad_fn)

# zero the gradient buffers, then backprop random gradients
net.zero_grad()
out.backward(torch.randn(1, 10))
print(net.conv1.bias.grad.shape, net.fc3.bias.grad.shape)

output = net(inp)
target = torch.randn(10).view(1, -1)  # a made-up target, shaped like the output
criterion = nn.MSELoss()
loss = criterion(output, target)
print(f"loss {loss.item():.6f}")

# follow loss backwards through its grad_fn attribute
print(loss.grad_fn)  # MSELoss
print(loss.grad_fn.next_functions[0][0])  # Linear
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])  # fc3.bias's AccumulateGrad
print(loss.grad_fn.next_functions[0][0].next_functions[1][0])  # ReLU
print([type(f).__name__ for f, _ in loss.grad_fn.next_functions[0][0].next_functions])

net.zero_grad()
print("conv1.bias.grad before backward")
print(net.conv1.bias.grad)
loss.backward()
print("conv1.bias.grad after backward")
print(net.conv1.bias.grad.shape, bool((net.conv1.bias.grad != 0).any()))

# the simplest update rule, by hand: weight = weight - learning_rate * gradient
learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)
print(f"loss after the manual step {criterion(net(inp), target).item():.6f}")

# the same with torch.optim
optimizer = optim.SGD(net.parameters(), lr=0.01)
print(optimizer)
for i in range(4):
    optimizer.zero_grad()
    output = net(inp)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()
    print(f"loss at step {i}: {loss.item():.6f}")
