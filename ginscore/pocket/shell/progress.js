// ginscore app: the first start's bar, and the bar of any wait over a second. The download's bytes (told by sw.js)
// fill the first FETCHED of the first start's bar, Python's own steps (told by worker.js) the rest; a start with
// everything on the phone has only Python's steps.

const FETCHED = 0.8;
const SLOW = 1000;

// Fractions of the whole bar: Python's `value` of its steps, after the download when there was one.
export function filled(value, fetching) { return fetching ? FETCHED + (1 - FETCHED) * value : value; }

export function megabytes(bytes) { return (bytes / 1e6).toFixed(1); }

export class StartBar {
  constructor() { this.fetching = false; }

  // Python's steps (worker.js).
  progress(value, words) {
    const bar = document.getElementById("progress"), label = document.getElementById("progress-label");
    if (bar) bar.value = filled(value, this.fetching);
    if (label && words) label.textContent = words + "…";
  }

  // The download's bytes (sw.js).
  arrived(message) {
    if (!message || message.type !== "arrived" || !message.total) return;
    this.fetching = true;
    const bar = document.getElementById("progress"), label = document.getElementById("progress-label");
    if (bar) bar.value = FETCHED * message.arrived / message.total;
    if (label) label.textContent = "Fetching the score pad, once: " + megabytes(message.arrived) + " of " + megabytes(message.total) + " MB";
  }
}

// Any wait over a second for the worker (a page, a Save, a check weighing the game) shows a bar, busy until every
// answer waited for has come.
let slow = 0;
export function waitShown(promise) {
  let shown = false;
  const timer = setTimeout(function () {
    shown = true;
    if (++slow === 1) waitingSign(true);
  }, SLOW);
  function done() {
    clearTimeout(timer);
    if (shown && --slow === 0) waitingSign(false);
  }
  promise.then(done, done);
  return promise;
}

function waitingSign(on) {
  let sign = document.getElementById("waiting");
  if (!sign && on) {
    sign = document.createElement("p");
    sign.id = "waiting";
    sign.className = "notice app-waiting";
    sign.setAttribute("role", "status");
    const label = document.createElement("label"), bar = document.createElement("progress");
    label.htmlFor = bar.id = "waiting-bar";
    label.textContent = "Working on it…";
    sign.append(label, bar);
    document.body.prepend(sign);
  }
  if (on) document.getElementById("page").setAttribute("aria-busy", "true"); else if (sign) sign.remove();
}
