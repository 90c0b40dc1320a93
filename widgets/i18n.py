"""Every string the widgets show, in one catalogue per language (English and Simplified Chinese).

``t(key, **values)`` looks a string up in the current language (``set_language("zh")`` sets the
default; each widget's ``lang=`` overrides it) and fills in ``{placeholders}``.

>>> t("button.step", lang="zh")
'单步'
>>> t("button.step", lang="en")
'Step'
"""

from __future__ import annotations

__all__ = ["LANGUAGES", "CATALOGUE", "t", "set_language", "get_language", "front_end_strings"]

LANGUAGES = ("en", "zh")

EN: dict[str, str] = {
    # --- stepper: buttons, panel, text form ---
    "button.step": "Step",
    "button.reset": "Reset",
    "button.back": "Back",
    "button.run": "Run",
    "button.play": "Play",
    "button.pause": "Pause",
    "button.speed": "Speed",
    "button.speed_unit": "{speed} steps/s",
    "button.toolbar": "backward() stepper",
    "button.reset_tip": "Undo every step: back to before backward()",
    "button.back_tip": "Undo the last step",
    "button.step_tip": "Run the next node of backward()",
    "button.run_tip": "Run every remaining step",
    "button.play_tip": "Step automatically at the chosen speed",
    "button.node_tip": "Click the node you think runs next",
    "counter.step": "step {index} / {total}",
    "counter.failed": "failed at step {index} of {total}",
    "counter.cannot": "cannot start",
    "panel.title": "Step {index}/{total}: {name}",
    "panel.failed_title": "Step {index}/{total} failed: {name}",
    "panel.cannot_start": "This stepper cannot start",
    "panel.rule": "Chain rule",
    "panel.contrib": "Gradients that arrived",
    "panel.check": "Numerical check",
    "panel.flag": "Look here",
    "panel.error": "Error",
    "panel.predict": "Your prediction",
    "panel.no_grad": "None (needs no gradient)",
    "panel.grads_in": "grads in (one per output of the forward op):",
    "panel.grads_out": "grads out (one per next_functions entry):",
    "rule.unknown": "{name}: no rule for this node in the table",
    "rule.custom": "{name}.backward: your backward computed these gradients",
    "rule.where": "where {values}",
    "contrib.start": "the gradient backward() starts with",
    "contrib.from": "from {node}, edge {edge}",
    "contrib.sum": "sum of the {n} (gradient accumulation) =",
    "contrib.more": "… and {n} more",
    "acc.same": "variable is {name} ✓",
    "acc.different": "variable is not {name} ✗",
    "acc.unknown": "variable: a leaf with no name",
    "acc.ids": "id {a} and id {b}",
    "acc.grad_in": "grad in: {value}",
    "acc.before": "{name}.grad before: {value}",
    "acc.after": "{name}.grad after:  {value}",
    "flag.nonfinite": "This node sent a NaN or inf gradient although every gradient it "
                      "received was finite: the problem starts here.",
    "check.ok": "your backward agrees with the forward's numerical VJP ✓",
    "check.rule_ok": "the gradients sent agree with the node's rule ✓",
    "check.fd_ok": "the gradients sent agree with the forward's numerical VJP ✓",
    "check.fd_mismatch": "the node sent {sent}; the forward's numerical VJP is {numerical}",
    "check.mismatch": "your backward sent {sent}; the forward's numerical VJP is {numerical}",
    "check.rule_mismatch": "the node sent {sent}; its rule gives {numerical}",
    "check.no_inputs": "not checked: this Function's forward inputs were not kept",
    "check.modified": "not checked: input {index} was modified in place after the forward "
                      "(its version changed), so the forward cannot be run again on the "
                      "values backward used",
    "check.gone": "not checked: input {index} no longer exists (make the stepper with "
                  "check=True while the inputs still exist)",
    "check.too_large": "not checked: the inputs are too large for a numerical check",
    "check.no_rule": "not checked: there is no rule to compare with",
    "error.graph_used": "this graph was already used by backward(); run the cell that "
                        "computes the loss again",
    "error.in_backward": "the backward of {node} raised an error:",
    "error.hint": "Back and Reset still work; every .grad is as it was before this step.",
    "predict.ask": "Which node runs next? Click it in the graph (or call "
                   "stepper.predict(...)).",
    "predict.right": "Right: {expected} runs next. All its gradients have arrived, and of "
                     "the ready nodes it was created last in the forward pass.",
    "predict.right_leaf": "Right: {expected} runs next: a leaf whose gradient has arrived is "
                          "updated at once (AccumulateGrad goes first).",
    "predict.already": "Not {guess}: it has already run.",
    "predict.never": "Not {guess}: backward() never runs it (no gradient is needed there).",
    "predict.waiting": "Not {guess} yet: it still waits for gradients from {nodes}. A node "
                       "runs only once all its gradients have arrived.",
    "predict.leaf_first": "Not {guess}: {expected} goes first, because a leaf whose gradient "
                          "has arrived is updated at once.",
    "predict.leaf_tie": "Not {guess}: it and {expected} are both leaves whose gradient has "
                        "arrived; between ready leaves the engine's priority queue (a binary "
                        "heap) decides, and it hands out {expected} first.",
    "predict.later_first": "Not {guess}: it and {expected} are both ready, and the engine "
                           "runs the node created later in the forward pass first.",
    "predict.finished": "backward() has finished: no node runs next.",
    "predict.failed": "backward() cannot go on from here: press Back or Reset.",
    "start.title": "Before backward()",
    "start.line": "backward() starts at {start} with gradient {grad}",
    "start.count": "{total} nodes to run: press Step to run the first one.",
    "start.itself": "the tensor itself",
    "text.header": "BackwardStepper: step {index} of {total}",
    "text.score": "predictions right: {right} of {asked}",
    "text.earlier": "   … {n} earlier steps",
    "text.more": "   … {n} more steps",
    "text.hidden": "hidden",
    "text.note": "note: {note}",
    "text.leaf": "leaf",
    "text.unnamed_leaf": "(unnamed leaf)",
    "state.done": "done",
    "state.current": "current",
    "state.pending": "pending",
    "state.failed": "failed",
    "build.header": "BuildReplay: step {index} of {total}",
    "build.toolbar": "forward pass replay",
    "build.reset_tip": "Back to before the forward pass",
    "build.step_tip": "Create the next node of the forward pass",
    "build.run_tip": "Create every remaining node",
    "build.start_title": "Before the forward pass",
    "build.start": "The forward pass creates {total} backward nodes: press Step for the first.",
    "build.title": "Step {index}/{total}: {name} is created",
    "build.op": "op: {op}",
    "build.inputs": "inputs: {inputs}",
    "build.makes": "it made: {name}",
    "build.line": "line {line}: {code}",
    "build.size": "backward nodes in the graph so far: {nodes}",
    "build.leaf": "{name} (leaf)",
    "build.from_step": "{name} (step {index})",
    "build.none": "None (needs no gradient)",
    "build.state.done": "created",
    "build.sep": ", ",
    "build.where": "({text})",
    "build.state.current": "new",
    "build.state.pending": "to come",
    "flow.header": "GradientFlow: {steps} steps recorded, {params} parameters",
    "flow.parameter": "parameter",
    "flow.shape": "shape",
    "flow.first": "|grad| first",
    "flow.last": "|grad| last",
    "flow.min": "|grad| min",
    "flow.max": "|grad| max",
    "flow.ratio": "update/weight last",
    "memory.title": "Memory held for backward",
    "memory.total": "the graph holds {size} for backward (saved tensors: {count})",
    "memory.why": "backward() frees it; retain_graph=True keeps it for another backward().",
    "memory.freed_total": "backward() freed the saved tensors: the graph holds {size}",
    "memory.was": "it held {size} before",
    "memory.note_freed": "freed ({size})",
    "memory.freed": "freed",
    "memory.nothing": "saves nothing",
    "memory.counted": " (counted above)",
    # --- view: drawing, legend, offline pages ---
    "view.legend": "Legend",
    "view.legend.output": "output tensor",
    "view.legend.backward": "backward node (grad_fn)",
    "view.legend.leaf": "leaf tensor (shows its .grad once it has one)",
    "view.legend.saved": "tensor saved for backward",
    "view.legend.none": "input that needs no gradient",
    "view.legend.pending": "not run yet",
    "view.legend.current": "running now",
    "view.legend.done": "done",
    "view.legend.error": "raised an error",
    "view.legend.flagged": "gradient check failed",
    "view.legend.gradient": "gradient, drawn the way it travels",
    "view.legend.created": "the node just created",
    "view.legend.held": "holds saved tensors (their bytes above it)",
    "view.legend.freed": "saved tensors freed by backward()",
    "view.zoom_in": "Zoom in",
    "view.zoom_out": "Zoom out",
    "view.zoom_fit": "Fit the width",
    "view.zoom_reset": "Actual size",
    "view.edge_labels": "Gradients on edges",
    "view.leaf_grad": ".grad = {value}",
    "view.more_nodes": "… {count} more nodes",
    "view.window": "large graph ({total} nodes): showing {shown} around the current node",
    "view.static_missing": "The graph needs the minigrad_widgets front end, stored with the "
                           "first widget of this page; run that cell again to show it here.",
    "view.page_title": "minigrad_widgets: {title}",
    "view.flow.grad": "gradient norm |p.grad| of each parameter, {steps} steps (log scale)",
    "view.flow.ratio": "update / weight |Δp| / |p| of each parameter, {steps} steps (log scale)",
    "view.flow.step": "step",
    "view.flow.empty": "No step recorded yet: call flow.record() after optimizer.step().",
    "view.dot_missing": "rendering a drawing to a file needs Graphviz's `dot` program, which "
                        "is not installed: apt-get install graphviz (Debian, Ubuntu), brew "
                        "install graphviz (macOS) or conda install graphviz. In a notebook, "
                        "draw(...) shows the graph without it.",
}

ZH: dict[str, str] = {
    # --- stepper: buttons, panel, text form ---
    "button.step": "单步",
    "button.reset": "重置",
    "button.back": "后退",
    "button.run": "运行到底",
    "button.play": "播放",
    "button.pause": "暂停",
    "button.speed": "速度",
    "button.speed_unit": "每秒 {speed} 步",
    "button.toolbar": "反向传播（backward()）逐步执行器",
    "button.reset_tip": "撤销所有步骤，回到 backward() 之前",
    "button.back_tip": "撤销上一步",
    "button.step_tip": "运行 backward() 的下一个节点",
    "button.run_tip": "运行剩下的所有步骤",
    "button.play_tip": "按所选速度自动逐步运行",
    "button.node_tip": "点击你认为下一个运行的节点",
    "counter.step": "第 {index} 步 / 共 {total} 步",
    "counter.failed": "在第 {index} 步出错（共 {total} 步）",
    "counter.cannot": "无法开始",
    "panel.title": "第 {index}/{total} 步：{name}",
    "panel.failed_title": "第 {index}/{total} 步出错：{name}",
    "panel.cannot_start": "这个逐步执行器无法开始",
    "panel.rule": "链式法则",
    "panel.contrib": "各条边传来的梯度",
    "panel.check": "数值检验",
    "panel.flag": "注意这里",
    "panel.error": "错误",
    "panel.predict": "你的预测",
    "panel.no_grad": "None（不需要梯度）",
    "panel.grads_in": "流入的梯度（前向运算的每个输出一个）：",
    "panel.grads_out": "流出的梯度（next_functions 的每一项一个）：",
    "rule.unknown": "{name}：规则表里没有这个节点的规则",
    "rule.custom": "{name}.backward：这些梯度是你写的 backward 算出来的",
    "rule.where": "其中 {values}",
    "contrib.start": "backward() 的起始梯度",
    "contrib.from": "来自 {node}，第 {edge} 条边",
    "contrib.sum": "{n} 个梯度相加（梯度累加）=",
    "contrib.more": "… 另外还有 {n} 个",
    "acc.same": "variable 就是 {name} ✓",
    "acc.different": "variable 不是 {name} ✗",
    "acc.unknown": "variable：一个没有名字的叶子节点",
    "acc.ids": "id {a} 与 id {b}",
    "acc.grad_in": "流入的梯度：{value}",
    "acc.before": "{name}.grad 之前：{value}",
    "acc.after": "{name}.grad 之后：{value}",
    "flag.nonfinite": "这个节点收到的梯度都是有限值，传出的梯度却含有 NaN 或 inf："
                      "问题就从这里开始。",
    "check.ok": "你的 backward 与前向计算的数值 VJP 一致 ✓",
    "check.rule_ok": "传出的梯度与这个节点的规则一致 ✓",
    "check.fd_ok": "传出的梯度与前向计算的数值 VJP 一致 ✓",
    "check.fd_mismatch": "节点传出的是 {sent}；前向计算的数值 VJP 是 {numerical}",
    "check.mismatch": "你的 backward 传出的是 {sent}；前向计算的数值 VJP 是 {numerical}",
    "check.rule_mismatch": "节点传出的是 {sent}；按它的规则应为 {numerical}",
    "check.no_inputs": "未检验：没有保留这个 Function 前向计算的输入",
    "check.modified": "未检验：第 {index} 个输入在前向计算之后被原地修改过（版本号变了），"
                      "无法用 backward 所用的值重新运行前向计算",
    "check.gone": "未检验：第 {index} 个输入已经不存在了（请在输入还在的时候用 check=True "
                  "创建逐步执行器）",
    "check.too_large": "未检验：输入太大，不适合做数值检验",
    "check.no_rule": "未检验：没有可以比较的规则",
    "error.graph_used": "这个计算图已经被 backward() 用过了；请重新运行计算 loss 的那个单元格",
    "error.in_backward": "{node} 的 backward 抛出了错误：",
    "error.hint": "“后退”和“重置”仍然可用；所有 .grad 都还是这一步之前的值。",
    "predict.ask": "下一个运行的是哪个节点？在图中点击它（或调用 stepper.predict(...)）。",
    "predict.right": "对了：下一个运行的是 {expected}。它的梯度已经全部到齐，"
                     "而在就绪的节点中，它是前向计算里最后创建的。",
    "predict.right_leaf": "对了：下一个运行的是 {expected}：梯度到齐的叶子节点会立即更新"
                          "（AccumulateGrad 优先）。",
    "predict.already": "不是 {guess}：它已经运行过了。",
    "predict.never": "不是 {guess}：反向传播不会运行它（那里不需要梯度）。",
    "predict.waiting": "还轮不到 {guess}：它还在等 {nodes} 传来的梯度。"
                       "一个节点要等所有梯度都到齐才会运行。",
    "predict.leaf_first": "不是 {guess}：{expected} 先运行，因为梯度到齐的叶子节点会立即更新。",
    "predict.leaf_tie": "不是 {guess}：它和 {expected} 都是梯度已到齐的叶子节点；"
                        "就绪的叶子节点之间由引擎的优先队列（二叉堆）决定先后，"
                        "这次先出队的是 {expected}。",
    "predict.later_first": "不是 {guess}：它和 {expected} 都已就绪，"
                           "引擎先运行前向计算中创建得更晚的那个节点。",
    "predict.finished": "反向传播已经结束，没有下一个节点了。",
    "predict.failed": "反向传播无法从这里继续：请按“后退”或“重置”。",
    "start.title": "反向传播开始之前",
    "start.line": "反向传播从 {start} 开始，起始梯度为 {grad}",
    "start.count": "共有 {total} 个节点要运行：按“单步”运行第一个。",
    "start.itself": "这个张量本身",
    "text.header": "BackwardStepper：第 {index} 步，共 {total} 步",
    "text.score": "预测正确：{right}/{asked}",
    "text.earlier": "   … 前面还有 {n} 步",
    "text.more": "   … 后面还有 {n} 步",
    "text.hidden": "未显示",
    "text.note": "注：{note}",
    "text.leaf": "叶子节点",
    "text.unnamed_leaf": "（未命名的叶子节点）",
    "state.done": "已完成",
    "state.current": "当前",
    "state.pending": "待运行",
    "state.failed": "出错",
    "build.header": "BuildReplay：第 {index} 步，共 {total} 步",
    "build.toolbar": "前向计算回放",
    "build.reset_tip": "回到前向计算之前",
    "build.step_tip": "创建前向计算的下一个节点",
    "build.run_tip": "创建剩下的所有节点",
    "build.start_title": "前向计算开始之前",
    "build.start": "这次前向计算会创建 {total} 个反向节点：按“单步”创建第一个。",
    "build.title": "第 {index}/{total} 步：创建了 {name}",
    "build.op": "运算：{op}",
    "build.inputs": "输入：{inputs}",
    "build.makes": "它算出的是：{name}",
    "build.line": "第 {line} 行：{code}",
    "build.size": "到目前为止，计算图中的反向节点：{nodes} 个",
    "build.leaf": "{name}（叶子节点）",
    "build.from_step": "{name}（第 {index} 步）",
    "build.none": "None（不需要梯度）",
    "build.state.done": "已创建",
    "build.sep": "、",
    "build.where": "（{text}）",
    "build.state.current": "刚创建",
    "build.state.pending": "待创建",
    "flow.header": "GradientFlow：已记录 {steps} 步，{params} 个参数",
    "flow.parameter": "参数",
    "flow.shape": "形状",
    "flow.first": "|grad| 第一步",
    "flow.last": "|grad| 最后一步",
    "flow.min": "|grad| 最小",
    "flow.max": "|grad| 最大",
    "flow.ratio": "更新量/权重（最后一步）",
    "memory.title": "为反向传播保留的内存",
    "memory.total": "计算图为反向传播保留了 {size}（{count} 个保存的张量）",
    "memory.why": "backward() 会释放这些内存；retain_graph=True 会留着它们，供再次反向传播。",
    "memory.freed_total": "backward() 已经释放了保存的张量：计算图现在保留 {size}",
    "memory.was": "释放之前是 {size}",
    "memory.note_freed": "已释放（原 {size}）",
    "memory.freed": "已释放",
    "memory.nothing": "没有保存张量",
    "memory.counted": "（上面已计入）",
    # --- view: drawing, legend, offline pages ---
    "view.legend": "图例",
    "view.legend.output": "输出张量",
    "view.legend.backward": "反向节点（grad_fn）",
    "view.legend.leaf": "叶子节点（有梯度后显示它的 .grad）",
    "view.legend.saved": "为反向传播保存的张量",
    "view.legend.none": "不需要梯度的输入",
    "view.legend.pending": "尚未运行",
    "view.legend.current": "正在运行",
    "view.legend.done": "已完成",
    "view.legend.error": "运行出错",
    "view.legend.flagged": "梯度检查未通过",
    "view.legend.gradient": "梯度，箭头指向它流动的方向",
    "view.legend.created": "刚创建的节点",
    "view.legend.held": "保存着张量（上方标出字节数）",
    "view.legend.freed": "保存的张量已被 backward() 释放",
    "view.zoom_in": "放大",
    "view.zoom_out": "缩小",
    "view.zoom_fit": "适应宽度",
    "view.zoom_reset": "原始大小",
    "view.edge_labels": "在边上显示梯度",
    "view.leaf_grad": "梯度 .grad = {value}",
    "view.more_nodes": "… 还有 {count} 个节点",
    "view.window": "计算图较大（共 {total} 个节点）：只显示当前节点附近的 {shown} 个",
    "view.static_missing": "显示计算图需要 minigrad_widgets 的前端代码，它保存在本页第一个部件的"
                           "输出里；请重新运行那个单元格。",
    "view.page_title": "minigrad_widgets：{title}",
    "view.flow.grad": "每个参数的梯度范数 |p.grad|，共 {steps} 步（对数坐标）",
    "view.flow.ratio": "每个参数的更新量与权重之比 |Δp| / |p|，共 {steps} 步（对数坐标）",
    "view.flow.step": "步数",
    "view.flow.empty": "还没有记录：在 optimizer.step() 之后调用 flow.record()。",
    "view.dot_missing": "把图渲染成文件需要 Graphviz 的 `dot` 程序，但它没有安装：apt-get "
                        "install graphviz（Debian、Ubuntu）、brew install graphviz（macOS）或 "
                        "conda install graphviz。在 notebook 里，draw(...) 不需要它也能"
                        "显示计算图。",
}

CATALOGUE = {"en": EN, "zh": ZH}

_default = ["en"]


def set_language(lang: str) -> None:
    """Sets the language of every widget made from now on (``"en"`` or ``"zh"``)."""
    _check(lang)
    _default[0] = lang


def get_language() -> str:
    """The language widgets use when none is given."""
    return _default[0]


def _check(lang: str) -> None:
    if lang not in CATALOGUE:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, got {lang!r}")


def t(key: str, lang: str | None = None, **values) -> str:
    """The string ``key`` in ``lang`` (default: the current language), formatted with ``values``."""
    lang = lang or _default[0]
    _check(lang)
    return CATALOGUE[lang][key].format(**values)


def front_end_strings(lang: str | None = None) -> dict[str, str]:
    """The strings the browser side shows (the ``view.`` ones), for a widget's ``strings``."""
    lang = lang or _default[0]
    _check(lang)
    return {key: text for key, text in CATALOGUE[lang].items() if key.startswith("view.")}
