// ginscore serve: smoother pages (each works without it). The picker asks the server, never a copy of the
// solver; a match page polls its version and stays awake. ginscorePages.start(root, host) and stop(): a page's
// timers, listeners and wake lock end with it; the app (data-host="app") starts each page it shows with its host.
// What the app's shell does too (downloads, share-or-download, local times, the browser's host, the "said once"
// parameters) is in common.js, an ES module beside this script, imported from it: no build step.
"use strict";
(function () {
  var current = null, script = document.currentScript, FRESH = { credentials: "same-origin", cache: "no-store" };
  var common = import(new URL("common.js", script.src).href);

  function Page(root, host) {
    this.root = root;
    this.host = host;
    this.undo = [];
  }
  Page.prototype.on = function (target, type, listener) {
    target.addEventListener(type, listener);
    this.undo.push(function () { target.removeEventListener(type, listener); });
  };
  Page.prototype.every = function (f, ms) { this.undo.push(this.host.every(f, ms)); };
  Page.prototype.later = function (f, ms) { var end = this.host.later(f, ms); this.undo.push(end); return end; };

  function live(page, box) {
    var busy = false;
    function poll() {
      if (busy || document.hidden) return;
      var sheet = document.getElementById("sheet");
      busy = true;
      page.host.fetch(box.dataset.versionUrl, FRESH)
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (found) {
          if (!found || !found.version || (sheet && sheet.dataset.version === found.version)) return null;
          return page.host.fetch(box.dataset.sheetUrl, FRESH)
            .then(function (response) { return response.ok ? response.text() : null; })
            .then(function (html) {
              if (!html || current !== page) return;
              box.innerHTML = html;
              // the newest hand said once, not the whole sheet again
              var status = document.getElementById("live-status"), last = box.querySelector("tr.hand:last-of-type .result");
              if (status) status.textContent = last ? "Sheet updated: " + last.textContent : "Sheet updated.";
            });
        })
        .catch(function () {})
        .then(function () { busy = false; });
    }
    page.every(poll, 1000);
  }

  // refused (battery saver, no permission): silently nothing
  function stay_awake(page) {
    var wake = navigator.wakeLock, held = null, stopped = false;
    if (!wake || typeof wake.request !== "function") return;
    function ask() {
      if (held || stopped || document.visibilityState !== "visible") return;
      held = "asking";
      Promise.resolve().then(function () { return wake.request("screen"); }).then(function (lock) {
        if (stopped) { lock.release(); return; }
        held = lock;
        if (lock && lock.addEventListener) lock.addEventListener("release", function () { if (held === lock) held = null; });
      }).catch(function () { held = null; });
    }
    // the lock goes when the page is hidden: asked again when it is shown
    page.on(document, "visibilitychange", function () {
      if (document.visibilityState === "visible" && held && held.released) held = null;
      ask();
    });
    page.undo.push(function () { stopped = true; if (held && held !== "asking") held.release(); held = null; });
    ask();
  }

  function words(value) { return value.split(/\s+/).filter(Boolean); }

  function picker(page, form) {
    var box = form.querySelector("[data-picker]");
    var liveHand = document.getElementById("live-hand");
    var picking = box ? box.querySelector("[data-picking]") : null;
    var cancel = null, asked = 0;

    function side(key) { return box.querySelector('[data-side="' + key + '"]'); }
    function sides() { return Array.prototype.slice.call(box.querySelectorAll("[data-side]")); }

    function paint() {
      if (!box) return;
      var mine = words(side(picking.value).value);
      var others = [];
      sides().forEach(function (input) {
        if (input.dataset.side !== picking.value) others = others.concat(words(input.value));
        var count = box.querySelector('[data-count="' + input.dataset.side + '"]');
        if (count) count.textContent = words(input.value).length;
      });
      box.querySelectorAll("button[name=toggle]").forEach(function (button) {
        var code = button.value, other = others.indexOf(code) >= 0;
        button.setAttribute("aria-pressed", mine.indexOf(code) >= 0 ? "true" : "false");
        button.disabled = other;
        button.classList.toggle("other", other);
      });
      box.querySelectorAll("button[name=side]").forEach(function (button) {
        button.setAttribute("aria-pressed", button.value === picking.value ? "true" : "false");
      });
      var discard = form.querySelector("[data-discard]");
      var knocker = side("knocker");
      if (discard && knocker) {
        var cards = words(knocker.value), chosen = discard.value;
        while (discard.options.length > 1) discard.remove(1);
        if (cards.length > 10) cards.forEach(function (code) {  // said as its picker button says it: 9♥
          var shown = box.querySelector('[name=toggle][value="' + code + '"]');
          discard.add(new Option(shown ? shown.textContent : code, code, false, code === chosen));
        });
      }
    }

    function refresh() {
      if (!liveHand || !form.dataset.liveUrl) return;
      if (cancel) cancel();
      cancel = page.later(function () {
        var mine = ++asked;
        page.host.fetch(form.dataset.liveUrl, Object.assign({ method: "POST", body: new FormData(form) }, FRESH))
          .then(function (response) { return response.text(); }).then(function (html) {
          if (mine !== asked || current !== page) return;
          var active = document.activeElement, focused = active && liveHand.contains(active) ? active.id : "";
          liveHand.innerHTML = html;
          if (focused && document.getElementById(focused)) document.getElementById(focused).focus();  // a spread chosen keeps focus
          save_state();
        }).catch(function () {});
      }, 150);
    }

    // Save is off while the preview refuses the hand, the server's reason beside it
    function save_state() {
      var save = form.querySelector("button[value=save]"), reason = form.querySelector("#save-reason");
      if (!save || !reason) return;
      var said = liveHand.querySelector("[data-save-reason]");
      save.disabled = Boolean(said);
      reason.hidden = !said;
      reason.textContent = said ? said.dataset.saveReason : "";
      if (said) save.setAttribute("aria-describedby", "save-reason"); else save.removeAttribute("aria-describedby");
    }

    function gin() {  // the knocker's count 0 in one tap; the opponent's count next
      var theirs = form.elements.opponent_deadwood;
      form.elements.deadwood.value = "0";
      if (theirs && !theirs.value.trim()) theirs.focus();
      refresh();
    }

    page.on(form, "click", function (event) {
      var button = event.target.closest("button");
      if (button && button.hasAttribute("data-gin")) { event.preventDefault(); gin(); return; }
      if (!button || !box || !box.contains(button)) return;
      if (button.name === "toggle") {
        var input = side(picking.value), cards = words(input.value), at = cards.indexOf(button.value);
        if (at >= 0) cards.splice(at, 1); else cards.push(button.value);
        input.value = cards.join(" ");
      } else if (button.name === "side") {
        picking.value = button.value;
      } else if (button.name === "clear") {
        side(picking.value).value = "";
      } else {
        return;
      }
      event.preventDefault();
      paint();
      refresh();
    });
    function name_sides() {
      // the side buttons name whose cards they are, as the server's page does
      var radios = Array.prototype.slice.call(form.querySelectorAll("input[name=knocker]"));
      var chosen = radios.filter(function (radio) { return radio.checked; })[0];
      if (!box || !chosen || radios.length !== 2) return;
      var other = radios[0] === chosen ? radios[1] : radios[0];
      var names = { knocker: chosen.value, opponent: other.value };
      box.querySelectorAll("button[name=side]").forEach(function (button) {
        if (button.firstChild && button.firstChild.nodeType === 3) button.firstChild.nodeValue = names[button.value] + "'s cards ";
      });
    }

    page.on(form, "change", function (event) {
      if (event.target.name === "knocker") name_sides();
      refresh();
    });
    page.on(form, "submit", function (event) {
      // a double tap sends the hand once (expected_hands refuses a second anyway)
      if (form.dataset.sent) { event.preventDefault(); return; }
      form.dataset.sent = "1";
      page.later(function () { delete form.dataset.sent; }, 5000);
    });
    page.on(form, "input", function (event) {
      if (event.target.inputMode === "numeric" || event.target.name === "note") refresh();
    });
    paint();
  }

  // The new-match form: a tapped player fills the next name; the dealer choice says the names as typed.
  function new_match(page, form) {
    var one = form.elements.player1, two = form.elements.player2;
    function label() {
      [one, two].forEach(function (input, at) {
        var tag = form.querySelector('label[data-names="' + input.name + '"]');
        if (tag) tag.textContent = input.value.trim() || (at ? "Second player" : "First player");
      });
    }
    page.on(form, "input", label);
    page.on(form, "click", function (event) {
      var chip = event.target.closest("button[data-player], button[data-pair]");
      if (!chip) return;
      if (chip.dataset.pair) { var pair = chip.dataset.pair.split("\n"); one.value = pair[0]; two.value = pair[1]; }
      else (one.value.trim() && one.value.trim() !== chip.dataset.player ? two : one).value = chip.dataset.player;
      label();
    });
    label();
  }

  // A refused save's reason, beside its field, brought into view and focused.
  function show_refusal(root) {
    var refusal = root.querySelector("[data-refusal]");
    if (!refusal) return;
    refusal.scrollIntoView({block: "center"});
    refusal.focus({preventScroll: true});
  }

  // Share the result: the card drawn at 2x as a PNG, shared where the phone can, else downloaded.
  function share_result(page, root) {
    var top = root.documentElement || root;  // with script the button shows, not the picture's link
    top.classList.add("scripted");
    page.undo.push(function () { top.classList.remove("scripted"); });
    page.on(root, "click", function (event) {
      var button = event.target.closest && event.target.closest("button[data-share]");
      if (!button) return;
      var said = button.parentNode.querySelector("[role=status]"), data = button.dataset;
      said.textContent = "";
      button.disabled = true;
      page.host.fetch(data.share, FRESH).then(function (answer) {
        if (!answer.ok) throw new Error(answer.status);
        return answer.text();
      }).then(png).then(function (blob) {
        var file = new File([blob], data.file.replace(/\.toml$/, "") + "-result.png", { type: "image/png" });
        return common.then(function (shared) { return shared.shareOrDownload(file, { title: data.title, text: data.text.trim() }); });
      }).catch(function () {
        said.textContent = "The picture could not be made or shared. Try again.";
      }).then(function () { button.disabled = false; });
    });
  }

  function png(svg) {
    var drawn = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement, picture = new Image();
    var url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    return new Promise(function (loaded, failed) { picture.onload = loaded; picture.onerror = failed; picture.src = url; })
      .then(function () {
        var canvas = document.createElement("canvas");
        canvas.width = 2 * drawn.getAttribute("width");
        canvas.height = 2 * drawn.getAttribute("height");
        canvas.getContext("2d").drawImage(picture, 0, 0, canvas.width, canvas.height);
        return new Promise(function (made, failed) {
          canvas.toBlob(function (blob) { if (blob) made(blob); else failed(new Error("no PNG")); }, "image/png");
        });
      }).finally(function () { URL.revokeObjectURL(url); });
  }

  function start(root, host) {
    stop();
    var page = current = new Page(root, host);
    show_refusal(root);
    var box = root.querySelector("#live"), named = root.querySelector("input[name=player1]");
    if (box && box.dataset.versionUrl) live(page, box);
    if (box && box.dataset.versionUrl || root.querySelector("#hand-form, [data-stay-awake]")) stay_awake(page);  // the table's pages, a match's codes
    root.querySelectorAll("form[data-live-url]").forEach(function (form) { picker(page, form); });
    if (named) new_match(page, named.form);
    share_result(page, root);
    common.then(function (shared) {
      if (current !== page) return;
      var said = shared.withoutSaidOnce(location.href);  // said once: not again on a reload
      if (said !== location.href) history.replaceState(history.state, "", said);
      shared.localTimes(root);
    });
  }

  function stop() {
    var page = current;
    current = null;
    if (page) page.undo.splice(0).reverse().forEach(function (undo) { undo(); });
  }

  window.ginscorePages = { start: start, stop: stop };
  if (script && script.dataset.host === "app") return;
  function begin() { common.then(function (shared) { start(document, shared.browserHost); }); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin); else begin();
})();
