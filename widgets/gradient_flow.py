"""``GradientFlow``: each parameter's gradient norm (and update/weight ratio) across training.

Add one line to a training loop, ``flow.record()`` after ``optimizer.step()``: it reads every
parameter's ``.grad`` (the gradient that step used) and how far the step moved the parameter
since the last record. The widget draws both, per parameter, on a log scale, and redraws as
the loop runs: a layer whose gradients are a thousand times smaller than the others'
(vanishing) or grow without bound (exploding) stands out. Works on minigrad and PyTorch
models (anything with ``named_parameters()``, a dict of tensors, or a list of them).

>>> import minigrad as torch
>>> w = torch.tensor([3., 4.], requires_grad=True)
>>> flow = GradientFlow({"w": w}, lang="en")
>>> (w * w).sum().backward()
>>> with torch.no_grad():
...     w -= 0.1 * w.grad
>>> flow.record()
>>> flow.grad_norms["w"], round(flow.update_ratios["w"][0], 6)
([10.0], 0.2)
"""

from __future__ import annotations

import numpy as np
import traitlets

from . import views_style
from ._format import format_shape, is_tensor, to_numpy
from .i18n import t
from .widget import WidgetBase

__all__ = ["GradientFlow", "CHART_POINTS"]

CHART_POINTS = 400  # steps drawn per line at most (the text form and the lists keep them all)


def _named_parameters(model) -> list:
    if hasattr(model, "named_parameters"):
        return list(model.named_parameters())
    if isinstance(model, dict):
        pairs = [(str(k), v) for k, v in model.items()]
    else:
        pairs = [(f"p{i}", v) for i, v in enumerate(model)]
    for name, value in pairs:
        if not is_tensor(value):
            raise TypeError(f"GradientFlow expected a model or tensors, got {name}: "
                            f"{type(value).__name__}")
    return pairs


def _norm(a: np.ndarray) -> float:
    return float(np.linalg.norm(a.astype(np.float64).ravel()))


def _number(x: float) -> str:
    return "—" if x is None else f"{x:.2e}"


class GradientFlow(WidgetBase):
    """Gradient norms and update/weight ratios of every parameter, step after step.

    ``flow = GradientFlow(model)`` before the loop, ``flow.record()`` after each
    ``optimizer.step()``. ``grad_norms[name]`` is the list of ``|p.grad|`` (``None`` where a
    parameter had no gradient), ``update_ratios[name]`` the list of ``|Δp| / |p|``, the
    change since the previous record over the value before it. Show ``flow`` in a cell before
    the loop to watch the chart grow while it runs.
    """

    _css = views_style.css()

    flow = traitlets.Dict(help="names, shapes, steps, grad_norms and update_ratios per "
                          "parameter: what the chart draws").tag(sync=True)

    def __init__(self, model, *, lang: str | None = None, **kwargs):
        params = _named_parameters(model)
        if not params:
            raise ValueError("GradientFlow needs at least one parameter to watch")
        self._params = params
        self._before = [to_numpy(p).copy() for _, p in params]
        self.grad_norms: dict[str, list] = {name: [] for name, _ in params}
        self.update_ratios: dict[str, list] = {name: [] for name, _ in params}
        self.steps = 0
        super().__init__(kind="flow", lang=lang, **kwargs)
        self._push()

    def record(self) -> None:
        """Read every parameter's gradient norm and its update since the last record."""
        for k, (name, p) in enumerate(self._params):
            grad = getattr(p, "grad", None)
            self.grad_norms[name].append(None if grad is None else _norm(to_numpy(grad)))
            now = to_numpy(p).copy()
            before = self._before[k]
            size = _norm(before)
            self.update_ratios[name].append(_norm(now - before) / size if size else None)
            self._before[k] = now
        self.steps += 1
        self._push()

    def _push(self) -> None:
        """Send the chart its data: at most ``CHART_POINTS`` steps per line (every k-th step
        and the last), so that each record costs the same however long training runs."""
        every = max(1, -(-self.steps // CHART_POINTS))
        at = list(range(0, self.steps, every))
        if self.steps and at[-1] != self.steps - 1:
            at.append(self.steps - 1)
        names = [name for name, _ in self._params]
        self.flow = {"names": names, "shapes": [format_shape(p.shape) for _, p in self._params],
                     "steps": self.steps, "at": at,
                     "grad_norms": [[self.grad_norms[n][i] for i in at] for n in names],
                     "update_ratios": [[self.update_ratios[n][i] for i in at] for n in names]}

    def __repr__(self) -> str:
        lang = self.lang
        head = t("flow.header", lang, steps=self.steps, params=len(self._params))
        if not self.steps:
            return head + "\n" + t("view.flow.empty", lang)
        columns = [t(f"flow.{key}", lang) for key in
                   ("parameter", "shape", "first", "last", "min", "max", "ratio")]
        rows = [columns]
        for name, p in self._params:
            norms = [v for v in self.grad_norms[name] if v is not None]
            ratio = self.update_ratios[name][-1]
            rows.append([name, format_shape(p.shape)]
                        + [_number(norms[0] if norms else None), _number(self.grad_norms[name][-1]),
                           _number(min(norms) if norms else None),
                           _number(max(norms) if norms else None), _number(ratio)])
        widths = [max(_width(row[i]) for row in rows) for i in range(len(columns))]
        lines = ["  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(row, widths)).rstrip()
                 for row in rows]
        return "\n".join([head] + lines)


def _width(text: str) -> int:
    """Columns a string takes in a monospace font (a Chinese character takes two)."""
    return sum(2 if ord(c) > 0x2E80 else 1 for c in text)
