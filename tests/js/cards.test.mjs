// web/cards.js: the words every game shares for cards and strains.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "/static/i18n.js";
import { isCard, cardLabel, cardName, strainLabel, strainName, splitCard, signed } from "/static/cards.js";

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

test("strains and signed numbers", () => {
  assert.equal(strainLabel("D"), "♦");
  assert.equal(strainLabel("NT"), "NT");
  assert.equal(strainName("C"), "clubs");
  assert.equal(signed(3), "+3");
  assert.equal(signed(-2), "-2");
  assert.equal(signed(0), "0");
});
