"""``einsum``, built from the ops PyTorch's einsum is made of, so that its graph shows the same
nodes: each operand is lined up (``diagonal`` for a repeated subscript, ``unsqueeze`` for a
missing one, then ``permute``), and operands are contracted pairwise, left to right, by
``permute`` / ``reshape`` / ``bmm`` / ``view`` (or ``mul`` when nothing is summed).

>>> import minigrad as torch
>>> a = torch.tensor([1., 2., 3.], requires_grad=True)
>>> d = torch.einsum("i,i->", a, a)
>>> d, d.grad_fn.name()
(tensor(14., grad_fn=<ViewBackward0>), 'ViewBackward0')
>>> d.backward(); a.grad
tensor([2., 4., 6.])
"""

from __future__ import annotations

from .._tensor import Tensor

__all__ = ["einsum"]

_ELLIPSIS = "..."


def einsum(*args):
    """Einstein summation: ``einsum('ij,jk->ik', a, b)`` is ``a @ b``; also in the sublist
    form ``einsum(a, [0, 1], b, [1, 2], [0, 2])``."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], Tensor):  # the sublist form: operand, subscripts, operand, ...
        equation = ",".join("".join(_letter(n) for n in sub) for sub in args[1::2])
        if len(args) % 2 == 1:  # the output's subscripts come last
            equation += "->" + "".join(_letter(n) for n in args[-1])
        operands = args[:-1:2] if len(args) % 2 == 1 else args[::2]
    else:
        equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    for k, op in enumerate(operands):
        if not isinstance(op, Tensor):
            raise TypeError(f"expected Tensor as element {k} in argument 1, but got "
                            f"{type(op).__name__}")
    return _einsum(equation, operands)  # (tensor ops: inf and NaN without NumPy's warnings)


def _einsum(equation: str, operands):
    terms = _parse_inputs(equation, operands)
    order, out_dims, ell_at = _layout(equation, terms, operands)
    ops, counts, sizes = [], [0] * len(order), {}
    for i, op in enumerate(operands):
        ops.append(_line_up(op, i, terms[i], order, ell_at, counts, sizes))
    while len(ops) > 1:
        a, b = ops.pop(0), ops.pop(0)
        ops.insert(0, _contract(a, b, out_dims, counts))
    result = ops[0]
    if len(order) > out_dims:
        if len(operands) > 1:
            return result.view(tuple(result.shape[:out_dims]))
        return result.sum(tuple(range(out_dims, len(order))))
    return result


# ---------------------------------------------------------------- parsing
def _letter(n) -> str:
    """A subscript of the sublist form: 0-25 are A-Z, 26-51 are a-z, ``...`` an ellipsis."""
    if n is Ellipsis:
        return _ELLIPSIS
    if 0 <= n < 52:
        return chr(ord("A") + n) if n < 26 else chr(ord("a") + n - 26)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range "
                     "[0, 52)")


def _parse_inputs(equation: str, operands) -> list:
    """Each operand's subscripts: letters, and ``'...'`` for an ellipsis."""
    lhs = equation.split("->")[0]
    terms, current, i = [[]], False, 0
    while i < len(lhs):
        c = lhs[i]
        if c == ".":
            n = len(terms) - 1
            if current:
                raise RuntimeError(f"einsum(): found '.' for operand {n} for which an ellipsis "
                                   "was already found")
            if lhs[i:i + 3] != _ELLIPSIS:
                raise RuntimeError(f"einsum(): found '.' for operand {n} that is not part of "
                                   "any ellipsis")
            terms[-1].append(_ELLIPSIS)
            current, i = True, i + 2
        elif c == ",":
            if len(terms) == len(operands):
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
            terms.append([])
            current = False
        elif c != " ":
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the "
                                   "equation string, subscripts must be in [a-zA-Z]")
            terms[-1].append(c)
        i += 1
    if len(terms) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    return terms


def _layout(equation: str, terms, operands):
    """The order of the lined-up dimensions (output ones first, then the summed ones, each a
    letter or ``(..., k)``), how many are output, and where the ellipsis dims start."""
    ell = 0
    for i, (term, op) in enumerate(zip(terms, operands)):
        n, nd = len([s for s in term if s != _ELLIPSIS]), op.dim()
        if _ELLIPSIS in term:
            if n > nd:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) "
                                   f"is more than the number of dimensions ({nd}) for operand "
                                   f"{i}")
            ell = max(ell, nd - n)
        elif n != nd:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) does "
                               f"not match the number of dimensions ({nd}) for operand {i} and "
                               "no ellipsis was given")
    count = {}
    for term in terms:
        for s in term:
            if s != _ELLIPSIS:
                count[s] = count.get(s, 0) + 1
    dots = [(_ELLIPSIS, k) for k in range(ell)]
    if "->" not in equation:  # implicit output: the ellipsis, then letters seen once, sorted
        order = dots + sorted(s for s, c in count.items() if c == 1)
        out_dims, ell_at = len(order), 0
    else:
        order, ell_at = _explicit_output(equation, count, dots)
        out_dims = len(order)
        if ell_at is None:
            ell_at, order = out_dims, order + dots
    return order + sorted(s for s in count if s not in order), out_dims, ell_at


def _explicit_output(equation: str, count: dict, dots: list):
    lhs, _, rhs = equation.partition("->")
    order, ell_at, i = [], None, 0
    while i < len(rhs):
        c = rhs[i]
        if c == ".":
            if ell_at is not None:
                raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was "
                                   "already found")
            if rhs[i:i + 3] != _ELLIPSIS:
                raise RuntimeError("einsum(): found '.' for output that is not part of any "
                                   "ellipsis (...)")
            ell_at, order, i = len(order), order + dots, i + 2
        elif c != " ":
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(f"einsum(): invalid subscript given at index "
                                   f"{len(lhs) + 2 + i} in the equation string, subscripts "
                                   "must be in [a-zA-Z]")
            if c in order or c not in count:
                why = ("appears more than once in the output" if c in order else
                       "does not appear in the equation for any input operand")
                raise RuntimeError(f"einsum(): output subscript {c} {why}")
            order.append(c)
        i += 1
    return order, ell_at


# ---------------------------------------------------------------- lining the operands up
def _line_up(op, i: int, term, order, ell_at: int, counts: list, sizes: dict):
    """``op`` with one dimension per entry of ``order``, in that order (size 1 where its
    subscripts lack one); ``counts`` counts, per dimension, the operands where it is not 1."""
    where = {s: k for k, s in enumerate(order)}
    n_dots = sum(1 for s in order if type(s) is tuple)
    perm, dim = [-1] * len(order), 0
    for s in term:
        if s == _ELLIPSIS:
            covered = op.dim() - (len(term) - 1)
            for j in range(n_dots - covered, n_dots):
                _see(op, dim, (_ELLIPSIS, j), i, ell_at + j, counts, sizes)
                perm[ell_at + j], dim = dim, dim + 1
        elif perm[where[s]] == -1:
            _see(op, dim, s, i, where[s], counts, sizes)
            perm[where[s]], dim = dim, dim + 1
        else:  # a repeated subscript: its diagonal
            prev = perm[where[s]]
            if op.shape[dim] != op.shape[prev]:
                raise RuntimeError(f"einsum(): subscript {s} is repeated for operand {i} but the "
                                   f"sizes don't match, {op.shape[dim]} != {op.shape[prev]}")
            op = op.diagonal(0, prev, dim).movedim(-1, prev)
    for k, p in enumerate(perm):
        if p == -1:  # a subscript this operand lacks
            op = op.unsqueeze(dim)
            perm[k], dim = dim, dim + 1
    return op.permute(perm)


def _see(op, dim: int, label, i: int, k: int, counts: list, sizes: dict) -> None:
    """Check that ``op``'s size at ``dim`` broadcasts with the label's size seen so far."""
    size = op.shape[dim]
    if size == 1:
        return
    seen = sizes.get(label, 1)
    if seen not in (1, size):
        if type(label) is tuple:
            raise RuntimeError(
                f"einsum(): dimension {dim} covered by ellipsis in operand {i}has size {size} "
                f"which does not broadcast with previously seen ellipsis with size {seen} for "
                "the respective dimension")
        raise RuntimeError(f"einsum(): subscript {label} has size {size} for operand {i} which "
                           f"does not broadcast with previously seen size {seen}")
    sizes[label] = size
    counts[k] += 1


# ---------------------------------------------------------------- contracting
def _contract(a, b, out_dims: int, counts: list):
    """Multiply two lined-up operands, summing the dimensions no later operand has."""
    sum_dims, a_only, b_only = [], [], []
    for d in range(out_dims, len(counts)):
        sa, sb = a.shape[d] != 1, b.shape[d] != 1
        if sa and sb:
            if a.shape[d] != b.shape[d]:
                raise RuntimeError("non-broadcast dimensions must match")
            counts[d] -= 1
            if counts[d] == 1:
                sum_dims.append(d)
                counts[d] = 0
        elif counts[d] == 1 and (sa or sb):
            (a_only if sa else b_only).append(d)
            counts[d] = 0
    if a_only:
        a = a.sum(a_only, keepdim=True)
    if b_only:
        b = b.sum(b_only, keepdim=True)
    return _sum_product(a, b, sum_dims)


def _sum_product(left, right, sum_dims: list):
    """``(left * right).sum(sum_dims, keepdim=True)`` as one ``bmm`` between permutes and
    reshapes (``mul`` when nothing is summed)."""
    if not sum_dims:
        return left * right
    both, lo, ro = [], [], []  # output dims in both, only in left, only in right
    for d in range(left.dim()):
        sl, sr = left.shape[d] != 1, right.shape[d] != 1
        if d in sum_dims:
            if sl and not sr:
                left = left.sum(d, keepdim=True)
            elif sr and not sl:
                right = right.sum(d, keepdim=True)
        elif sl and sr:
            if left.shape[d] != right.shape[d]:
                raise RuntimeError("non-broadcast dimensions must match")
            both.append(d)
        else:
            (lo if sl else ro).append(d)
    if lo and ro and ro[-1] < lo[0]:  # then bmm(right, left) lays the result out in order
        left, right, lo, ro = right, left, ro, lo
    n_both, n_lo, n_ro, n_sum = (_numel(left, both), _numel(left, lo), _numel(right, ro),
                                 _numel(left, sum_dims))
    out_size = ([left.shape[d] for d in both + lo] + [1] * len(sum_dims)
                + [right.shape[d] for d in ro])
    back = [0] * len(out_size)
    for k, d in enumerate(both + lo + sum_dims + ro):
        back[d] = k
    left = left.permute(both + lo + sum_dims + ro).reshape(n_both, n_lo, n_sum)
    right = right.permute(both + sum_dims + ro + lo).reshape(n_both, n_sum, n_ro)
    return left.bmm(right).view(out_size).permute(back)


def _numel(t, dims) -> int:
    n = 1
    for d in dims:
        n *= t.shape[d]
    return n
