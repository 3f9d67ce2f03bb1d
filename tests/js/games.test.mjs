// web/games.js: where each seat sits and who is whose partner, from a game's description alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "/static/i18n.js";
import { placesFrom, teamOf, hasPartners, rulesText } from "/static/games.js";

const four = { seats: 4, direction: "counterclockwise", teams: [[0, 2], [1, 3]] };
const three = { seats: 3, direction: "clockwise", teams: [[0], [1], [2]] };

test("seats around the table as seen from a seat", () => {
  assert.deepEqual(placesFrom(four, 0), { 0: "bottom", 1: "right", 2: "top", 3: "left" });
  assert.deepEqual(placesFrom(four, 1), { 0: "left", 1: "bottom", 2: "right", 3: "top" });
  assert.deepEqual(placesFrom(three, 2), { 0: "left", 1: "right", 2: "bottom" });
  assert.deepEqual(placesFrom({ seats: 2, direction: "clockwise", teams: [[0], [1]] }, 1), { 0: "top", 1: "bottom" });
});

test("teams and partners", () => {
  assert.equal(teamOf(four, 3), 1);
  assert.equal(teamOf(three, 2), 2);
  assert.equal(hasPartners(four), true);
  assert.equal(hasPartners(three), false);
});

test("a presenter that leaves out the optional parts gets the page's defaults", async () => {
  const { presenter } = await import("/static/games.js");
  // web/games/../../../../tests/js/toy-presenter.js: a presenter outside the page's files
  const made = await presenter({ game: "toy", presenter: "../../../../tests/js/toy-presenter" });
  assert.equal(made.callLabel("pass"), "pass");
  assert.equal(made.logLine({ kind: "card" }, "Ani", {}), undefined);
  assert.deepEqual(made.replayInfo({}).facts, []);
  assert.equal(made.dealLabel({ deal_number: 2 }), "deal 2");
  // a day's traveller says nothing of a game whose presenter has no line of its own (web/daily.js)
  assert.equal(made.travellerLine({ points: [1, 2] }, 0, () => "You"), null);
  const { resultText } = await import("/static/daily.js");
  const duel = { seats: 2, direction: "clockwise", teams: [[0], [1]] };
  assert.equal(resultText(made, duel, { points: [1, 2] }, 0), "—");
  // the seat across a two-seat table is an opponent, not a partner (web/daily.js names seats by team)
  await setLang("en");
  const named = { travellerLine: (r, seat, who) => `${who(0)}, ${who(1)}` };
  assert.equal(resultText(named, duel, { points: [1, 2] }, 0), "You, Across");
  const four = { seats: 4, direction: "counterclockwise", teams: [[0, 2], [1, 3]] };
  assert.equal(resultText({ travellerLine: (r, seat, who) => [0, 1, 2, 3].map(who).join(", ") }, four, {}, 1), "Left, You, Right, Partner");
});

test("a table's rules in a few words, from the game's description: no option named by the page", async () => {
  await setLang("en");
  const bazar = {
    rulesets: ["league", "classic"], ruleset_labels: { league: { en: "League" } },
    option_fields: [{ name: "target", kind: "number" }, { name: "kanach", kind: "yes_no" }],
  };
  assert.equal(rulesText(bazar, { ruleset: "league", options: { target: 301, kanach: true } }), "League · to 301");
  const tfe = { rulesets: ["standard"], option_fields: [] };
  assert.equal(rulesText(tfe, { ruleset: "standard", options: {} }), "");
  const toy = { rulesets: ["plain"], option_fields: [{ name: "rounds", kind: "number" }] };
  assert.equal(rulesText(toy, { ruleset: "plain", options: { rounds: 3 } }), "rounds 3"); // a word the page lacks
  assert.equal(rulesText(null, {}), "");
});
