"""``torch.utils``: the data-loading tools tutorials use (``torch.utils.data``)."""

from . import data

__all__ = ["data"]
