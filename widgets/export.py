"""Widgets outside a kernel: self-contained pages, and the static HTML in every widget's display.

:func:`page` is what ``to_html()``/``save_html()`` write: one HTML file holding the front end
(``static/widget.js``, Graphviz in WebAssembly included), its CSS, and the widget's synced
state; for a stepper, the state at every step (as changes from the step before), so that
Reset, Back, Step, Run and Play work in a browser with no kernel and no network. Every synced
trait of the widget is recorded, whatever it is: what the panel shows comes along by itself.

:func:`fragment` is the ``text/html`` each widget adds to its display data, which nbconvert,
nbviewer and documentation builders show where no live widget can run. It holds the widget's
text form (shown as it is where scripts do not run), its recorded state, and a small loader.
The 800 KB front end is carried by only one output per page: the first widget displayed in
the kernel (again after that cell is run again). The loader of every other output finds it
there, so an exported lesson holds the bundle once (see :func:`carry_bundle`).

An exported notebook shows these static views when it holds no widget state: the default of
JupyterLab's "Save and Export Notebook As > HTML"; with ``jupyter nbconvert --execute`` pass
``--ExecutePreprocessor.store_widget_state=False`` (with stored state, nbconvert instead tries
to load the widget manager from a CDN).
"""

from __future__ import annotations

import html
import json
import pathlib

__all__ = ["page", "fragment", "carry_bundle", "recorded_steps", "record", "synced_state",
           "delta", "stylesheet", "BUNDLE_ID"]

STATIC = pathlib.Path(__file__).parent / "static"
BUNDLE_ID = "minigrad-widgets-bundle"
MARK = "data-minigrad-static"  # every static view has it (tests/lessons/notebook_tools.py)
RECORD_LIMIT = 2000  # steps recorded into a page at most
ANSWER_LIMIT = 20_000  # quiz answers (steps x nodes) a page carries at most; beyond, no quiz
_SKIP = {"_dom_classes", "layout", "tabbable", "tooltip", "playing"}

# Mounts every static view of the page once the bundle is found (after the page is parsed,
# so the one output carrying it may come later in the page than this one).
LOADER = """(function () {
  var KEY = "__minigradWidgetsStatic", SEL = "[data-minigrad-static]:not([data-mg-mounted])";
  function each(fn) { Array.prototype.forEach.call(document.querySelectorAll(SEL), fn); }
  function data(el) { return JSON.parse(el.querySelector(".mg-static-data").textContent); }
  function missing(el) {
    el.setAttribute("data-mg-mounted", "missing");
    var p = document.createElement("p");
    p.className = "mg-static-missing";
    p.textContent = (data(el).state.strings || {})["view.static_missing"] || "";
    el.appendChild(p);
  }
  function boot() {
    var source = document.getElementById("BUNDLE_ID");
    if (!source) return each(missing);
    if (!window[KEY]) {
      var blob = new Blob([source.textContent], { type: "text/javascript" });
      window[KEY] = import(URL.createObjectURL(blob));
    }
    window[KEY].then(function (m) {
      each(function (el) {
        el.setAttribute("data-mg-mounted", "yes");
        m.mountStatic(el, data(el));
      });
    }, function (error) { console.error("[minigrad_widgets]", error); each(missing); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();""".replace("BUNDLE_ID", BUNDLE_ID)


def synced_state(widget) -> dict:
    """Every synced trait the front end reads (not ipywidgets' own, not the bundle)."""
    return {name: getattr(widget, name) for name in sorted(widget.trait_names(sync=True))
            if not name.startswith("_") and name not in _SKIP}


def delta(old: dict, new: dict) -> dict:
    """What changed from ``old`` to ``new``: whole values, or for dicts the keys changed."""
    whole, patch = {}, {}
    for name, value in new.items():
        before = old.get(name)
        if value == before:
            continue
        if isinstance(value, dict) and isinstance(before, dict):
            patch[name] = {"set": {k: v for k, v in value.items()
                                   if k not in before or before[k] != v},
                           "del": [k for k in before if k not in value]}
        else:
            whole[name] = value
    return {"set": whole, "patch": patch}


def _move_to(widget, index: int) -> None:
    """Steps ``widget`` back or forward to step ``index`` (stops where it cannot move)."""
    if index == 0 and widget.step_index > 0:
        widget.reset()  # undoes every step at once, drawing only the end
    while widget.step_index != index:
        before = widget.step_index
        widget.back() if before > index else widget.step()
        if widget.step_index == before:
            return


def recorded_steps(widget) -> tuple[dict, list, int]:
    """What a page stores of ``widget``: its own ``recorded_steps()`` if it has one (the
    stepper does, to keep what it found on the way to itself), else :func:`record`."""
    method = getattr(widget, "recorded_steps", None)
    return method() if callable(method) else record(widget)


def record(widget) -> tuple[dict, list, int]:
    """(state at step 0, change made by each step, step shown now) of a stepper.

    The stepper is stepped from its start to its end through its own ``back()`` and
    ``step()`` (so ``.grad`` is put back exactly) and left at the step it was at; a step
    that fails ends the record there. A GraphView has one state and no steps, and so do a
    frozen snapshot and a stepper of more than ``RECORD_LIMIT`` steps (their page shows the
    step they are at).
    """
    steppable = all(callable(getattr(widget, name, None)) for name in ("step", "back", "reset"))
    if (getattr(widget, "kind", "graph") != "stepper" or not steppable
            or getattr(widget, "frozen", False) or widget.total_steps > RECORD_LIMIT):
        return synced_state(widget), [], 0
    here = widget.step_index
    states = []
    quiz = _quiz_fits(widget)
    snap = (lambda: _with_answers(widget)) if quiz else (lambda: synced_state(widget))
    with widget.hold_sync():
        try:
            _move_to(widget, 0)
            states.append(snap())
            while widget.step_index < widget.total_steps:
                before = widget.step_index
                widget.step()
                if widget.step_index == before:
                    break
                states.append(snap())
        except Exception:  # noqa: BLE001 - the record ends at a failing step
            pass
        finally:
            _move_to(widget, here)
    if not states:
        states.append(synced_state(widget))
    deltas = [delta(a, b) for a, b in zip(states, states[1:])]
    return states[0], deltas, min(here, len(deltas))


def _quiz_fits(widget) -> bool:
    """Whether a page can carry the answers of ``widget``'s prediction quiz (else the page
    shows a plain stepper: a quiz that cannot answer is not offered)."""
    nodes = len(getattr(getattr(widget, "_view", None), "nodes", ()))
    return (bool(getattr(widget, "predict_mode", False))
            and callable(getattr(widget, "prediction_answers", None))
            and nodes * max(1, widget.total_steps) <= ANSWER_LIMIT)


def _with_answers(widget) -> dict:
    state = synced_state(widget)
    state["answers"] = widget.prediction_answers()
    return state


def _json_for_script(value) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")


def _bundle() -> str:
    js = (STATIC / "widget.js").read_text(encoding="utf-8")
    return js.replace("</script", "<\\/script").replace("<!--", "<\\!--")


def stylesheet() -> str:
    """The widgets' CSS: ``static/widget.css``, the colours of the one style table, and the
    three views' states (``static/views.css``)."""
    from .style import css

    def read(name):
        path = STATIC / name
        return path.read_text(encoding="utf-8") if path.is_file() else ""

    return "\n".join([read("widget.css"), css(), read("views.css")])  # the views' states last


def carrier() -> str:
    """The one copy of the front end (and its CSS) a page needs."""
    css = stylesheet()
    return (f'<script type="text/plain" id="{BUNDLE_ID}">{_bundle()}</script>'
            f'<style id="{BUNDLE_ID}-css">{css}</style>')


def fragment(widget, *, carry: bool) -> str:
    """The static view of ``widget``: its text form, its recorded state, the loader, and
    (``carry=True``) the front end itself."""
    start, steps, position = recorded_steps(widget)
    data = {"state": start, "steps": steps, "position": position}
    text = html.escape(repr(widget))
    parts = [f'<div class="minigrad-static" {MARK}="{html.escape(widget.kind)}">',
             f'<pre class="mg-static-text">{text}</pre>',
             f'<script type="application/json" class="mg-static-data">{_json_for_script(data)}'
             "</script></div>"]
    if carry:
        parts.append(carrier())
    parts.append(f"<script>{LOADER}</script>")
    return "".join(parts)


def page(widget) -> str:
    """A whole HTML document showing ``widget`` (see the module's docstring)."""
    from .i18n import t

    title = html.escape(t("view.page_title", widget.lang, title=repr(widget).split("\n")[0]))
    return ("<!DOCTYPE html>\n"
            f'<html lang="{"zh-CN" if widget.lang == "zh" else "en"}"><head>'
            '<meta charset="utf-8"><meta name="viewport" content="width=device-width">'
            f"<title>{title}</title><style>:root {{ color-scheme: light dark; }} "
            "body { margin: 16px; font-family: system-ui, sans-serif; }</style></head>"
            f'<body class="mg-standalone">{fragment(widget, carry=True)}</body></html>\n')


# ---------------------------------------------------------------- one bundle per page
_carried = {"cell": None, "request": None}


def _request() -> tuple:
    """(cell id, message id) of the execute request the kernel is running, if any."""
    try:
        from IPython import get_ipython

        kernel = getattr(get_ipython(), "kernel", None)
        parent = kernel.get_parent() if kernel is not None else None
    except Exception:  # noqa: BLE001 - no kernel: a plain interpreter
        return None, None
    if not parent:
        return None, None
    return (parent.get("metadata", {}).get("cellId"),
            parent.get("header", {}).get("msg_id"))


def carry_bundle() -> bool:
    """Whether the widget being displayed carries the front end for its page.

    The first widget displayed in a kernel does; so does the next one displayed by its cell
    when that cell is run again (its old output, and the bundle with it, is then gone).
    Outside a kernel every display carries it.
    """
    cell, request = _request()
    if request is None:
        return True
    seen = _carried["request"]
    if seen is None or (request != seen and cell is not None and cell == _carried["cell"]):
        _carried.update(cell=cell, request=request)
        return True
    return False
