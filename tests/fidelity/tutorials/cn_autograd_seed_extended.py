# Extends the Chinese seed tutorial "pytorch 的自动求导" (/work/shared/seeds/003): its examples
# (requires_grad, grad_fn, backward with a gradient argument, retain_graph, no_grad,
# set_grad_enabled, the custom Function MultiplyAdd) re-typed in my own words and seeded, and the
# two topics it names at its end and leaves out -- "获取中间计算梯度，hook方法" and "高阶求导" --
# written in its style. Every printed value is deterministic (float32 on a few elements, no
# training): compared exactly.
import torch
from torch.autograd import Function

torch.manual_seed(7)

# requires_grad 与 grad_fn
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
c = a + b
d = torch.sum(c)
print('c.requires_grad =', c.requires_grad, ' c.grad_fn =', c.grad_fn)
print('d.requires_grad =', d.requires_grad, ' d.grad_fn =', d.grad_fn)
print('a 是叶子节点：', a.is_leaf, '；c 是叶子节点：', c.is_leaf)

# backward() 的 gradient 参数：输出不是标量时，需要给出同形状的权重
x = torch.rand(2, 3, requires_grad=True)
y = x ** 2 + 3 * x
y.backward(torch.ones_like(x))
print('x 的梯度（2x + 3）：\n', x.grad)
print('与公式一致：', torch.allclose(x.grad, 2 * x.detach() + 3))
x.grad.zero_()
y = x ** 2 + 3 * x
y.backward(torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]))
print('加权后的梯度：\n', x.grad)

# retain_graph：默认反向传播后计算图被释放
w = torch.tensor(2.0, requires_grad=True)
z = w * w * w
z.backward(retain_graph=True)
print('第一次反向传播 w.grad =', w.grad)
z.backward()
print('第二次反向传播（梯度累加） w.grad =', w.grad)
try:
    z.backward()
except RuntimeError as e:
    print('第三次反向传播报错：', str(e).split('.')[0])

# torch.no_grad() 与 torch.set_grad_enabled()
x = torch.randn(5, 5, requires_grad=True)
y = torch.randn(5, 5)
with torch.no_grad():
    z = x + y
print('no_grad 中 z.requires_grad =', z.requires_grad)
try:
    z.sum().backward()
except RuntimeError as e:
    print('报错：', e)
torch.set_grad_enabled(False)
z = x + y
print('set_grad_enabled(False) 时：', z.requires_grad)
torch.set_grad_enabled(True)
z = x + y
z.sum().backward()
print('重新启用后 x.grad 全为 1：', bool((x.grad == 1).all()))


# 为自己写的函数写微分
class MultiplyAdd(Function):

    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        output = w * x + b
        return output

    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        grad_w = grad_output * x
        grad_x = grad_output * w
        grad_b = grad_output * 1
        return grad_w, grad_x, grad_b


x = torch.ones(1)
w = torch.rand(1, requires_grad=True)
b = torch.rand(1, requires_grad=True)
z = MultiplyAdd.apply(w, x, b)  # 前向传播
print('z =', z)
print('z.grad_fn 的类名：', type(z.grad_fn).__name__, z.grad_fn.name())
z.backward()  # 反向传播
print('w.grad =', w.grad, ' b.grad =', b.grad, ' x.grad =', x.grad)

# 获取中间变量的梯度：非叶子节点的 .grad 默认不保存
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = (y ** 2).sum()
z.backward()
print('y 是非叶子节点，y.grad =', y.grad)

# 方法一：retain_grad()
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.retain_grad()
z = (y ** 2).sum()
z.backward()
print('retain_grad 之后 y.grad =', y.grad)

# 方法二：hook，在反向传播经过 y 时调用
grads = {}


def save_grad(name):
    def hook(grad):
        grads[name] = grad
    return hook


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
handle = y.register_hook(save_grad('y'))
z = (y ** 2).sum()
z.backward()
print('hook 拿到的 y 的梯度：', grads['y'])
handle.remove()

# hook 还可以修改梯度：返回新的梯度
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 10)
(y ** 2).sum().backward()
print('梯度被放大 10 倍后 x.grad =', x.grad)

# 高阶求导：create_graph=True 让梯度本身也可以求导
x = torch.tensor(3.0, requires_grad=True)
y = x ** 3
dy_dx, = torch.autograd.grad(y, x, create_graph=True)
print('一阶导数 3x^2 =', dy_dx)
d2y_dx2, = torch.autograd.grad(dy_dx, x, create_graph=True)
print('二阶导数 6x =', d2y_dx2)
d3y_dx3, = torch.autograd.grad(d2y_dx2, x)
print('三阶导数 6 =', d3y_dx3)

# 用 backward 求二阶导数：先求一阶导数，再对它反向传播
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 4).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print('一阶导数 4x^3 =', g)
g.sum().backward()
print('二阶导数 12x^2 =', x.grad)
