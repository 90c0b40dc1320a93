"""The stepper's teaching features in a real JupyterLab: what only a browser can show.

One notebook with four steppers: a fork (the chain-rule panel and the contributions, and a
snapshot of its first step that stays there), a prediction quiz (a click on a node of the drawing is the learner's guess), a Chinese
stepper (every button and the counter come from Python's catalogue), and a custom backward
that raises (the node turns red, the counter says where it failed, Back still works). The
logic is tested without a browser in tests/widgets/test_stepper_teaching.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from labserver import notebook_fixtures
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SETUP = f"""\
import json
import sys

import minigrad as torch
from minigrad_widgets import BackwardStepper

sys.path.insert(0, {str(Path(__file__).parents[1])!r})  # tests/: its helpers
from helpers import custom_functions

TwoGrads = custom_functions(torch)["TwoGrads"]  # a backward returning one gradient too many"""
CELLS = [
    SETUP,
    "x = torch.tensor([1., 2.], requires_grad=True)\nw = torch.tensor([3., 4.], "
    "requires_grad=True)\ny = x * w\nloss = (y * y + x).sum()",
    "fork = BackwardStepper(loss, retain_graph=True)\nfork",
    "fork.step()\nsnap = fork.snapshot()\nfork.back()\nsnap",
    "quiz = BackwardStepper(loss, predict=True, retain_graph=True)\nquiz",
    "zh = BackwardStepper(loss, lang='zh', retain_graph=True)\nzh",
    "v = torch.tensor([1., 2.], requires_grad=True)\nu = torch.tensor([3., 4.], "
    "requires_grad=True)\nbad = BackwardStepper((TwoGrads.apply(v * 3) * u).sum())\nbad",
    'print(json.dumps({"score": list(quiz.score), "quiz": quiz.step_index, '
    '"bad": bad.counter, "u_grad": str(u.grad), "v_grad": str(v.grad)}))',
]
FORK, SNAP, QUIZ, ZH, BAD, STATE = 2, 3, 4, 5, 6, 7


notebook, page_stays_clean = notebook_fixtures("teaching.ipynb", CELLS, count=5)


def widget(notebook, cell: int):
    return notebook.page.locator(".jp-Notebook .jp-Cell").nth(cell).locator(".mg-kind-stepper")


def state(notebook) -> dict:
    return json.loads(notebook.run_cell(STATE))


def test_step_shows_the_chain_rule_with_numbers_and_the_sum_at_a_fork(notebook):
    fork = widget(notebook, FORK)
    step = fork.get_by_role("button", name="Step", exact=True)
    for _ in range(4):  # Sum, Add, Mul (y * y), then Mul (x * w): y's two edges meet there
        step.click()
    expect(fork.locator(".mg-counter")).to_have_text("step 4 / 6")
    rule = fork.locator(".mg-section-rule")
    expect(rule).to_contain_text("y = x * w")  # the learner's names, not the rule's letters
    expect(rule).to_contain_text("grad_x = grad * w = [ 6., 16.] * [3., 4.] = [18., 64.]")
    contrib = fork.locator(".mg-section-contrib")
    expect(contrib).to_contain_text("[3., 8.]  ← from MulBackward0 #2, edge 1")
    expect(contrib).to_contain_text(
        "summed where the 2 paths meet (before this node runs) = [ 6., 16.]")
    notebook.screenshot("stepper-chain-rule.png", fork)
    snap = widget(notebook, SNAP)  # a snapshot of step 1 keeps showing step 1, without buttons
    expect(snap.locator(".mg-counter")).to_have_text("step 1 / 6")
    expect(snap.locator(".mg-panel-title")).to_have_text("Step 1/6: SumBackward0")
    expect(snap.locator(".mg-graph g.node.mg-current")).to_contain_text("SumBackward0")
    expect(snap.locator(".mg-toolbar").get_by_role("button")).to_have_count(0)
    expect(snap.get_by_role("button")).to_have_count(4)  # only the zoom: −, 1:1, +, fit


def test_clicking_a_node_in_prediction_mode_gives_feedback(notebook):
    quiz = widget(notebook, QUIZ)
    feedback = quiz.locator(".mg-section-predict")
    expect(feedback).to_contain_text("Which node runs next?")
    quiz.locator(".mg-graph svg g.node#n4").click()  # the leaf x: not ready yet
    expect(feedback).to_contain_text("still waits for gradients from")
    expect(feedback).to_have_class("mg-section mg-section-predict mg-bad")
    quiz.locator(".mg-graph svg g.node#n1").click()  # SumBackward0: right
    expect(feedback).to_contain_text("Right: SumBackward0 runs next.")
    expect(quiz.locator(".mg-counter")).to_have_text("step 1 / 6")
    assert state(notebook)["score"] == [0, 1] and state(notebook)["quiz"] == 1


def test_a_chinese_stepper_speaks_chinese_in_every_button(notebook):
    zh = widget(notebook, ZH)
    for name in ("重置", "后退", "单步", "运行到底", "播放"):
        expect(zh.get_by_role("button", name=name, exact=True)).to_be_visible()
    expect(zh.get_by_role("button", name="Step", exact=True)).to_have_count(0)
    zh.get_by_role("button", name="单步", exact=True).click()
    expect(zh.locator(".mg-counter")).to_have_text("第 1 步 / 共 6 步")
    expect(zh.locator(".mg-panel-title")).to_have_text("第 1/6 步：SumBackward0")
    expect(zh.locator(".mg-section-rule .mg-section-heading")).to_have_text("链式法则")
    expect(zh.get_by_role("button", name="单步", exact=True)).to_have_attribute(
        "title", "运行 backward() 的下一个节点")


def test_a_backward_that_raises_shows_the_red_node_and_where_it_failed(notebook):
    bad = widget(notebook, BAD)
    bad.get_by_role("button", name="Run", exact=True).click()
    counter = bad.locator(".mg-counter")
    expect(counter).to_have_text("failed at step 4 of 6")
    expect(bad.locator(".mg-graph g.node.mg-error")).to_contain_text("TwoGradsBackward")
    expect(bad.locator(".mg-section-error")).to_contain_text(
        "function TwoGradsBackward returned an incorrect number of gradients")
    expect(bad.get_by_role("button", name="Step", exact=True)).to_be_disabled()
    now = state(notebook)
    assert now["bad"] == "failed at step 4 of 6"
    assert now["u_grad"] == "tensor([ 6., 12.])" and now["v_grad"] == "None"  # u's step ran
    notebook.screenshot("stepper-error.png", bad)
    bad.get_by_role("button", name="Back", exact=True).click()
    expect(counter).to_have_text("step 2 / 6")
    expect(bad.locator(".mg-graph g.node.mg-error")).to_have_count(0)
    assert state(notebook)["u_grad"] == "None"
