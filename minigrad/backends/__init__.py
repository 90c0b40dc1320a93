"""``torch.backends``: the answers of a CPU-only build (no cuDNN, no Apple MPS)."""

from . import cudnn, mps

__all__ = ["cudnn", "mps"]
