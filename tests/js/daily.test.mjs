// web/daily.js (issue 45 item 5): a traveller's line from a deal's result as DealResult.to_json
// writes it (docs/format.md), seen from the day's seat, in each game (the game's presenter writes
// it, travellerLine: issue 39 item 2); percentages, the time left in the day and the results' address.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "/static/i18n.js";

let daily;
const bazarInfo = { game: "bazar-blot", seats: 4, teams: [[0, 2], [1, 3]], direction: "counterclockwise" };
const tfeInfo = { game: "3-5-8", seats: 3, teams: [[0], [1], [2]], direction: "clockwise", counted_deals: 9 };
let bazar;
let tfe;

before(async () => {
  await setLang("en");
  daily = await import("/static/daily.js");
  bazar = (await import("/static/games/bazar.js")).createPresenter(bazarInfo);
  tfe = (await import("/static/games/three_five_eight.js")).createPresenter(tfeInfo);
});

test("a Bazar Blot traveller line: the contract, who bid it from the day's seat, made or failed", () => {
  const r = { dealer: 3, void: false, contract: { seat: 1, team: 1, level: 25, strain: "NT", multiplier: 2 },
    tricks: [5, 3], card_points: [76, 86], declaration_points: [14, 0], belote: [0, 0], made: false, points: [55, 0] };
  assert.equal(daily.resultText(bazar, bazarInfo, r, 0), "25\u00a0NT\u00a0×2 (Right) · failed");
  assert.equal(daily.resultText(bazar, bazarInfo, r, 3), "25\u00a0NT\u00a0×2 (Partner) · failed");
  const own = { ...r, contract: { seat: 2, team: 0, level: 16, strain: "H", multiplier: 1 }, made: true };
  assert.equal(daily.resultText(bazar, bazarInfo, own, 2), "16♥ (You) · made");
  assert.equal(daily.resultText(bazar, bazarInfo, { dealer: 0, void: true, contract: null, points: [0, 0] }, 0),
    bazar.resultLine({ void: true }));
  // the presenter writes the line; the page names each seat from the day's seat
  assert.equal(bazar.travellerLine(own, 2, (s) => `seat ${s}`), "16♥ (seat 2) · made");
});

test("the shared page names no contract, strain or target of its own (issue 39 item 2)", async () => {
  const source = await (await import("node:fs/promises")).readFile(new URL("../../src/blot/web/daily.js", import.meta.url), "utf8");
  const code = source.replace(/^\s*\/\/.*$/gm, ""); // its comments may say what the presenters write
  assert.doesNotMatch(code, /contract|strain|multiplier|targets|trump|"made"/);
});

test("a 3-5-8 traveller line: the trump, who named it, the seat's tricks of its target", () => {
  const r = { dealer: 0, void: false, trump: "H", caller: 1, targets: [3, 8, 5], tricks: [4, 7, 5], scores: [1, -1, 0] };
  assert.equal(daily.resultText(tfe, tfeInfo, r, 0), "♥ (Left) · Tricks 4/3");
  assert.equal(daily.resultText(tfe, tfeInfo, r, 1), "♥ (You) · Tricks 7/8");
  assert.equal(tfe.travellerLine(r, 2, (s) => `seat ${s}`), "♥ (seat 1) · Tricks 5/5");
  assert.equal(daily.resultText(tfe, tfeInfo, { void: true, scores: [0, 0, 0] }, 0), tfe.resultLine({ void: true }));
});

test("what the server sends as words is shown as it comes; nothing is a dash", () => {
  assert.equal(daily.resultText(bazar, bazarInfo, "10♥ made", 0), "10♥ made");
  assert.equal(daily.resultText(bazar, bazarInfo, null, 0), "—");
});

test("percentages, the time left in the day, the results' address", () => {
  assert.equal(daily.percentText(62.5), "62.5%");
  assert.equal(daily.percentText(null), "—");
  const now = Date.parse("2026-11-27T18:48:00Z");
  assert.equal(daily.timeLeft("2026-11-28T00:00:00+00:00", now), "5 h 12 min left today");
  assert.equal(daily.timeLeft("2026-11-27T19:00:00+00:00", now), "12 min left today");
  assert.equal(daily.timeLeft("2026-11-27T18:00:00+00:00", now), "0 min left today");
  assert.equal(daily.resultsPath("3-5-8", "standard", "2026-11-26"), "/daily/3-5-8?ruleset=standard&day=2026-11-26");
});
