// web/i18n.js: one language's words at a time, a game's words beside them (issue 39 item 2).
import { test } from "node:test";
import assert from "node:assert/strict";
import { LANGS, setLang, lang, t, fill, addGameWords } from "/static/i18n.js";

const keysOf = async (url) => Object.keys((await import(url)).default).sort();

test("fill replaces every {name} and leaves the rest", () => {
  assert.equal(fill("{who} gives {n} cards to {who}", { who: "Ani", n: 2 }), "Ani gives 2 cards to Ani");
  assert.equal(fill("no holes {x}"), "no holes {x}");
});

test("the four languages have the same keys, the games' words too", async () => {
  const en = await keysOf("/static/i18n/en.js");
  for (const code of LANGS) assert.deepEqual(await keysOf(`/static/i18n/${code}.js`), en, code);
  for (const game of ["bazar", "three_five_eight"]) {
    const base = await keysOf(`/static/games/${game}.en.js`);
    for (const code of LANGS) assert.deepEqual(await keysOf(`/static/games/${game}.${code}.js`), base, `${game} ${code}`);
  }
});

test("setLang loads the words of one language; an unknown one falls back to the browser's", async () => {
  await setLang("ru");
  assert.equal(lang(), "ru");
  assert.equal(t("nav_lobby"), (await import("/static/i18n/ru.js")).default.nav_lobby);
  assert.equal(t("seat_n", { n: 3 }).includes("3"), true);
  assert.equal(t("no_such_key_at_all"), "");
  await setLang("xx"); // node's navigator says en-US
  assert.equal(lang(), "en");
  assert.equal(t("nav_lobby"), "Lobby");
});

test("a game's words are loaded once and again at each switch of language", async () => {
  await setLang("en");
  const base = new URL("../../src/blot/web/games/three_five_eight", import.meta.url).href;
  assert.equal(t("talon"), "");
  await addGameWords(base);
  assert.equal(t("talon"), "Talon");
  await setLang("bg");
  assert.equal(t("talon"), (await import("/static/games/three_five_eight.bg.js")).default.talon);
  await setLang("en");
});
