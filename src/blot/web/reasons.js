// The server's refusals in the player's language (issues 26 and 39): each answer that refuses
// something carries a stable `reason` and its `params` (docs/protocol.md); the sentences are the
// server's own catalogue in the page's language, fetched from /api/reasons/<lang> when this module
// is first loaded (the first refusal shown) and cached by the browser. Nothing is written here twice.
import { lang } from "/static/i18n.js";

async function load(code) {
  try {
    const res = await fetch(`/api/reasons/${code}`);
    return res.ok ? await res.json() : {};
  } catch {
    return {}; // offline: the page shows the server's own sentence
  }
}

const SENTENCES = await load(lang());

// The sentence of a refusal in the page's language, its parts filled in (a part that is itself a
// refusal, {reason, params}, is said in that language too); "" for a reason the catalogue lacks.
export function reasonText(reason, params = {}) {
  const sentence = SENTENCES[reason];
  if (!sentence) return "";
  const said = sentence.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value === undefined || value === null) return whole;
    if (typeof value === "object") return reasonText(value.reason, value.params) || "";
    return String(value);
  });
  return said.charAt(0).toUpperCase() + said.slice(1) + (/[.!?։]$/.test(said) ? "" : ".");
}
