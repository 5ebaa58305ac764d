// ginscore app: the service worker. Every file of one build is precached under a cache named for this app's folder
// (its scope) and the build's version, so a new build replaces the old whole; the old cache goes once the new
// worker takes over, which the page asks for only when the person agrees ("a new version is ready").
"use strict";
const BUILD = __BUILD__;
const PREFIX = "ginscore " + self.registration.scope + " ";
const CACHE = PREFIX + BUILD.version;

// The first start fetches every file (the runtime is most of it): each body is counted as it arrives, and the
// pages are told the bytes arrived of the build's size, for the progress bar. The cache gets the files only once
// all have arrived, as addAll would.
self.addEventListener("install", function (event) {
  const total = BUILD.files.reduce(function (sum, file) { return sum + (BUILD.sizes[file] || 0); }, 0);
  let arrived = 0, told = 0;
  function tell(last) {
    const now = Date.now();
    if (!last && now - told < 100) return;
    told = now;
    self.clients.matchAll({ includeUncontrolled: true, type: "window" }).then(function (pages) {
      pages.forEach(function (shown) { shown.postMessage({ type: "arrived", arrived: Math.min(arrived, total), total: total }); });
    });
  }
  function counted(response) {
    if (!response.ok) throw new Error(response.url + " answered " + response.status);
    const reader = response.body.getReader(), parts = [], headers = new Headers(response.headers);
    headers.delete("content-encoding");  // the body kept is the one the browser decoded
    headers.delete("content-length");
    function next() {
      return reader.read().then(function (read) {
        if (read.done) return new Response(new Blob(parts), { status: response.status, statusText: response.statusText, headers: headers });
        parts.push(read.value);
        arrived += read.value.byteLength;
        tell(false);
        return next();
      });
    }
    return next();
  }
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    const requests = BUILD.files.map(function (file) {
      return new Request(new URL(file, self.registration.scope).href, { cache: "reload" });
    });
    return Promise.all(requests.map(function (request) { return fetch(request).then(counted); })).then(function (answers) {
      tell(true);
      return Promise.all(answers.map(function (answer, at) { return cache.put(requests[at], answer); }));
    });
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (key) { return key.indexOf(PREFIX) === 0 && key !== CACHE; })
      .map(function (key) { return caches.delete(key); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("message", function (event) {
  if (event.data === "take-over") self.skipWaiting();
});

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET" || request.url.indexOf(self.registration.scope) !== 0) return;
  event.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(request, { ignoreSearch: true }).then(function (found) { return found || fetch(request); });
  }));
});
