// web/reasons.js: the page says a refusal's reason and params in its reader's language, from the
// server's own catalogue (GET /api/reasons/<lang>, issue 39 item 1). Here fetch answers what that
// route answers: every catalogue file's sentences in the page's language.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { setLang } from "/static/i18n.js";

const SRC = new URL("../../src/blot/", import.meta.url).pathname;
const asked = [];

function catalogues(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...catalogues(path));
    else if (name === "reasons.json") out.push(JSON.parse(readFileSync(path, "utf-8")));
  }
  return out;
}

let reasonText;
before(async () => {
  await setLang("ru"); // its words loaded: the page's language is Russian from here on
  globalThis.fetch = async (url) => {
    asked.push(url);
    const lang = url.split("/").pop();
    const sentences = {};
    for (const c of catalogues(SRC)) for (const [key, by] of Object.entries(c)) sentences[key] = by[lang];
    return { ok: true, json: async () => sentences };
  };
  ({ reasonText } = await import("/static/reasons.js"));
});

test("the catalogue of the page's language is fetched once, from the server", () => {
  assert.deepEqual(asked, ["/api/reasons/ru"]);
});

test("a refusal is its sentence with its parts, capitalised and ended", () => {
  assert.equal(reasonText("seat_taken", { seat: "2" }), "Место 2 занято.");
  assert.equal(reasonText("username_one_alphabet"), "Имя пользователя пишется буквами одного алфавита.");
});

test("a part that is itself a refusal is said in the same language", () => {
  const text = reasonText("declare_refused", {
    seat: "1",
    declaration: "KS QS JS",
    why: { reason: "hand_lacks", params: { cards: "JS" } },
  });
  assert.match(text, /^Место 1 не может объявить KS QS JS: .*JS\.$/);
  assert.doesNotMatch(text, /does not hold|\{why\}/);
});

test("an unknown reason is no text: the page shows the server's own sentence", () => {
  assert.equal(reasonText("no_such_key_anywhere", {}), "");
});
