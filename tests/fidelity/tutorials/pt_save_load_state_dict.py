# PyTorch's "Saving and Loading Models" recipe (re-typed in my own words, not copied), saving to
# io.BytesIO instead of a file: the model's and the optimizer's state_dict, saving and loading the
# whole state_dict, a general checkpoint (epoch, loss, both state_dicts) to resume training,
# load_state_dict's strict checking, and eval(). Seeded: minigrad draws PyTorch's weights and
# numbers. The printed losses are float32 after a few SGD steps (a convolution's and a matrix
# product's sums run in another order than PyTorch's): lines starting "loss" are compared with a
# tolerance, all the rest exactly.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(11)


class TheModelClass(nn.Module):
    def __init__(self):
        super(TheModelClass, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 60)
        self.fc2 = nn.Linear(60, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


model = TheModelClass()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())

print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

inputs = torch.randn(8, 3, 32, 32)
targets = torch.randint(0, 10, (8,))
criterion = nn.CrossEntropyLoss()
for epoch in range(3):
    running_loss = 0.0
    optimizer.zero_grad()
    outputs = model(inputs)
    loss = criterion(outputs, targets)
    loss.backward()
    optimizer.step()
    running_loss += loss.item()
    print(f"loss after epoch {epoch}: {running_loss:.5f}")

state = optimizer.state_dict()['state']
print(len(state), sorted(state[0].keys()), state[0]['momentum_buffer'].shape)

# save and load the state_dict only (the recommended way)
buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
model2 = TheModelClass()
print(model2.load_state_dict(torch.load(buffer, weights_only=True)))
model2.eval()
print(model2.training, model.training)
same = all(torch.equal(a, b) for a, b in zip(model.parameters(), model2.parameters()))
print("same weights after loading:", same)
with torch.no_grad():
    print(torch.equal(model(inputs), model2(inputs)))

# a general checkpoint to resume training
buffer = io.BytesIO()
torch.save({
    'epoch': 3,
    'model_state_dict': model.state_dict(),
    'optimizer_state_dict': optimizer.state_dict(),
    'loss': loss,
}, buffer)
buffer.seek(0)
model3 = TheModelClass()
optimizer3 = optim.SGD(model3.parameters(), lr=0.5, momentum=0.1)
checkpoint = torch.load(buffer, weights_only=True)
model3.load_state_dict(checkpoint['model_state_dict'])
optimizer3.load_state_dict(checkpoint['optimizer_state_dict'])
epoch = checkpoint['epoch']
print(epoch, type(checkpoint['loss']).__name__, checkpoint['loss'].requires_grad)
print(optimizer3.param_groups[0]['lr'], optimizer3.param_groups[0]['momentum'])
model3.train()
for step in range(2):
    optimizer.zero_grad()
    optimizer3.zero_grad()
    loss = criterion(model(inputs), targets)
    loss3 = criterion(model3(inputs), targets)
    loss.backward()
    loss3.backward()
    optimizer.step()
    optimizer3.step()
    print(f"loss resumed {loss3.item():.5f}, original {loss.item():.5f}, equal: {torch.equal(loss, loss3)}")

# strict loading reports what does not match
sd = model.state_dict()
del sd['fc2.bias']
sd['fc3.weight'] = torch.zeros(2, 2)
try:
    model2.load_state_dict(sd)
except RuntimeError as e:
    print(str(e).splitlines()[0])
result = model2.load_state_dict(sd, strict=False)
print(result.missing_keys, result.unexpected_keys)
