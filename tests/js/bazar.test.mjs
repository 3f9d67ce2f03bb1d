// web/games/bazar.js: Bazar Blot's own words, its log lines and replay lines (docs/rules.md B-20 …
// B-26 the calls, B-43 the declarations; issue 39 item 2).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "/static/i18n.js";

let bazar;
let game;
const info = { game: "bazar-blot", seats: 4, teams: [[0, 2], [1, 3]], direction: "counterclockwise" };
const names = ["Ani", "Boris", "Carla", "Dan"];
const ctx = { name: (s) => names[s] };

before(async () => {
  await setLang("en");
  bazar = await import("/static/games/bazar.js");
  game = bazar.createPresenter(info);
});

test("calls: bids by level and strain, the other calls by their word (B-20 … B-26)", () => {
  assert.equal(game.callLabel("10H"), "10♥");
  assert.equal(game.callLabel("11NT"), "11\u00a0NT");
  assert.equal(game.callLabel("pass"), "Pass");
  assert.equal(game.callLabel("contra"), "Contra");
  assert.equal(game.callLabel("sevens"), "Four sevens");
  assert.equal(bazar.callName("12S"), "12 spades");
  assert.equal(bazar.callName("NT"), "no trump");
});

test("the strains of the bidding are Bazar Blot's words, not the shared cards' (issue 39 item 2)", () => {
  assert.equal(bazar.strainLabel("D"), "♦");
  assert.equal(bazar.strainLabel("NT"), "NT");
  assert.equal(bazar.strainName("C"), "clubs");
  assert.equal(bazar.strainName("NT"), "no trump");
});

test("contracts as the table and the replay write them", () => {
  assert.equal(bazar.contractLabel({ level: 10, strain: "H", multiplier: 2 }), "10♥ ×2");
  assert.equal(bazar.contractLabel({ level: 9, strain: "C", multiplier: 1 }), "9♣");
  assert.equal(bazar.contractText("10H×4"), "10♥ ×4");
  assert.equal(bazar.contractText("13NT"), "13\u00a0NT");
  assert.equal(bazar.contractText(null), null);
});

test("declarations by kind and top rank, the suit once shown (B-43)", () => {
  assert.equal(bazar.declarationLabel({ kind: "terz", rank: "A" }), "terz to the ace");
  assert.equal(bazar.declarationLabel({ kind: "fifty", rank: "K", suit: "S" }), "fifty to the king ♠");
  assert.equal(bazar.declarationLabel({ kind: "four", rank: "J" }), "four jacks");
});

test("the log's lines of Bazar Blot's own events", () => {
  assert.equal(game.logLine({ kind: "call", seat: 1, action: "10H" }, "Boris", ctx), "Boris: 10♥");
  assert.equal(game.logLine({ kind: "declare", seat: 0, declare: [{ kind: "terz", rank: "A" }] }, "Ani", ctx), "Ani: terz to the ace");
  assert.equal(game.logLine({ kind: "declare", seat: 0, declare: [] }, "Ani", ctx), null);
  assert.equal(game.logLine({ kind: "card", seat: 2, action: "QH", belote: "belote" }, "Carla", ctx), "Carla: Q♥ — belote");
  // a plain card and the shared events are the table's to say
  assert.equal(game.logLine({ kind: "card", seat: 2, action: "QH" }, "Carla", ctx), undefined);
  assert.equal(game.logLine({ kind: "sit", seat: 2, name: "Carla" }, "Carla", ctx), undefined);
});

test("a replay's frame: the contract and its declarer, the tricks", () => {
  const about = game.replayInfo({ contract: "10H×2", declarer: 1, tricks: [3, 2] }, (s) => names[s]);
  assert.deepEqual(about.facts, ["Contract: 10♥ ×2 — Boris", "Tricks: 3 : 2"]);
  assert.equal(about.seatNote(0), null);
  assert.deepEqual(game.replayInfo({ contract: null, tricks: [0, 0] }, (s) => names[s]).facts, ["Tricks: 0 : 0"]);
});

test("a deal's result in one line, and the deal's label", () => {
  assert.equal(game.resultLine({ void: false, made: true, kapoot: null, points: [16, 0] }), "made · Points: 16 : 0");
  assert.equal(game.resultLine({ void: false, made: false, kapoot: 1, points: [0, 25] }), "failed · kapoot · Points: 0 : 25");
  assert.equal(game.dealLabel({ deal_number: 3 }), "Deal 3");
});

test("in another language the game's own words follow", async () => {
  await setLang("ru");
  const ru = (await import("/static/games/bazar.ru.js")).default;
  assert.equal(bazar.declarationLabel({ kind: "terz", rank: "A" }).startsWith(ru.decl_terz.split("{")[0]), true);
  // "to" takes the genitive in Russian: a terz to the nine is "до девятки", not "до девятка"
  assert.equal(bazar.declarationLabel({ kind: "terz", rank: "9" }), "терц до девятки");
  assert.equal(bazar.declarationLabel({ kind: "four", rank: "Q" }), "каре: дама");
  await setLang("en");
});

test("calls typed on the keyboard: X is contra, XX redouble", () => {
  assert.equal(game.typedCall("X"), "contra");
  assert.equal(game.typedCall("XX"), "redouble");
  assert.equal(game.typedCall("10H"), undefined);
});
