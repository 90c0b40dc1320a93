"""``torch.backends.cudnn``: not available; the flags tutorials set are kept and unused."""

__all__ = ["is_available", "deterministic", "benchmark", "enabled"]

deterministic = False
benchmark = False
enabled = True


def is_available() -> bool:
    return False
