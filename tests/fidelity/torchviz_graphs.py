"""Graphs drawn by torchviz's make_dot (show_attrs, show_saved, params), one per case; run by
test_torchviz.py once with PyTorch and once with ``import torch`` giving minigrad. Prints a JSON
object {case: DOT source with object ids numbered in order of appearance}."""

import json
import re
import sys
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.simplefilter("ignore")  # torchviz's own LooseVersion warnings
from torchviz import make_dot  # noqa: E402


def normalised(dot) -> str:
    ids: dict = {}
    return re.sub(r"(?m)(?<=^\t)\d+|(?<=-> )\d+",
                  lambda m: ids.setdefault(m.group(0), f"n{len(ids)}"), dot.source)


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


def mlp():
    torch.manual_seed(0)
    x = torch.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
    model = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 1))
    loss = F.mse_loss(model(x), torch.zeros(4, 1))
    return loss, dict(model.named_parameters())


A = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
B = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
X = torch.tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 4), requires_grad=True)
M = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
PARAMS = {"a": A, "b": B, "x": X, "m": M}
CASES = {
    "hypot_result": lambda: torch.hypot(A, B),
    "layer_norm": lambda: F.layer_norm(X, (4,)),
    "vstack": lambda: torch.vstack([A, B]),
    "mlp_with_named_parameters": mlp,
    "arithmetic": lambda: (A * B + A.exp() / B).sigmoid().pow(2).sum() - A.mean() * 3,
    "view_of_a_leaf": lambda: A.view(3, 1)[1:],
    "matrix_chain": lambda: (M @ M.t()).tanh().log_softmax(dim=1).sum(dim=0, keepdim=True).max(),
    "custom_function": lambda: Cube.apply(A).sum(),
    "slice_select_index": lambda: X[:, 1:3, ::2].sum() + X[1, :, 2].sum(),
    "cat_stack": lambda: torch.cat([X, X * 2], dim=1).sum() + torch.stack([A, A.exp()]).sum(),
    "movement": lambda: X.transpose(0, 2).permute(2, 0, 1).reshape(6, 4).flatten(),
    "reductions": lambda: X.sum(dim=(0, 2)) + X.mean(1).amax(1).sum() + X.norm() + X.min(),
    "softmax_and_losses": lambda: (F.cross_entropy(X[0], torch.tensor([1, 0, 3]))
                                   + F.nll_loss(X[0], torch.tensor([1, 0, 3]))
                                   + F.binary_cross_entropy_with_logits(X, X.detach().sigmoid())
                                   + F.smooth_l1_loss(X, torch.zeros(2, 3, 4))),
    "clamp_where_masked": lambda: (torch.where(X > 0, X, X * 3).clamp(-0.5, 0.5)
                                   .masked_fill(X > 0.9, 1.0).clamp(min=0.0)),
    "sort_cumsum_split": lambda: X.sort(dim=1)[0].cumsum(1).split(2, dim=2)[1].unbind(1)[0],
    "linear_algebra": lambda: (torch.mv(X[0], A.repeat(2)[:4]) @ torch.outer(B, B)
                               + torch.dot(A, B) + torch.addmm(M, M, M.t()).sum()),
    "several_outputs": lambda: (A * 2, (B * A).sum()),
    "var_correction": lambda: X.var(dim=1),
    "std_of_everything": lambda: X.std(),
    "embedding_padding_idx": lambda: F.embedding(torch.tensor([1, 0]), X[0]),
    "topk_negative_dim": lambda: X.topk(2)[0],
}
# known differences, each named in test_torchviz.py
KNOWN = {
    "diag_dims": lambda: torch.diag(A),
}


def draw(name):
    out = {**CASES, **KNOWN}[name]()
    params = PARAMS
    if isinstance(out, tuple) and isinstance(out[1], dict):
        out, params = out
    return normalised(make_dot(out, params=params, show_attrs=True, show_saved=True))


if __name__ == "__main__":
    result = {}
    for name in {**CASES, **KNOWN}:
        try:
            result[name] = draw(name)
        except Exception as e:  # noqa: BLE001 -- compared as text
            result[name] = f"{type(e).__name__}: {e}"
    json.dump(result, sys.stdout)
