// A widget with no kernel: the model of a static view (an exported notebook, or a page from
// save_html). Python recorded the synced state at step 0 and what each step changed; this
// model answers get/set/on like anywidget's, and the toolbar's events move through the record.

function applyDelta(state, delta) {
  const next = { ...state, ...(delta.set || {}) };
  for (const [name, patch] of Object.entries(delta.patch || {})) {
    const value = { ...(state[name] || {}), ...(patch.set || {}) };
    for (const key of patch.del || []) delete value[key];
    next[name] = value;
  }
  return next;
}

/** The states of every step, from the first state and the recorded changes. */
export function statesOf(data) {
  const states = [data.state];
  for (const delta of data.steps || []) states.push(applyDelta(states[states.length - 1], delta));
  return states;
}

// A quiz needs its answers in the page (Python records what a click on each node would
// answer, at every step: export.py). A page without them shows a plain stepper.
function withoutQuiz(state) {
  const panel = state.panel || {};
  const sections = (panel.sections || []).filter((sec) => sec.kind !== "predict");
  return { ...state, predict_mode: false, panel: { ...panel, sections } };
}

function withFeedback(state, answer) {
  const panel = state.panel || {};
  const sections = (panel.sections || []).filter((sec) => sec.kind !== "predict");
  return { ...state, panel: { ...panel, sections: sections.concat([answer.section]) } };
}

export function createOfflineModel(data) {
  let states = statesOf(data);
  const quiz = states.some((s) => s.predict_mode && s.answers && !s.frozen);
  if (states.some((s) => s.predict_mode) && !quiz) states = states.map(withoutQuiz);
  let position = Math.min(data.position || 0, states.length - 1);
  let state = { ...states[position], playing: false };
  const listeners = new Map(); // event name -> Set of callbacks

  function emit(names) {
    for (const name of names) for (const cb of listeners.get(`change:${name}`) || []) cb();
  }
  function goTo(index) {
    position = Math.max(0, Math.min(states.length - 1, index));
    const local = { playing: state.playing, show_edge_labels: state.show_edge_labels,
      scale_edges: state.scale_edges, code: state.code,
      speed: state.speed };
    const before = state;
    state = { ...states[position], ...local };
    if (position >= states.length - 1) state.playing = false;
    emit(Object.keys(state).filter((k) => state[k] !== before[k]));
  }
  function answer(content) {
    const found = quiz && state.predict_mode && (state.answers || {})[content.node];
    if (!found) return;
    if (found.right) goTo(position + 1);
    const before = state;
    state = withFeedback(state, found);
    if (before.panel !== state.panel) emit(["panel"]);
  }
  const actions = {
    node_click: answer,
    step: () => goTo(position + 1),
    back: () => goTo(position - 1),
    reset: () => { state.playing = false; goTo(0); },
    run: () => goTo(states.length - 1),
  };
  return {
    get: (name) => state[name],
    set(name, value) {
      if (state[name] === value) return;
      state = { ...state, [name]: value };
      emit([name]);
    },
    save_changes() {},
    send(content) {
      // asynchronous, like a message to a kernel and its answer
      const action = actions[content && content.event];
      if (action) setTimeout(() => action(content), 0);
    },
    on(events, cb) {
      for (const name of events.split(/\s+/)) {
        if (!listeners.has(name)) listeners.set(name, new Set());
        listeners.get(name).add(cb);
      }
    },
    off(events, cb) {
      for (const name of (events || "").split(/\s+/)) listeners.get(name)?.delete(cb);
    },
    offline: true, // no kernel: the Code toggle shows only recorded code
    get position() { return position; },
    get length() { return states.length; },
  };
}
