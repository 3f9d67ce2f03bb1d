// web/cards.js: the words every game shares for cards and suits (a strain, no trump among them,
// is a game's word: its presenter's, issue 39 item 2).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "/static/i18n.js";
import * as cards from "/static/cards.js";

const { isCard, cardLabel, cardName, suitsName, splitCard, signed } = cards;

before(() => setLang("en"));

test("isCard tells a card from a call", () => {
  for (const c of ["10H", "AS", "7C", "2D", "QH"]) assert.equal(isCard(c), true, c);
  for (const c of ["10NT", "11H", "pass", "H", "NT", "contra", "1H", "10X"]) assert.equal(isCard(c), false, c);
});

test("a card's label and spoken name", () => {
  assert.deepEqual(splitCard("10H"), { rank: "10", suit: "H" });
  assert.equal(cardLabel("10H"), "10♥");
  assert.equal(cardName("QS"), "queen of spades");
});

test("suits and signed numbers; no strain of any game", () => {
  assert.equal(suitsName("C"), "clubs");
  assert.equal(cards.strainLabel, undefined);
  assert.equal(cards.strainName, undefined);
  assert.equal(signed(3), "+3");
  assert.equal(signed(-2), "-2");
  assert.equal(signed(0), "0");
});
