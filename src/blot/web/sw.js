// The service worker of blot's page (issue 26). The page's own files come from a cache made for
// this version of them, so that the page opens at once on a repeat visit; a page asked for while
// the network is gone gets a friendly offline page instead of the browser's error. The API and the
// tables' websockets always go to the server. The server fills in VERSION (a digest of the files),
// FILES and WORDS when it sends this script: a new version installs itself and drops the old cache.
// The page's words are one file per language (web/i18n/<lang>.js, web/games/<package>.<lang>.js):
// the worker keeps those of the language the page tells it (a message {lang}), not all four.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const WORDS = __WORDS__;
const CACHE = `blot-${VERSION}`;
const OFFLINE = "/static/offline.html";
// The score sheet opens with no network (issue 41 item 9): the page itself (the same for every
// path) is kept as it was last fetched, and so is the list of games its rulesets come from; the
// sheet and its waiting changes are the page's own (web/sheet_queue.js).
const SHELL = "/__page__";
const KEPT_API = ["/api/games"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("message", (event) => {
  const files = event.data && WORDS[event.data.lang];
  if (files) event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(files)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("blot-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreSearch: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

// The network's answer, a copy of it kept under `key` for when the network is gone; a fetch that
// fails throws, and the caller answers from the cache.
async function fetchKeeping(request, key) {
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(key, copy)).catch(() => {});
  }
  return response;
}

async function page(request) {
  try {
    return await fetchKeeping(request, SHELL);
  } catch {
    const path = new URL(request.url).pathname;
    const shell = path.startsWith("/scoresheet") ? await caches.match(SHELL) : null;
    return shell || (await caches.match(OFFLINE)) || Response.error();
  }
}

async function networkFirst(request) {
  try {
    return await fetchKeeping(request, request);
  } catch {
    return (await caches.match(request)) || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.startsWith("/static/")) event.respondWith(fromCache(request));
  else if (KEPT_API.includes(url.pathname)) event.respondWith(networkFirst(request));
});

// Web Push (issue 41 item 4): the server's message is words and a link (never a card); shown even
// with every tab of blot closed. A tap opens its page, in a tab of blot already open where there is one.
self.addEventListener("push", (event) => {
  let m = {};
  try { m = event.data ? event.data.json() : {}; } catch { /* not ours */ }
  if (!m.title) return;
  event.waitUntil(self.registration.showNotification(m.title, {
    body: m.body || "", tag: m.tag, renotify: !!m.tag, data: { url: m.url || "/" },
    icon: "/static/icons/icon-192.png", badge: "/static/icons/icon-192.png",
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
    const tab = open.find((c) => new URL(c.url).origin === url.origin);
    // a tab this worker does not control (opened before it took over) may not be navigated: the
    // table opens in a new tab rather than the tap only focusing the old page
    if (tab) return tab.navigate(url.href).then((c) => (c || tab).focus()).catch(() => self.clients.openWindow(url.href));
    return self.clients.openWindow(url.href);
  }));
});
