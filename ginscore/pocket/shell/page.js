// ginscore app: start-up. The page shows serve's own pages, rendered by ginscore's Python in a Web Worker
// (worker.js): the stored matches are listed at once (list.js), then the service worker is registered
// (service.js), then the worker started (rpc.js); once Python is ready the router (router.js) shows the address's
// route. No rule of the game is written here: every answer is Python's. One module a job:
//   rpc.js       the worker's client: every question's deadline, the heartbeat
//   router.js    routes, links, forms, and the host serve's pages.js reaches the worker through
//   extras.js    what the shell adds to a page (the list's boxes, the match file, the typed check)
//   backups.js   backups, and whether the browser keeps the matches
//   progress.js  the first start's bar, and the bar of a slow wait
//   banners.js   what is said when the worker does not answer
import { withoutSaidOnce } from "./static/common.js";
import { CHANNEL, summaries } from "./store.js";
import { Pad, TAB } from "./rpc.js";
import { Router, route } from "./router.js";
import { Extras } from "./extras.js";
import { StartBar } from "./progress.js";
import { cannotStart, stalled } from "./banners.js";
import { listSaved } from "./list.js";
import { registered } from "./service.js";
import { answerTypedChecks, typedCheck } from "./typed-check.js";
import { link } from "./dom.js";

const bar = new StartBar();
const pad = new Pad({
  progress: function (value, words) { bar.progress(value, words); },
  lean: function () {},
  ready: ready,
  failed: cannotStart,
  stalled: stalled,
});
const router = new Router(pad, function (path, main, answer) { extras.added(path, main, answer); });
const extras = new Extras(pad, router);

function ready(message) {
  window.ginscoreApp.times = message.times;
  const starting = document.getElementById("starting"), cards = document.getElementById("typed-cards");
  if (cards && cards.value && location.hash.length < 3) {
    // someone is checking a hand: keep their screen, and say the rest is ready
    starting.replaceChildren("Ready. ", link("#/", "Show the matches"));
    starting.removeAttribute("id");
    document.getElementById("page").setAttribute("aria-busy", "false");
    return;
  }
  // "Recorded hand 6." is said once: a reload does not say it again (serve's pages.js does the same)
  const first = withoutSaidOnce(route());
  if (first !== route()) history.replaceState(null, "", "#" + first);
  router.show(first);
}

// Another tab changed a match: a match page sees it through its own poll; the list is drawn again.
function otherTab(event) {
  if (event.data && event.data.tab === TAB) return;
  if (!pad.ready) {
    document.querySelectorAll("[data-typed-check]").forEach(typedCheck);
    summaries().then(listSaved);
    return;
  }
  const active = document.activeElement;
  if (route() === "/" && !(active && active.form)) router.show("/");
}

// The page's own listeners and timers end with it: the router's, the typed check's, the other tabs' channel and
// the worker's heartbeat.
function started() {
  const channel = new BroadcastChannel(CHANNEL), stopChecks = answerTypedChecks(pad);
  channel.onmessage = otherTab;
  router.start();
  window.addEventListener("pagehide", function gone(event) {
    if (event.persisted) return;  // kept whole for the back button: all of it goes on when shown again
    window.removeEventListener("pagehide", gone);
    channel.close();
    stopChecks();
    router.stop();
    pad.stop();
  });
}

// For the tests and the benchmark: the same calls the pages make.
window.ginscoreApp = { ask: function (kind, data) { return pad.ask(kind, data); }, call: function (...args) { return pad.call(...args); }, times: null };

started();
document.querySelectorAll("[data-typed-check]").forEach(typedCheck);
summaries().then(listSaved).catch(function () { listSaved({}); });
registered(function (message) { bar.arrived(message); }).then(function () { pad.start(); });
