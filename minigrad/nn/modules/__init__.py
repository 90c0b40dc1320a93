"""The layers: one file per kind, as in ``torch/nn/modules/``."""

from .activation import (
    CELU,
    ELU,
    GELU,
    SELU,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softmin,
    Softplus,
    Softsign,
    Tanh,
    Tanhshrink,
    Threshold,
)
from .batchnorm import BatchNorm1d, BatchNorm2d, GroupNorm
from .container import ModuleList, Sequential
from .conv import Conv1d, Conv2d, Conv3d
from .dicts import ModuleDict, ParameterDict, ParameterList
from .dropout import Dropout, Dropout1d, Dropout2d
from .flatten import Flatten, Unflatten
from .linear import Identity, Linear
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .module import Module
from .normalization import LayerNorm
from .padding import ZeroPad2d
from .pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AvgPool1d,
    AvgPool2d,
    MaxPool1d,
    MaxPool2d,
)
from .sparse import Embedding

__all__ = ["Module", "Linear", "Identity", "ReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax",
           "Sequential", "ModuleList", "Flatten", "Dropout", "MSELoss", "CrossEntropyLoss",
           "NLLLoss", "Embedding", "LayerNorm", "BatchNorm1d", "BatchNorm2d", "BCELoss",
           "BCEWithLogitsLoss", "HuberLoss", "SmoothL1Loss", "L1Loss", "Conv1d", "Conv2d",
           "Conv3d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "Dropout2d", "Unflatten",
           "ModuleDict", "ParameterList", "ParameterDict", "LeakyReLU", "ELU", "SELU", "CELU",
           "GELU", "SiLU", "Softplus", "Hardtanh", "ReLU6", "LogSigmoid", "Softmin", "Mish",
           "Hardswish", "Hardsigmoid", "Threshold", "Softsign", "Tanhshrink", "ZeroPad2d",
           "MaxPool1d", "AvgPool1d", "AdaptiveAvgPool1d", "Dropout1d", "PReLU",
           "GroupNorm"]
