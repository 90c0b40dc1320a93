"""``torch.utils``: small helpers shared by the tensor and the graph (``hooks``), and the
data-loading tools tutorials use (``data``, imported by ``minigrad/__init__.py`` once the
tensor exists: this package must not import it, as ``_tensor`` imports ``utils.hooks``)."""
