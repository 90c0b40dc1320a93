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
    "view.dot_missing": "rendering a drawing to a file needs Graphviz's `dot` program, which "
                        "is not installed: apt-get install graphviz (Debian, Ubuntu), brew "
                        "install graphviz (macOS) or conda install graphviz. In a notebook, "
                        "draw(...) shows the graph without it.",
}

ZH: dict[str, str] = {
    # --- stepper: buttons, panel, text form ---
    "button.step": "单步",
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
    "view.zoom_in": "放大",
    "view.zoom_out": "缩小",
    "view.zoom_fit": "适应宽度",
    "view.zoom_reset": "原始大小",
    "view.edge_labels": "在边上显示梯度",
    "view.leaf_grad": ".grad = {value}",
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
