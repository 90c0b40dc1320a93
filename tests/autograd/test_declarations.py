"""Each op is declared once: its node class holds its backward and the rule the panel shows.

Issue 19: every node class has readable source (``inspect.getsource``), the rule text lives in
the class's own source and nowhere else, no docstring is rewritten at import, and the panel's
rule for a node is its class's declaration.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

import numpy as np
from helpers import custom_functions
from op_table import OPS, first_output, sample  # tests/ops, on the path by tests/conftest.py

import minigrad as mg
from minigrad.autograd import engine
from minigrad.autograd._rule import Rule
from minigrad.autograd.derivatives import CUSTOM, RULES, class_name, node_classes, rule_for

PACKAGE = Path(mg.__file__).parent


def _class_def(cls) -> ast.ClassDef:
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    node = tree.body[0]
    assert isinstance(node, ast.ClassDef)
    return node


def test_every_node_class_has_readable_source():
    classes = node_classes()
    assert len(classes) > 200
    for cls in classes:
        node = _class_def(cls)  # raises OSError/TypeError for a class made with type()
        assert node.name == cls.__qualname__.rsplit(".", 1)[-1], cls


def test_each_rule_is_written_in_its_own_class():
    for cls in node_classes():
        rule = cls.__dict__.get("rule")
        if rule is None:
            continue
        assert isinstance(rule, Rule), cls
        body = _class_def(cls).body
        assigned = [s for s in body if isinstance(s, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "rule" for t in s.targets)]
        assert len(assigned) == 1, cls
        assert isinstance(assigned[0].value, ast.Call), cls  # a literal _r(...), not a lookup


def test_every_node_type_has_a_rule_from_its_class_or_a_base_class():
    for cls in node_classes():
        if cls._custom:
            continue
        assert isinstance(getattr(cls, "rule", None), Rule), cls
    assert len(RULES) > 200


def test_no_rule_text_is_kept_outside_a_node_class():
    """Every ``_r(...)`` call in the package sits in the body of a class (its declaration);
    the one exception is CUSTOM, the rule shown for a custom Function."""
    outside = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "_rule.py":  # (where Rule and _r are defined)
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                inside.update(id(n) for n in ast.walk(node))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("_r", "Rule") \
                    and id(node) not in inside:
                outside.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert [o.split(":")[0] for o in outside] == ["autograd/derivatives.py"], outside  # CUSTOM


def test_no_docstring_is_rewritten_at_import():
    for cls in node_classes():
        assert cls.__dict__.get("__doc__") == ast.get_docstring(_class_def(cls), clean=False) \
            or inspect.cleandoc(cls.__doc__ or "") == inspect.cleandoc(
                ast.get_docstring(_class_def(cls)) or ""), cls


def test_the_panel_rule_of_a_node_is_its_class_declaration():
    seen = set()
    for case in OPS:
        if not case.differentiable:
            continue
        xs = [mg.tensor(a, requires_grad=True) for a in sample(case, np.random.default_rng(0))]
        out = first_output(case.minigrad(*xs))
        for node in engine.execution_order(out.sum()):
            rule = rule_for(node)
            assert rule is type(node).rule, node.name()
            seen.add(node.name())
    assert len(seen) > 70


def test_the_panel_shows_what_the_class_declares(monkeypatch):
    from minigrad_widgets import BackwardStepper

    from minigrad._ops.arithmetic import MulBackward0

    changed = Rule("z = a TIMES b", {"a": "grad * b", "b": "grad * a"}, {"a": "self", "b": "other"})
    monkeypatch.setattr(MulBackward0, "rule", changed)
    x = mg.tensor(2., requires_grad=True)
    stepper = BackwardStepper(x * 3.5, names={"x": x})
    stepper.step()
    rule = next(s for s in stepper.panel["sections"] if s["kind"] == "rule")["lines"]
    text = " ".join(str(r) for r in rule)
    assert "TIMES" in text


def test_a_pytorch_node_gets_the_rule_of_minigrads_class_of_that_name():
    class Fake:  # a PyTorch node as the widgets see it: only name()
        def name(self):
            return "MulBackward0"

    from minigrad._ops.arithmetic import MulBackward0

    assert rule_for(Fake()) is MulBackward0.rule
    assert RULES[class_name(MulBackward0)] is MulBackward0.rule


def test_a_custom_function_node_shows_its_own_backward():
    square = custom_functions(mg)["Square"]  # (tests/helpers.py: written once for the tests)
    y = square.apply(mg.ones(2, requires_grad=True))
    assert rule_for(y.grad_fn) is CUSTOM


# ---------------------------------------------------------------- backwards written from rules
def _formula_classes():
    from minigrad.autograd.formulas import _formula_rule

    return [c for c in node_classes() if _formula_rule(c) is not None]


def test_every_backward_has_readable_source():
    for cls in node_classes():
        source = inspect.getsource(cls.backward)  # raises OSError where nothing can be shown
        assert source.lstrip().startswith("def backward"), cls


def test_a_generated_backward_shows_the_code_written_from_its_rule():
    from minigrad.autograd.formulas import backward_source, generated

    written = [c for c in _formula_classes() if generated(c)]
    assert len(written) >= 20
    for cls in written:
        assert inspect.getsource(cls.backward) == backward_source(cls), cls
        assert not cls.rule.np, cls  # the text shown is the text that runs: no second spelling


def test_formula_rules_with_a_hand_written_backward_are_the_listed_ones():
    """A class whose rule is a formula gets its backward from it, except the classes listed in
    docs/reading-backward.md ("Backwards written by hand") with the reason."""
    from minigrad.autograd.formulas import generated

    listed = set(HAND_WRITTEN_SECTION.findall(_hand_written_section()))
    formula = {class_name(c): c for c in _formula_classes()}
    by_hand = {name for name, c in formula.items() if not generated(c)}
    assert by_hand <= listed, sorted(by_hand - listed)
    # (and a class converted since is no longer listed: the list is what is still by hand)
    assert listed & set(formula) == by_hand, sorted(listed & set(formula) - by_hand)


def _hand_written_section() -> str:
    page = (PACKAGE.parent / "docs" / "reading-backward.md").read_text(encoding="utf-8")
    start = page.index("## Backwards written by hand")
    end = page.find("\n## ", start + 1)
    return page[start:end if end > 0 else None]


HAND_WRITTEN_SECTION = __import__("re").compile(r"`((?:torch::autograd::)?\w+)`")


def test_changing_a_rule_changes_the_backward_that_runs():
    from minigrad.autograd._rule import _r
    from minigrad.autograd.graph import Node

    def node_of(rule):
        cls = type(Node)("_CubeBackward0", (Node,),  # (private: node_classes() skips it)
                         {"rule": rule, "saved": ("self",), "__module__": __name__})
        node = cls()
        node._s_self = 2.0
        node._next_nodes = (None,)
        return cls, node

    first, n1 = node_of(_r("z = a**3", {"a": "self"}, a="grad * 3 * a**2"))
    second, n2 = node_of(_r("z = a**3", {"a": "self"}, a="grad * a"))
    assert n1.backward(np.array(1.))[0] == 12.0
    assert n2.backward(np.array(1.))[0] == 2.0
    assert "mul_number(grad, 3)" in inspect.getsource(first.backward)
    assert "mul_number" not in inspect.getsource(second.backward)


def test_numbers_in_a_formula_record_what_pytorchs_formula_records(torch):
    """Second order: ``2 * z`` records MulBackward1 (mul(Tensor, Scalar)), ``grad / n``
    DivBackward1, ``1 - z`` RsubBackward1, as PyTorch's C++ formulas do."""
    def graph(L, f):
        x = L.tensor([0.25, 0.5], requires_grad=True)
        (g,) = L.autograd.grad(f(x).sum(), x, create_graph=True)
        names, stack = [], [g.grad_fn]
        while stack:
            node = stack.pop()
            if node is not None:
                names.append(node.name())
                stack.extend(n for n, _ in node.next_functions)
        return names

    for f in (lambda x: x.sqrt(), lambda x: x.mean() * x, lambda x: x * 2 - 1,
              lambda x: 1 - x * x, lambda x: x.cos()):
        assert graph(mg, f) == graph(torch, f)
