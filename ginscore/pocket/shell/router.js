// ginscore app: the router. Routes live in the address's #fragment (#/m/friday.toml), so the folder works from any
// static host, at its root or under a sub-path. Each navigation, form and the pages' own calls (static/pages.js,
// through the host this router gives it) become requests to the worker (rpc.js), and the answer is swapped in:
// each page shown is started (ginscorePages.start) after the one before it is stopped, with its timers, listeners
// and wake lock. A route is shown first and put in the address after, as a real page load would.
import { download, every, later } from "./static/common.js";
import { failedAnswer, header, split } from "./rpc.js";
import { GO, unanswered } from "./banners.js";
import { waitShown } from "./progress.js";

export const FORM_TYPE = "application/x-www-form-urlencoded";

export function route() { return location.hash.length > 1 ? location.hash.slice(1) : "/"; }

export function internal(url) { return typeof url === "string" && url.charAt(0) === "/" && url.charAt(1) !== "/"; }

// A download's name, as its answer's content-disposition gives it.
export function fileName(answer, otherwise) {
  const named = /filename="([^"]+)"/.exec(header(answer, "content-disposition"));
  return named ? named[1] : otherwise;
}

// extras(path, main, answer): what the shell adds to a page once it is shown (extras.js).
export class Router {
  constructor(pad, extras) {
    this.pad = pad;
    this.extras = extras;
    this.page = document.getElementById("page");
    this.latest = 0;
    this.undo = [];
    const router = this;
    // What pages.js calls to reach the server: under the app, the worker is the server.
    this.host = {
      fetch: function (url, init) { return router.fetch(url, init); },
      every: every,
      later: later,
    };
  }

  // The document's listeners, held until `stop()`.
  start() {
    const on = (target, type, listener) => {
      target.addEventListener(type, listener);
      this.undo.push(function () { target.removeEventListener(type, listener); });
    };
    on(document, "click", (event) => this.clicked(event));
    on(document, "submit", (event) => this.submitted(event));
    on(window, "popstate", () => { if (this.pad.ready) this.show(route()); });
    on(document, GO, (event) => { if (event.detail) this.go(event.detail); else this.show(route()); });
  }

  stop() {
    this.undo.splice(0).reverse().forEach(function (undo) { undo(); });
    this.stopPage();
  }

  async go(path) {
    if (await this.show(path) && route() !== path) history.pushState(null, "", "#" + path);
  }

  async show(path) {
    const mine = ++this.latest;
    let answer;
    this.page.setAttribute("aria-busy", "true");
    try {
      answer = await waitShown(this.pad.call("GET", path));
    } catch (error) {
      if (unanswered(error)) return false;
      answer = failedAnswer(error);
    }
    if (mine !== this.latest) return false;  // a later navigation wins over a slower, earlier one
    this.present(answer, path);
    return true;
  }

  // A form's answer posted from `path`: the page it answers shown there (or the page it sends to).
  post(action, fields, path) {
    this.page.setAttribute("aria-busy", "true");
    waitShown(this.pad.call("POST", action, fields, FORM_TYPE)).then((answer) => { this.present(answer, path); }, (error) => {
      if (!unanswered(error)) this.present(failedAnswer(error), path);
    });
  }

  present(answer, path) {
    if (answer.status >= 300 && answer.status < 400 && header(answer, "location")) {
      this.go(header(answer, "location"));
      return;
    }
    const body = new TextDecoder().decode(answer.body);
    if (header(answer, "content-type").indexOf("text/html") !== 0) {
      const main = document.createElement("main"), shown = document.createElement("p");
      main.id = "main";
      shown.className = "error";
      shown.textContent = body;
      main.append(shown);
      this.swap([main], "ginscore", path, answer);
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
    this.swap(Array.from(parsed.body.childNodes), parsed.title || "ginscore", path, answer);
  }

  swap(nodes, title, path, answer) {
    const page = this.page;
    this.stopPage();
    document.title = title;
    page.replaceChildren.apply(page, nodes.map(function (node) { return document.importNode(node, true); }));
    page.setAttribute("aria-busy", "false");
    page.dataset.shown = String(Number(page.dataset.shown || 0) + 1);  // pages shown so far: the tests wait on it
    page.dataset.path = path;
    page.querySelectorAll("img[src]").forEach((img) => this.picture(img));
    const main = document.getElementById("main");
    if (main) this.extras(split(path)[0], main, answer);
    if (!page.contains(document.activeElement)) window.scrollTo(0, 0);
    // serve's scripts (pages.js, and handover.js's "Show as QR" and "Scan a match"), started with each page
    if (window.ginscorePages) window.ginscorePages.start(page, this.host);
    if (window.ginscoreHandover) window.ginscoreHandover.start(page, this.host);
  }

  stopPage() {
    if (window.ginscorePages) window.ginscorePages.stop();
    if (window.ginscoreHandover) window.ginscoreHandover.stop();
  }

  async picture(img) {
    const source = img.getAttribute("src");
    if (!internal(source)) return;
    img.removeAttribute("src");
    let answer;
    try { answer = await this.pad.call("GET", source); } catch (error) { unanswered(error); return; }
    img.src = URL.createObjectURL(new Blob([answer.body], { type: header(answer, "content-type") }));
  }

  fetch(url, init) {
    if (!internal(url)) return Promise.reject(new Error(url + ": not one of the app's pages"));
    const method = ((init && init.method) || "GET").toUpperCase();
    let body = "", type = "";
    if (init && init.body instanceof FormData) { body = new URLSearchParams(init.body).toString(); type = FORM_TYPE; }
    else if (init && typeof init.body === "string") { body = init.body; type = "application/json"; }
    return waitShown(this.pad.call(method, url, body, type)).then(function (answer) {  // a live answer over a second too
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    }, function (error) { unanswered(error); throw error; });
  }

  // Links: a route is shown (once Python is ready), a download is asked of the worker.
  clicked(event) {
    const target = event.target.closest && event.target.closest("a[href^='#/']");
    if (target && this.pad.ready && !target.dataset.path && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault();
      this.go(target.getAttribute("href").slice(1));
      return;
    }
    const anchor = event.target.closest && event.target.closest("a[data-path]");
    if (!anchor || !this.page.contains(anchor)) return;
    event.preventDefault();
    this.pad.call("GET", anchor.dataset.path).then(function (answer) {
      download(new Blob([answer.body], { type: header(answer, "content-type") }), fileName(answer, "ginscore"));
    }, unanswered);
  }

  // Forms: a GET is a route; a POST goes to the worker and its answer (a page, or a redirect to one) is shown.
  submitted(event) {
    const form = event.target;
    if (event.defaultPrevented || !this.page.contains(form) || form.classList.contains("typed-check")) return;
    const action = form.getAttribute("action") || split(route())[0];
    if (!internal(action)) return;
    event.preventDefault();
    let data;
    try { data = new FormData(form, event.submitter); } catch (error) { data = new FormData(form); }
    const fields = new URLSearchParams(data).toString();
    if ((form.getAttribute("method") || "get").toLowerCase() === "get") { this.go(split(action)[0] + "?" + fields); return; }
    this.post(action, fields, this.page.dataset.path || route());  // a form's answer shown at the address (/merge's)
  }
}
