// The stepper's toolbar and its Play timer. Buttons only send events to Python
// ({event: "step"|"back"|"reset"|"run"}); Python steps the engine and sends back the state.
// Every word shown (labels, tooltips, the counter) comes from Python, in the widget's
// language: the `labels` and `counter` traits.

const MIN_SPEED = 0.25;
const MAX_SPEED = 20;

function clampSpeed(speed) {
  const s = Number(speed);
  return Number.isFinite(s) ? Math.min(MAX_SPEED, Math.max(MIN_SPEED, s)) : 1;
}

function button(onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "mg-button";
  b.addEventListener("click", onClick);
  return b;
}

const labelsOf = (model) => model.get("labels") || {};

// The label wraps its slider (no ids: each widget view has its own copy of this module, so
// counters would repeat across widgets and a label[for] could name another widget's slider).
function speedControl(model) {
  const wrap = document.createElement("span");
  wrap.className = "mg-speed";
  const label = document.createElement("label");
  const input = document.createElement("input");
  input.type = "range";
  Object.assign(input, { min: "0.5", max: "10", step: "0.5" });
  const shown = document.createElement("output");
  input.addEventListener("input", () => {
    model.set("speed", Number(input.value));
    model.save_changes();
  });
  const word = document.createTextNode("");
  label.append(word, input);
  wrap.append(label, shown);
  const update = () => {
    const speed = model.get("speed");
    const labels = labelsOf(model);
    input.value = String(speed);
    word.textContent = labels.speed || "";
    shown.textContent = (labels.speed_unit || "{speed}").replace("{speed}", String(speed));
  };
  return { el: wrap, update };
}

/** The toolbar: Reset, Back, Step, Run, Play/Pause, a speed slider and "step i / n". */
export function createControls(model) {
  const send = (event) => () => model.send({ event });
  const togglePlay = () => {
    model.set("playing", !model.get("playing"));
    model.save_changes();
  };
  const reset = button(send("reset"));
  const back = button(send("back"));
  const step = button(send("step"));
  const run = button(send("run"));
  const play = button(togglePlay);
  const named = { reset, back, step, run, play };
  const speed = speedControl(model);
  const counter = document.createElement("span");
  counter.className = "mg-counter";

  const el = document.createElement("div");
  el.className = "mg-toolbar";
  el.setAttribute("role", "toolbar");
  el.append(reset, back, step, run, play, speed.el, counter);

  function update() {
    const i = model.get("step_index");
    const playing = model.get("playing");
    const frozen = Boolean(model.get("frozen"));
    const canStep = Boolean(model.get("can_step")) && !frozen;
    const labels = labelsOf(model);
    for (const [name, b] of Object.entries(named)) {
      b.textContent = labels[name] || "";
      b.title = labels[`${name}_tip`] || "";
    }
    if (playing) play.textContent = labels.pause || "";
    el.setAttribute("aria-label", labels.toolbar || "");
    counter.textContent = model.get("counter") || "";
    reset.disabled = back.disabled = frozen || i <= 0;
    step.disabled = run.disabled = !canStep;
    play.classList.toggle("mg-playing", Boolean(playing));
    play.disabled = frozen || (!playing && !canStep);
    speed.el.hidden = frozen;
    speed.update();
  }

  return { el, update };
}

/**
 * The Play timer, one per model (not per view, so two views of a stepper don't step twice).
 * While `playing`, sends "step" every 1/speed seconds, one at a time: it waits for Python's
 * new `step_index` before sending the next. At the last step it clears `playing`.
 */
export function startPlayer(model) {
  let timer = null;
  let sentAt = null; // step_index when the last "step" went out

  const stop = () => {
    clearTimeout(timer);
    timer = null;
  };
  const tick = () => {
    timer = null;
    if (!model.get("playing")) return;
    const i = model.get("step_index");
    if (i >= model.get("total_steps") || model.get("can_step") === false) {
      model.set("playing", false);
      model.save_changes();
      return;
    }
    if (sentAt !== i) {
      sentAt = i;
      model.send({ event: "step" });
    }
    timer = setTimeout(tick, 1000 / clampSpeed(model.get("speed")));
  };
  const onPlaying = () => {
    stop();
    sentAt = null;
    if (model.get("playing")) tick();
  };

  model.on("change:playing", onPlaying);
  onPlaying();
  return () => {
    stop();
    model.off("change:playing", onPlaying);
  };
}
