// What the analyses of finished games teach (issue 28; docs/protocol.md): each player's accuracy
// (the game-over screen, the replay's analysis, the profile) and, in Bazar Blot, each call of the
// bidding against par (the replay's analysis). The server computes every number; this page only
// shows them.
import { t } from "/static/i18n.js";
import { h, api, Page } from "/static/util.js";

const POLL_MS = 2000;
const MARK = { none: "✓", small: "?", large: "??" };

export function accuracyText(x) {
  return Number(x).toFixed(1);
}

// Each seat's accuracy in a finished game, with its mean loss per card (in the unit the game's
// presenter names: ``words`` is its ``analysis``) and the formula in words.
export function accuracyTable(doc, name, words) {
  const unit = words.unit;
  return h("div", { class: "acc" },
    h("table", { class: "an-table acc-table", "data-testid": "accuracy" },
      h("caption", {}, t("accuracy")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("player")), h("th", { scope: "col" }, t("accuracy")),
        h("th", { scope: "col" }, t(unit)))),
      h("tbody", {}, doc.accuracy.map((a) => h("tr", { "data-seat": a.seat },
        h("th", { scope: "row", class: "name" }, name(a.seat)),
        h("td", { class: "num total", "data-testid": `accuracy-${a.seat}` }, accuracyText(a.accuracy)),
        h("td", { class: "num" }, a.mean_loss.toFixed(2)))))),
    h("p", { class: "muted small" }, t("acc_help")));
}

// The game-over screen's accuracy: asks the server for the game's analysis (the server starts it
// as the game ends) until it is there, then shows each player's accuracy.
export class AccuracyPanel extends Page {
  constructor(tableId, changed) {
    super();
    this.id = tableId;
    this.changed = changed;
    this.answer = null;
    this.load();
  }

  async load() {
    try {
      this.answer = await api("GET", `/api/tables/${this.id}/analysis`);
    } catch {
      this.answer = null; // a game ended before its end has none: nothing to show
    }
    if (this.left) return;
    const a = this.answer;
    if (a && (a.status === "queued" || a.status === "running")) this.timer = setTimeout(() => this.load(), POLL_MS);
    this.changed();
  }

  view(name, words) {
    const a = this.answer;
    if (!a) return null;
    if (a.status === "queued" || a.status === "running") {
      return h("p", { class: "muted small", role: "status", "data-testid": "accuracy-pending" }, t("acc_pending"));
    }
    if (a.status !== "done" || !a.analysis.accuracy) return null;
    return accuracyTable(a.analysis, name, words);
  }
}

// A call's loss as a person sees it (a symbol and the points) and as it is read.
function lossMark(kind, loss) {
  if (kind === null) return "—";
  const words = kind === "none" ? t("bid_no_loss") : t("bid_lost", { n: loss });
  return h("span", { class: `cost cost-${kind}`, title: words },
    h("span", { "aria-hidden": "true" }, kind === "none" ? MARK.none : `${MARK[kind]}\u2009−${loss}`),
    h("span", { class: "sr-only" }, words));
}

// Bazar Blot: the par contract of a deal and each call of its bidding valued against par bidding.
// ``callLabel``: the game's presenter's (a bid by its level and strain, else its word).
export function biddingReview(analysed, number, name, callLabel) {
  const review = analysed.bidding;
  const team = (k) => `${name(k)} · ${name(k + 2)}`;
  const par = review.par;
  const points = (p) => `${p[0]}\u00a0:\u00a0${p[1]}`;
  const parLine = par.contract === null ? t("bid_par_none")
    : t("bid_par", {
      contract: callLabel(par.contract) + (par.multiplier === 2 ? " ×2" : par.multiplier === 4 ? " ×4" : ""),
      team: team(par.team), outcome: t(par.made ? "made" : "failed"), points: points(par.points),
    });
  const cost = (loss) => (loss === null ? null : loss === 0 ? "none" : loss >= 10 ? "large" : "small");
  return h("section", { class: "an-bidding", "aria-labelledby": "bid-title" },
    h("h3", { id: "bid-title" }, t("bid_review_title", { n: number })),
    h("p", { "data-testid": "bid-par" }, parLine),
    h("p", { class: "muted small" }, t("bid_par_calls", { calls: par.calls.map(callLabel).join(" · ") })),
    review.contract ? h("p", { "data-testid": "bid-contract" }, t("bid_contract_dd", { points: points(review.contract.points) })) : null,
    h("div", { class: "scroll" }, h("table", { class: "an-table bid-table", "data-testid": "bid-review" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("player")), h("th", { scope: "col" }, t("bid_call")),
        h("th", { scope: "col" }, t("bid_loss")))),
      h("tbody", {}, review.calls.map((c, i) => {
        const kind = cost(c.loss);
        return h("tr", { "data-call": i, "data-loss": c.loss === null ? "" : c.loss },
          h("th", { scope: "row", class: "name" }, name(c.seat)),
          h("td", {}, callLabel(c.call),
            c.makes === undefined ? null : h("small", { class: "muted" }, t(c.makes ? "bid_would_make" : "bid_would_fail"))),
          h("td", {}, lossMark(kind, c.loss),
            kind === null || kind === "none" ? null : h("small", {}, t("bid_best_was", { call: callLabel(c.best) }))));
      })))),
    h("p", { class: "muted small" }, t("bid_help")));
}
