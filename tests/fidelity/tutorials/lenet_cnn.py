# A first CNN in the style of PyTorch's 60-minute blitz network and d2l's LeNet (re-typed, not
# copied): conv -> ReLU -> max-pool -> conv -> ReLU -> max-pool -> flatten -> linear -> ReLU ->
# linear, trained with CrossEntropyLoss and SGD for a few steps on made-up images. Seeded:
# minigrad draws PyTorch's random numbers and starting weights, so both start from the same
# model and data. The float32 losses may differ in the last digits (a convolution's sums run in
# another order than PyTorch's kernels): compared with a tolerance.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, padding=2)  # 1 channel in, 6 out, 5x5 filters
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))  # 28x28 -> 14x14
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)  # 10x10 -> 5x5
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


net = Net()
print(net)
params = list(net.parameters())
print(len(params), params[0].size(), sum(p.numel() for p in params))
for name, p in net.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)

# made-up data: 16 images of 28x28, 10 classes
images = torch.randn(16, 1, 28, 28)
labels = torch.randint(0, 10, (16,))
out = net(images)
print(out.shape)

criterion = nn.CrossEntropyLoss()
loss = criterion(out, labels)
print(f"first loss: {loss.item():.5f}")

# the grad_fn chain, from the loss back to the first convolution
fn = loss.grad_fn
chain = []
while fn is not None:
    chain.append(fn.name())
    nxt = [f for f, _ in fn.next_functions if f is not None and "Accumulate" not in f.name()]
    fn = nxt[0] if nxt else None
print(" <- ".join(chain))
conv_node = net.conv1(images[:1]).grad_fn
print(conv_node.name(), conv_node._saved_stride, conv_node._saved_padding,
      conv_node._saved_dilation, conv_node._saved_groups, conv_node._saved_transposed)
pool_node = F.max_pool2d(net.conv1(images[:1]), 2).grad_fn
print(pool_node.name(), pool_node._saved_kernel_size, pool_node._saved_stride)

net.zero_grad()
loss.backward()
print(net.conv1.bias.grad.shape, net.conv2.weight.grad.shape)

# the same network the d2l way: one nn.Sequential
lenet = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2),
    nn.Flatten(), nn.Linear(16 * 5 * 5, 32), nn.ReLU(), nn.Linear(32, 10))
X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in lenet:
    X = layer(X)
    print(layer.__class__.__name__, "output shape:\t", X.shape)

optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
for step in range(5):
    optimizer.zero_grad()
    loss = criterion(net(images), labels)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.5f}")

with torch.no_grad():
    predicted = net(images).argmax(1)
print("accuracy on the made-up images:", (predicted == labels).float().mean().item() > 0.0)
