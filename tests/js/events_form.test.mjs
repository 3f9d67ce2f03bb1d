// web/events_form.js (issue 42 item 1): what an event's form sends — a new event's whole body with
// a round's own time control, and an edit that sends only what changed (an unchanged start time
// is not sent again: the server refuses a start time in the past).
import { test } from "node:test";
import assert from "node:assert/strict";
import { formOf, bodyOf, changes } from "/static/events_form.js";

const game = {
  game: "g", rulesets: ["league", "classic"], options: { target: 301, kanach: false }, score_sheet: true,
  option_fields: [{ name: "target", kind: "number", min: 1, max: 10000 }, { name: "kanach", kind: "yes_no" }],
};

test("a new event's body: every setting, and the rounds that differ from the event", () => {
  const f = formOf([game]);
  Object.assign(f, { name: "Friday", rounds: 3, ruleset: "classic", timer: 30, forfeit: 600, public: false });
  f.options.target = 151;
  f.per = { 2: { timer: 60 }, 3: { timer: 30, forfeit: undefined } }; // round 3's timer is the event's
  const body = bodyOf(f, game);
  assert.equal(body.ruleset, "classic");
  assert.deepEqual(body.options, { target: 151, kanach: false });
  assert.deepEqual([body.timer, body.forfeit_seconds, body.public, body.rounds], [30, 600, false, 3]);
  assert.deepEqual(body.rounds_settings, { 2: { timer: 60 } });
  assert.equal("schedule" in body, false);
});

test("an edit sends what changed, and null for what was removed", () => {
  const event = {
    name: "Friday", game: "g", format: "swiss", public: true, rounds: [], rounds_total: 3,
    settings: { rounds: 3, ruleset: "league", options: { target: 301, kanach: false }, online: true, rated: false,
      referees: false, timer: 0, forfeit_seconds: 300, deadline: "2030-05-01T18:00:00+00:00",
      schedule: ["2030-05-01T19:00:00+00:00"] },
  };
  const before = bodyOf(formOf([game], event), game);
  const edit = formOf([game], event);
  edit.forfeit = 600;
  edit.deadline = "";
  assert.deepEqual(changes(before, bodyOf(edit, game)), { forfeit_seconds: 600, deadline: null });
  assert.deepEqual(changes(before, bodyOf(formOf([game], event), game)), {});
});
