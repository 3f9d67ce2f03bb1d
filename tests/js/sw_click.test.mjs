// web/sw.js's tap on a notification (issue 41 item 4): Chromium's DevTools protocol can deliver a
// push message to the service worker but cannot tap what it shows, so the worker's handler runs
// here, with a stand-in for its `self` (clients, tabs): a tap opens the message's table — in a tab
// of blot already open where that tab can be navigated, else in a new one — and never a page of
// another origin.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const ORIGIN = "https://blot.test";
const SOURCE = readFileSync(new URL("../../src/blot/web/sw.js", import.meta.url), "utf8")
  .replace("__VERSION__", "test").replace("__FILES__", "[]").replace("__WORDS__", "{}");

// The worker loaded into a context of its own; answers its handlers and what they did.
function worker(tabs) {
  const handlers = {};
  const did = [];
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (kind, f) => { handlers[kind] = f; },
    clients: {
      matchAll: async () => tabs,
      openWindow: async (url) => { did.push(["open", url]); return null; },
    },
  };
  vm.runInNewContext(SOURCE, { self, URL, caches: {}, fetch: () => null, Response });
  return { handlers, did };
}

function tab(url, did, navigable = true) {
  return {
    url,
    navigate: async (to) => {
      if (!navigable) throw new TypeError("not controlled by this worker");
      did.push(["navigate", to]);
      return null;
    },
    focus: async () => { did.push(["focus", url]); },
  };
}

// Taps a notification whose data is `data`; answers once the worker's work is done.
async function tap(handlers, data) {
  let work = Promise.resolve();
  let closed = false;
  handlers.notificationclick({
    notification: { data, close: () => { closed = true; } },
    waitUntil: (p) => { work = p; },
  });
  await work;
  return closed;
}

test("a tap with a tab of blot open navigates that tab to the table and focuses it", async () => {
  const did = [];
  const w = worker([tab(`${ORIGIN}/`, did)]);
  assert.equal(await tap(w.handlers, { url: "/table/t1" }), true);
  assert.deepEqual(did, [["navigate", `${ORIGIN}/table/t1`], ["focus", `${ORIGIN}/`]]);
});

test("a tap with no tab of blot open opens the table in a new one", async () => {
  const w = worker([]);
  await tap(w.handlers, { url: "/table/t1" });
  assert.deepEqual(w.did, [["open", `${ORIGIN}/table/t1`]]);
});

test("a tab the worker may not navigate (not controlled by it) still gets the table: a new tab opens", async () => {
  const did = [];
  const w = worker([tab(`${ORIGIN}/friends`, did, false)]);
  await tap(w.handlers, { url: "/table/t1" });
  assert.deepEqual([...did, ...w.did], [["open", `${ORIGIN}/table/t1`]]);
});

test("a message whose link is of another origin opens nothing", async () => {
  const did = [];
  const w = worker([tab(`${ORIGIN}/`, did)]);
  assert.equal(await tap(w.handlers, { url: "https://elsewhere.example/table/t1" }), true);
  assert.deepEqual([...did, ...w.did], []);
});
