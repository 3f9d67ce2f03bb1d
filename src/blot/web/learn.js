// What the analyses of finished games teach (issue 28; docs/protocol.md): each player's accuracy
// (the game-over screen, the replay's analysis, the profile). What only one game's analysis says (Bazar
// Blot's bidding against par) is its presenter's (web/games/<package>.js). The server computes every
// number; this page only shows them.
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

// A loss as a person sees it (a symbol and the points: "?? −12") and as it is read (``words``, the
// game's: web/games/bazar.js's bidding review). ``kind``: none, small, large, or null (no value).
export function lossMark(kind, loss, words) {
  if (kind === null) return "—";
  return h("span", { class: `cost cost-${kind}`, title: words },
    h("span", { "aria-hidden": "true" }, kind === "none" ? MARK.none : `${MARK[kind]}\u2009−${loss}`),
    h("span", { class: "sr-only" }, words));
}
