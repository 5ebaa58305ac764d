// ginscore app: the service worker. Every file of one build is precached under a cache named for this app's folder
// (its scope) and the build's version, so a new build replaces the old whole; the old cache goes once the new
// worker takes over, which the page asks for only when the person agrees ("a new version is ready").
"use strict";
const BUILD = __BUILD__;
const PREFIX = "ginscore " + self.registration.scope + " ";
const CACHE = PREFIX + BUILD.version;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(BUILD.files.map(function (file) {
      return new Request(new URL(file, self.registration.scope).href, { cache: "reload" });
    }));
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
