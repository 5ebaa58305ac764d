// ginscore app: the page. It shows serve's own pages, rendered by ginscore's Python in a Web Worker (worker.js):
// each navigation, form and the pages' own fetch() calls (static/pages.js) become messages to the worker, and
// the answer is swapped in. Routes live in the address's #fragment (#/m/friday.toml), so the folder works from
// any static host, at its root or under a sub-path. No rule of the game is written here: every answer is Python's.
import { CHANNEL, summaries, text } from "./store.js";

const page = document.getElementById("page");
const FORM_TYPE = "application/x-www-form-urlencoded";
const TAB = String(Math.random()).slice(2);  // names this tab's own changes, which the other tabs are told of
let worker = null, asked = 0, ready = false, leanReady = false, pageTimers = [];
const waiting = new Map();
let workerStarted;
const workerThere = new Promise(function (resolve) { workerStarted = resolve; });

async function ask(kind, data) {
  await workerThere;
  return new Promise(function (resolve, reject) {
    const id = ++asked;
    waiting.set(id, { resolve: resolve, reject: reject });
    worker.postMessage(Object.assign({ id: id, kind: kind, tab: TAB }, data || {}));
  });
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
    if (line.reason) {
      entry.append(item(name + ": " + line.status + ": " + line.reason, "span"));
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

function progress(value, words) {
  const bar = document.getElementById("progress"), label = document.getElementById("progress-label");
  if (bar) bar.value = value;
  if (label && words) label.textContent = words + "…";
}

async function serviceWorker() {
  if (!("serviceWorker" in navigator)) return null;  // plain http on another machine: no offline use, still works
  try {
    const registration = await navigator.serviceWorker.register("sw.js", { scope: "./" });
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

function startWorker() {
  worker = new Worker("worker.js", { type: "module" });
  workerStarted();
  worker.onmessage = function (event) {
    const message = event.data;
    if (message.id) {
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (pending) { if (message.ok) pending.resolve(message.result); else pending.reject(new Error(message.error)); }
    } else if (message.type === "progress") {
      progress(message.value, message.text);
    } else if (message.type === "lean") {
      leanReady = true;
    } else if (message.type === "ready") {
      ready = true;
      window.ginscoreApp.times = message.times;
      const starting = document.getElementById("starting");
      const cards = document.getElementById("typed-cards");
      if (cards && cards.value && location.hash.length < 3) {
        // someone is checking a hand: keep their screen, and say the rest is ready
        starting.replaceChildren("Ready. ", link("#/", "Show the matches"));
        starting.removeAttribute("id");
        page.setAttribute("aria-busy", "false");
      } else {
        show(route());
      }
    } else if (message.type === "failed") {
      const starting = document.getElementById("starting");
      if (starting) { starting.className = "error"; starting.textContent = "ginscore could not start here: " + message.error; }
    }
  };
}

function link(href, words) {
  const anchor = document.createElement("a");
  anchor.href = href;
  anchor.textContent = words;
  return anchor;
}

// "Can I knock?" with the cards typed: answered by ginscore.game.check as soon as the lean layers are in, before
// the pages are; `ginscore check`'s own words.
function typedCheck(into) {
  into.replaceWith(document.getElementById("typed-check").content.cloneNode(true));
}
document.addEventListener("submit", function (event) {
  const form = event.target;
  if (!form.classList.contains("typed-check")) return;
  event.preventDefault();
  const answer = form.parentNode.querySelector(".typed-answer");
  if (!leanReady) answer.textContent = "Python is still starting…";
  ask("check", { text: form.elements.cards.value }).then(function (said) { answer.textContent = said; });
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
async function show(path) {
  const mine = ++latest;
  let answer;
  try {
    answer = await call("GET", path);
  } catch (error) {
    answer = { status: 500, headers: [["content-type", "text/plain"]], body: new TextEncoder().encode("error: " + error.message) };
  }
  if (mine !== latest) return false;  // a later navigation wins over a slower, earlier one
  present(answer, path);
  return true;
}

function present(answer, path) {
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
  pageTimers.forEach(function (timer) { clearInterval(timer); });
  pageTimers = [];
  document.querySelectorAll("script[data-pages]").forEach(function (script) { script.remove(); });
  document.title = title;
  page.replaceChildren.apply(page, nodes.map(function (node) { return document.importNode(node, true); }));
  page.setAttribute("aria-busy", "false");
  page.querySelectorAll("img[src]").forEach(picture);
  extras(split(path)[0]);
  const script = document.createElement("script");
  script.src = "static/pages.js";
  script.dataset.pages = "1";
  document.body.append(script);
  if (!page.contains(document.activeElement)) window.scrollTo(0, 0);
}

async function picture(img) {
  const source = img.getAttribute("src");
  if (!internal(source)) return;
  img.removeAttribute("src");
  const answer = await call("GET", source);
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
    box.append(buttons, item("It is the same file the command line reads: ginscore show " + name, "p"));
    main.append(box);
  } else if (path === "/check") {
    const place = document.createElement("div");
    main.append(place);
    typedCheck(place);
  } else if (path === "/") {
    const box = section("Open a match file", "app-open");
    const label = document.createElement("label"), input = document.createElement("input"), said = document.createElement("p");
    label.htmlFor = input.id = "open-file";
    label.textContent = "A .toml match file from the command line or another phone";
    input.type = "file";
    input.accept = ".toml,application/toml,text/plain";
    said.id = "open-said";
    said.setAttribute("role", "alert");
    input.onchange = async function () {
      const file = input.files[0];
      if (!file) return;
      const answer = await ask("open", { name: file.name, text: await file.text() });
      input.value = "";
      if (answer.error) { said.className = "error"; said.textContent = answer.error; return; }
      go("/m/" + encodeURIComponent(answer.name));
    };
    const line = document.createElement("p");
    line.append(label, " ", input);
    box.append(line, said);
    main.append(box);
  }
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
  });
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
  const path = route();
  call("POST", action, fields, FORM_TYPE).then(function (answer) { present(answer, path); });
});

// pages.js asks the server with fetch(): under the app, the worker is the server.
const networkFetch = window.fetch.bind(window);
window.fetch = function (input, init) {
  if (!internal(input)) return networkFetch(input, init);
  const method = ((init && init.method) || "GET").toUpperCase();
  let body = "", type = "";
  if (init && init.body instanceof FormData) { body = new URLSearchParams(init.body).toString(); type = FORM_TYPE; }
  else if (init && typeof init.body === "string") { body = init.body; type = "application/json"; }
  return call(method, input, body, type).then(function (answer) {
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
};
// pages.js's timers (the live sheet's poll) belong to the page they were made for: cleared when it goes.
const setEvery = window.setInterval.bind(window);
window.setInterval = function (callback, delay) {
  const timer = setEvery(callback, delay);
  if (document.currentScript && document.currentScript.dataset.pages) pageTimers.push(timer);
  return timer;
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
if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(function () {});
serviceWorker().then(startWorker);
