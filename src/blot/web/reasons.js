// The server's refusals in the player's language (issues 26 and 39): each answer that refuses
// something carries a stable `reason` and its `params` (docs/protocol.md); the sentences are the
// server's own catalogue in the page's language, fetched from /api/reasons/<lang> when this module
// is first loaded (the first refusal shown) and cached by the browser, and again at each switch of
// language (issue 41 item 8: a refusal after a switch was said in the first language). Nothing is
// written here twice.
import { lang, onLang } from "/static/i18n.js";

async function load(code) {
  try {
    const res = await fetch(`/api/reasons/${code}`);
    return res.ok ? await res.json() : {};
  } catch {
    return {}; // offline: the page shows the server's own sentence
  }
}

// the last language asked for wins: a switch while the first catalogue loads is not undone by it
let SENTENCES = {};
let asked = 0;
async function use(code) {
  const mine = ++asked;
  const sentences = await load(code);
  if (mine === asked) SENTENCES = sentences;
}
onLang(use);
await use(lang());

// A key's sentence with its parts filled in, as it is (a part inside another sentence).
function said(reason, params) {
  const sentence = SENTENCES[reason];
  if (!sentence) return "";
  return sentence.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value === undefined || value === null) return whole;
    if (typeof value === "object") return said(value.reason, value.params || {});
    return String(value);
  });
}

// The sentence of a refusal in the page's language, its parts filled in (a part that is itself a
// refusal, {reason, params}, is said in that language too: a wait, "12 minutes", as well); "" for
// a reason the catalogue lacks.
export function reasonText(reason, params = {}) {
  const text = said(reason, params);
  if (!text) return "";
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?։]$/.test(text) ? "" : ".");
}
