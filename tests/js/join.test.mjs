// web/join.js (issue 41 item 10): a join code as typed or read off a board, and what a pasted link
// names (an event or a table) when an organizer or a host makes a code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cleanCode, targetOf } from "/static/join.js";

test("a code is read whatever its case, spaces and dashes", () => {
  assert.equal(cleanCode(" k7xq-m4pz "), "K7XQM4PZ");
  assert.equal(cleanCode("K7XQ M4PZ"), "K7XQM4PZ");
  assert.equal(cleanCode(null), "");
});

test("a pasted link names its event or its table; anything else names nothing", () => {
  assert.deepEqual(targetOf("https://blot.example/event/ab-12"), { event: "ab-12" });
  assert.deepEqual(targetOf("/table/Xy_9"), { table: "Xy_9" });
  assert.equal(targetOf("hello"), null);
  assert.equal(targetOf(""), null);
});
