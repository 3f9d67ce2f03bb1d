// Toy Duel's presenter (tests/toygame): the least a game draws on the page. The server serves it
// as /static/games/toy_duel.js from the game's spec (web_presenter); nothing of the page names it.
import { h } from "/static/util.js";
import { t } from "/static/i18n.js";

export function createPresenter(info) {
  const seats = info.seats;
  const order = (ctx) => Array.from({ length: seats }, (_, i) => (ctx.base() + i) % seats);
  return {
    info,
    dealLabel: (v) => `${v.deal_number} / 3`,
    contractLine: () => null,
    trump: () => null,
    seatInfo: (v, s) => [h("span", { class: "tricks", "data-testid": `toy-tricks-${s}` }, String(v.tricks_taken[s]))],
    center: () => null,
    prompt: () => null,
    picking: () => null,
    result: (v, r) => h("p", { "data-testid": "deal-result" }, r.points.join(" – ")),
    sheet(v, ctx) {
      return h("section", { class: "panel sheet", "data-testid": "score-sheet" }, h("h3", {}, t("score_sheet")),
        h("p", {}, order(ctx).map((s) => `${ctx.shortName(s)} ${v.totals[s]}`).join(" · ")));
    },
    score(v, ctx) {
      const totals = v.game_over ? v.game_over.totals : v.totals;
      return { parts: order(ctx).map((s) => ({ label: ctx.shortName(s), value: String(totals[s]), mine: s === ctx.you.seat })), goal: this.dealLabel(v) };
    },
    announce: () => null,
    resultLine: (r) => r.points.join(" – "),
    puzzleTask: () => "",
    puzzleFacts: () => [],
    analysis: { lost: "", unit: "", about: "", summary: "", costs: "" },
  };
}
