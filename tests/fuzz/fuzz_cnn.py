"""The fuzzer's first CNN: convolution, pooling and normalisation calls built for a variable.

Unlike the templates of ``fuzz_table``, these need arguments that fit the input's channels
(groups, weight shapes), so each is a small function ``(rng, x) -> code`` given a variable
``x`` (a ``fuzz_gen.Var``). An image variable (3-D or 4-D leaf, see ``fuzz_gen.SHAPES``) is
used as it is; any other is reshaped to one channel. Mostly valid calls, some not (a kernel
larger than the input, ``padding='same'`` with a stride, groups that do not divide the
channels): PyTorch's errors are compared then.

A weight is a fresh tensor made from ``linspace`` in the template; the form with
``autograd.grad`` makes it a leaf (``w``) and returns its gradient with ``create_graph=True``,
so later statements differentiate it again (second order).
"""

from __future__ import annotations

import math


def _input(rng, x, nd: int) -> tuple[str, tuple]:
    """``x`` as an input of a ``nd``-d layer (batched or not), and its shape."""
    if len(x.shape) in (nd + 1, nd + 2) and (len(x.shape) > 2 or rng.random() < 0.3):
        return x.name, x.shape
    n = math.prod(x.shape)
    if nd == 1:
        return f"{x.name}.reshape(1, 1, -1)", (1, 1, n)
    w = next((d for d in (3, 2) if n and n % d == 0), 1)
    return f"{x.name}.reshape(1, 1, {n // w}, {w})", (1, 1, n // w, w)


def _float(x) -> str:
    return "float64" if x.dtype == "float64" else "float32"


def _channels(shape: tuple, nd: int) -> int:
    return shape[-nd - 1] if len(shape) > nd else 1


def _divisor(rng, c: int) -> int:
    if rng.random() < 0.05:
        return 3  # often not a divisor: PyTorch's error
    return rng.choice([g for g in (1, 2, 3, 4) if c and c % g == 0] or [1])


def _tup(rng, nd: int, choices: list):
    """One value, or a tuple of ``nd`` values, for stride/padding/dilation/kernel_size."""
    if nd == 1 or rng.random() < 0.6:
        return rng.choice(choices)
    return tuple(rng.choice(choices) for _ in range(nd))


def conv(rng, x) -> str:
    nd = rng.choice([1, 2])
    inp, shape = _input(rng, x, nd)
    c = _channels(shape, nd)
    g = _divisor(rng, c)
    out = g * rng.choice([1, 2])
    k = tuple(rng.choice([1, 2, 3]) for _ in range(nd))
    wshape = (out, max(c // g, 1)) + k
    dt = _float(x)
    weight = f"lib.linspace(-1, 1, {math.prod(wshape)}, dtype=lib.{dt}).reshape{wshape}"
    bias = rng.choice(["None", f"lib.linspace(-0.5, 0.5, {out}, dtype=lib.{dt})"])
    kw = [f"stride={_tup(rng, nd, [1, 1, 2])}",
          f"padding={rng.choice([0, 1, repr('same'), repr('valid'), _tup(rng, nd, [0, 1])])}",
          f"dilation={_tup(rng, nd, [1, 1, 2])}", f"groups={g}"]
    kw = ", ".join(rng.sample(kw, rng.randint(0, len(kw))))
    form = rng.random()
    if form < 0.55:
        return f"F.conv{nd}d({inp}, {weight}, {bias}{', ' + kw if kw else ''})"
    if form < 0.8:
        return (f"lib.autograd.grad(F.conv{nd}d({inp}, (w := {weight}.requires_grad_()), {bias}"
                f"{', ' + kw if kw else ''}).square().sum(), w, create_graph=True)[0]")
    mod = f"lib.nn.Conv{nd}d({c}, {out}, {k if nd > 1 else k[0]}{', ' + kw if kw else ''})"
    return f"(lib.manual_seed(0), {mod}{'.double()' if dt == 'float64' else ''}({inp}))[1]"


def pool(rng, x) -> str:
    nd = rng.choice([1, 2, 2])
    inp, _ = _input(rng, x, nd)
    k = _tup(rng, nd, [1, 2, 2, 3])
    pad = _tup(rng, nd, [0, 0, 1])
    kw = [f"stride={_tup(rng, nd, [1, 2])}", f"padding={pad}", f"ceil_mode={rng.random() < 0.5}"]
    r = rng.random()
    if r < 0.45:
        # (dilated windows with padding can lie wholly in the padding: PyTorch's backward then
        # writes outside the input and crashes the process, so not both)
        dil = _tup(rng, nd, [1, 2]) if pad in (0, (0, 0)) else 1
        kw += [f"dilation={dil}", f"return_indices={rng.random() < 0.5}"]
        kw = ", ".join(rng.sample(kw, rng.randint(0, len(kw))))
        if rng.random() < 0.2:
            return f"lib.nn.MaxPool{nd}d({k}{', ' + kw if kw else ''})({inp})"
        return f"F.max_pool{nd}d({inp}, {k}{', ' + kw if kw else ''})"
    if r < 0.75:
        kw.append(f"count_include_pad={rng.random() < 0.5}")
        kw = ", ".join(rng.sample(kw, rng.randint(0, len(kw))))
        if rng.random() < 0.2:
            return f"lib.nn.AvgPool{nd}d({k}{', ' + kw if kw else ''})({inp})"
        return f"F.avg_pool{nd}d({inp}, {k}{', ' + kw if kw else ''})"
    size = rng.choice(["1", "2", "(2, 3)", "(None, 2)", "(1, 1)"]) if nd == 2 else "1"
    if rng.random() < 0.2:
        return f"lib.nn.AdaptiveAvgPool{nd}d({size})({inp})"
    return f"F.adaptive_avg_pool{nd}d({inp}, {size})"


def norm(rng, x) -> str:
    nd = rng.choice([1, 2, 2])
    inp, shape = _input(rng, x, nd)
    c = _channels(shape, nd)
    dbl = ".double()" if x.dtype == "float64" else ""
    r = rng.random()
    if r < 0.5:
        kw = rng.choice(["", ", momentum=0.3", ", affine=False", ", eps=0.1",
                         ", track_running_stats=False"])
        mod = f"lib.nn.BatchNorm{nd}d({c}{kw}){dbl}"
        return rng.choice([
            f"{mod}({inp})", f"{mod}.eval()({inp})",
            f"(lambda m: (m({inp}), m.running_mean, m.running_var, m.num_batches_tracked))"
            f"({mod})"])
    if r < 0.8:
        g = _divisor(rng, c)
        kw = rng.choice(["", ", affine=False", ", eps=0.1"])
        return f"lib.nn.GroupNorm({g}, {c}{kw}){dbl}({inp})"
    return rng.choice([f"F.batch_norm({inp}, None, None, training=True)",
                       f"F.group_norm({inp}, {_divisor(rng, c)})",
                       f"F.batch_norm({inp}, lib.zeros({c}), lib.ones({c}))"])


BUILDERS = [(conv, 3), (pool, 3), (norm, 2)]
