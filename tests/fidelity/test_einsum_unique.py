"""einsum builds PyTorch's graph (its decomposition into permute/unsqueeze/diagonal/bmm/view/
mul/sum nodes, with the same saved values), and unique/unique_consecutive record PyTorch's
nodes whose backward raises: against PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

SIZES = {"i": 3, "j": 4, "k": 5, "b": 2, "n": 2}


def structure(fn, depth=0) -> list:
    """The graph below ``fn``: each node's name and saved values (tensors by shape), indented."""
    saved = {}
    for name in dir(fn):
        if name.startswith("_saved_"):
            v = getattr(fn, name)
            saved[name] = ("tensor", tuple(v.shape)) if hasattr(v, "grad_fn") else v
    lines = [("  " * depth + fn.name(), sorted(saved.items()))]
    for child, nr in fn.next_functions:
        if child is not None:
            lines += structure(child, depth + 1) if child.next_functions else [
                ("  " * (depth + 1) + child.name(), nr)]
    return lines


def operands(lib, equation):
    """Operands for ``equation`` with fixed values (repeated subscripts: square)."""
    ops = []
    for k, term in enumerate(equation.split("->")[0].split(",")):
        if term.startswith("..."):
            shape = (2,) + tuple(SIZES[c] for c in term[3:])
        else:
            shape = tuple(SIZES[c] if term.count(c) == 1 else 3 for c in term)
        data = np.linspace(-1, 1 + k, int(np.prod(shape)), dtype=np.float32).reshape(shape)
        ops.append(lib.tensor(data, requires_grad=True))
    return ops


def run(lib, equation):
    ops = operands(lib, equation)
    out = lib.einsum(equation, *ops)
    graph = structure(out.grad_fn) if out.grad_fn is not None else None
    out.sum().backward()
    return (tuple(out.shape), out._is_view(), out.is_contiguous(), graph,
            np.round(out.detach().numpy().astype(np.float64), 4).tolist(),
            [np.round(o.grad.numpy().astype(np.float64), 4).tolist() for o in ops])


EQUATIONS = [
    "i,i->", "i,j->ij", "ij,jk->ik", "bij,bjk->bik", "ij->ji", "ii->", "ij->", "i->",
    "ii->i", "ij,j->i", "ij,ij->ij", "ij,ij->", "ij->j", "bij,j->bi", "ij,jk", "i,i", "ij",
    "ij,kj->ik", "jk,ij->ik", "bi,bi->b", "ij,jk,kb->ib", "...ij,...jk->...ik", "...ij->...ji",
    "bn,bn->", "i,j,k->ijk", "ijk->kji", "ij,jk->ki",
]


@pytest.mark.parametrize("equation", EQUATIONS)
def test_einsum_builds_pytorchs_graph(torch, equation):
    assert run(mg, equation) == run(torch, equation)


def errors(lib):
    a, b, v = lib.ones(3, 4), lib.ones(5, 4), lib.ones(3)
    calls = [("ij,jk->ik", a, b), ("i", v, 3), ("i", [1, 2]), ("ij,jk", a), ("ij", a, b), ("ijk->i", a), ("i.j->", a),
             ("ij->ii", a), ("ij->k", a), ("ii->", a), ("i1->", v), ("ij,ij->i", a, b),
             ("...i,...i->", lib.ones(2, 3), lib.ones(4, 3)), ("ij->i..", a), ("i...j->", v)]
    out = []
    for eq, *ops in calls:
        try:
            out.append(str(lib.einsum(eq, *ops)))
        except (RuntimeError, TypeError, ValueError) as e:
            out.append((type(e).__name__, str(e)))
    return out


def test_einsum_rejects_bad_equations_with_pytorchs_messages(torch):
    assert errors(mg) == errors(torch)


def sublists(lib):
    a, b = operands(lib, "ij,jk")
    out = []
    for args in [(a, [0, 1], b, [1, 2], [0, 2]), (a, [0, 1], b, [1, 2]),
                 (a, [Ellipsis, 1], [1, Ellipsis]), (a, [0, 60]), (a,), ()]:
        try:
            r = lib.einsum(*args)
            out.append((str(r), r.grad_fn.name()))
        except (ValueError, RuntimeError) as e:
            out.append((type(e).__name__, str(e)))
    return out


def test_einsum_in_the_sublist_form_as_in_pytorch(torch):
    assert sublists(mg) == sublists(torch)


def test_einsum_of_integers_and_without_grad_as_in_pytorch(torch):
    def run_ints(lib):
        a = lib.arange(6).reshape(2, 3)
        with lib.no_grad():
            f = lib.einsum("ij->ji", lib.ones(2, 3, requires_grad=True))
        return (str(lib.einsum("ij,kj->ik", a, a)), str(lib.einsum("ii", a[:, :2])),
                f.requires_grad, f._is_view(), str(lib.einsum("ij", [a])))

    assert run_ints(mg) == run_ints(torch)


NAN = float("nan")
UNIQUE_CASES = {
    "plain": ("unique", [3.0, 1.0, 2.0, 3.0, 1.0], {}),
    "everything": ("unique", [3.0, 1.0, 2.0, 3.0, 1.0],
                   {"return_inverse": True, "return_counts": True}),
    "unsorted": ("unique", [3.0, 1.0, 2.0], {"sorted": False, "return_inverse": True}),
    "nans_stay_apart": ("unique", [NAN, 1.0, NAN, 0.0], {"return_inverse": True}),
    "rows": ("unique", [[1.0, 2.0], [1.0, 2.0], [0.0, 5.0]],
             {"dim": 0, "return_inverse": True, "return_counts": True}),
    "columns": ("unique", [[1.0, 2.0], [1.0, 2.0], [0.0, 5.0]], {"dim": -1}),
    "matrix_inverse": ("unique", [[2.0, 1.0], [2.0, 1.0]], {"return_inverse": True}),
    "zero_dim": ("unique", 5.0, {"return_inverse": True, "return_counts": True}),
    "empty_rows": ("unique", [[]], {"dim": 1}),
    "consecutive": ("unique_consecutive", [3.0, 3.0, 1.0, 3.0, 1.0, 1.0],
                    {"return_inverse": True, "return_counts": True}),
    "consecutive_rows": ("unique_consecutive", [[1.0, 2.0], [1.0, 2.0], [0.0, 5.0]],
                         {"dim": 0, "return_counts": True}),
    "consecutive_nans": ("unique_consecutive", [NAN, NAN, 1.0], {"return_counts": True}),
    "bad_dim": ("unique", [1.0, 2.0], {"dim": 1}),
    "dim_of_zero_dim": ("unique_consecutive", 3.0, {"dim": 0}),
}


def unique_case(lib, case, method):
    fn, data, kwargs = UNIQUE_CASES[case]
    x = lib.tensor(data, requires_grad=True)
    try:
        out = getattr(x, fn)(**kwargs) if method else getattr(lib, fn)(x, **kwargs)
    except IndexError as e:
        return "IndexError", str(e)
    outs = out if isinstance(out, tuple) else (out,)
    shown = [(str(t), str(t.dtype), t.requires_grad) for t in outs]
    try:
        outs[0].sum().backward()
        raised = None
    except NotImplementedError as e:
        raised = str(e)
    return shown, raised, outs[0].grad_fn.next_functions[0][0].name() if outs[0].grad_fn else None


@pytest.mark.parametrize("method", [False, True])
@pytest.mark.parametrize("case", UNIQUE_CASES)
def test_unique_matches_pytorch_and_has_no_derivative(torch, case, method):
    assert unique_case(mg, case, method) == unique_case(torch, case, method)


def test_unique_of_integers_and_bools_records_nothing(torch):
    def ints(lib):
        return [str(lib.unique(lib.tensor([2, 1, 2]), return_counts=True)),
                str(lib.unique(lib.tensor([True, False, True]))),
                str(lib.unique(lib.tensor([2, 3], dtype=lib.uint8)))]

    assert ints(mg) == ints(torch)


def argument_errors(lib):
    x = lib.ones(2, 3, 1, requires_grad=True)
    calls = [lambda: x.unique(0), lambda: x.unique(return_inverse=1),
             lambda: lib.unique(x, return_counts=2.0), lambda: x.unique(sorted=0, dim=0),
             lambda: x.unique(dim=1.5), lambda: x.unique(dim="a"), lambda: x.unique(dim=True),
             lambda: lib.unique(x, sorted=None), lambda: x.unique_consecutive(return_inverse=1),
             lambda: lib.unique_consecutive(x, dim=1.5)]
    out = []
    for call in calls:
        try:
            call()
            out.append("ok")
        except TypeError as e:
            out.append(str(e))
    return out


def test_unique_rejects_arguments_of_the_wrong_type_as_pytorch(torch):
    assert argument_errors(mg) == argument_errors(torch)
