# PyTorch beginner tutorials "Build the Neural Network" and "Optimizing Model Parameters"
# (re-typed; FashionMNIST replaced by random images, seeded: minigrad draws PyTorch's random
# numbers and initial weights, so both libraries start from the same model and data).
# float32 losses may differ in the last digits (summation order): compared with a tolerance.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(1)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() \
    else "cpu"
print(f"Using {device} device")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(8 * 8, 32),
            nn.ReLU(),
            nn.Linear(32, 32),
            nn.ReLU(),
            nn.Linear(32, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
print(model)
X = torch.rand(1, 8, 8, device=device)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
# "Model Layers": a minibatch of 3 images through each layer
input_image = torch.rand(3, 8, 8)
print(input_image.size())
flatten = nn.Flatten()
flat_image = flatten(input_image)
print(flat_image.size())
layer1 = nn.Linear(in_features=8 * 8, out_features=20)
hidden1 = layer1(flat_image)
print(hidden1.size())
print(f"Before ReLU: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")
seq_modules = nn.Sequential(flatten, layer1, nn.ReLU(), nn.Linear(20, 10))
logits = seq_modules(input_image)
print(logits.shape, logits.grad_fn)
softmax = nn.Softmax(dim=1)
pred_probab = softmax(logits)
print(pred_probab.sum(1).shape, pred_probab.grad_fn.name())
# "Model Parameters"
print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")

images = torch.rand(256, 1, 8, 8)
labels = torch.randint(0, 10, (256,))
train_dataloader = DataLoader(TensorDataset(images[:192], labels[:192]), batch_size=64)
test_dataloader = DataLoader(TensorDataset(images[192:], labels[192:]), batch_size=64)
learning_rate = 1e-1
batch_size = 64
epochs = 3
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")
torch.save(model.state_dict(), "model_weights.pth")
model2 = NeuralNetwork()
model2.load_state_dict(torch.load("model_weights.pth", weights_only=True))
print(model2.eval().linear_relu_stack[0].weight.shape)
