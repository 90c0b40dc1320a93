"""``torch.backends.mps``: Apple's Metal backend is neither built nor available here."""

__all__ = ["is_available", "is_built"]


def is_available() -> bool:
    return False


def is_built() -> bool:
    return False
