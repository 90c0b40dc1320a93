"""The one style table of the drawings: colours, line and shape of every node kind and state.

Everything that draws a node reads :data:`KINDS` and :data:`STATES`: the DOT attributes
(:func:`dot_node_attrs`, what ``draw()`` gives Graphviz's ``dot``), the widget's CSS
(:func:`css`, appended to ``static/widget.css`` for the notebook and for static pages), the
legend (:func:`legend_rows`) and the table of the documentation (:func:`markdown_table`,
which a test compares with ``docs/drawing.md``). Each entry has a colour set per theme
(``light`` and ``dark``): ``fill``, ``stroke`` (outline) and ``text``; the text is at least
4.5:1 against the fill in both (WCAG AA, :func:`contrast`), and no two states differ by
colour alone: each has its own line (solid, dashed, dotted, double) or width.

>>> round(contrast("#ffffff", "#000000"), 1)
21.0
>>> all(contrast(c["fill"], c["text"]) >= 4.5 for s in {**KINDS, **STATES}.values()
...     for theme, c in s.items() if theme in THEMES and c.get("text"))
True
"""

from __future__ import annotations

__all__ = ["THEMES", "KINDS", "STATES", "EDGES", "LABELS", "ARROWS", "contrast",
           "dot_node_attrs", "dot_edge_attrs", "css", "legend_rows", "markdown_table"]

THEMES = ("light", "dark")
ARROWS = ("forward", "backward")  # which way an arrow points (see dot.to_dot)


def _c(fill, stroke, text):
    return {"fill": fill, "stroke": stroke, "text": text}


# node kinds (what a node is): DOT shape, CSS line; a box with square corners is a tensor, a
# rounded one an operation (a backward node)
def _kind(shape: str, line: str, light: tuple, dark: tuple, **more) -> dict:
    """A node kind: its DOT shape, CSS line, (fill, stroke, text) per theme; ``rounded``,
    ``peripheries`` and ``width`` where they differ from a plain box."""
    return {"shape": shape, "rounded": False, "line": line, "width": 1, "light": _c(*light),
            "dark": _c(*dark), **more}


KINDS: dict[str, dict] = {
    "output": _kind("box", "double", ("#caff70", "#4f7a0e", "#1a1a1a"),
                    ("#3d5c14", "#a9e34b", "#eeeeee"), peripheries=2),
    "backward": _kind("box", "solid", ("#e3e3e3", "#5c5c5c", "#1a1a1a"),
                      ("#3a3a3a", "#a0a0a0", "#eeeeee"), rounded=True),
    "leaf": _kind("box", "solid", ("#add8e6", "#2f6f8a", "#1a1a1a"),
                  ("#1f4f66", "#74c0fc", "#eeeeee")),
    "saved": _kind("note", "solid", ("#ffb347", "#a65e00", "#1a1a1a"),
                   ("#7a4a0a", "#ffa94d", "#eeeeee")),
    "chain": _kind("box3d", "solid", ("#e3e3e3", "#5c5c5c", "#1a1a1a"),
                   ("#3a3a3a", "#a0a0a0", "#eeeeee")),
    "more": _kind("box", "dashed", ("#ffffff", "#868e96", "#595959"),
                  ("#111111", "#868e96", "#b0b0b0")),
    "none": _kind("point", "solid", ("#868e96", "#868e96", None), ("#909090", "#909090", None)),
}

# states of a node while backward() is stepped (drawn over the kind's colours)
def _state(line: str, width: float, bold: bool, light: tuple, dark: tuple) -> dict:
    """A node state: its line, width and weight, and (fill, stroke, text) per theme."""
    return {"line": line, "width": width, "bold": bold, "light": _c(*light), "dark": _c(*dark)}


STATES: dict[str, dict] = {
    "pending": _state("dashed", 1, False, ("#f8f9fa", "#868e96", "#495057"),
                      ("#1e1e1e", "#777777", "#c8c8c8")),
    "current": _state("solid", 3, True, ("#fff0e0", "#d9480f", "#1a1a1a"),
                      ("#5c2b0a", "#ff922b", "#ffffff")),
    "done": _state("solid", 1.5, False, ("#e6f6e9", "#2b8a3e", "#1a1a1a"),
                   ("#143d20", "#69db7c", "#ffffff")),
    "error": _state("dotted", 3, True, ("#ffe3e3", "#c92a2a", "#1a1a1a"),
                    ("#5c1414", "#ff6b6b", "#ffffff")),
    "flagged": _state("dashed", 3, True, ("#fff3bf", "#c25e00", "#1a1a1a"),
                      ("#4d3800", "#ffc078", "#ffffff")),
}

# edges by kind, and the states of the edges a gradient travels along
EDGES: dict[str, dict] = {
    "grad": {"line": "solid", "width": 1, "light": "#555555", "dark": "#bbbbbb"},
    "none": {"line": "dashed", "width": 1, "light": "#adb5bd", "dark": "#6c6c6c"},
    "saved": {"line": "dashed", "width": 1, "light": "#cd8500", "dark": "#ffa94d"},
    "more": {"line": "dotted", "width": 1, "light": "#868e96", "dark": "#868e96"},
    "pending": {"line": "dashed", "width": 1, "light": "#adb5bd", "dark": "#6c6c6c"},
    "active": {"line": "solid", "width": 2.5, "light": "#d9480f", "dark": "#ff922b"},
    "done": {"line": "solid", "width": 2, "light": "#2b8a3e", "dark": "#69db7c"},
}

# text drawn on the graph's background: gradients on edges, a leaf's .grad
LABELS: dict[str, dict] = {
    "edge-label": {"light": "#b33c0a", "dark": "#ffa94d"},
    "node-note": {"light": "#1e6e31", "dark": "#8ce99a"},
    "background": {"light": "#ffffff", "dark": "#111111"},
}

_DASH = {"solid": "none", "double": "none", "dashed": "6 3", "dotted": "2 2"}
_DOT_STYLE = {"solid": "", "double": "", "dashed": "dashed", "dotted": "dotted"}


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    def luminance(colour: str) -> float:
        rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# ---------------------------------------------------------------- DOT (the light theme)
def dot_node_attrs(kind: str) -> dict:
    """Graphviz attributes of a node of ``kind`` (light colours; the widget's CSS themes them)."""
    s = KINDS[kind]
    c = s["light"]
    if kind == "none":  # an input that needs no gradient: a small mark, not a box
        return {"shape": "point", "width": "0.09", "fillcolor": c["fill"], "color": c["stroke"],
                "style": "filled"}
    style = ",".join(x for x in ("filled", "rounded" if s["rounded"] else "",
                                 _DOT_STYLE[s["line"]]) if x)
    attrs = {"shape": s["shape"], "style": style, "fillcolor": c["fill"], "color": c["stroke"],
             "fontcolor": c["text"]}
    if s.get("peripheries"):
        attrs["peripheries"] = str(s["peripheries"])
    return attrs


def dot_edge_attrs(kind: str) -> dict:
    """Graphviz attributes of an edge of ``kind`` (light colours)."""
    e = EDGES[kind]
    attrs = {"color": e["light"]}
    if _DOT_STYLE[e["line"]]:
        attrs["style"] = _DOT_STYLE[e["line"]]
    return attrs


# ---------------------------------------------------------------- CSS
_SHAPES = ":is(polygon, path, ellipse)"
_FILLED = ":is(polygon, path, ellipse):not([fill='none'])"
_DARK = ('body[data-jp-theme-light="false"] .mg-widget', 'html[data-theme="dark"] .mg-widget')


def _variables(theme: str) -> str:
    out = []
    for name, s in {**KINDS, **STATES}.items():
        for part, value in s[theme].items():
            if value:
                out.append(f"--mg-{name}-{part}: {value};")
    for name, e in EDGES.items():
        out.append(f"--mg-edge-{name}: {e[theme]};")
    for name, v in LABELS.items():
        out.append(f"--mg-{name}: {v[theme]};")
    return " ".join(out)


def _node_rules(name: str, s: dict, selector: str) -> list[str]:
    width = f"{s['width']}px"
    rules = [f"{selector} {_FILLED} {{ fill: var(--mg-{name}-fill); }}",
             f"{selector} {_SHAPES} {{ stroke: var(--mg-{name}-stroke); stroke-width: {width}; "
             f"stroke-dasharray: {_DASH[s['line']]}; }}"]
    if s["light"]["text"]:
        weight = "bold" if s.get("bold") else "normal"
        rules.append(f"{selector} text {{ fill: var(--mg-{name}-text); font-weight: {weight}; }}")
    return rules


def _swatch_rule(name: str, s: dict) -> str:
    border = "double" if s["line"] == "double" else s["line"]
    width = 3 if s["line"] == "double" else max(1, s["width"])
    radius = "5px" if s.get("rounded") else "0"
    return (f".mg-swatch-{name} {{ background: var(--mg-{name}-fill); color: "
            f"var(--mg-{name}-text, inherit); border: {width}px {border} "
            f"var(--mg-{name}-stroke); border-radius: {radius}; }}")


def css() -> str:
    """The CSS of every node kind, state, edge and label, and their legend swatches."""
    dark = _variables("dark")
    lines = ["/* generated by minigrad_widgets.style from its table: do not edit */",
             f".mg-widget {{ {_variables('light')} }}",
             f"{', '.join(_DARK)} {{ {dark} }}",
             "@media (prefers-color-scheme: dark) { body.mg-standalone .mg-widget "
             f"{{ {dark} }} }}"]
    for name, s in KINDS.items():
        if name != "none":
            lines += _node_rules(name, s, f".mg-graph g.node.mg-{name}")
        lines.append(_swatch_rule(name, s))
    lines.append(".mg-graph g.node.mg-none ellipse { fill: var(--mg-none-fill); "
                 "stroke: var(--mg-none-stroke); }")
    lines.append(".mg-swatch-none { width: 7px; height: 7px; border-radius: 50%; }")
    for name, s in STATES.items():  # after the kinds: a state is drawn over its kind
        lines += _node_rules(name, s, f".mg-graph g.node.mg-{name}")
        lines.append(_swatch_rule(name, s))
    for name, e in EDGES.items():
        edge = f".mg-graph g.edge.mg-{name}"
        if name == "grad":  # the edge into the output tensor is drawn as any other
            edge = ":is(.mg-graph g.edge.mg-grad, .mg-graph g.edge.mg-output)"
        lines.append(f"{edge} path {{ stroke: var(--mg-edge-{name}); stroke-width: "
                     f"{e['width']}px; stroke-dasharray: {_DASH[e['line']]}; }}")
        lines.append(f"{edge} polygon {{ stroke: var(--mg-edge-{name}); "
                     f"fill: var(--mg-edge-{name}); stroke-dasharray: none; }}")
        lines.append(f".mg-swatch-edge-{name} {{ border-top: {max(1, round(e['width']))}px "
                     f"{e['line']} var(--mg-edge-{name}); }}")
    # nothing travels to an input that needs no gradient: its edge keeps its own look
    lines.append(".mg-graph g.edge.mg-none.mg-none path { stroke: var(--mg-edge-none); "
                 "stroke-width: 1px; stroke-dasharray: 6 3; }")
    lines.append(".mg-graph g.edge.mg-none.mg-none polygon { stroke: var(--mg-edge-none); "
                 "fill: var(--mg-edge-none); }")
    lines.append(".mg-graph .mg-edge-label { fill: var(--mg-edge-label); }")
    lines.append(".mg-graph .mg-node-note { fill: var(--mg-node-note); }")
    lines.append(".mg-graph .mg-edge-label, .mg-graph .mg-node-note "
                 "{ stroke: var(--mg-background); }")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- legend and docs
def legend_rows(kind: str, arrows: str = "forward", kinds=None) -> list[list[str]]:
    """``[swatch, catalogue key]`` of each legend row a widget of ``kind`` shows: the node
    kinds drawn (all, if ``kinds`` is None), what an arrow means, and for a stepper
    (``kind="stepper"``) every state and the edges a gradient travels along."""
    rows = [[k, f"view.legend.{k}"] for k in KINDS if kinds is None or k in kinds]
    rows.append([f"edge-grad mg-arrow-{arrows}", f"view.legend.arrow_{arrows}"])
    if kind == "stepper":
        rows += [[s, f"view.legend.{s}"] for s in STATES]
        rows += [["edge-active", "view.legend.edge_active"],
                 ["edge-done", "view.legend.edge_done"]]
    rows += VIEW_ROWS.get(kind, [])
    return rows


# the states the views draw on top of the node kinds (their styles are in static/views.css)
VIEW_ROWS = {"build": [["current", "view.legend.created"]],
             "memory": [["held", "view.legend.held"], ["freed", "view.legend.freed"]]}


def _line_words(s: dict, lang: str) -> str:
    from .i18n import t

    return f"{t('style.line.' + s['line'], lang)}, {s['width']} px"


def markdown_table(lang: str = "en") -> str:
    """The documentation's table of node kinds and states, from this table and the catalogue."""
    from .i18n import t

    head = t("style.table_head", lang).split("|")
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, s in {**KINDS, **STATES}.items():
        line = "—" if name == "none" else _line_words(s, lang)
        shape = s["shape"] if name in KINDS else "—"
        if s.get("rounded"):
            shape += ", " + t("style.rounded", lang)
        cells = [name, t(f"view.legend.{name}", lang), shape, line]
        for theme in THEMES:
            c = s[theme]
            text = t("style.on", lang, text=c["text"], fill=c["fill"],
                     ratio=f"{contrast(c['fill'], c['text']):.1f}") if c["text"] \
                else f"`{c['fill']}`"
            cells.append(text)
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":  # python -m minigrad_widgets.style [en|zh]: the docs' table
    import sys

    print(markdown_table(sys.argv[1] if len(sys.argv) > 1 else "en"), end="")
