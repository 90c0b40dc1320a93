"""The fuzzer's generator: leaf inputs (NumPy data shared by both libraries) and statements
drawn from ``fuzz_table``, filled in from the variables as PyTorch has them.

Everything random comes from one ``random.Random(seed)``, and the choices depend only on
PyTorch's state, so a seed always makes the same program.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import fuzz_cnn
import fuzz_index
import fuzz_table as T
import numpy as np

SHAPES = [(), (), (1,), (3,), (4,), (2, 3), (3, 1), (1, 3), (2, 2), (2, 3, 1), (1, 1), (0,),
          (2, 0)]
# images for the first CNN's layers: (N, C, L) and (N, C, H, W)
IMAGES = [(1, 2, 5), (2, 1, 6), (2, 2, 4, 4), (1, 3, 3, 3), (1, 2, 3, 4), (2, 4, 2, 3)]
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, 0.5, 1.0, -1.0]
SCALARS = ["2", "0.5", "-1.5", "0", "-0.0", "True", "3", "-2", "1", "inf", "-inf", "nan",
           "1e30", "False"]
DTYPES = ["float32", "float64", "int64", "int32", "int16", "int8", "uint8", "bool"]
OPNAMES = {"+": "add", "-": "sub", "*": "mul", "/": "div", "**": "pow", "//": "floor_divide",
           "%": "remainder", "<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq",
           "!=": "ne", "&": "bitwise_and", "|": "bitwise_or", "^": "bitwise_xor", "@": "matmul",
           "+=": "add_", "*=": "mul_", "-=": "sub_", "/=": "div_"}


@dataclass
class Var:
    name: str
    shape: tuple
    dtype: str  # 'float32', 'int64', 'bool', ...
    requires_grad: bool
    is_leaf: bool


@dataclass
class Statement:
    code: str
    op: str  # what KNOWN and the counts file it under
    inputs: list = field(default_factory=list)  # variable names it reads
    target: str | None = None  # the variable it assigns or modifies
    scalars: list = field(default_factory=list)  # Python scalars it passes
    mode: str = ""  # 'no_grad', 'enable_grad', 'inference_mode' or ''
    probe: bool = False


def leaf_data(rng: random.Random, n: int) -> tuple[list, list]:
    """``n`` NumPy arrays (the same for both libraries) and the statements making leaves."""
    data, stmts = [], []
    for i in range(n):
        shape = rng.choice(SHAPES) if rng.random() > 0.2 else rng.choice(IMAGES)
        kind = rng.choices(["float32", "float64", "int64", "bool", "int32"], [7, 2, 2, 1, 1])[0]
        arr = np.random.default_rng(rng.randrange(2**31)).normal(size=shape) * 2
        flat = arr.reshape(-1)
        if flat.size and rng.random() < 0.3:  # PyTorch's conventions must hold there too
            for _ in range(rng.randint(1, 2)):
                flat[rng.randrange(flat.size)] = rng.choice(SPECIAL)
        if kind in ("int64", "int32"):
            arr = np.nan_to_num(arr, posinf=5, neginf=-5).clip(-9, 9).round().astype(kind)
        elif kind == "bool":
            arr = np.nan_to_num(arr) > 0
        else:
            arr = arr.astype(kind)
        data.append(arr)
        stmts.append(Statement(_leaf_code(rng, i, arr), "leaf", target=f"v{i}"))
    return data, stmts


def _leaf_code(rng: random.Random, i: int, arr: np.ndarray) -> str:
    rg = arr.dtype.kind == "f" and rng.random() < 0.7
    base = f"lib.tensor(DATA[{i}])"
    layout = rng.choices(["plain", "t", "expand", "step"], [8, 2, 1, 1])[0]
    if layout == "t" and arr.ndim == 2:
        base += ".t()"  # a transposed (non-contiguous) leaf
    elif layout == "expand" and arr.ndim == 1 and arr.shape[0] == 1:
        base += ".expand(3)"  # an expanded one (stride 0)
    elif layout == "step" and arr.ndim >= 1:
        base += "[::2]"
    elif layout == "plain":
        return f"v{i} = lib.tensor(DATA[{i}], requires_grad={rg})"
    return f"v{i} = {base}" + (".requires_grad_()" if rg else "")


def operation(template: str) -> str:
    """The operation of a template: 'sum', 'floor_divide', 'setitem', 'backward', ..."""
    if re.match(r"\{\w+\}\[.*\] = ", template) or template.startswith("{x}[{x} > 0] ="):
        return "setitem"
    m = re.match(r"\{\w+\} ([+\-*/]=) ", template)
    if m:
        return OPNAMES[m.group(1)]
    if re.match(r"\{\w+\}\[", template):
        return "getitem"
    m = re.search(r"\{(?:inplace1|inplace2|inplacefn)\}", template)
    if m:
        return m.group(0)
    m = re.match(r"(isinstance|repr)\(", template)
    if m:
        return m.group(1)
    m = re.match(r"(?:list\()?lib\.(optim|nn|utils\.data|autograd\.functional)\.(\w+)", template)
    if m:
        return f"{m.group(1).split('.')[-1]}.{m.group(2)}"
    m = re.match(r"(?:lib\.autograd\.|lib\.|F\.|[^.]*\}\.)(\w+)", template)
    if m:
        return m.group(1) if not template.startswith("F.") else "F." + m.group(1)
    m = re.search(r" (\*\*|//|[+\-*/%<>&|^@]|[<>=!]=) ", template)
    return OPNAMES[m.group(1)] if m else template


def _pick(rng, vars_, pred=lambda v: True):
    cands = [v for v in vars_ if pred(v)]
    return rng.choice(cands) if cands else None


def _shape_for(rng, n: int) -> str:
    opts = [f"({n},)", "(-1,)", f"(1, {n})", f"({n}, 1)", "(-1, 1)", f"1, {n}"]
    opts += [f"({d}, {n // d})" for d in (2, 3) if n and n % d == 0]
    return rng.choice(opts)


def fill(rng: random.Random, template: str, vars_: list, k: int) -> Statement | None:
    """A statement from ``template`` (None if no variable fits it)."""
    x = _pick(rng, vars_)
    if x is None:
        return None
    same = _pick(rng, vars_, lambda v: v.shape == x.shape and v.name != x.name)
    y = same if same and rng.random() < 0.6 else _pick(rng, vars_)
    z = _pick(rng, vars_, lambda v: v.shape in (x.shape, ())) or y
    g = _pick(rng, vars_, lambda v: v.requires_grad)
    leaf = _pick(rng, vars_, lambda v: v.requires_grad and v.is_leaf)
    if ("{g}" in template and g is None) or ("{leaf}" in template and leaf is None):
        return None
    if "{g}" in template:
        x = g
    nd = len(x.shape)
    d = rng.randrange(-nd, nd) if nd else rng.choice([0, -1])
    scalars = [rng.choice(SCALARS), rng.choice(SCALARS)]
    other = y.name if rng.random() < 0.65 else scalars[0]
    size = x.shape[d] if nd else 1
    vals = {
        "x": x.name, "y": y.name, "z": z.name, "g": g.name if g else "", "other": other,
        "leaf": leaf.name if leaf else "", "d": d, "d2": rng.randrange(-nd, nd) if nd else 0,
        "bd": rng.choice([nd + 1, -nd - 2, 5]), "s": scalars[0], "s2": scalars[1],
        "n": rng.randint(1, 3), "k": rng.randint(1, max(size, 1)),
        "dt": "lib." + rng.choice(DTYPES), "red": repr(rng.choice(["mean", "sum", "none"])),
        "shape": _shape_for(rng, int(np.prod(x.shape, dtype=int))),
        "bshape": rng.choice(["(7,)", "(3, 5, 7)", "-2", "(2, -1, -1)"]),
        "perm": "(" + ", ".join(map(str, rng.sample(range(nd), nd))) + ("," if nd == 1 else "")
        + ")", "idx": fuzz_index.index(rng, x), "aidx": fuzz_index.index_tuple(rng, x),
        "val": rng.choice([scalars[1], scalars[1], f"{y.name}", "lib.tensor(2., requires_grad=True)"]),
        "inplace1": rng.choice(T.INPLACE_UNARY), "inplace2": rng.choice(T.INPLACE_BINARY),
        "inplacefn": rng.choice(T.INPLACE_FUNCTIONS),
    }
    body = template.format(**vals)
    op = operation(template)
    if op in ("{inplace1}", "{inplace2}", "{inplacefn}"):
        op = vals[op[1:-1]]
    return statement(body, op, scalars)


def statement(body: str, op: str, scalars: list = ()) -> Statement:
    """A statement of ``body``: the variables it reads (the first is its target when it has no
    assignment) and the scalars of ``scalars`` it passes."""
    names = list(dict.fromkeys(re.findall(r"\bv\d+\b", body)))
    used = [s for s in scalars if re.search(r"(?<![\w.])" + re.escape(s) + r"(?![\w.])", body)]
    return Statement(body, op, names, names[0] if names else None, used)


def cnn(rng: random.Random, vars_: list) -> Statement | None:
    """A convolution, pooling or normalisation call (``fuzz_cnn``), on an image variable
    mostly."""
    images = [v for v in vars_ if len(v.shape) in (3, 4)]
    x = rng.choice(images) if images and rng.random() < 0.8 else _pick(rng, vars_)
    if x is None:
        return None
    build = rng.choices(*zip(*fuzz_cnn.BUILDERS))[0]
    body = build(rng, x)
    return statement(body, re.search(r"(F\.\w+|nn\.\w+)", body).group(1))


def next_statement(rng: random.Random, vars_: list, k: int, probes: float = 0.08) -> Statement:
    """The next statement: an assignment to ``v<k>``, a whole statement, or a bad-input probe."""
    for _ in range(20):
        r = rng.random()
        if r < probes:
            st = fill(rng, rng.choice(T.PROBES), vars_, k)
            if st:
                st.code, st.probe, st.target = f"v{k} = {st.code}", True, f"v{k}"
                return st
            continue
        if r < probes + 0.3:
            template = rng.choices(*zip(*T.STATEMENTS))[0]
            st = fill(rng, template, vars_, k)
        else:
            topic = rng.choices(list(T.TOPIC_WEIGHTS), list(T.TOPIC_WEIGHTS.values()))[0]
            if topic == "cnn":
                st = cnn(rng, vars_)
            else:
                template = rng.choices(*zip(*T.TEMPLATES[topic]))[0]
                st = fill(rng, template, vars_, k)
            if st:
                st.code, st.target = f"v{k} = {st.code}", f"v{k}"
        if st:
            return _with_mode(rng, st)
    return Statement(f"v{k} = lib.zeros(1)", "zeros", target=f"v{k}")


def _with_mode(rng: random.Random, st: Statement) -> Statement:
    r = rng.random()
    for limit, mode in ((0.08, "no_grad"), (0.11, "enable_grad"), (0.13, "inference_mode"),
                        (0.15, "set_grad_enabled(False)")):
        if r < limit:
            call = mode if "(" in mode else mode + "()"
            st.code, st.mode = f"with lib.{call}: {st.code}", mode.split("(")[0]
            break
    return st
