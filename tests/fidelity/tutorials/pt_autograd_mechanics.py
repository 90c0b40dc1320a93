# The autograd pieces of PyTorch's blitz ("A Gentle Introduction to torch.autograd"), its
# "Autograd mechanics" note and its hooks docs (re-typed in my own words, not copied): a
# vector-Jacobian product with y.backward(v) after a data-dependent loop, the Jacobian and
# Hessian from torch.autograd.functional, module forward/pre/backward hooks, a node's hooks and
# saved tensors, the errors of in-place changes, and freezing layers for fine-tuning. Seeded:
# minigrad draws PyTorch's numbers and weights. No training: every line is compared exactly.
import torch
from torch import nn
from torch.autograd.functional import hessian, jacobian

torch.manual_seed(4)

# a vector-Jacobian product: y is not a scalar, so backward needs v
x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y.grad_fn, len(str(y)) > 0)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)


# the whole Jacobian and Hessian of small functions
def exp_reducer(x):
    return x.exp().sum(dim=1)


def pow_sum(x):
    return (x ** 3).sum()


inputs = torch.tensor([[0.5, -1.0], [1.5, 0.25]])
print(jacobian(exp_reducer, inputs).shape)
print(hessian(pow_sum, torch.tensor([1.0, -2.0, 0.5])))
print(jacobian(lambda a, b: a * b, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))))

# hooks on a module: before forward, after forward, after its backward
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
seen = []
h1 = model[0].register_forward_pre_hook(lambda m, inp: seen.append(('pre', inp[0].shape)))
h2 = model[0].register_forward_hook(lambda m, inp, out: seen.append(('fwd', out.shape)))
h3 = model[2].register_full_backward_hook(
    lambda m, gin, gout: seen.append(('bwd', gin[0].shape, gout[0].shape)))
out = model(torch.randn(5, 3))
out.sum().backward()
print(seen)
for h in (h1, h2, h3):
    h.remove()
seen.clear()
model(torch.randn(1, 3)).sum().backward()
print('after remove:', seen)

# a node's own hooks and saved tensors
a = torch.tensor([2.0, 3.0], requires_grad=True)
b = torch.tensor([5.0, 7.0], requires_grad=True)
c = a * b
node = c.grad_fn
print(node.name(), node._saved_self, node._saved_other)
node.register_prehook(lambda grad_outputs: print('prehook gets', grad_outputs))
node.register_hook(lambda grad_inputs, grad_outputs: print('hook gives', grad_inputs))
c.backward(torch.tensor([1.0, 10.0]))
print(a.grad, b.grad)

# in-place changes that autograd refuses
w = torch.ones(3, requires_grad=True)
try:
    w.add_(1)
except RuntimeError as e:
    print('RuntimeError:', e)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
z = y * 3
y.add_(1)  # y is saved by ExpBackward0 for backward
try:
    z.sum().backward()
except RuntimeError as e:
    print('RuntimeError:', str(e).split('. ')[0])
print(y._version, y.grad_fn)

# freezing: only the new head is trained
model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 3))
for param in model.parameters():
    param.requires_grad = False
model[2] = nn.Linear(4, 2)  # a new, trainable head
print([name for name, p in model.named_parameters() if p.requires_grad])
optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=1e-2)
print(len(optimizer.param_groups[0]['params']))
out = model(torch.randn(2, 4))
out.sum().backward()
print(model[0].weight.grad, model[2].bias.grad)
print(out.grad_fn.next_functions)
