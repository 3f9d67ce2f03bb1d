// web/games/bazar_sheet.js (issue 39 item 2): Bazar Blot's side of the score sheet, given by its
// presenter — the entry a filled form sends, the form an entry opens, an entry's text, and the
// other team's card points filled in (B-50: 162 in all).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "/static/i18n.js";

let sheet;

before(async () => {
  await setLang("en");
  sheet = (await import("/static/games/bazar_sheet.js"));
});

const form = (changes) => ({ ...sheet.emptyForm(), ...changes });

test("a filled form is the API's entry; a missing choice is named before anything is sent", () => {
  assert.deepEqual(sheet.entry(form({ team: 0 })), { missing: "missing_level", field: "contract.level" });
  assert.deepEqual(sheet.entry(form({ team: 1, level: 10, strain: "H" })), { missing: "missing_cards", field: "card_points" });
  const entry = sheet.entry(form({ team: 1, level: 10, strain: "H", mult: 2, cp: "98", cpTeam: 1, decl: 5, declTeam: 0, belote: 1 }));
  assert.deepEqual(entry, {
    void: false, contract: { team: 1, level: 10, strain: "H", multiplier: 2 }, card_points: [null, 98], kapoot: null,
    declarer_alone: false, declaration_points: [5, 0], belote: [0, 2],
  });
  assert.deepEqual(sheet.entry(form({ kind: "void" })), { void: true });
  assert.deepEqual(sheet.entry(form({ kind: "penalty", penTeam: 0, penKind: "misplay", penDecl: 20 })),
    { penalty: { kind: "misplay", team: 0, declaration_points: 20 } });
});

test("an entry opens the form it came from, and reads as one line with the other share filled in", () => {
  const entry = sheet.entry(form({ team: 0, level: 16, strain: "NT", cp: "100", cpTeam: 0 }));
  const again = sheet.entry(sheet.formOf(sheet.filled(entry)));
  assert.deepEqual(sheet.filled(again).card_points, [100, 62]);
  assert.equal(sheet.entryText(sheet.filled(entry), ["Ani", "Bagrat"]), "16 NT Ani, Cards 100–62");
  assert.deepEqual(sheet.PAPER_COLUMNS, ["sheet_bid", "sheet_cards", "sheet_decl_short", "sheet_belote_short"]);
});

test("a new sheet asks the game's target and kanach, and the sheet writes them beside its ruleset", () => {
  assert.deepEqual(sheet.OPTIONS, ["target", "kanach"]);
  assert.equal(sheet.rulesLine({ target: 301, kanach: true }), "to 301 · kanach");
  assert.equal(sheet.rulesLine({ target: 501, kanach: false }), "to 501");
  assert.equal(sheet.matchNote({ tars_kapoot: true }), " (tars kapoot)");
  assert.equal(sheet.matchNote({ tars_kapoot: false }), "");
});

test("a failed contract's row is marked by the game's side of the sheet, not the shared page (B-53)", () => {
  assert.equal(sheet.rowClass({ made: false }), "failed");
  assert.equal(sheet.rowClass({ made: true }), "");
  assert.equal(sheet.rowClass({ made: null }), ""); // a void deal or a penalty
});

test("the table penalties a referee may give are the sheet's game's (B-72), not the console's", () => {
  assert.deepEqual(sheet.PENALTIES, ["misdeal", "misplay"]);
});
