# The container examples of PyTorch's nn docs and of "Build the Neural Network" (re-typed in my
# own words, not copied): a model that picks its layer and activation by name from two
# nn.ModuleDicts, a stack of weights in nn.ParameterList, named biases in nn.ParameterDict,
# nn.ModuleList, and what parameters(), named_parameters(), state_dict() and the reprs print.
# Seeded: minigrad draws PyTorch's starting weights. Small float32 forward passes, no training:
# compared exactly.
import torch
from torch import nn

torch.manual_seed(5)


class PickByName(nn.Module):
    def __init__(self):
        super().__init__()
        self.choices = nn.ModuleDict({
            'conv': nn.Conv2d(3, 4, 3),
            'pool': nn.MaxPool2d(2),
        })
        self.activations = nn.ModuleDict([
            ['lrelu', nn.LeakyReLU()],
            ['prelu', nn.PReLU()],
        ])

    def forward(self, x, choice, act):
        x = self.choices[choice](x)
        x = self.activations[act](x)
        return x


m = PickByName()
print(m)
print(list(m.choices.keys()), len(m.activations), 'conv' in m.choices)
x = torch.randn(1, 3, 6, 6)
y = m(x, 'conv', 'prelu')
print(y.shape, y.grad_fn)
y = m(x, 'pool', 'lrelu')
print(y.shape, y.grad_fn)
print([name for name, _ in m.named_parameters()])


class StackOfWeights(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.ParameterList([nn.Parameter(torch.randn(4, 4) * 0.5) for _ in range(3)])
        self.biases = nn.ParameterDict({
            'first': nn.Parameter(torch.zeros(4)),
            'last': nn.Parameter(torch.ones(4)),
        })

    def forward(self, x):
        for i, w in enumerate(self.weights):
            x = x @ w
            if i == 0:
                x = x + self.biases['first']
        return torch.tanh(x + self.biases['last'])


s = StackOfWeights()
print(s)
print(len(s.weights), type(s.weights[0]).__name__, s.weights[0].requires_grad)
print(list(s.biases.keys()), s.biases['last'])
print(list(s.state_dict().keys()))
out = s(torch.ones(2, 4))
print(out)
out.sum().backward()
print([tuple(p.grad.shape) for p in s.parameters()])
print(s.biases['first'].grad)

s.weights.append(nn.Parameter(torch.eye(4)))
s.biases.update({'extra': nn.Parameter(torch.full((4,), 2.0))})
print(len(list(s.parameters())), list(s.biases))

layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
layers.insert(1, nn.ReLU())
layers.extend([nn.Linear(4, 2), nn.Softmax(dim=1)])
print(layers)
h = torch.randn(3, 4)
for layer in layers:
    h = layer(h)
print(h.sum(dim=1), h.grad_fn)
print(sum(p.numel() for p in layers.parameters()))
