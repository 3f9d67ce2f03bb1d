// web/sheet_queue.js (issue 41 item 9): the score sheet's changes kept with no network — a new
// deal waits under an id of its own, an edit or a take-back of a waiting deal changes the waiting
// deal, deals the server already has are dropped, and the waiting deals are shown after the sheet's.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as q from "/static/sheet_queue.js";

const entry = (cards) => ({ void: false, contract: { team: 0, level: 10, strain: "H", multiplier: 1 }, card_points: [cards, null] });

test("a new deal's id is made here, and two are never the same", () => {
  const ids = new Set(Array.from({ length: 500 }, () => q.newId()));
  assert.equal(ids.size, 500);
});

test("an edit of a waiting deal changes it; a take-back drops it; others are appended in order", () => {
  let queue = q.enqueue([], { kind: "add", cid: "a", entry: entry(100) });
  queue = q.enqueue(queue, { kind: "add", cid: "b", entry: entry(90) });
  queue = q.enqueue(queue, { kind: "replace", cid: "a", entry: entry(80) });
  assert.deepEqual(queue.map((c) => [c.cid, c.entry.card_points[0]]), [["a", 80], ["b", 90]]);
  queue = q.enqueue(queue, { kind: "delete", cid: "b" });
  assert.deepEqual(queue.map((c) => c.cid), ["a"]);
  queue = q.enqueue(queue, { kind: "replace", number: 3, entry: entry(70) });
  assert.deepEqual(queue.map((c) => c.kind), ["add", "replace"]);
});

test("each change is the request the API takes; a new deal carries its id", () => {
  assert.deepEqual(q.request("S", { kind: "add", cid: "a", entry: entry(100) }),
    ["POST", "/api/scoresheets/S/deals", { ...entry(100), client_id: "a" }]);
  assert.deepEqual(q.request("S", { kind: "replace", number: 2, entry: entry(100) }), ["PUT", "/api/scoresheets/S/deals/2", entry(100)]);
  assert.deepEqual(q.request("S", { kind: "delete", number: 4 }), ["DELETE", "/api/scoresheets/S/deals/4", undefined]);
});

test("deals the server already has are not sent again; the waiting ones follow the sheet's", () => {
  const sheet = { deals: [{ number: 1, client_id: "x" }, { number: 2, client_id: "a" }] };
  const queue = [{ kind: "add", cid: "a", entry: entry(1) }, { kind: "add", cid: "b", entry: entry(2) }, { kind: "replace", number: 1, entry: entry(3) }];
  const left = q.settled(queue, sheet);
  assert.deepEqual(left.map((c) => c.cid || c.number), ["b", 1]);
  assert.deepEqual(q.waitingRows(sheet, left).map((r) => [r.number, r.cid, r.waiting]), [[3, "b", true]]);
  assert.deepEqual(q.waitingRows({ deals: [{ number: 1 }] }, [{ kind: "delete", number: 1 }, { kind: "add", cid: "c", entry: entry(4) }]).map((r) => r.number), [1]);
});

test("no answer, or a gateway's, is the network's; a refusal is the server's", () => {
  assert.equal(q.isOffline(new TypeError("Failed to fetch")), true);
  assert.equal(q.isOffline({ status: 503 }), true);
  assert.equal(q.isOffline({ status: 422 }), false);
  assert.equal(q.isOffline({ status: 404 }), false);
});

test("the queue and the sheet's copy are kept per sheet in the browser's storage", () => {
  const kept = new Map();
  const store = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, v), removeItem: (k) => kept.delete(k) };
  assert.deepEqual(q.loadQueue(store, "S"), { changes: [], refused: [] });
  q.saveQueue(store, "S", { changes: [{ kind: "add", cid: "a", entry: entry(1) }], refused: [] });
  assert.equal(q.loadQueue(store, "S").changes[0].cid, "a");
  assert.deepEqual(q.loadQueue(store, "T"), { changes: [], refused: [] });
  q.saveQueue(store, "S", { changes: [], refused: [] });
  assert.equal(kept.size, 0);
  q.saveCopy(store, "S", { deals: [] });
  assert.deepEqual(q.loadCopy(store, "S"), { deals: [] });
  kept.set("blot.sheet-copy.T", "{not json");
  assert.equal(q.loadCopy(store, "T"), null);
});
