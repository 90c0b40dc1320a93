// The stepper's toolbar and its Play timer. Buttons only send events to Python
// ({event: "step"|"back"|"reset"|"run"}); Python steps the engine and sends back the state.

const MIN_SPEED = 0.25;
const MAX_SPEED = 20;

function clampSpeed(speed) {
  const s = Number(speed);
  return Number.isFinite(s) ? Math.min(MAX_SPEED, Math.max(MIN_SPEED, s)) : 1;
}

function button(label, title, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "mg-button";
  b.textContent = label;
  b.title = title;
  b.addEventListener("click", onClick);
  return b;
}

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
  label.append("Speed", input);
  wrap.append(label, shown);
  const update = () => {
    const speed = model.get("speed");
    input.value = String(speed);
    shown.textContent = `${speed} steps/s`;
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
  const reset = button("Reset", "Undo every step: back to before backward()", send("reset"));
  const back = button("Back", "Undo the last step", send("back"));
  const step = button("Step", "Run the next node of backward()", send("step"));
  const run = button("Run", "Run every remaining step", send("run"));
  const play = button("Play", "Step automatically at the chosen speed", togglePlay);
  const speed = speedControl(model);
  const counter = document.createElement("span");
  counter.className = "mg-counter";

  const el = document.createElement("div");
  el.className = "mg-toolbar";
  el.setAttribute("role", "toolbar");
  el.setAttribute("aria-label", "backward() stepper");
  el.append(reset, back, step, run, play, speed.el, counter);

  function update() {
    const i = model.get("step_index");
    const n = model.get("total_steps");
    const playing = model.get("playing");
    counter.textContent = `step ${i} / ${n}`;
    reset.disabled = back.disabled = i <= 0;
    step.disabled = run.disabled = i >= n;
    play.textContent = playing ? "Pause" : "Play";
    play.classList.toggle("mg-playing", Boolean(playing));
    play.disabled = !playing && i >= n;
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
    if (i >= model.get("total_steps")) {
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
