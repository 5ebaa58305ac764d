// ginscore app: the page. It shows serve's own pages, rendered by ginscore's Python in a Web Worker (worker.js):
// each navigation, form and the pages' own calls (static/pages.js, through the host this page gives it) become
// messages to the worker, and the answer is swapped in. Each page shown is started (ginscorePages.start) after
// the one before it is stopped, with its timers, listeners and wake lock. Routes live in the address's #fragment (#/m/friday.toml), so the folder works from
// any static host, at its root or under a sub-path. No rule of the game is written here: every answer is Python's.
import { CHANNEL, asText, backupLine, handsSince, keepBackup, lastBackup, summaries, text } from "./store.js";

const page = document.getElementById("page");
const FORM_TYPE = "application/x-www-form-urlencoded";
const TAB = String(Math.random()).slice(2);  // names this tab's own changes, which the other tabs are told of
let worker = null, asked = 0, ready = false, leanReady = false;
const waiting = new Map();
let damagedRecords = [];  // the last list's records set aside (worker.js)
let workerStarted;
const workerThere = new Promise(function (resolve) { workerStarted = resolve; });

// Every question to the worker is answered or timed out: its deadline, in seconds, counts from when the worker
// can answer it (a check once the lean layers are in, the rest once the pages are), so a first start's download
// is not counted. A Save waits at most `LOCK_SECONDS` (worker.js) for another tab, well within its deadline.
const DEADLINES = { request: 20, advice: 60, open: 60, backup: 60, restore: 60, check: 10, check_json: 10, value: 10, remove: 20, alive: 20, times: 10 };
const ADVICE = /^\/(m\/[^/]+\/check|api\/advise)$/;  // advice plays hands out, which may take a slow phone a while
const BEAT_SECONDS = 5;  // how often an open page asks whether the worker is still there

class NoAnswer extends Error {
  constructor(seconds) {
    super("the score pad did not answer within " + seconds + " seconds");
    this.name = "NoAnswer";
  }
}

async function ask(kind, data) {
  await workerThere;
  return new Promise(function (resolve, reject) {
    const id = ++asked;
    const advice = kind === "request" && data && data.method === "POST" && ADVICE.test(data.path);
    const seconds = advice ? DEADLINES.advice : DEADLINES[kind];
    const pending = { resolve: resolve, reject: reject, kind: kind, seconds: seconds, timer: null };
    waiting.set(id, pending);
    worker.postMessage(Object.assign({ id: id, kind: kind, tab: TAB }, data || {}));
    arm(id, pending);
  });
}

function arm(id, pending) {
  const early = pending.kind === "check" || pending.kind === "check_json" ? !leanReady : !ready && pending.kind !== "times";
  if (pending.timer !== null || early) return;
  pending.timer = setTimeout(function () {
    if (!waiting.has(id)) return;
    waiting.delete(id);
    pending.reject(new NoAnswer(pending.seconds));
    // the worker busy with a long request cannot answer the heartbeat: that request's own deadline says it
    const others = Array.from(waiting.values()).some(function (other) { return other.kind !== "alive"; });
    if (pending.kind !== "alive" || !others) stalled("The score pad did not answer within " + pending.seconds + " seconds.");
  }, pending.seconds * 1000);
}

// The worker stopped answering, or failed: said at the top of the page, in view, with what to do. A hand is saved
// only once the sheet shows it, so the words never say it was.
function stalled(why) {
  const banner = document.getElementById("no-answer");
  if (!banner || !banner.hidden) return;
  const again = button("Reload the score pad");
  again.onclick = function () { location.reload(); };
  banner.replaceChildren(why + " Reload it to go on: your saved matches are kept, and a hand you were saving is saved only if its sheet shows it after the reload. ", again);
  banner.hidden = false;
  page.setAttribute("aria-busy", "false");
  banner.scrollIntoView({ block: "start" });
}

// The worker's own words for a request it did not carry out, nothing written: another tab held the matches past
// the lock's deadline ("busy"), or the store was deleted under the page ("gone").
function told(error) {
  const banner = document.getElementById("no-answer");
  if (!banner) return;
  const next = error.said === "gone" ? button("Show the matches") : button("Try again");
  next.onclick = function () { banner.hidden = true; if (error.said === "gone") go("/"); else show(route()); };
  banner.replaceChildren(error.message + " ", next);
  banner.hidden = false;
  page.setAttribute("aria-busy", "false");
  banner.scrollIntoView({ block: "start" });
}

// An answer that did not come, or that the worker said in words: the banner says so (`stalled`, `told`); true
// when it did.
function unanswered(error) {
  if (error && error.said) told(error);
  else if (!(error instanceof NoAnswer)) return false;
  return true;
}

// --- start-up: the stored matches at once, then the service worker, then Python ---------------------------------

function listSaved(lines) {
  const list = document.getElementById("saved");
  if (!list) return;
  const names = Object.keys(lines).sort(function (a, b) { return String(lines[b].last_played || "").localeCompare(String(lines[a].last_played || "")); });
  list.replaceChildren();
  if (!names.length) { list.append(item("No matches on this phone yet.")); return; }
  names.forEach(function (name) {
    const line = lines[name], entry = document.createElement("li");
    entry.className = "match-entry";
    if (line.reason || !Array.isArray(line.players) || !line.totals) {
      entry.append(item(name + ": " + line.status, "span"));  // why, in a player's words, once the pages are in
    } else {
      const link = document.createElement("a");
      link.className = "players";
      link.href = "#/m/" + encodeURIComponent(name);
      link.textContent = line.players.join(" vs ");
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = line.players.map(function (player) { return player + " " + line.totals[player]; }).join(", ");
      entry.append(link, " ", score, " ", item(line.status + " · " + line.hands + (line.hands === 1 ? " hand" : " hands"), "span"));
    }
    list.append(entry);
  });
}

function item(words, tag) {
  const element = document.createElement(tag || "li");
  element.textContent = words;
  return element;
}

// The first start's bar: the download's bytes (told by sw.js) fill the first FETCHED of it, Python's own steps
// (told by worker.js) the rest; a start with everything on the phone has only Python's steps.
const FETCHED = 0.8;
let fetching = false;
function progress(value, words) {
  const bar = document.getElementById("progress"), label = document.getElementById("progress-label");
  if (bar) bar.value = fetching ? FETCHED + (1 - FETCHED) * value : value;
  if (label && words) label.textContent = words + "…";
}

function megabytes(bytes) { return (bytes / 1e6).toFixed(1); }

function arrived(message) {
  if (!message || message.type !== "arrived" || !message.total) return;
  fetching = true;
  const bar = document.getElementById("progress"), label = document.getElementById("progress-label");
  if (bar) bar.value = FETCHED * message.arrived / message.total;
  if (label) label.textContent = "Fetching the score pad, once: " + megabytes(message.arrived) + " of " + megabytes(message.total) + " MB";
}

// Any wait over a second for the worker (a page, a Save, a check weighing the game) shows a bar, busy until the
// answer comes.
const SLOW = 1000;
let slowCount = 0;
function waitShown(promise) {
  let shown = false;
  const timer = setTimeout(function () {
    shown = true;
    if (++slowCount === 1) waitingSign(true);
  }, SLOW);
  function done() {
    clearTimeout(timer);
    if (shown && --slowCount === 0) waitingSign(false);
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
  if (on) page.setAttribute("aria-busy", "true"); else if (sign) sign.remove();
}

async function serviceWorker() {
  if (!("serviceWorker" in navigator)) return null;  // plain http on another machine: no offline use, still works
  navigator.serviceWorker.addEventListener("message", function (event) { arrived(event.data); });
  if (navigator.serviceWorker.startMessages) navigator.serviceWorker.startMessages();
  try {
    const registration = await navigator.serviceWorker.register("sw.js", { scope: "./" });
    if (!registration) return null;
    watchUpdates(registration);
    await navigator.serviceWorker.ready;
    registration.update().catch(function () {});  // offline: nothing to compare with, and no harm
    if (!navigator.serviceWorker.controller) {
      // the first visit: wait until the service worker holds this page, so that the runtime is fetched once
      await new Promise(function (resolve) {
        navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
        setTimeout(resolve, 4000);
      });
    }
    return registration;
  } catch (error) {
    console.warn("no service worker:", error);
    return null;
  }
}

function watchUpdates(registration) {
  const banner = document.getElementById("new-version");
  function offer(waitingWorker) {
    if (!waitingWorker || !navigator.serviceWorker.controller) return;
    banner.hidden = false;
    document.getElementById("reload").onclick = function () {
      navigator.serviceWorker.addEventListener("controllerchange", function () { location.reload(); }, { once: true });
      waitingWorker.postMessage("take-over");
    };
  }
  offer(registration.waiting);
  registration.addEventListener("updatefound", function () {
    const installing = registration.installing;
    if (!installing) return;
    installing.addEventListener("statechange", function () { if (installing.state === "installed") offer(registration.waiting || installing); });
  });
}

function cannotStart(words) {
  const starting = document.getElementById("starting");
  if (!starting) return;
  starting.className = "error";
  starting.setAttribute("role", "alert");
  starting.textContent = "The score pad could not start here: " + words + ". Reload the page to try again; your matches are kept.";
  starting.tabIndex = -1;
  page.setAttribute("aria-busy", "false");
  starting.scrollIntoView({ block: "center" });  // the list may have been scrolled meanwhile
  starting.focus({ preventScroll: true });
}

function startWorker() {
  worker = new Worker("worker.js", { type: "module" });
  workerStarted();
  // the worker's own script or the runtime it imports would not load: no message would ever come
  worker.onerror = function (event) {
    event.preventDefault();
    if (!ready) cannotStart("its files would not load (" + (event.message || "the worker failed") + ")");
    else stalled("The score pad stopped (" + (event.message || "its worker failed") + ").");
  };
  worker.onmessage = function (event) {
    const message = event.data;
    if (message.id) {
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (pending) clearTimeout(pending.timer);
      if (pending && message.ok) pending.resolve(message.result);
      else if (pending) pending.reject(Object.assign(new Error(message.error), { said: message.said }));
    } else if (message.type === "progress") {
      progress(message.value, message.text);
    } else if (message.type === "lean") {
      leanReady = true;
      waiting.forEach(function (pending, id) { arm(id, pending); });
    } else if (message.type === "ready") {
      ready = true;
      waiting.forEach(function (pending, id) { arm(id, pending); });
      heartbeat();
      window.ginscoreApp.times = message.times;
      const starting = document.getElementById("starting");
      const cards = document.getElementById("typed-cards");
      if (cards && cards.value && location.hash.length < 3) {
        // someone is checking a hand: keep their screen, and say the rest is ready
        starting.replaceChildren("Ready. ", link("#/", "Show the matches"));
        starting.removeAttribute("id");
        page.setAttribute("aria-busy", "false");
      } else {
        // "Recorded hand 6." is said once: a reload does not say it again (serve's pages.js does the same)
        const first = route().replace(/([?&])(?:(?:recorded|removed|edited)=\d+|started=earlier)(&|$)/, function (all, before, after) { return after ? before : ""; });
        if (first !== route()) history.replaceState(null, "", "#" + first);
        show(first);
      }
    } else if (message.type === "failed") {
      cannotStart(message.error.split("\n")[0]);
    }
  };
}

// A worker that is gone (closed, or killed) says nothing: asked every few seconds while the page is in view, its
// silence past the deadline is said (`arm`).
function heartbeat() {
  let asking = false;
  setInterval(function () {
    if (asking || document.visibilityState !== "visible") return;
    asking = true;
    ask("alive").catch(function () {}).then(function () { asking = false; });
  }, BEAT_SECONDS * 1000);
}

function link(href, words) {
  const anchor = document.createElement("a");
  anchor.href = href;
  anchor.textContent = words;
  return anchor;
}

// "Can I knock?" with the cards typed: answered by the lean layers as soon as they are in, before the pages are,
// and laid out as the check page lays out its answer (worker.py `check`).
function typedCheck(into) {
  into.replaceWith(document.getElementById("typed-check").content.cloneNode(true));
}

function chip(card) {
  const made = document.createElement("span");
  made.className = card.red ? "card-chip red" : "card-chip";
  made.textContent = card.face;
  return made;
}

function checkAnswer(said) {
  if (said.error) {
    const refused = item(said.error, "p");
    refused.className = "error";
    refused.setAttribute("role", "alert");
    return refused;
  }
  const box = document.createElement("div"), verdict = item(said.verdict, "p"), answer = document.createElement("dl");
  box.className = "hand-check";
  verdict.className = "knock-verdict";
  said.discards.forEach(function (card, at) { verdict.append(at ? " or " : ", discarding ", chip(card)); });
  verdict.append(".");
  const melds = document.createElement("dd"), deadwood = document.createElement("dd"), count = item(String(said.deadwood), "span");
  melds.className = "melds";
  said.melds.forEach(function (meld) {
    const group = document.createElement("span");
    group.className = "meld";
    group.append.apply(group, meld.map(chip));
    melds.append(group);
  });
  if (!said.melds.length) melds.textContent = "none";
  deadwood.className = "deadwood";
  count.className = "deadwood-count";
  deadwood.append.apply(deadwood, said.deadwood_cards.map(chip));
  deadwood.append(" ", count);
  answer.className = "answer";
  answer.append(item("Melds", "dt"), melds, item("Deadwood", "dt"), deadwood);
  box.append(verdict, answer);
  return box;
}

document.addEventListener("submit", function (event) {
  const form = event.target;
  if (!form.classList.contains("typed-check")) return;
  event.preventDefault();
  const answer = form.parentNode.querySelector(".typed-answer");
  if (!leanReady) answer.replaceChildren(item("The score pad is still getting ready…", "p"));
  ask("check", { text: form.elements.cards.value }).then(function (said) {
    answer.replaceChildren(checkAnswer(JSON.parse(said)));
    answer.scrollIntoView({ block: "center" });  // below the box typed in, and under the keyboard: in view, whole
  }, function () { answer.replaceChildren(); });  // the banner says why
});

// --- the pages ----------------------------------------------------------------------------------------------------

function route() { return location.hash.length > 1 ? location.hash.slice(1) : "/"; }

function split(path) {
  const at = path.indexOf("?");
  return at < 0 ? [path, ""] : [path.slice(0, at), path.slice(at + 1)];
}

function internal(url) { return typeof url === "string" && url.charAt(0) === "/" && url.charAt(1) !== "/"; }

// A route is shown first and put in the address after, as a real page load would: the address never runs ahead.
async function go(path) {
  if (await show(path) && route() !== path) history.pushState(null, "", "#" + path);
}

async function call(method, path, body, type) {
  const [where, query] = split(path);
  return ask("request", { method: method, path: where, query: query, body: body || "", contentType: type || "" });
}

function header(answer, name) {
  const found = answer.headers.find(function (pair) { return pair[0].toLowerCase() === name; });
  return found ? found[1] : "";
}

let latest = 0;
function failedAnswer(error) {
  const said = "Something went wrong (" + (error && error.message || error) + "); nothing was written. Try again.";
  return { status: 500, headers: [["content-type", "text/plain"]], body: new TextEncoder().encode(said) };
}

async function show(path) {
  const mine = ++latest;
  let answer;
  page.setAttribute("aria-busy", "true");
  try {
    answer = await waitShown(call("GET", path));
  } catch (error) {
    if (unanswered(error)) return false;
    answer = failedAnswer(error);
  }
  if (mine !== latest) return false;  // a later navigation wins over a slower, earlier one
  present(answer, path);
  return true;
}

function present(answer, path) {
  if (answer.damaged) damagedRecords = answer.damaged;
  if (answer.status >= 300 && answer.status < 400 && header(answer, "location")) {
    go(header(answer, "location"));
    return;
  }
  const body = new TextDecoder().decode(answer.body);
  if (header(answer, "content-type").indexOf("text/html") !== 0) {
    const main = document.createElement("main");
    main.id = "main";
    const shown = document.createElement("p");
    shown.className = "error";
    shown.textContent = body;
    main.append(shown);
    swap([main], "ginscore", path);
    return;
  }
  const parsed = new DOMParser().parseFromString(body, "text/html");
  parsed.querySelectorAll("script").forEach(function (script) { script.remove(); });
  parsed.querySelectorAll("a[href]").forEach(function (anchor) {
    const href = anchor.getAttribute("href");
    if (!internal(href)) return;
    if (anchor.hasAttribute("download")) anchor.dataset.path = href;
    anchor.setAttribute("href", "#" + href);
  });
  swap(Array.from(parsed.body.childNodes), parsed.title || "ginscore", path);
}

function swap(nodes, title, path) {
  if (window.ginscorePages) window.ginscorePages.stop();
  handoverStop();
  document.title = title;
  page.replaceChildren.apply(page, nodes.map(function (node) { return document.importNode(node, true); }));
  page.setAttribute("aria-busy", "false");
  page.dataset.shown = String(Number(page.dataset.shown || 0) + 1);  // pages shown so far: the tests wait on it
  page.dataset.path = path;
  page.querySelectorAll("img[src]").forEach(picture);
  extras(split(path)[0]);
  if (!page.contains(document.activeElement)) window.scrollTo(0, 0);
  if (window.ginscorePages) window.ginscorePages.start(page, host);
  handoverStart();
}

// "Show as QR" and "Scan a match" (static/handover.js): started and stopped with each page, as pages.js is.
function handoverStop() { if (window.ginscoreHandover) window.ginscoreHandover.stop(); }
function handoverStart() { if (window.ginscoreHandover) window.ginscoreHandover.start(page, host); }

async function picture(img) {
  const source = img.getAttribute("src");
  if (!internal(source)) return;
  img.removeAttribute("src");
  let answer;
  try { answer = await call("GET", source); } catch (error) { unanswered(error); return; }
  img.src = URL.createObjectURL(new Blob([answer.body], { type: header(answer, "content-type") }));
}

// What the shell adds to serve's pages: the match file itself, out and in.
function extras(path) {
  const main = document.getElementById("main");
  if (!main) return;
  const match = /^\/m\/([^/]+)$/.exec(path);
  if (match) {
    const name = decodeURIComponent(match[1]);
    const box = section("The match file", "app-file");
    const buttons = document.createElement("p");
    buttons.className = "buttons";
    const download = button("Download the match file (.toml)");
    download.onclick = function () { matchFile(name).then(function (file) { save(file, name); }); };
    buttons.append(download);
    if (navigator.canShare && navigator.canShare({ files: [new File(["x"], "x.toml", { type: "text/plain" })] })) {
      const share = button("Share the match file");
      share.onclick = function () { matchFile(name).then(function (file) { navigator.share({ files: [file], title: name }).catch(function () {}); }); };
      buttons.append(share);
    }
    box.append(buttons, item("It is the same file the command line reads on a computer.", "p"));
    main.append(box);
  } else if (path === "/check") {
    const place = document.createElement("div");
    main.append(place);
    typedCheck(place);
  } else if (path === "/") {
    main.prepend(openBox());
    backupBox(main);
    storageWarning(main);
    if (damagedRecords.length) main.append(damagedBox(damagedRecords));
  }
  if (match) backupOffer(main);
}

// "Open a match file": above the list, so that its answer is in view; the file is read by the worker, as
// `validate` reads one (its size first), and merged into the phone's copy of its match by the rule.
function openBox() {
  const box = section("Open a match file", "app-open");
  const label = document.createElement("label"), input = document.createElement("input"), said = document.createElement("p");
  label.htmlFor = input.id = "open-file";
  label.textContent = "A match file (.toml), downloaded from this app on another phone or made on a computer";
  input.type = "file";
  input.accept = ".toml,application/toml,text/plain";
  said.id = "open-said";
  said.setAttribute("role", "alert");
  said.tabIndex = -1;
  function tell(words, css) {
    said.className = css;
    said.replaceChildren(words);
    said.scrollIntoView({ block: "center" });
    said.focus({ preventScroll: true });
  }
  async function opening(file) {
    let answer;
    try { answer = await ask("open", { file: file }); }
    catch (error) {
      if (!unanswered(error)) tell(file.name + " was not opened: something went wrong while reading it, and nothing on this phone changed. Try again.", "error");
      return;
    }
    if (answer.error) { tell(answer.error, "error"); return; }
    if (answer.form) { settled(answer.form); return; }  // a copy in conflict with the phone's: the merge page shows it
    // the match's page says what the merge did, as after one posted to /merge; a new match is itself the answer
    const query = answer.outcome === "new" ? "" : "?merged=" + answer.outcome + "&added=" + answer.added;
    go("/m/" + encodeURIComponent(answer.name) + query);
  }
  input.onchange = function () {
    const file = input.files[0];
    input.value = "";
    if (file) opening(file);
  };
  const line = document.createElement("p");
  line.append(label, " ", input);
  box.append(line, said);
  return box;
}

// --- backups, and whether the browser keeps the matches ------------------------------------------------------------

// Asked once at start: the browser is asked to keep the app's storage (persist), then whether it does (persisted).
// Where it cannot say (no Storage API, as over plain http), the answer is no.
const storageKept = (async function () {
  const storage = navigator.storage;
  if (!storage || typeof storage.persisted !== "function") return false;
  try {
    if (typeof storage.persist === "function" && await storage.persist()) return true;
    return Boolean(await storage.persisted());
  } catch (error) {
    return false;
  }
})();

// Said at the top of the list when the browser has not promised to keep what the app stores, with what to do.
function storageWarning(main) {
  storageKept.then(function (kept) {
    if (kept || !main.isConnected || main.querySelector(".app-keep")) return;
    const said = item("This browser has not promised to keep the matches stored here: it may delete them when it runs "
      + "short of room. Add this app to the home screen so the browser keeps your matches; back up now and then.", "p");
    said.className = "notice app-keep";
    said.setAttribute("role", "status");
    main.prepend(said);
  });
}

function backupRecord() {
  try { return lastBackup(localStorage); } catch (error) { return null; }  // storage the browser will not open
}

function shownTime(date) { return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }); }

let restored = null;  // what the last backup opened became, shown on the list drawn after it

// The list's backup box, where serve's page has its link to the backup: when the last backup was made and the hands
// recorded since, "Back up", and "Open a backup".
function backupBox(main) {
  const box = section("Backups", "app-backup");
  const line = item("", "p"), buttons = document.createElement("p"), make = button("Back up"), said = item("", "p");
  line.id = "backup-line";
  buttons.className = "buttons";
  said.id = "backup-said";
  said.setAttribute("role", "status");
  make.onclick = function () { backUp(make, said).then(function () { backupShown(line); }); };
  buttons.append(make);
  const label = document.createElement("label"), input = document.createElement("input"), opening = document.createElement("p");
  label.htmlFor = input.id = "open-backup";
  label.textContent = "Open a backup (.zip) made by this app, on this phone or another: every match in it is added here";
  input.type = "file";
  input.accept = ".zip,application/zip";
  const results = document.createElement("div");
  results.id = "restore-said";
  results.tabIndex = -1;
  input.onchange = function () {
    const file = input.files[0];
    input.value = "";
    if (file) restoring(file, results);
  };
  opening.append(label, " ", input);
  box.append(line, buttons, said, opening, results);
  // below the list, where serve's page links to its backup; with no match yet, below "Open a match file", as a
  // phone that has none is the one a backup is opened on
  const link = main.querySelector("a[data-backup]"), fileBox = main.querySelector(".app-open");
  const place = link && (link.closest("p") || link);
  if (place) place.replaceWith(box); else if (fileBox) fileBox.after(box); else main.append(box);
  buttons.hidden = !place;  // no match to back up yet
  backupShown(line);
  if (restored) {
    restoredShown(restored, results);
    restored = null;
  }
}

async function backupShown(line) {
  const lines = await summaries().catch(function () { return {}; });
  const record = backupRecord();
  line.textContent = backupLine(record, handsSince(record, lines), shownTime);
}

// The backup made by the worker (serve's own /backup.zip), shared where the browser shares such a file, else
// downloaded; recorded as the last backup only once the share or the download has started. True when it has.
async function backUp(control, said) {
  function tell(words, css) {
    said.className = css;
    said.textContent = words;
  }
  control.disabled = true;
  try {
    let answer;
    try { answer = await waitShown(ask("backup")); } catch (error) {
      if (!unanswered(error)) tell("The backup was not made: something went wrong, and nothing changed. Try again.", "error");
      return false;
    }
    if (answer.status !== 200) {
      tell("The backup was not made (the score pad answered " + answer.status + "); nothing changed. Try again.", "error");
      return false;
    }
    const named = /filename="([^"]+)"/.exec(header(answer, "content-disposition"));
    const file = new File([answer.body], named ? named[1] : "ginscore-backup.zip", { type: "application/zip" });
    const how = await shared(file);
    if (how === "cancelled") { tell("Not shared: nothing was backed up.", "notice"); return false; }
    if (how !== "shared") save(file, file.name);
    try { keepBackup(localStorage, new Date(), answer.hands || {}); } catch (error) {
      tell(file.name + " is made, but this browser would not keep the note of when: keep the file off this phone.", "notice");
      return true;
    }
    tell((how === "shared" ? "Shared " : "Downloaded ") + file.name + ": keep it somewhere off this phone.", "notice");
    return true;
  } finally {
    control.disabled = false;
  }
}

// "shared", "cancelled" (the person closed the share sheet), or "" where the browser does not share such a file or
// would not now (the download is then made instead).
async function shared(file) {
  if (!navigator.canShare || !navigator.share || !navigator.canShare({ files: [file] })) return "";
  try {
    await navigator.share({ files: [file], title: file.name });
    return "shared";
  } catch (error) {
    return error && error.name === "AbortError" ? "cancelled" : "";
  }
}

// A finished match's result block offers a backup while hands on the phone are in none.
function backupOffer(main) {
  const block = main.querySelector(".result-block");
  if (!block) return;
  summaries().then(function (lines) {
    const since = handsSince(backupRecord(), lines);
    if (!since || !block.isConnected || block.querySelector(".result-backup")) return;
    const offer = document.createElement("div"), words = item(since === 1 ? "1 hand on this phone is in no backup yet."
      : since + " hands on this phone are in no backup yet.", "p");
    const make = button("Back up"), said = item("", "p");
    offer.className = "result-backup";
    said.setAttribute("role", "status");
    make.onclick = function () {
      backUp(make, said).then(function (done) { if (done) { words.textContent = "Every match on this phone is in the backup."; make.remove(); } });
    };
    words.append(" ", make);
    offer.append(words, said);
    block.append(offer);
  }).catch(function () {});
}

// A backup opened: the worker merges each match file in it; the list is drawn again, with what each became below
// "Open a backup".
async function restoring(file, results) {
  let answer;
  try { answer = await waitShown(ask("restore", { file: file })); } catch (error) {
    if (!unanswered(error)) {
      restoredShown({ error: file.name + " was not opened: something went wrong while reading it, and nothing on this phone changed. Try again." }, results);
    }
    return;
  }
  restored = answer;
  if (await show("/")) return;
  restored = null;  // another page came first: said where the person opened it
  restoredShown(answer, results);
}

function restoredShown(answer, results) {
  const opened = results.isConnected ? results : document.getElementById("restore-said");
  if (!opened) return;
  if (answer.error) {
    const refused = item(answer.error, "p");
    refused.className = "error";
    refused.setAttribute("role", "alert");
    opened.replaceChildren(refused);
  } else {
    const list = document.createElement("ul");
    answer.merged.forEach(function (one) {
      const entry = item(one.words);
      entry.className = "restored " + one.outcome;
      if (one.form) {
        const settle = button("Settle it");
        settle.onclick = function () { settled(one.form); };
        entry.append(" ", settle);
      }
      list.append(entry);
    });
    const heading = item(answer.words, "p");
    heading.setAttribute("role", "status");
    opened.replaceChildren(heading, list);
  }
  opened.scrollIntoView({ block: "start" });
  opened.focus({ preventScroll: true });
}

// A copy that conflicts with the phone's: posted to /merge as its page's form would be, and the page it answers
// (the differing hands side by side, and the three choices) shown.
function settled(form) {
  const path = "/merge";  // its page, not the list's: none of the list's boxes below it
  page.setAttribute("aria-busy", "true");
  waitShown(call("POST", "/merge", form, FORM_TYPE)).then(function (answer) { present(answer, path); }, function (error) {
    if (!unanswered(error)) present(failedAnswer(error), path);
  });
}

// Records the store holds that are not a match file under a name the folder accepts: set aside, never loaded,
// kept until the person removes them.
function damagedBox(records) {
  const box = section("Damaged records", "app-damaged");
  box.append(item("These stored records cannot be read as match files; the other matches are not affected.", "p"));
  const list = document.createElement("ul");
  records.forEach(function (record) {
    const entry = document.createElement("li"), shown = typeof record.key === "string" ? record.key : JSON.stringify(record.key);
    entry.className = "damaged";
    const download = button("Download as it is"), gone = button("Remove");
    download.onclick = async function () {
      let stored;
      try { stored = await ask("value", { key: record.key }); } catch (error) { unanswered(error); return; }
      const named = typeof record.key === "string" && /^[^/\\]+$/.test(record.key) && record.key.replace(/^\.+/, "") ? record.key.replace(/^\.+/, "") : "damaged-record";
      save(new Blob([asText(stored)], { type: "text/plain" }), named.slice(0, 120));
    };
    gone.onclick = async function () {
      try { await ask("remove", { key: record.key }); } catch (error) { unanswered(error); return; }
      show("/");
    };
    entry.append(item(shown + ": " + record.reason, "span"), " ", download, " ", gone);
    list.append(entry);
  });
  box.append(list);
  return box;
}

function section(heading, css) {
  const box = document.createElement("section"), title = document.createElement("h2");
  box.className = css;
  title.textContent = heading;
  box.append(title);
  return box;
}

function button(words) {
  const made = document.createElement("button");
  made.type = "button";
  made.textContent = words;
  return made;
}

async function matchFile(name) {
  return new File([await text(name)], name, { type: "application/toml" });
}

function save(blob, name) {
  const anchor = document.createElement("a");
  anchor.href = URL.createObjectURL(blob);
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(function () { URL.revokeObjectURL(anchor.href); }, 10000);
}

// Links: a route is shown (once Python is ready), a download is asked of the worker.
document.addEventListener("click", function (event) {
  const route = event.target.closest && event.target.closest("a[href^='#/']");
  if (route && ready && !route.dataset.path && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
    event.preventDefault();
    go(route.getAttribute("href").slice(1));
    return;
  }
  const anchor = event.target.closest && event.target.closest("a[data-path]");
  if (!anchor || !page.contains(anchor)) return;
  event.preventDefault();
  call("GET", anchor.dataset.path).then(function (answer) {
    const named = /filename="([^"]+)"/.exec(header(answer, "content-disposition"));
    save(new Blob([answer.body], { type: header(answer, "content-type") }), named ? named[1] : "ginscore");
  }, unanswered);
});

// Forms: a GET is a route; a POST goes to the worker and its answer (a page, or a redirect to one) is shown.
document.addEventListener("submit", function (event) {
  const form = event.target;
  if (event.defaultPrevented || !page.contains(form) || form.classList.contains("typed-check")) return;
  const action = form.getAttribute("action") || split(route())[0];
  if (!internal(action)) return;
  event.preventDefault();
  let data;
  try { data = new FormData(form, event.submitter); } catch (error) { data = new FormData(form); }
  const fields = new URLSearchParams(data).toString();
  if ((form.getAttribute("method") || "get").toLowerCase() === "get") { go(split(action)[0] + "?" + fields); return; }
  const path = page.dataset.path || route();  // the page the form is on: a form's answer shown at the address (/merge's)
  page.setAttribute("aria-busy", "true");
  waitShown(call("POST", action, fields, FORM_TYPE)).then(function (answer) { present(answer, path); }, function (error) {
    if (!unanswered(error)) present(failedAnswer(error), path);
  });
});

// What pages.js calls to reach the server: under the app, the worker is the server.
const host = {
  fetch: function (url, init) {
    if (!internal(url)) return Promise.reject(new Error(url + ": not one of the app's pages"));
    const method = ((init && init.method) || "GET").toUpperCase();
    let body = "", type = "";
    if (init && init.body instanceof FormData) { body = new URLSearchParams(init.body).toString(); type = FORM_TYPE; }
    else if (init && typeof init.body === "string") { body = init.body; type = "application/json"; }
    return waitShown(call(method, url, body, type)).then(function (answer) {  // a live answer over a second too
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    }, function (error) { unanswered(error); throw error; });
  },
  every: function (callback, delay) { const timer = setInterval(callback, delay); return function () { clearInterval(timer); }; },
  later: function (callback, delay) { const timer = setTimeout(callback, delay); return function () { clearTimeout(timer); }; },
};

window.addEventListener("popstate", function () { if (ready) show(route()); });

new BroadcastChannel(CHANNEL).onmessage = function (event) {
  // another tab changed a match: a match page sees it through its own poll; the list is drawn again
  if (event.data && event.data.tab === TAB) return;
  if (!ready) { document.querySelectorAll("[data-typed-check]").forEach(typedCheck);
summaries().then(listSaved); return; }
  const active = document.activeElement;
  if (route() === "/" && !(active && active.form)) show("/");
};

// For the tests and the benchmark: the same calls the pages make.
window.ginscoreApp = { ask: function (kind, data) { return ask(kind, data); }, call: call, times: null };

document.querySelectorAll("[data-typed-check]").forEach(typedCheck);
summaries().then(listSaved).catch(function () { listSaved({}); });
serviceWorker().then(startWorker);
