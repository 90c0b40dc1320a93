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
    "rule.not_needed": "grad_{name}: not needed ({name} needs no gradient)",
    "rule.sum_to": "summed over dim {dims}, back to the shape of {name}, {shape} (the forward "
                   "pass broadcast {name} to {big}) = {value}",
    "rule.scale": "{name} = {value}: the gradient is multiplied by {value}",
    "contrib.start": "the gradient backward() starts with",
    "contrib.from": "from {node}, edge {edge}",
    "contrib.sum": "summed where the {n} paths meet (before this node runs) =",
    "contrib.more": "… and {n} more",
    "acc.same": "variable is {name} ✓",
    "acc.different": "variable is not {name} ✗",
    "acc.unknown": "variable: a leaf with no name",
    "acc.ids": "id {a} and id {b}",
    "acc.grad_in": "grad in: {value}",
    "acc.before": "{name}.grad before: {value}",
    "acc.after": "{name}.grad after:  {value}",
    "acc.rule": "gradient accumulation: {name}.grad adds what arrives to what it holds, so it "
                "adds up across backward() calls",
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
    "predict.right_tie": "Right: {expected} runs next. {nodes} was ready too: leaves whose "
                         "gradients have all arrived are a tie, so either order is right "
                         "(here the engine's priority queue, a binary heap, chose {expected}).",
    "predict.tie": "Right: {guess} is ready. It and {nodes} are leaves whose gradients have "
                   "all arrived: a tie, so either order is right. The engine's priority queue "
                   "(a binary heap) hands out {expected} first, so the stepper ran {expected} "
                   "and then {guess}.",
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
    # --- graph model: node labels, text forms, notes of shortened graphs ---
    "graph.output": "output",
    "graph.leaf": "{name} (leaf)",
    "graph.saved_is": "is {name}",
    "graph.freed": "{attr}: freed",
    "graph.heading": "{title}: {count} nodes",
    "graph.shown": " ({shown} shown)",
    "graph.see_above": "(see above)",
    "graph.more_lines": "… {n} more lines",
    "graph.collapsed": "large graph ({total} nodes): collapsed {summary}",
    "graph.more_chains": " and {n} more chains",
    "graph.truncated": "graph truncated: showing the first {shown} of {total} nodes",
    "graph.not_drawn": "nodes not drawn",
    "graph.notes": "{first}; {second}",
    "style.table_head": "name|meaning|shape|line|light theme: text on fill, contrast|"
                        "dark theme: text on fill, contrast",
    "style.on": "`{text}` on `{fill}`, {ratio}:1",
    "style.rounded": "rounded",
    "style.line.solid": "solid",
    "style.line.double": "double",
    "style.line.dashed": "dashed",
    "style.line.dotted": "dotted",
    # --- view: drawing, legend, offline pages ---
    "view.nothing": "Nothing to draw yet.",
    "view.too_large": "This graph has {count} nodes; drawing stops at {max}.",
    "view.laying_out": "Laying out the graph…",
    "view.layout_failed": "Could not lay out the graph: {error}",
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
    "view.legend.flagged": "look here: a gradient check failed, or a NaN/inf gradient "
                           "starts here",
    "view.legend.chain": "a run of identical nodes, drawn as one",
    "view.legend.more": "nodes not drawn",
    "view.legend.arrow_forward": "arrow a → b: a was an input of b in the forward pass "
                                 "(gradients travel against the arrows)",
    "view.legend.arrow_backward": "arrow a → b: the gradient travels from a to b "
                                  "(the backward pass)",
    "view.legend.edge_active": "edge a gradient travels along now",
    "view.legend.edge_done": "edge a gradient has travelled along (its value beside it)",
    "view.graph_label": "autograd graph, {count} nodes",
    "view.node_label": "{text}; {kind}",
    "view.node_state": "{label}; {state}",
    "view.zoom_in": "Zoom in",
    "view.zoom_out": "Zoom out",
    "view.zoom_fit": "Fit the drawing",
    "view.zoom_reset": "Actual size",
    "view.edge_labels": "Gradients on edges",
    "view.edge_sizes": "Edge width = gradient size",
    "view.heat_table": "Values",
    "view.heat_hover": "Point at a cell to read its value",
    "view.leaf_grad": ".grad = {value}",
    "view.more_nodes": "… {count} more nodes",
    "view.window": "large graph ({total} nodes): showing {shown} around the current node",
    "view.static_missing": "The graph needs the minigrad_widgets front end, stored with the "
                           "first widget of this page; run that cell again to show it here.",
    "view.page_title": "minigrad_widgets: {title}",
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
    "button.toolbar": "反向传播（backward()）单步执行器",
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
    "panel.cannot_start": "这个单步执行器无法开始",
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
    "rule.not_needed": "grad_{name}：不需要计算（{name} 不需要梯度）",
    "rule.sum_to": "沿第 {dims} 维求和，变回 {name} 的形状 {shape}（前向计算时 {name} 被广播成了 "
                   "{big}）= {value}",
    "rule.scale": "{name} = {value}：梯度乘以 {value}",
    "contrib.start": "backward() 的起始梯度",
    "contrib.from": "来自 {node}，第 {edge} 条边",
    "contrib.sum": "多路径梯度相加：{n} 份梯度在本节点运行前求和 =",
    "contrib.more": "… 另外还有 {n} 个",
    "acc.same": "variable 就是 {name} ✓",
    "acc.different": "variable 不是 {name} ✗",
    "acc.unknown": "variable：一个没有名字的叶子节点",
    "acc.ids": "id {a} 与 id {b}",
    "acc.grad_in": "流入的梯度：{value}",
    "acc.before": "{name}.grad 之前：{value}",
    "acc.after": "{name}.grad 之后：{value}",
    "acc.rule": "梯度累加：{name}.grad 把流入的梯度加到原有的值上，所以多次 backward() 会不断累加",
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
                  "创建单步执行器）",
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
    "predict.right_tie": "对了：下一个运行的是 {expected}。{nodes} 也已就绪：梯度已到齐的"
                         "叶子节点之间没有先后规则，哪个先都算对（这次引擎的优先队列，即二叉堆，"
                         "选了 {expected}）。",
    "predict.tie": "对了：{guess} 已经就绪。它和 {nodes} 都是梯度已到齐的叶子节点，没有先后"
                   "规则，哪个先都算对。引擎的优先队列（二叉堆）先取出 {expected}，所以单步执行器"
                   "先运行了 {expected}，然后运行 {guess}。",
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
    # --- graph model: node labels, text forms, notes of shortened graphs ---
    "graph.output": "输出",
    "graph.leaf": "{name}（叶子节点）",
    "graph.saved_is": "即 {name}",
    "graph.freed": "{attr}：已释放",
    "graph.heading": "{title}：{count} 个节点",
    "graph.shown": "（显示 {shown} 个）",
    "graph.see_above": "（见上文）",
    "graph.more_lines": "… 还有 {n} 行",
    "graph.collapsed": "计算图较大（共 {total} 个节点）：已折叠 {summary}",
    "graph.more_chains": "，以及另外 {n} 条链",
    "graph.truncated": "计算图已截断：只显示前 {shown} 个节点（共 {total} 个）",
    "graph.not_drawn": "未画出的节点",
    "graph.notes": "{first}；{second}",
    "style.table_head": "名称|含义|形状|线条|浅色主题：文字/填充，对比度|"
                        "深色主题：文字/填充，对比度",
    "style.on": "文字 `{text}`，填充 `{fill}`，{ratio}:1",
    "style.rounded": "圆角",
    "style.line.solid": "实线",
    "style.line.double": "双线",
    "style.line.dashed": "虚线",
    "style.line.dotted": "点线",
    # --- view: drawing, legend, offline pages ---
    "view.nothing": "还没有可画的内容。",
    "view.too_large": "这个计算图有 {count} 个节点；最多只画 {max} 个。",
    "view.laying_out": "正在排布计算图…",
    "view.layout_failed": "无法排布计算图：{error}",
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
    "view.legend.flagged": "注意这里：梯度检查未通过，或 NaN/inf 梯度从这里开始",
    "view.legend.chain": "一串相同的节点，画成一个",
    "view.legend.more": "没有画出的节点",
    "view.legend.arrow_forward": "箭头 a → b：前向计算中 a 是 b 的输入（梯度逆着箭头流动）",
    "view.legend.arrow_backward": "箭头 a → b：梯度从 a 流向 b（反向传播）",
    "view.legend.edge_active": "梯度正在流经的边",
    "view.legend.edge_done": "梯度已经流过的边（旁边写着它的值）",
    "view.graph_label": "计算图，共 {count} 个节点",
    "view.node_label": "{text}；{kind}",
    "view.node_state": "{label}；{state}",
    "view.zoom_in": "放大",
    "view.zoom_out": "缩小",
    "view.zoom_fit": "适应绘图区",
    "view.zoom_reset": "原始大小",
    "view.edge_labels": "在边上显示梯度",
    "view.edge_sizes": "边的粗细表示梯度大小",
    "view.heat_table": "数值",
    "view.heat_hover": "把鼠标移到格子上可查看它的数值",
    "view.leaf_grad": "梯度 .grad = {value}",
    "view.more_nodes": "… 还有 {count} 个节点",
    "view.window": "计算图较大（共 {total} 个节点）：只显示当前节点附近的 {shown} 个",
    "view.static_missing": "显示计算图需要 minigrad_widgets 的前端代码，它保存在本页第一个部件的"
                           "输出里；请重新运行那个单元格。",
    "view.page_title": "minigrad_widgets：{title}",
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
