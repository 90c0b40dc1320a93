"""The layers: one file per kind, as in ``torch/nn/modules/``."""

from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .container import ModuleList, Sequential
from .dropout import Dropout
from .extra import (
    BatchNorm1d,
    BatchNorm2d,
    BCELoss,
    BCEWithLogitsLoss,
    Embedding,
    HuberLoss,
    L1Loss,
    LayerNorm,
    SmoothL1Loss,
)
from .flatten import Flatten
from .linear import Identity, Linear
from .loss import CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module

__all__ = ["Module", "Linear", "Identity", "ReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax",
           "Sequential", "ModuleList", "Flatten", "Dropout", "MSELoss", "CrossEntropyLoss",
           "NLLLoss", "Embedding", "LayerNorm", "BatchNorm1d", "BatchNorm2d", "BCELoss",
           "BCEWithLogitsLoss", "HuberLoss", "SmoothL1Loss", "L1Loss"]
