// Front end of minigrad_widgets (GraphView and BackwardStepper), an anywidget ES module.
//
// It draws what Python says and nothing more: the traits `dot`, `node_states`, `edge_states`,
// `panel`, `step_index`, `total_steps`, `playing`, `speed`, `note` and `kind` come from Python;
// buttons send {event: "step" | "back" | "reset" | "run"} back, and in prediction mode a click
// on a node sends {event: "node_click", node: id}. The only thing decided here is
// when the Play timer sends the next "step".

import { createControls, startPlayer } from "./controls.js";
import { createGraph } from "./graph.js";
import { createPanel } from "./panel.js";

function initialize({ model }) {
  return startPlayer(model);
}

function render({ model, el }) {
  const root = document.createElement("div");
  const graph = createGraph(model, {
    onNodeClick: (id) => {
      if (model.get("predict_mode") && !model.get("frozen")) model.send({ event: "node_click", node: id });
    },
  });
  const panel = createPanel();
  const controls = createControls(model);
  const note = document.createElement("p");
  note.className = "mg-note";
  note.setAttribute("role", "note");
  const body = document.createElement("div");
  body.className = "mg-body";
  body.append(graph.el, panel.el);
  root.append(controls.el, body, note);
  el.append(root);

  function updateFrame() {
    const kind = model.get("kind") || "graph";
    root.className = `mg-widget mg-kind-${kind}` +
      (model.get("predict_mode") ? " mg-predict" : "") + (model.get("frozen") ? " mg-frozen" : "");
    controls.el.hidden = kind !== "stepper";
    controls.update();
    panel.update(model.get("panel"));
    const text = model.get("note") || "";
    note.textContent = text;
    note.hidden = !text;
  }

  const listeners = {
    "change:dot": () => graph.update(),
    "change:node_states change:edge_states": () => graph.restyle(),
    "change:panel change:note change:kind change:step_index change:total_steps change:playing change:speed change:labels change:counter change:can_step change:predict_mode change:frozen":
      updateFrame,
  };
  for (const [events, callback] of Object.entries(listeners)) model.on(events, callback);
  updateFrame();
  graph.update();

  return () => {
    for (const [events, callback] of Object.entries(listeners)) model.off(events, callback);
    root.remove();
  };
}

export default { initialize, render };
