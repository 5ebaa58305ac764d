// ginscore: a match handed to another phone by its camera. On "Show as QR" the codes are shown one at a time, in
// a loop (without script they stand in a column); on "Scan a match" the camera reads them (BarcodeDetector where
// the browser has it, else the pinned jsQR decoder), the page says how many of how many are read, and the whole
// set is posted, to be joined and merged by the server's Python (files/handover.py). Nothing here reads what a
// code holds beyond its number: ginscoreHandover.start(root, host) and stop(), as pages.js's own.
"use strict";
(function () {
  var script = document.currentScript, current = null;
  var HEAD = /^GS1:([0-9A-F]{12}):([0-9]{1,2}):([0-9]{1,2}):/;
  var LOOK_MS = 120;  // between two looks at the camera's picture
  var WIDEST = 800;  // a camera frame is read at most this wide by jsQR: enough for a code across half the picture

  // The codes read so far, of one match: a code of another match starts the collection again with it.
  function Collector() {
    this.id = null;
    this.count = 0;
    this.parts = {};
  }
  // What one text read does: "foreign" (not a ginscore code), "again" (read before), "read" (a new one),
  // "other" (of another match: the collection starts again with it) or "complete" (the last one).
  Collector.prototype.add = function (text) {
    var head = typeof text === "string" ? HEAD.exec(text) : null;
    if (!head) return "foreign";
    var number = Number(head[2]), count = Number(head[3]);
    if (number < 1 || number > count) return "foreign";
    var said = "read";
    if (this.id !== null && (head[1] !== this.id || count !== this.count)) {
      this.parts = {};
      said = "other";
    }
    this.id = head[1];
    this.count = count;
    if (this.parts[number] === text) return "again";
    this.parts[number] = text;
    return this.complete() ? "complete" : said;
  };
  Collector.prototype.read = function () { return Object.keys(this.parts).length; };
  Collector.prototype.complete = function () { return this.count > 0 && this.read() === this.count; };
  Collector.prototype.missing = function () {
    var lacking = [];
    for (var number = 1; number <= this.count; number++) if (!(number in this.parts)) lacking.push(number);
    return lacking;
  };
  Collector.prototype.words = function () {
    if (!this.count) return "Point the camera at the code on the other phone.";
    if (this.complete()) return "All " + this.count + " read: adding the match…";
    if (this.count === 1) return "Reading the code…";
    return this.read() + " of " + this.count + " read. Keep pointing at the other phone.";
  };
  // The codes, one a line, in their order: what the form posts.
  Collector.prototype.payloads = function () {
    var parts = this.parts;
    return Object.keys(parts).map(Number).sort(function (a, b) { return a - b; }).map(function (number) { return parts[number]; }).join("\n");
  };

  var browser = {
    later: function (f, ms) { var t = setTimeout(f, ms); return function () { clearTimeout(t); }; },
    every: function (f, ms) { var t = setInterval(f, ms); return function () { clearInterval(t); }; },
  };

  function Page(root, host) {
    this.root = root;
    this.host = host;
    this.undo = [];
  }

  // "Show as QR": one code at a time, the next every few hundred milliseconds, round and round.
  function cycle(page, list) {
    var items = Array.prototype.slice.call(list.querySelectorAll(".qr-code-item"));
    if (items.length < 2) return;
    var shown = 0;
    function show() {
      items.forEach(function (item, at) { item.hidden = at !== shown; });
    }
    list.classList.add("qr-cycling");
    show();
    page.undo.push(page.host.every(function () { shown = (shown + 1) % items.length; show(); }, Number(list.dataset.showMs) || 700));
    page.undo.push(function () { list.classList.remove("qr-cycling"); items.forEach(function (item) { item.hidden = false; }); });
  }

  // A reader of the camera's picture: BarcodeDetector's, else jsQR's, else null (the page says so).
  function reader(box) {
    if (typeof window.BarcodeDetector === "function" && window.BarcodeDetector.getSupportedFormats) {
      return window.BarcodeDetector.getSupportedFormats().then(function (formats) {
        if (formats.indexOf("qr_code") < 0) return decoder(box);
        var detector = new window.BarcodeDetector({ formats: ["qr_code"] });
        return function (video) {
          return detector.detect(video).then(function (found) { return found.map(function (code) { return code.rawValue; }); });
        };
      }, function () { return decoder(box); });
    }
    return decoder(box);
  }

  function decoder(box) {
    var url = script && script.dataset.host === "app" ? "static/jsQR.js" : box.dataset.decoder;
    return new Promise(function (loaded) {
      if (typeof window.jsQR === "function") { loaded(); return; }
      var tag = document.createElement("script");
      tag.src = url;
      tag.onload = function () { loaded(); };
      tag.onerror = function () { loaded(); };
      document.head.append(tag);
    }).then(function () {
      if (typeof window.jsQR !== "function") return null;
      var canvas = document.createElement("canvas"), context = canvas.getContext("2d", { willReadFrequently: true });
      return function (video) {
        var scale = Math.min(1, WIDEST / (video.videoWidth || WIDEST));
        canvas.width = Math.round(video.videoWidth * scale);
        canvas.height = Math.round(video.videoHeight * scale);
        if (!canvas.width || !canvas.height) return Promise.resolve([]);
        context.drawImage(video, 0, 0, canvas.width, canvas.height);
        var found = window.jsQR(context.getImageData(0, 0, canvas.width, canvas.height).data, canvas.width, canvas.height,
          { inversionAttempts: "attemptBoth" });
        return Promise.resolve(found ? [found.data] : []);
      };
    });
  }

  // "Scan a match": the rear camera, read every LOOK_MS until every code is in; then the form is sent.
  function scan(page, box) {
    var video = box.querySelector("video"), said = box.querySelector(".scan-said"), again = box.querySelector(".scan-start");
    var form = page.root.querySelector(".scan-form"), codes = new Collector(), stream = null, waiting = null;
    function say(words) { said.textContent = words; }
    function soon(read) { waiting = page.host.later(function () { look(read); }, LOOK_MS); }
    page.undo.push(function () { if (waiting) waiting(); });
    function end() {
      if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
      stream = null;
      video.hidden = true;
    }
    page.undo.push(end);
    function camera(read) {
      again.hidden = true;
      if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
        say("This browser gives pages no camera. Open this page in another browser, such as Chrome or Safari.");
        return;
      }
      say("Starting the camera…");
      navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false }).then(function (got) {
        if (current !== page) { got.getTracks().forEach(function (track) { track.stop(); }); return; }
        stream = got;
        video.srcObject = got;
        video.hidden = false;
        return video.play().then(function () { say(codes.words()); look(read); });
      }).catch(function () {
        end();
        say("The camera could not be used. Allow this page to use the camera, then tap “Start the camera”.");
        again.hidden = false;
      });
    }
    function look(read) {
      if (current !== page || !stream) return;
      if (video.readyState < 2) { soon(read); return; }
      read(video).then(function (texts) {
        if (current !== page) return;
        var done = false;
        texts.forEach(function (text) { if (codes.add(text) === "complete") done = true; });
        say(codes.words());
        if (done) send(); else soon(read);
      }, function () { soon(read); });
    }
    function send() {
      end();
      form.elements.codes.value = codes.payloads();
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    }
    say("Getting the code reader ready…");
    reader(box).then(function (read) {
      if (current !== page) return;
      if (!read) {
        say("This browser cannot read QR codes with the camera. Open this page in another browser, such as Chrome.");
        return;
      }
      again.onclick = function () { camera(read); };
      camera(read);
    });
  }

  function start(root, host) {
    stop();
    var page = current = new Page(root, host || browser);
    var list = root.querySelector(".qr-codes"), box = root.querySelector("#scan");
    if (list) cycle(page, list);
    if (box) scan(page, box);
  }

  function stop() {
    var page = current;
    current = null;
    if (page) page.undo.splice(0).reverse().forEach(function (undo) { undo(); });
  }

  window.ginscoreHandover = { start: start, stop: stop, Collector: Collector };
  if (!script || script.dataset.host === "app") return;
  function begin() { start(document); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin); else begin();
})();
