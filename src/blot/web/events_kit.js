// What the event pages share (web/events*.js): the page's tools handed down by app.js, and the
// small helpers every one of them writes with — a time, a refusal said aloud, a labelled field,
// why a bar withdrew an entry, the text of a referee's note, and moving to another page.
import { t, lang } from "/static/i18n.js";
import { refusalText } from "/static/util.js";

export function eventKit(ctx) {
  const { h, toast } = ctx;
  const when = (iso) => (iso ? new Date(iso).toLocaleString(lang(), { dateStyle: "short", timeStyle: "short" }) : "");
  // a refusal in the page's language, by its key (docs/developers.md, "refusals")
  const fail = async (e) => toast(await refusalText(e));
  // Why a bar withdrew an entry (issue 38 item 5, L-3, L-10): "barred by tars kapoot in round 2".
  const barredText = (b) => t(`barred_${b.by === "tars_kapoot" ? "tars" : "court"}_${b.round ? "round" : "before"}`, { n: b.round });
  const field = (id, label, control) => {
    control.id = id;
    return h("div", { class: "field" }, h("label", { for: id }, label), control);
  };
  const go = (path) => {
    history.pushState({}, "", path);
    window.dispatchEvent(new PopStateEvent("popstate"));
  };
  // An entry's name on the page: a bot says its level in the page's language.
  const entryNames = (d) => Object.fromEntries(d.entries.map((e) => [e.id,
    e.bot ? `${t("bot")} (${t("bot_" + e.bot)}) ${e.name.split(" ").pop()}` : e.name]));
  return { ...ctx, when, fail, barredText, field, go, entryNames, noteText };
}

export function noteText(n) {
  if (n.kind === "dispute") return `${n.claim} — ${n.ruling}${n.penalty ? ` (${t("penalty")}: ${t("penalty_" + n.penalty.kind)})` : ""}`;
  if (n.kind === "escalation") return `${t("court_" + n.court)}: ${n.question}`;
  if (n.kind === "court_answer") return `${n.answer} — ${n.applied}`;
  if (n.kind === "conflict" || n.kind === "stepped_down") return n.reason || "";
  return n.text || "";
}
