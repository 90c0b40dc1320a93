"""The layers, containers and activations of a first CNN course against PyTorch: reprs,
state_dict keys, parameter order, the errors for bad arguments, batch normalisation's node
and running statistics, and the in-place activations (values, gradients and checks of the
ops themselves are in the op table, tests/ops/op_table.py ``NN``)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from helpers import assert_same_outcome, snippet_outcome

import minigrad as mg

pytestmark = pytest.mark.torch

REPRS = [
    "lib.nn.Conv2d(3, 6, 5)", "lib.nn.Conv2d(3, 6, (3, 5), stride=2, padding=(1, 2), "
    "dilation=2, groups=3, bias=False)", "lib.nn.Conv2d(3, 6, 3, padding='same')",
    "lib.nn.Conv2d(3, 6, 3, padding='valid')", "lib.nn.Conv1d(1, 2, 3, padding='same')",
    "lib.nn.Conv3d(2, 4, 3, 2, 1)", "lib.nn.MaxPool2d(2)", "lib.nn.MaxPool2d(2, 2)",
    "lib.nn.MaxPool2d((2, 3), stride=1, padding=1, return_indices=True, ceil_mode=True)",
    "lib.nn.AvgPool2d(2)", "lib.nn.AvgPool2d(3, 2, 1, True, False, 2)",
    "lib.nn.AdaptiveAvgPool2d((1, 1))", "lib.nn.AdaptiveAvgPool2d(5)",
    "lib.nn.AdaptiveAvgPool2d((None, 2))", "lib.nn.BatchNorm2d(6)",
    "lib.nn.BatchNorm2d(6, affine=False, track_running_stats=False)", "lib.nn.Dropout2d()",
    "lib.nn.Dropout2d(0.3, True)", "lib.nn.Unflatten(1, (2, 2))",
    "lib.nn.Unflatten(-1, lib.Size([2, 2]))", "lib.nn.LeakyReLU()", "lib.nn.LeakyReLU(0.2, True)",
    "lib.nn.ELU()", "lib.nn.ELU(0.5, True)", "lib.nn.SELU(True)", "lib.nn.CELU(2.0, True)",
    "lib.nn.GELU()", "lib.nn.GELU('tanh')", "lib.nn.SiLU()", "lib.nn.SiLU(True)",
    "lib.nn.Softplus()", "lib.nn.Softplus(2, 10)", "lib.nn.Hardtanh()",
    "lib.nn.Hardtanh(-2, 2, True)", "lib.nn.ReLU6()", "lib.nn.ReLU6(True)", "lib.nn.LogSigmoid()",
    "lib.nn.Softmin(1)", "lib.nn.Softmin()", "lib.nn.Mish()", "lib.nn.Mish(True)",
    "lib.nn.Hardswish()", "lib.nn.Hardsigmoid(True)", "lib.nn.ModuleDict()",
    "lib.nn.ParameterList()", "lib.nn.ParameterDict()", "lib.nn.Threshold(0.1, 20)",
    "lib.nn.Threshold(0.1, 20.0, True)", "lib.nn.Softsign()", "lib.nn.Tanhshrink()",
    "lib.nn.ZeroPad2d(2)", "lib.nn.ZeroPad2d((1, 2, 0, 1))", "lib.nn.MaxPool1d(2)",
    "lib.nn.MaxPool1d(3, 2, 1, return_indices=True)", "lib.nn.AvgPool1d(2)",
    "lib.nn.AvgPool1d(3, 2, 1, True, False)", "lib.nn.AdaptiveAvgPool1d(3)",
    "lib.nn.Dropout1d()", "lib.nn.Dropout1d(0.2, True)", "lib.nn.PReLU()",
    "lib.nn.PReLU(3, 0.1)", "sorted(lib.nn.PReLU(3).state_dict())", "lib.nn.GroupNorm(2, 4)",
    "lib.nn.GroupNorm(2, 4, affine=False)", "sorted(lib.nn.GroupNorm(2, 4).state_dict())",
    "lib.nn.GroupNorm(3, 4)", "lib.nn.GroupNorm(2, 4)(lib.ones(3, 5))",
]


@pytest.mark.parametrize("code", REPRS)
def test_layer_reprs_match_torch(torch, code):
    assert_same_outcome(torch, code)


CONTAINERS = [
    # ModuleDict: insertion order, update, pop, parameters and state_dict keys
    "d = lib.nn.ModuleDict({'conv': lib.nn.Conv2d(1, 2, 3), 'act': lib.nn.ReLU()})\\n"
    "d['lin'] = lib.nn.Linear(2, 3)\\nd.update([('z', lib.nn.Tanh())])\\n"
    "out = (repr(d), list(d), len(d), 'act' in d, [n for n, _ in d.named_parameters()], "
    "list(d.state_dict()), repr(d.pop('act')), list(d.keys()))",
    "d = lib.nn.ModuleDict()\\nd['x'] = 3\\nout = d",
    "out = lib.nn.ModuleDict({'a': lib.nn.ReLU()})['b']",
    # ParameterList: tensors become Parameters; reprs with the dtype; keys '0', '1', ...
    "p = lib.nn.ParameterList([lib.nn.Parameter(lib.zeros(2, 3)), lib.zeros(3)])\\n"
    "p.append(lib.nn.Parameter(lib.ones(1, dtype=lib.float64)))\\n"
    "out = (repr(p), list(p.state_dict()), [n for n, _ in p.named_parameters()], len(p), "
    "type(p[1]).__name__, p[-1].dtype, [t.shape for t in p])",
    "out = lib.nn.ParameterList([lib.ones(2), 5])",
    "out = lib.nn.ParameterList([lib.ones(2)])[3]",
    # ParameterDict: legacy type names in its repr
    "p = lib.nn.ParameterDict({'a': lib.nn.Parameter(lib.zeros(2)), 'b': lib.zeros(2, 2)})\\n"
    "p['c'] = lib.zeros(3)\\nout = (repr(p), list(p), list(p.state_dict()), p['a'].shape, "
    "type(p['b']).__name__, 'c' in p, len(p))",
    # nested in a module: the printed tree and the state_dict keys
    "class M(lib.nn.Module):\\n"
    "    def __init__(self):\\n"
    "        super().__init__()\\n"
    "        self.ps = lib.nn.ParameterList([lib.nn.Parameter(lib.ones(2)) for _ in range(2)])\\n"
    "        self.pd = lib.nn.ParameterDict({'w': lib.nn.Parameter(lib.ones(1))})\\n"
    "        self.md = lib.nn.ModuleDict({'l': lib.nn.Linear(1, 1)})\\n"
    "m = M()\\nout = (repr(m), list(m.state_dict()), [n for n, _ in m.named_parameters()])",
    "out = lib.nn.Unflatten(1, 2)",
    "out = lib.nn.Unflatten(1, ((2, 2),))",
    "out = lib.nn.Unflatten(1, (2, 2))(lib.ones(3, 4, requires_grad=True)).grad_fn.name()",
]


@pytest.mark.parametrize("code", CONTAINERS)
def test_containers_match_torch(torch, code):
    code = code.replace("\\n", "\n")
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)


ERRORS = [
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 2, 3, 3))",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 3, 7, 7))",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 3, 3))",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 3, 3, 3), padding='foo')",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 3, 3, 3, dtype=lib.float64))",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 1, 3, 3), groups=2)",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 3, 3, 3), lib.ones(3))",
    "F.conv2d(lib.ones(6, 6), lib.ones(4, 3, 3, 3))",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 3, 3, 3), stride=2, padding='same')",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 3, 3, 3), stride=0)",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 3, 3, 3), stride=0, padding=-1)",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 3, 3, 3), dilation=0)",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 3, 3, 3), groups=0)",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 3, 3, 3), stride=(1, 1, 1))",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(4, 3, 3, 3), padding=(1, 1, 1))",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(5, 3, 3, 3), groups=3)",
    "F.conv2d(lib.ones(2, 3, 6, 6), lib.ones(0, 3, 3, 3))",
    "F.conv2d([1], lib.ones(4, 3, 3, 3))",
    "F.conv1d(lib.ones(3, 6, 6), lib.ones(4, 3, 3, 3))",
    "F.conv1d(lib.ones(6), lib.ones(4, 3, 3))",
    "lib.nn.Conv2d(3, 4, 3, groups=2)", "lib.nn.Conv2d(4, 3, 3, groups=2)",
    "lib.nn.Conv2d(4, 4, 3, padding='foo')", "lib.nn.Conv2d(4, 4, 3, stride=2, padding='same')",
    "F.max_pool2d(lib.ones(2, 3, 6, 6), 7)", "F.max_pool2d(lib.ones(2, 3, 6, 6), 2, padding=2)",
    "F.max_pool2d(lib.ones(2, 3, 6, 6), 0)", "F.max_pool2d(lib.ones(2, 3, 6, 6), 2, dilation=0)",
    "F.max_pool2d(lib.ones(2, 3, 6, 6), 2, padding=-1)", "F.max_pool2d(lib.ones(6, 6), 2)",
    "F.max_pool2d(lib.ones(2, 3, 6, 6), (2, 2, 2))",
    "F.avg_pool2d(lib.ones(2, 3, 6, 6), 7)", "F.avg_pool2d(lib.ones(2, 3, 6, 6), 2, padding=2)",
    "F.avg_pool2d(lib.ones(2, 3, 6, 6), 2, divisor_override=0)",
    "F.adaptive_avg_pool2d(lib.ones(2, 3, 6, 6), (1,))",
    "F.adaptive_avg_pool2d(lib.ones(6, 6), 2)",
    "F.pad(lib.ones(2, 3), (1,))", "F.pad(lib.ones(2), (1, 1, 1, 1))",
    "F.leaky_relu(lib.tensor([1, 2]))", "F.gelu(lib.ones(2), approximate='foo')",
    "F.hardtanh(lib.ones(2), 2.0, 1.0)",
    "lib.nn.BatchNorm2d(3)(lib.ones(2, 3))", "lib.nn.BatchNorm2d(3)(lib.ones(1, 3, 1, 1))",
    "F.dropout2d(lib.ones(2, 3, 2, 2), p=1.5)", "lib.nn.Dropout2d(-0.1)",
    "F.prelu(lib.ones(2, 3), lib.ones(2))", "F.prelu(lib.ones(2, 3), lib.ones(1, 3))",
    "lib.nn.PReLU(3)(lib.ones(2, 1))", "F.dropout1d(lib.ones(4))", "F.dropout1d(lib.ones(2, 3, 4), p=2)",
    "F.dropout1d(lib.ones(3, 4, requires_grad=True)).grad_fn.name()",
]


@pytest.mark.parametrize("code", ERRORS)
def test_bad_arguments_raise_pytorchs_errors(torch, code):
    assert_same_outcome(torch, code)


# Found by the fuzzer (tests/fuzz): the dtypes each layer's CPU kernel has no loop for (minigrad
# computed an answer where PyTorch raises), the checks' order and messages of max_pool1d's own
# kernel, of the normalisations' arguments, and empty inputs.
KERNEL_DTYPES = [f"{call.format(x=f'lib.ones(2, 2, 4, 4, dtype=lib.{dt})')}" for dt in (
    "bool", "uint8", "int8", "int16", "int32", "int64", "float64") for call in (
    "F.max_pool2d({x}, 2)", "F.max_pool2d({x}, 2, return_indices=True)",
    "F.max_pool1d({x}[0], 2)", "F.max_pool1d({x}[0], 2, return_indices=True)",
    "F.avg_pool2d({x}, 2)", "F.avg_pool1d({x}[0], 2)", "F.adaptive_avg_pool2d({x}, 2)",
    "F.adaptive_avg_pool1d({x}[0], 3)", "F.batch_norm({x}, None, None, training=True)",
    "F.batch_norm({x}, lib.zeros(2), lib.ones(2))", "F.group_norm({x}, 2)",
    "F.group_norm({x}, 1, lib.ones(2))", "lib.nn.BatchNorm2d(2)({x})",
    "lib.nn.GroupNorm(1, 2)({x})")] + [
    "F.max_pool1d(lib.ones(2, 0, 3), 1)", "F.max_pool1d(lib.ones(0, 2, 3), 1)",
    "F.max_pool1d(lib.ones(3, 0), 1)", "F.max_pool1d(lib.ones(1, 2, 3, 4), 1)",
    "F.max_pool1d(lib.ones(1, 2, 3, 4), 1, return_indices=True)",
    "F.max_pool1d(lib.ones(2, 0, 3), 1, return_indices=True)",
    "F.max_pool1d(lib.ones(1, 1, 3), 0)", "F.max_pool1d(lib.ones(1, 1, 3), 2, stride=0)",
    "F.max_pool1d(lib.ones(1, 1, 3), 2, padding=-1)", "F.max_pool1d(lib.ones(1, 1, 3), 1, padding=1)",
    "F.max_pool1d(lib.ones(1, 1, 3, requires_grad=True), 1, padding=1)",
    "F.max_pool1d(lib.ones(1, 1, 3), 2, dilation=0)", "F.max_pool1d(lib.ones(1, 1, 1), 3)",
    "F.max_pool1d(lib.ones(1, 1, 3, dtype=lib.int32), 5)",
    "F.max_pool2d(lib.ones(1, 1, 0, 1), 1)", "F.avg_pool2d(lib.ones(1, 1, 0, 1, dtype=lib.bool), 1)",
    "F.adaptive_avg_pool2d(lib.ones(1, 1, 0, 1), 2)", "F.adaptive_avg_pool2d(lib.ones(0, 1, 2, 1), 2)",
    "F.adaptive_avg_pool2d(lib.ones(1, 1, 0, 1), 1)",
    "F.batch_norm(lib.ones(2, 3, 2), lib.zeros(2), lib.ones(2), lib.ones(2), lib.ones(2))",
    "F.batch_norm(lib.ones(2, 3, 2), lib.zeros(3), lib.ones(2), lib.ones(2), lib.ones(2))",
    "F.batch_norm(lib.ones(2, 3, 2), lib.zeros(3), lib.ones(3), lib.ones(3), lib.ones(2))",
    "F.batch_norm(lib.ones(2, 3, 2), None, None, lib.ones(2), training=True)",
    "F.batch_norm(lib.ones(2, 3, 2, dtype=lib.int32), lib.zeros(3), lib.ones(3))",
    "F.batch_norm(lib.ones(2, 3, 2, dtype=lib.float64), lib.zeros(3), lib.ones(3))",
    "F.batch_norm(lib.ones(2, 3, 2), lib.zeros(3), lib.ones(3, dtype=lib.float64))",
    "F.batch_norm(lib.ones(2, 3, 2), lib.zeros(3), lib.ones(3), lib.ones(3).double())",
    "F.batch_norm(lib.ones(2, 3, 2), None, None, training=True, eps=0)",
    "F.batch_norm(lib.ones(2, 3, 2), lib.zeros(3), lib.ones(3), eps=-1.0)",
    "F.batch_norm(lib.ones(2), None, None, training=True)",
    "F.batch_norm(lib.ones(1, 3, 1), None, None, training=True)",
    "F.batch_norm(lib.ones(0, 3), None, None, training=True).shape",
    "lib.nn.BatchNorm2d(1)(lib.ones(1, 1, 0, 1)).shape",
    "F.group_norm(lib.ones(2, 2, 3, dtype=lib.float64), 1, lib.ones(2))",
    "F.group_norm(lib.ones(2, 2, 3, dtype=lib.int32), 1, lib.ones(3))",
    "F.group_norm(lib.ones(2, 2, 3), 1, lib.ones(2), lib.ones(3))",
    "F.group_norm(lib.ones(2, 2, 3), 1, lib.ones(1, 2))", "F.group_norm(lib.ones(2), 1)",
    "F.group_norm(lib.ones(1, 1, 1), 1)", "F.group_norm(lib.ones(1, 2, 1), 2)",
    "F.group_norm(lib.ones(2, 3, 1, dtype=lib.int32), 2)",
    "lib.nn.GroupNorm(1, 1, affine=False)(lib.ones(1, 1, 1))",
    "F.group_norm(lib.ones(2, 2, 0, requires_grad=True), 1)", "lib.nn.GroupNorm(1, 1)(lib.ones(1, 1, 0))",
    "lib.nn.GroupNorm(1, 1, eps=0.1).double()(lib.ones(2, 3, 1, dtype=lib.float64))",
    "F.conv2d(lib.ones(1, 1, 0, 1), lib.ones(2, 1, 1, 1), padding=(1, 0))",
    "F.conv2d(lib.ones(1, 1, 0, 1, dtype=lib.int32), lib.ones(2, 1, 1, 1), padding=1)",
    "F.conv1d(lib.ones(1, 1, 0), lib.ones(2, 1, 1), padding=1)",
    "F.conv2d(lib.ones(0, 1, 2, 1), lib.ones(2, 1, 1, 1), padding=1).shape",
    "F.conv2d(lib.ones(1, 1, 1, 1, dtype=lib.bool), lib.ones(2, 1, 1, 1, dtype=lib.bool))",
    "F.conv1d(lib.ones(1, 1, 2, dtype=lib.bool), lib.ones(2, 1, 1, dtype=lib.bool))",
    "F.conv2d(lib.ones(1, 1, 2, 2, dtype=lib.uint8), lib.ones(2, 1, 1, 1, dtype=lib.uint8))",
] + [  # an integer or bool input meets the slow kernels' checks (bias, dilation, weight)
    f"F.conv1d(lib.ones(1, 1, 5, dtype=lib.{dt}), lib.ones(1, 1, 2){bias}{kw})"
    for dt in ("int64", "int32", "int16", "uint8", "bool") for bias in ("", ", lib.ones(1)")
    for kw in ("", ", dilation=2", ", padding='valid'", ", padding=1", ", stride=2")
] + ["F.conv2d(lib.ones(1, 1, 2, 5, dtype=lib.int32), lib.ones(1, 1, 1, 2), dilation=(1, 2))",
     "F.conv2d(lib.ones(1, 1, 2, 5, dtype=lib.int64), lib.ones(1, 1, 1, 2, dtype=lib.int64), "
     "lib.ones(1), stride=2)",
     "F.conv1d(lib.ones(2, 3, 1, dtype=lib.int32), lib.ones(6, 1, 1), lib.ones(6))",
     "F.avg_pool2d(lib.ones(2, 1, 6), 3, padding=(0, 1), stride=1, ceil_mode=True)",
     "lib.nn.MaxPool1d(3, stride=1, return_indices=True)(lib.ones(1, 1, 1))",
     "F.max_pool2d(lib.ones(1, 1, 1, 3), 3, dilation=2, stride=1)"] + [
    # which element max pooling picks (its index): PyTorch's kernel looks only inside the input,
    # keeps the first largest but the last NaN; a window wholly in the padding keeps -inf and
    # the index of its first position moved inside (found by the fuzzer)
    "F.max_pool2d(lib.ones(2, 1, 6), 2, dilation=(2, 1), padding=1, stride=(2, 1), "
    "return_indices=True)",
    "F.max_pool2d(-lib.ones(1, 1, 3, 3) * float('inf'), 2, padding=1, return_indices=True)",
    "F.max_pool1d(lib.tensor([[[float('nan')] * 4 + [1., 2., 3., 4., 5., 6., 7., 8.]]]), 3, "
    "return_indices=True, stride=1, dilation=2)",
    "F.max_pool1d(lib.tensor([[[float('nan'), 2., float('nan'), 4., 1., 2.]]]), 3, padding=1, "
    "stride=1, return_indices=True)",
    "F.max_pool1d(lib.tensor([[[-float('inf'), -float('inf'), 1.]]]), 2, padding=1, stride=1, "
    "return_indices=True)",
    "F.max_pool2d(lib.tensor([[[[1, 5, 5], [2, 5, 0], [7, 7, 1]]]]), 2, stride=1, padding=1, "
    "return_indices=True)",
    # max_pool1d with nothing recorded is PyTorch's own kernel: a new tensor, not a view
    "(lambda y: (y._is_view(), y.is_contiguous()))(F.max_pool1d(lib.ones(2, 1, 6), 1))",
    "(lambda y: (y._is_view(), y.grad_fn.name()))(F.max_pool1d(lib.ones(2, 1, 6, "
    "requires_grad=True), 2))",
    "F.max_pool1d(lib.ones(2, 1, 6), 2, return_indices=True)[0]._is_view()"]


@pytest.mark.parametrize("code", KERNEL_DTYPES)
def test_layers_refuse_the_dtypes_and_arguments_pytorch_refuses(torch, code):
    assert_same_outcome(torch, code)


@pytest.mark.parametrize("code", [
    "F.conv2d(lib.ones(1, 2, 5, 5), lib.ones(3, 2, 4, 2), padding='same').shape",
    "F.max_pool2d(lib.arange(16.).reshape(1, 1, 4, 4), 2, return_indices=True)",
    "F.max_pool2d(lib.tensor([[[[1., float('nan')], [3, 2]]]]), 2, return_indices=True)",
    "F.max_pool2d(lib.ones(1, 1, 2, 2), 2, return_indices=True)",
    "F.avg_pool2d(lib.arange(25.).reshape(1, 1, 5, 5), 3, 2, 1, ceil_mode=True)",
    "F.adaptive_avg_pool2d(lib.arange(35.).reshape(1, 5, 7), (2, 3))",
    "F.adaptive_avg_pool2d(lib.ones(2, 3, 4, 4, requires_grad=True), 1).grad_fn.name()",
    "F.conv2d(lib.ones(3, 5, 5, requires_grad=True), lib.ones(2, 3, 3, 3)).grad_fn.name()",
    "F.conv2d(lib.ones(1, 1, 3, 3, dtype=lib.int64), lib.ones(1, 1, 2, 2, dtype=lib.int64))",
])
def test_values_and_edge_cases_match_torch(torch, code):
    assert_same_outcome(torch, code)


def _saved(node) -> dict:
    out = {}
    for name in sorted(n for n in dir(node) if n.startswith("_saved_")):
        v = getattr(node, name)
        out[name] = (tuple(v.shape), str(v.dtype)) if hasattr(v, "shape") else (type(v), v)
    return out


@pytest.mark.parametrize("how", [
    "lib.nn.BatchNorm2d(3)", "lib.nn.BatchNorm2d(3).eval()", "lib.nn.BatchNorm2d(3, affine=False)",
    "lib.nn.BatchNorm2d(3, track_running_stats=False)",
    "lib.nn.BatchNorm2d(3, track_running_stats=False).eval()", "lib.nn.BatchNorm1d(3)"])
def test_batch_norm_node_saves_what_pytorch_saves(torch, how):
    x = np.random.default_rng(0).normal(size=(4, 3, 2, 2) if "1d" not in how else (4, 3))
    outs = []
    for lib in (mg, torch):
        bn = eval(how, {"lib": lib})  # noqa: S307
        y = bn(lib.tensor(x.astype(np.float32), requires_grad=True))
        node = y.grad_fn
        outs.append((node.name(), [f is None for f, _ in node.next_functions], _saved(node)))
    assert outs[0] == outs[1]


def test_batch_norm_2d_trains_and_evaluates_as_torch(torch):
    """Values, gradients and running statistics over three batches (momentum 0.1, then None:
    the cumulative average), then eval mode; float32, compared to 1e-5."""
    rng = np.random.default_rng(1)
    for momentum in (0.1, None):
        m, t = mg.nn.BatchNorm2d(3, momentum=momentum), torch.nn.BatchNorm2d(3, momentum=momentum)
        for step in range(3):
            x = (rng.normal(size=(4, 3, 5, 5)) * (step + 1) + step).astype(np.float32)
            mx, tx = mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
            ym, yt = m(mx), t(tx)
            np.testing.assert_allclose(ym.detach().numpy(), yt.detach().numpy(), atol=1e-5)
            (ym * ym * mg.tensor(x)).sum().backward()
            (yt * yt * torch.tensor(x)).sum().backward()
            np.testing.assert_allclose(mx.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-4)
        for name in ("running_mean", "running_var", "num_batches_tracked"):
            np.testing.assert_allclose(getattr(m, name).numpy(), getattr(t, name).numpy(),
                                       rtol=1e-5)
        for name in ("weight", "bias"):
            np.testing.assert_allclose(getattr(m, name).grad.numpy(),
                                       getattr(t, name).grad.numpy(), rtol=1e-4, atol=1e-3)
        x = rng.normal(size=(2, 3, 4, 4)).astype(np.float32)
        m.eval(), t.eval()
        np.testing.assert_allclose(m(mg.tensor(x)).detach().numpy(),
                                   t(torch.tensor(x)).detach().numpy(),
                                   rtol=1e-5, atol=1e-6)


def test_batch_norm_gradgradcheck_in_float64():
    x = mg.tensor(np.random.default_rng(2).normal(size=(3, 2, 2, 2)), requires_grad=True)
    w = mg.tensor([0.5, 2.0], dtype=mg.float64, requires_grad=True)
    b = mg.tensor([0.1, -0.3], dtype=mg.float64, requires_grad=True)

    def f(x, w, b):
        return mg.nn.functional.batch_norm(x, None, None, w, b, training=True)

    assert mg.autograd.gradcheck(f, (x, w, b))
    assert mg.autograd.gradgradcheck(f, (x, w, b))


INPLACE = ["leaky_relu(x, 0.2, True)", "elu(x, 0.7, True)", "celu(x, 1.5, True)",
           "selu(x, True)", "silu(x, True)", "hardtanh(x, -0.5, 0.5, True)", "relu6(x, True)",
           "mish(x, True)", "hardswish(x, True)", "hardsigmoid(x, True)",
           "leaky_relu_(x, 0.3)", "elu_(x)", "hardtanh_(x)"]


@pytest.mark.parametrize("call", INPLACE)
def test_in_place_activations_match_torch(torch, call):
    """The node (``...Backward1`` keeps the result), saved values, the gradient, the version
    and that the result is the input itself."""
    a = np.random.default_rng(3).normal(size=(2, 5)).astype(np.float32)
    outs = []
    for lib in (mg, torch):
        leaf = lib.tensor(a, requires_grad=True)
        x = leaf * 1
        y = eval("F." + call, {"F": lib.nn.functional, "x": x})  # noqa: S307
        info = (y is x, y.grad_fn.name(), x._version, _saved(y.grad_fn))
        (y * lib.tensor(a)).sum().backward()
        outs.append((info, y.detach().numpy(), leaf.grad.numpy()))
    assert outs[0][0] == outs[1][0]
    np.testing.assert_allclose(outs[0][1], outs[1][1], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(outs[0][2], outs[1][2], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("module", [
    "LeakyReLU()", "ELU()", "SELU()", "CELU(2.0)", "GELU('tanh')", "SiLU()", "Softplus()",
    "Softplus(2, 10)", "Hardtanh()", "ReLU6()", "LogSigmoid()", "Softmin(1)", "Mish()",
    "Hardswish()", "Hardsigmoid()", "Conv2d(2, 3, 3, padding=1)", "MaxPool2d(2)",
    "AvgPool2d(2)", "AdaptiveAvgPool2d(2)", "Dropout2d()", "Unflatten(1, (2, 4))",
    "Threshold(0.1, 20.0)", "Softsign()", "Tanhshrink()", "ZeroPad2d((1, 2, 0, 1))",
    "MaxPool1d(2)", "AvgPool1d(3, 2, 1)", "AdaptiveAvgPool1d(1)", "GroupNorm(2, 2)",
    "PReLU(2)"])
def test_module_graph_and_saved_values_match_torch(torch, module):
    """The node a module records and its saved values' kinds (ints stay ints, as PyTorch
    keeps them), on a (2, 2, 4, 4) input."""
    a = np.random.default_rng(4).normal(size=(2, 2, 4, 4)).astype(np.float32)
    outs = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        m = eval("lib.nn." + module, {"lib": lib})  # noqa: S307
        one_d = "Unflatten" in module or "1d" in module
        x = lib.tensor(a if not one_d else a.reshape(2, 8, 4), requires_grad=True)
        y = m(x)
        outs.append((y.grad_fn.name(), _saved(y.grad_fn), y.detach().numpy()))
    assert outs[0][:2] == outs[1][:2]
    np.testing.assert_allclose(outs[0][2], outs[1][2], rtol=1e-5, atol=1e-6)


def test_conv_second_order_is_pytorchs_node_and_values(torch):
    """``create_graph=True`` through a convolution: one ConvolutionBackwardBackward0 with
    PyTorch's edges and saved values; the second-order gradients agree (float32: 1e-5)."""
    outs = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        F = lib.nn.functional
        x = lib.randn(1, 2, 5, 5, requires_grad=True)
        w = lib.randn(3, 2, 3, 3, requires_grad=True)
        b = lib.randn(3, requires_grad=True)
        y = F.conv2d(x, w, b, stride=2, padding=1)
        gx, gw, gb = lib.autograd.grad((y ** 2).sum(), (x, w, b), create_graph=True)
        node = gx.grad_fn
        info = (node.name(), [f is None or f.name() for f, _ in node.next_functions],
                _saved(node), gw.grad_fn is node, gb.grad_fn.name())
        (gx.sum() + (gw * gw).sum() + gb.sum()).backward()
        outs.append((info, [t.grad.numpy() for t in (x, w, b)]))
    assert outs[0][0] == outs[1][0]
    for m, t in zip(outs[0][1], outs[1][1]):
        np.testing.assert_allclose(m, t, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("call", [
    "F.conv2d(x, w, b[:4], stride=(2, 1), padding=1, dilation=(1, 2))",
    "F.conv2d(x[:, :2], w[:4, :1], groups=2, padding='same')",
    "F.conv1d(x[:, :, 0], w[:, :, 0], b[2:], stride=2)",
    "F.max_pool2d(x, 3, 2, 1, ceil_mode=True)", "F.avg_pool2d(x, 3, 2, 1, True, False)",
    "F.adaptive_avg_pool2d(x, (4, 3))", "F.batch_norm(x, None, None, b[:3], b[3:6], True)"])
def test_float64_values_and_gradients_match_torch_tightly(torch, call):
    """In float64 the sums' order hardly matters: values and gradients to 1e-12."""
    rng = np.random.default_rng(5)
    arrays = [rng.normal(size=(2, 3, 7, 7)), rng.normal(size=(4, 3, 3, 3)), rng.normal(size=6)]
    results = []
    for lib in (mg, torch):
        x, w, b = (lib.tensor(a, requires_grad=True) for a in arrays)
        out = eval(call, {"F": lib.nn.functional, "x": x, "w": w, "b": b})  # noqa: S307
        (out * out).sum().backward()
        results.append([out.detach().numpy()] + [t.grad.numpy() if t.grad is not None
                                                  else None for t in (x, w, b)])
    for m, t in zip(*results):
        assert (m is None) == (t is None)
        if m is not None:
            np.testing.assert_allclose(m, t, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("how", ["lib.nn.BatchNorm2d(3)", "lib.nn.BatchNorm2d(3).eval()",
                                 "lib.nn.BatchNorm2d(3, affine=False)"])
def test_batch_norm_second_order_is_pytorchs_node_and_values(torch, how):
    """NativeBatchNormBackwardBackward0: edges (grad_out, input, weight, save_mean,
    save_invstd), saved values, and the second-order gradients (float64: 1e-10)."""
    a = np.random.default_rng(6).normal(size=(4, 3, 2, 2))
    outs = []
    for lib in (mg, torch):
        bn = eval(how, {"lib": lib}).double()  # noqa: S307
        x = lib.tensor(a, requires_grad=True)
        params = [x] + list(bn.parameters())
        grads = lib.autograd.grad((bn(x) ** 3).sum(), params, create_graph=True)
        node = grads[0].grad_fn
        info = (node.name(), [f is None or f.name() for f, _ in node.next_functions],
                _saved(node))
        sum((g * g).sum() for g in grads).backward()
        outs.append((info, [p.grad.numpy() for p in params]))
    assert outs[0][0] == outs[1][0]
    for m, t in zip(outs[0][1], outs[1][1]):
        np.testing.assert_allclose(m, t, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("how", ["lib.nn.LayerNorm(3)", "lib.nn.LayerNorm(3, bias=False)",
                                 "lib.nn.LayerNorm(3, elementwise_affine=False)",
                                 "lib.nn.LayerNorm((2, 3))"])
def test_layer_norm_second_order_is_pytorchs_node_and_values(torch, how):
    """NativeLayerNormBackwardBackward0 (found by the fuzzer: minigrad recorded the second
    order op by op): edges (grad_out, input, mean, rstd, weight, bias), saved values, and the
    second-order gradients (float64: 1e-10)."""
    a = np.random.default_rng(7).normal(size=(4, 2, 3))
    outs = []
    for lib in (mg, torch):
        ln = eval(how, {"lib": lib}).double()  # noqa: S307
        x = lib.tensor(a, requires_grad=True)
        params = [x] + list(ln.parameters())
        grads = lib.autograd.grad((ln(x) ** 3).sum(), params, create_graph=True)
        node = grads[0].grad_fn
        info = ([g.grad_fn.name() for g in grads],
                [f is None or f.name() for f, _ in node.next_functions], _saved(node))
        sum((g * g).sum() for g in grads).backward()
        outs.append((info, [p.grad.numpy() for p in params]))
    assert outs[0][0] == outs[1][0]
    for m, t in zip(outs[0][1], outs[1][1]):
        np.testing.assert_allclose(m, t, rtol=1e-10, atol=1e-10)


def test_the_padding_same_warning_comes_once_per_process_as_in_pytorch(torch):
    """PyTorch's TORCH_WARN_ONCE: the second convolution that needs the padded copy is silent
    (found by the fuzzer, which runs many programs in one process)."""
    code = ("import warnings, {lib} as L\nwarnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    for n in (5, 6):\n"
            "        L.nn.functional.conv1d(L.ones(1, 1, n), L.ones(1, 1, 2), padding='same')\n"
            "    L.nn.functional.conv2d(L.ones(1, 1, 4, 4), L.ones(1, 1, 2, 2), padding='same')\n"
            "print([str(x.message)[:40] for x in w])")
    runs = [subprocess.run([sys.executable, "-c", code.format(lib=lib)], capture_output=True,
                           text=True, check=True).stdout for lib in ("minigrad", "torch")]
    assert runs[0] == runs[1] and "padding='same'" in runs[0]
