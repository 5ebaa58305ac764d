// ginscore: what serve's pages.js and the app's shell both do, one module imported by both (nothing runs on import).

export function every(callback, delay) {  // a host's timers: each returns the function that stops it
  const timer = setInterval(callback, delay);
  return function () { clearInterval(timer); };
}

export function later(callback, delay) {
  const timer = setTimeout(callback, delay);
  return function () { clearTimeout(timer); };
}

// How serve's pages reach their server; the app gives them a host that asks its worker (pocket/shell/router.js).
export const browserHost = { fetch: function (url, init) { return window.fetch(url, init); }, every: every, later: later };

export function download(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  later(function () { URL.revokeObjectURL(link.href); }, 10000);
}

// Shared where the phone shares such a file, else downloaded: "shared", "cancelled" (the share sheet closed,
// nothing downloaded) or "downloaded" (no share, or refused as too long after the tap); another failure is thrown.
// `how`: the tests' browser.
export async function shareOrDownload(file, words, how) {
  const nav = how && how.navigator || globalThis.navigator, save = how && how.save || download;
  if (nav && nav.canShare && nav.share && nav.canShare({ files: [file] })) {
    try {
      await nav.share(Object.assign({ files: [file], title: file.name }, words || {}));
      return "shared";
    } catch (error) {
      if (error && error.name === "AbortError") return "cancelled";
      if (!error || error.name !== "NotAllowedError") throw error;
    }
  }
  save(file, file.name);
  return "downloaded";
}

// A moment in the phone's own time zone (the files keep UTC).
export function localTime(date, locales) {
  return date.toLocaleString(locales, { dateStyle: "medium", timeStyle: "short" });
}

export function localTimes(root) {
  root.querySelectorAll("time[datetime]").forEach(function (time) {
    const moment = new Date(time.dateTime);
    if (!isNaN(moment)) time.textContent = localTime(moment);
  });
}

// What a page says once ("Recorded hand 6.") taken out of an address (whole, or the app's #/route?query), the
// rest kept in its order: a reload does not say it again.
const SAID_ONCE = /(?<=[?&])(?:recorded|removed|edited|started)=[^&#]*&?/g;
export function withoutSaidOnce(address) {
  const at = address.indexOf("?");
  if (at < 0) return address;
  const end = address.indexOf("#", at), stop = end < 0 ? address.length : end;
  return address.slice(0, at) + address.slice(at, stop).replace(SAID_ONCE, "").replace(/[?&]$/, "") + address.slice(stop);
}
