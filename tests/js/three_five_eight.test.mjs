// web/games/three_five_eight.js: 3-5-8's own words, its log lines and replay lines (docs/rules.md
// T-; issue 39 item 2).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "/static/i18n.js";

let mod;
let game;
const info = { game: "3-5-8", seats: 3, teams: [[0], [1], [2]], direction: "clockwise", counted_deals: 9 };
const names = ["Ani", "Boris", "Carla"];
const ctx = { name: (s) => names[s] };

before(async () => {
  await setLang("en");
  mod = await import("/static/games/three_five_eight.js");
  game = mod.createPresenter(info);
});

test("the trump call: a strain or the one pass", () => {
  assert.equal(game.callLabel("H"), "♥");
  assert.equal(game.callLabel("NT"), "NT");
  assert.equal(game.callLabel("pass"), "Pass");
  assert.equal(mod.callName("S"), "spades");
  assert.equal(mod.callName("NT"), "no trump");
  assert.equal(mod.strainLabel("C"), "♣");
  assert.equal(mod.strainName("H"), "hearts");
});

test("the log's lines of the exchange and the discard; a card's gift only to whom sees it", () => {
  assert.equal(game.logLine({ kind: "call", seat: 0, action: "D" }, "Ani", ctx), "Ani: ♦");
  assert.equal(game.logLine({ kind: "give", seat: 1, to: 2 }, "Boris", ctx), "Boris gives a card to Carla");
  assert.equal(game.logLine({ kind: "give", seat: 1, to: 2, action: "AS", returned: "7H" }, "Boris", ctx), "Boris gives a card to Carla (A♠ → 7♥)");
  assert.equal(game.logLine({ kind: "discard", seat: 0 }, "Ani", ctx), "Ani discards a card");
  assert.equal(game.logLine({ kind: "discard", seat: 0, action: "8C" }, "Ani", ctx), "Ani discards a card (8♣)");
  assert.equal(game.logLine({ kind: "card", seat: 0, action: "8C" }, "Ani", ctx), undefined);
});

test("a replay's frame: the trump, and each seat's tricks against its target", () => {
  const about = game.replayInfo({ trump: "S", targets: [8, 5, 3], tricks: [2, 1, 0] });
  assert.deepEqual(about.facts, ["Trump: ♠"]);
  assert.equal(about.seatNote(0), "2 of 8 tricks");
  assert.equal(about.seatNote(2), "0 of 3 tricks");
  assert.deepEqual(game.replayInfo({ trump: null, targets: [8, 5, 3], tricks: [0, 0, 0] }).facts, []);
});

test("a deal's result in one line, and the deal's label", () => {
  assert.equal(game.resultLine({ void: false, scores: [1, -2, 0] }, (s) => names[s]), "Score: Ani +1 · Boris -2 · Carla 0");
  assert.equal(game.dealLabel({ counted: 2, result: null }), "Deal 3 of 9");
});
