// ginscore app: the service worker (sw.js) registered, its download's progress heard, and a new version offered
// once it is installed ("a new version is ready"), taken over only when the person agrees.

// The registration, once the service worker holds this page; null where there is none (plain http on another
// machine: no offline use, still works). `arrived` hears the first start's download.
export async function registered(arrived) {
  if (!("serviceWorker" in navigator)) return null;
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
        const timer = setTimeout(resolve, 4000);
        navigator.serviceWorker.addEventListener("controllerchange", function () { clearTimeout(timer); resolve(); }, { once: true });
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
