"""Which CPU kernel PyTorch's convolution runs, and the sums of those that skip the padding.

The zero padding of a convolution only matters when it meets a value that is not finite:
``0 * inf`` and ``0 * nan`` are NaN. PyTorch's CPU kernels differ there:

- the im2col kernels (PyTorch's ``slow_conv2d``, ``slow_conv_dilated``, and oneDNN's
  ``gemm`` convolution) copy the windows, zeros included, and multiply them all: a filter
  value of ``inf`` over the padding, or an incoming gradient of ``nan`` next to it, gives NaN;
- oneDNN's direct kernels (``jit``, ``jit_dw``, ``brdgmm_dw``) leave the padded terms out.

Which one runs is decided twice. PyTorch's ``select_conv_backend`` takes oneDNN (its
``use_mkldnn``) for a float32 input with several groups, several samples, a kernel larger
than 3 x 3 in both directions, or more than 20480 input elements, unless the convolution is
1 x 1, unstrided, undilated, on fewer than 16 samples and one thread
(``torch._C._select_conv_backend`` names the choice). oneDNN then tries its kernels in order
and takes the first whose conditions hold; :func:`direct_forward` and
:func:`direct_weight_grad` are those conditions for float32 (measured with AVX-512 and with
oneDNN held to AVX2): a direct kernel refuses a window lying wholly in the padding, grouped
channels it cannot block by 4/8/16, and (for the weight gradient) more padding than half the
kernel.

The forward and the weight's gradient have a padding-exact form here (:func:`forward_valid`,
:func:`weight_grad_valid`): one small sum per kernel position over the outputs whose input
lies inside. The input's gradient never multiplies the input's padding (that part of the
result is cut off), but oneDNN's ``brgconv_strided`` kernel (strided, undilated, one group)
reads zeros past the ends of the incoming gradient when the stride does not divide the width
(:func:`reads_past_the_width`, :func:`past_the_width`). All of it runs only when a value that
is not finite is there to meet the zeros.

A sum of products starts at +0 in PyTorch's kernels, so products that are all -0 sum to +0
(``_conv.py`` adds +0 where einsum would keep a single product's -0).
"""

from __future__ import annotations

import itertools

import numpy as np

from .. import _cpu, _summation

__all__ = ["mkldnn", "skips_padding", "reads_past_the_width", "past_the_width",
           "direct_forward", "direct_weight_grad", "forward_valid",
           "weight_grad_valid"]


# ---------------------------------------------------------------- the choice of kernel
# oneDNN's kernels by the CPU (``_cpu.ONEDNN_ISA``): the conditions below were measured on
# AVX-512 (oneDNN's verbose log, 3,650 geometries); an AVX2 machine gets the AVX2 kernels'
# conditions alone, a machine with neither only gemm (which multiplies the padding).
_AVX512 = _cpu.ONEDNN_ISA == "avx512"
_AVX2 = _cpu.ONEDNN_ISA in ("avx512", "avx2")

def mkldnn(x_shape, w_shape, stride, dilation, groups: int) -> bool:
    """PyTorch's ``use_mkldnn`` for a dense CPU float32 input (a 1-d convolution seen as 2-d)."""
    xs, ws = list(x_shape), list(w_shape)
    if len(ws) == 3:
        xs, ws = xs[:2] + [1] + xs[2:], ws[:2] + [1] + ws[2:]
    plain = not (any(s != 1 for s in stride) or any(d != 1 for d in dilation)
                 or xs[0] >= 16 or ws[-1] != 1 or ws[-2] != 1
                 or _summation.get_num_threads() > 1)
    if plain:  # 1 x 1 on one thread: PyTorch's own kernel is faster
        return False
    return (groups > 1 or (ws[-1] > 3 and ws[-2] > 3) or xs[0] > 1
            or xs[0] * xs[1] * xs[2] * xs[3] > 20480)


def skips_padding(kind: str, x_shape, w_shape, out_shape, stride, padding, dilation,
                  groups: int) -> bool:
    """Whether PyTorch's CPU kernel for a float32 convolution's ``kind`` leaves the padded
    terms out: oneDNN (:func:`mkldnn`) with a direct kernel. ``kind``: ``"forward"``,
    ``"weight"`` (the weight's gradient) or ``"weight2"``: the weight's gradient inside a
    double backward, which PyTorch's ``_convolution_double_backward`` computes as a forward
    convolution per group of the input's gradient (batch and channels swapped) with the output's
    gradient (``out_shape``) as its filters, stride and dilation swapped."""
    if kind == "weight2":
        n, c = x_shape[0], x_shape[1] // groups
        x_shape, w_shape = (c, n) + tuple(x_shape[2:]), (w_shape[0] // groups, n) + \
            tuple(out_shape[2:])
        stride, dilation, groups, kind = dilation, stride, 1, "forward"
    direct = direct_forward if kind == "forward" else direct_weight_grad
    return mkldnn(x_shape, w_shape, stride, dilation, groups) and \
        direct(x_shape, w_shape, stride, padding, dilation, groups)


def reads_past_the_width(x_shape, w_shape, stride, dilation, groups: int) -> bool:
    """Whether the input's gradient of a float32 convolution runs oneDNN's ``brgconv_strided``
    kernel (strided, undilated, one group) in the form that reads zeros past the incoming
    gradient's ends along the width: it does when the stride does not divide the width."""
    return (_AVX512 and groups == 1 and any(s > 1 for s in stride)
            and all(d == 1 for d in dilation)
            and x_shape[-1] % stride[-1] != 0
            and mkldnn(x_shape, w_shape, stride, dilation, groups))


def past_the_width(w, input_shape, out, stride, padding, dilation) -> np.ndarray:
    """Where ``0 * w`` of those zeros reaches the input's gradient: the (channel, *position)
    entries that a non-finite filter value meets from a column past either end."""
    bad = ~np.isfinite(w).all(axis=0)  # (channels, *kernel)
    mask = np.zeros((w.shape[1],) + tuple(input_shape[2:]), bool)
    for pos in zip(*np.nonzero(bad.any(axis=0))):
        picks = [np.nonzero(bad[(slice(None),) + pos])[0]]
        for dim, (k, s, p, di, i, o) in enumerate(zip(pos, stride, padding, dilation,
                                                      input_shape[2:], out)):
            t = np.arange(i) + p - k * di
            inside = (t >= 0) & (t // s < o)
            picks.append(np.nonzero((t % s == 0) & (~inside if dim == len(out) - 1 else inside))[0])
        mask[np.ix_(*picks)] = True
    return mask


def _geometry(spatial, kernel, stride, padding, dilation):
    """Per spatial dimension: the kernel's extent, the output size, the padding at the end."""
    ext = [(k - 1) * d + 1 for k, d in zip(kernel, dilation)]
    out = [(i + 2 * p - e) // s + 1 for i, p, e, s in zip(spatial, padding, ext, stride)]
    end = [(o - 1) * s + e - i - p for o, s, e, i, p in zip(out, stride, ext, spatial, padding)]
    return ext, out, end


def direct_forward(x_shape, w_shape, stride, padding, dilation, groups: int) -> bool:
    """Whether oneDNN's forward convolution (float32, AVX-512) is a direct kernel."""
    ic, oc = x_shape[1] // groups, w_shape[0] // groups
    depthwise = groups > 1 and ic == 1 and oc == 1
    if depthwise and len(x_shape) == 5:  # brdgmm_dw: any padding, no dilation
        return _AVX512 and all(d == 1 for d in dilation)
    ext, out, end = _geometry(x_shape[2:], w_shape[2:], stride, padding, dilation)
    if any(e <= p or e <= r for e, p, r in zip(ext, padding, end)):
        return False  # a window wholly in the padding: no direct kernel takes it
    # AVX-512 (channels padded without groups, else blocks of 16, 8 or 4), then AVX2 (blocks
    # of 8 output channels; the input's too, unless it has fewer than 8 in all)
    avx512 = _AVX512 and (groups == 1 or depthwise
                          or any(ic % b == 0 and oc % b == 0 for b in (16, 8, 4)))
    avx2 = _AVX2 and (groups == 1 or (oc % 8 == 0 and (x_shape[1] < 8 or ic % 8 == 0)))
    geo = (x_shape[-1], w_shape[-1], stride[-1], padding[-1], ext[-1], out[-1], end[-1])
    return (avx512 and _avx512_forward(*geo)) or (avx2 and _avx2_forward(*geo, stride, padding))


def _avx512_forward(iw, kw, sw, lpad, ext, ow, end) -> bool:
    unroll = min(ow, 28)  # the outputs one pass of the kernel computes along the width
    return lpad <= unroll and end <= unroll


def _avx2_forward(iw, kw, sw, lpad, ext, ow, end, stride, padding) -> bool:
    unroll = min(ow, 3)
    if lpad > unroll or (kw > 7 and any(padding[-2:]) and any(s != 1 for s in stride[-2:])):
        return False
    tail = ow % unroll
    rest = max(0, (ow - tail - 1) * sw + ext - iw - lpad)
    if rest > unroll * sw and ow // unroll > 1:
        unroll = min(rest // sw + tail, ow, 7)
        tail = ow % unroll
        rest = max(0, (ow - tail - 1) * sw + ext - iw - lpad)
        return unroll >= max(lpad, rest)
    return True


def _2d(shape_part, fill):
    """A 1-d convolution's numbers as oneDNN's 2-d ones (height 1)."""
    return [fill] + list(shape_part) if len(shape_part) == 1 else list(shape_part)


def direct_weight_grad(x_shape, w_shape, stride, padding, dilation, groups: int) -> bool:
    """Whether oneDNN's weight gradient (float32, AVX-512) is a direct kernel."""
    ic, oc = x_shape[1] // groups, w_shape[0] // groups
    spatial, kernel = _2d(x_shape[2:], 1), _2d(w_shape[2:], 1)
    stride, padding, dilation = _2d(stride, 1), _2d(padding, 0), _2d(dilation, 1)
    ext, _, end = _geometry(spatial, kernel, stride, padding, dilation)
    if groups > 1 and ic == 1 and oc == 1:
        return _AVX512 and len(spatial) == 2 and \
            _depthwise_weight_grad(spatial, kernel, stride, padding, dilation, end)
    end = [max(0, r) for r in end]
    geo = (spatial, kernel, stride, padding, dilation, ext, end)
    # channels: padded to a block without groups (oneDNN's "first convolution", fewer than
    # 16 input channels, takes 1 to 3 only), else blocks of 16 (AVX-512) or 8 (AVX2)
    avx512 = _AVX512 and (ic >= 16 or ic in (1, 2, 3) if groups == 1
                          else ic % 16 == 0 and oc % 16 == 0)
    avx2 = _AVX2 and (groups == 1 or (oc % 8 == 0 and ic % 8 == 0))
    return (avx512 and _avx512_weight_grad(*geo)) or (avx2 and _avx2_weight_grad(*geo))


def _avx512_weight_grad(spatial, kernel, stride, padding, dilation, ext, end) -> bool:
    if len(spatial) == 3 and dilation[0] > 1:
        return False
    h = len(spatial) - 2  # the height's index
    if dilation[h] > 1 and (stride[h] != 1 or ext[h] > spatial[h]):
        return False
    w_ok = padding[-1] < ext[-1] and end[-1] < ext[-1] and max(padding[-1], end[-1]) <= 28
    h_ok = padding[h] <= ext[h] // 2 and end[h] <= ext[h] // 2
    d_ok = h == 0 or (padding[0] < ext[0] and end[0] < ext[0]
                      and (padding[0] == 0 or kernel[0] < spatial[0] + padding[0]))
    return w_ok and h_ok and d_ok and kernel[-1] <= 14


def _avx2_weight_grad(spatial, kernel, stride, padding, dilation, ext, end) -> bool:
    """oneDNN's next try when the AVX-512 kernel refuses (no dilation, no depth padding)."""
    h = len(spatial) - 2
    if any(d > 1 for d in dilation) or kernel[-1] >= 14:
        return False
    if h == 1 and (padding[0] or end[0]):
        return False
    return (all(p < e and r < e for p, r, e in zip(padding, end, ext))
            and kernel[h] <= spatial[h] and padding[h] < kernel[h])


def _depthwise_weight_grad(spatial, kernel, stride, padding, dilation, end) -> bool:
    (ih, _), (kh, kw), (sh, sw) = spatial, kernel, stride
    (t, l), (b, r) = padding, end
    return (all(d == 1 for d in dilation) and kw <= 3 and sw <= kw
            and max(t, b) <= kh // 2 and max(l, r) <= kw // 2 and ih >= kh + (-t) % sh
            and (t <= 1 or t % sh == 0) and (b <= 1 or b % sh == 0))


# ---------------------------------------------------------------- sums without the padding
def _valid(kernel, stride, padding, dilation, spatial, out):
    """For each kernel position: the outputs whose input lies inside, and those inputs."""
    for pos in itertools.product(*(range(k) for k in kernel)):
        outs, ins = [], []
        for k, s, p, d, i, o in zip(pos, stride, padding, dilation, spatial, out):
            first = max(0, -(-(p - k * d) // s))
            last = min(o - 1, (i - 1 + p - k * d) // s)
            if last < first:
                break
            start = first * s + k * d - p
            outs.append(slice(first, last + 1))
            ins.append(slice(start, start + (last - first) * s + 1, s))
        else:
            yield pos, tuple(outs), tuple(ins)


def _grouped(a: np.ndarray, groups: int, axis: int) -> np.ndarray:
    return a.reshape(a.shape[:axis] + (groups, a.shape[axis] // groups) + a.shape[axis + 1:])


def forward_valid(x, w, stride, padding, dilation, groups: int) -> np.ndarray:
    """The convolution of arrays (no bias) summed over the input's own elements only."""
    _, out, _ = _geometry(x.shape[2:], w.shape[2:], stride, padding, dilation)
    at = "pqr"[:len(out)]  # einsum's letters for the positions
    xg, wg = _grouped(x, groups, 1), _grouped(w, groups, 0)
    res = np.zeros((x.shape[0], groups, w.shape[0] // groups) + tuple(out),
                   np.result_type(x, w))
    for pos, outs, ins in _valid(w.shape[2:], stride, padding, dilation, x.shape[2:], out):
        # n g c <pos>, g o c -> n g o <pos>
        res[(Ellipsis,) + outs] += np.einsum(f"ngc{at},goc->ngo{at}", xg[(Ellipsis,) + ins],
                                             wg[(Ellipsis,) + pos])
    return res.reshape((x.shape[0], w.shape[0]) + tuple(out))


def weight_grad_valid(g, x, weight_shape, stride, padding, dilation, groups: int) -> np.ndarray:
    """d(loss)/d(weight) summed over the input's own elements only."""
    gg, xg = _grouped(g, groups, 1), _grouped(x, groups, 1)
    at = "pqr"[:g.ndim - 2]
    res = np.zeros((groups, weight_shape[0] // groups) + tuple(weight_shape[1:]), g.dtype)
    for pos, outs, ins in _valid(weight_shape[2:], stride, padding, dilation, x.shape[2:],
                                 g.shape[2:]):
        res[(Ellipsis,) + pos] = np.einsum(f"ngo{at},ngc{at}->goc", gg[(Ellipsis,) + outs],
                                           xg[(Ellipsis,) + ins])
    return res.reshape(weight_shape) + 0.0  # (a sum that starts at +0, as PyTorch's)
