// web/print.js (issue 42 item 3): a table card's seats and a table's sides (pairs or players) come
// from the event's game's teams as the server describes them (GET /api/games), not from a seat rule
// of its own (issue 39 item 2); the blank Davtar's columns and rows are the score sheet's game's
// (web/games/bazar_sheet.js).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "/static/i18n.js";
import { seatsOf, sideLabel } from "/static/print.js";
import * as sheet from "/static/games/bazar_sheet.js";

const bazar = { teams: [[0, 2], [1, 3]] };
const tfe = { teams: [[0], [1], [2]] };
const toy = { teams: [[0], [1]] };
before(() => setLang("en"));

const event = {
  entries: [
    { id: 7, members: [{ name: "Carla", position: 1 }, { name: "Ani", position: 0 }] },
    { id: 8, members: [] }, // a bot entrant
    { id: 9, members: [{ name: "Boris", position: 0 }] },
  ],
};

test("a pair sits at its team's seats, its members in their order; a bot entrant's seats have no name", () => {
  assert.deepEqual(seatsOf(bazar, event, { entries: [7, 8] }, 0), [[1, "Ani"], [3, "Carla"]]);
  assert.deepEqual(seatsOf(bazar, event, { entries: [7, 8] }, 1), [[2, ""], [4, ""]]);
  assert.deepEqual(seatsOf(bazar, event, { entries: [8, 7] }, 1), [[2, "Ani"], [4, "Carla"]]);
});

test("a player of a game without partners sits at its own seat, whatever the number of seats", () => {
  assert.deepEqual(seatsOf(tfe, event, { entries: [8, 9, 7] }, 1), [[2, "Boris"]]);
  assert.deepEqual(seatsOf(tfe, event, { entries: [8, 9, 7] }, 2), [[3, "Ani"]]);
  assert.deepEqual(seatsOf(toy, event, { entries: [9, 8] }, 1), [[2, ""]]);
});

test("the blank Davtar's columns and number of lines are the score sheet's game's", () => {
  assert.deepEqual(sheet.PAPER_COLUMNS, ["sheet_bid", "sheet_cards", "sheet_decl_short", "sheet_belote_short"]);
  assert.equal(sheet.PAPER_ROWS, 24);
});

test("a table's sides are pairs in a game of partners, players in the others", async () => {
  assert.equal(sideLabel(bazar, 1), "Pair 2");
  assert.equal(sideLabel(tfe, 2), "Player 3");
  await setLang("hy");
  assert.equal(sideLabel(tfe, 0), "Խաղացող 1");
  await setLang("en");
});
