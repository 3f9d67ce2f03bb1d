// The double-dummy analysis of a finished game on its replay page (issue 14): the Analysis switch
// asks the server for it (POST, then GET about every second while it runs, with a progress bar),
// then marks every card played by its cost, shows the best card(s) at each step, each player's loss
// per deal and the game's own table of the deal (its presenter's dealTable). The server values
// every card (docs/protocol.md, "Analysis of a finished game"); this page only shows its answer.
import { t } from "/static/i18n.js";
import { h, api, errorText, pref, setPref, Page } from "/static/util.js";
import { SUIT_ORDER, RANKS, splitCard, cardLabel, cardName } from "/static/cards.js";
import { accuracyTable } from "/static/learn.js";

const POLL_MS = 1000;
const CARD = /^[0-9JQKA]+[SHDC]$/;
const MARK = { none: "✓", small: "?", large: "??" };

// The cards of a game's deal in hand order (suits as the hands show them, then rank).
function ordered(cards) {
  const key = (c) => SUIT_ORDER.indexOf(splitCard(c).suit) * 20 + RANKS.indexOf(splitCard(c).rank);
  return [...cards].sort((a, b) => key(a) - key(b));
}

function cardText(card) {
  return h("span", { class: `ctext suit-${splitCard(card).suit}` }, cardLabel(card));
}

// "card points lost: 21" or "tricks lost: 1" (the game's presenter says which: ``words.lost``);
// "best card" for no loss.
function lossWords(words, c) {
  return c.cost === "none" ? t("an_best_card") : t(words.lost, { n: c.loss });
}

// A card's cost as a person sees it (a symbol and the loss, not only a colour) and as it is read.
function costMark(words, c, who) {
  const said0 = lossWords(words, c);
  const said = who ? `${who}: ${said0}` : said0;
  return h("span", { class: `cost cost-${c.cost}`, title: said, "data-testid": "cost-mark", "data-cost": c.cost, "data-loss": c.loss },
    h("span", { "aria-hidden": "true" }, c.cost === "none" ? MARK.none : `${MARK[c.cost]}\u2009−${c.loss}`),
    h("span", { class: "sr-only" }, ` (${said})`));
}

function bestCards(c) {
  return ordered(Object.keys(c.values).filter((k) => c.values[k] === c.best));
}

// Each replay deal's analysis and its cards: by card (each is played once a deal) with the step
// (frame) that played it, and in play order.
function indexOf(doc, replay) {
  const byNumber = new Map(doc.deals.map((d) => [d.number, d]));
  return replay.deals.map((deal) => {
    const analysed = byNumber.get(deal.number) || null;
    const byCard = new Map();
    const played = [];
    if (analysed) {
      let k = 0;
      deal.frames.forEach((f, step) => {
        const a = f.action;
        const c = analysed.cards[k];
        if (c && a && a.phase === "play" && CARD.test(a.text) && a.text === c.card && a.seat === c.seat) {
          const entry = { ...c, step };
          byCard.set(c.card, entry);
          played.push(entry);
          k++;
        }
      });
    }
    return { analysed, byCard, played };
  });
}

export class Analysis extends Page {
  // ``game``: the presenter of the game (games.js), whose words the analysis uses.
  constructor(tableId, changed, game) {
    super();
    this.id = tableId;
    this.changed = changed; // the replay page draws itself again
    this.game = game;
    this.words = game.analysis;
    this.on = false;
    this.answer = null; // the server's last answer: {status, done, total} or {status, analysis}
    this.error = null;
    this.timer = null;
    this.pending = false; // a request is on its way
    this.index = null;
    if (pref("analysis")) this.toggle(); // the switch is remembered from one replay to the next
  }

  toggle() {
    this.on = !this.on;
    setPref("analysis", this.on);
    clearTimeout(this.timer);
    if (this.on && !this.done() && !this.pending) { // one request at a time, however fast the clicks
      this.error = null;
      this.ask("POST");
    }
    this.changed();
  }

  done() {
    return Boolean(this.answer && this.answer.status === "done");
  }

  async ask(method) {
    this.pending = true;
    try {
      this.answer = await api(method, `/api/tables/${this.id}/analysis`);
      this.error = null;
    } catch (e) {
      this.answer = null;
      this.error = e;
    }
    this.pending = false;
    if (this.left) return;
    const busy = this.answer && (this.answer.status === "queued" || this.answer.status === "running");
    if (this.on && busy) this.timer = setTimeout(() => this.ask("GET"), POLL_MS);
    this.changed();
  }

  // What the replay shows of the analysis at one step: ``{toggle, status, note, panel, decorate}``.
  // ``name(seat)`` names a seat; ``jump(step)`` moves the replay to a step of the shown deal.
  view(replay, dealIndex, step, name, jump) {
    const toggle = h("button", { class: "analysis-toggle" + (this.on ? " on" : ""), "aria-pressed": this.on ? "true" : "false",
      "data-testid": "analysis-toggle", onclick: () => this.toggle() }, t("analysis"));
    const none = { toggle, status: null, note: null, panel: null, decorate: () => {} };
    if (!this.on) return none;
    if (!this.done()) return { ...none, status: this.statusEl() };
    const doc = this.answer.analysis;
    if (!this.index || this.index.doc !== doc) this.index = { doc, deals: indexOf(doc, replay) };
    const game = this.words;
    const deal = replay.deals[dealIndex];
    const { analysed, byCard, played } = this.index.deals[dealIndex];
    if (!analysed) {
      return { ...none, status: h("p", { class: "muted", "data-testid": "analysis-status" }, t("an_deal_not_analysed")) };
    }
    const frame = deal.frames[step];
    const next = deal.frames[step + 1];
    const justPlayed = frame.action && byCard.get(frame.action.text);
    const toPlay = next && next.action && byCard.get(next.action.text);
    const note = h("div", { class: "an-note", "data-testid": "analysis-note" },
      justPlayed && justPlayed.step === step ? this.playedLine(game, justPlayed, name) : null,
      toPlay && toPlay.step === step + 1
        ? h("p", { "data-testid": "analysis-next" }, t("an_best_now", { who: name(toPlay.seat) }), " ",
          this.bestList(toPlay), h("span", { class: "muted" }, ` (${toPlay.best})`))
        : null);
    const panel = h("section", { class: "panel analysis", "aria-labelledby": "an-title", "data-testid": "analysis" },
      h("h2", { id: "an-title" }, t("analysis")),
      h("p", { class: "muted small" }, t(game.about)),
      this.legend(game, doc.large),
      h("div", { class: "an-body" }, this.cardsList(game, played, doc.loss_by_seat.length, step, name, jump),
        h("div", {}, this.summary(doc, replay, dealIndex, name), doc.accuracy ? accuracyTable(doc, name, game) : null,
          // the game's own (Bazar Blot: the double-dummy table, the bidding against par)
          this.game.dealTable(analysed, deal.number, name), this.game.biddingReview(analysed, deal.number, name))));
    const decorate = (root) => {
      for (const slot of root.querySelectorAll("[data-trick-slot]")) {
        const c = byCard.get(slot.dataset.trickSlot);
        if (c) slot.append(costMark(game, c, name(c.seat)));
      }
      if (!toPlay || toPlay.step !== step + 1) return;
      const best = new Set(bestCards(toPlay));
      for (const el of root.querySelectorAll(`[data-testid=replay-hand-${toPlay.seat}] [data-hand-card]`)) {
        if (!best.has(el.dataset.handCard)) continue;
        el.classList.add("best");
        el.setAttribute("data-best", "true");
        el.setAttribute("aria-label", `${cardName(el.dataset.handCard)} — ${t("an_best_card")}`);
      }
    };
    return { toggle, status: null, note, panel, decorate };
  }

  // What the marks mean (the presenter lists them: 3-5-8 has no small loss, since every lost
  // trick is a point of the score).
  legend(game, large) {
    const kinds = game.costs;
    return h("p", { class: "an-legend small" }, kinds.map(([c, key]) =>
      h("span", {}, h("span", { class: `cost cost-${c}`, "aria-hidden": "true" }, MARK[c]), " ", t(key, { n: large, m: large - 1 }))));
  }

  statusEl() {
    if (this.error) {
      const text = this.error.status === 404 ? t("an_unavailable") : errorText(this.error.code, this.error.message);
      return h("p", { class: "an-status", "data-testid": "analysis-status", role: "status" }, text);
    }
    const a = this.answer;
    if (!a) return h("p", { class: "an-status muted", "data-testid": "analysis-status" }, t("loading"));
    if (a.status === "failed") {
      return h("p", { class: "an-status form-error", "data-testid": "analysis-failed", role: "alert" }, t("an_failed", { message: a.message }));
    }
    const done = a.done || 0;
    const total = a.total || 0;
    const words = a.status === "queued" ? t("an_queued") : t("an_progress", { done, of: total });
    const bar = h("div", { class: "bar" });
    bar.style.setProperty("--p", String(total ? (100 * done) / total : 0));
    return h("div", { class: "an-status", "data-testid": "analysis-status" },
      h("div", { class: "progress", role: "progressbar", "aria-label": t("analysis"), "aria-valuemin": 0, "aria-valuemax": total || 1,
        "aria-valuenow": done, "aria-valuetext": words, "data-testid": "analysis-progress" }, bar),
      h("span", { class: "muted small" }, words));
  }

  bestList(c) {
    return h("span", { class: "an-best", "data-testid": "analysis-best" }, bestCards(c).flatMap((b, i) => [i ? " " : null, cardText(b)]));
  }

  // "10♠ ?? −21 · best: A♠ K♠ (84)" (who played it is on the line above), then every legal card's value.
  playedLine(game, c, name) {
    const values = ordered(Object.keys(c.values));
    return [
      h("p", { "data-testid": "analysis-played" }, cardText(c.card), " ", costMark(game, c, name(c.seat)),
        c.cost === "none" ? null : [" · ", t("an_best"), " ", this.bestList(c), h("span", { class: "muted" }, ` (${c.best})`)]),
      h("p", { class: "muted small an-values" }, t("an_values"), " ",
        values.flatMap((v, i) => [i ? " · " : null, h(v === c.card ? "strong" : "span", {}, cardText(v), ` ${c.values[v]}`)])),
    ];
  }

  // Every card of the deal, trick by trick, marked by its cost; a click shows that step. The
  // columns are the seats, named at the head (issue 41 item 8: the grid did not say who played
  // which card); the card that led each trick is marked.
  cardsList(game, played, n, step, name, jump) {
    const tricks = [];
    for (let i = 0; i < played.length; i += n) tricks.push(played.slice(i, i + n));
    const seats = Array.from({ length: n }, (_, s) => s);
    const head = h("li", { class: "an-head", "aria-hidden": "true" }, h("span"),
      seats.map((s) => h("span", { class: `an-seat an-col-${s}`, title: name(s), "data-testid": `an-seat-${s}` }, name(s))));
    return h("div", { class: "an-cards" }, h("h3", {}, t("an_cards")),
      h("ol", { class: `an-tricks seats-${n}`, "data-testid": "analysis-cards" }, head, tricks.map((trick, i) => h("li", {}, h("span", { class: "an-trick-no muted" }, `${i + 1}.`),
        // in the order played, each in its seat's column (style.css: .an-col-N)
        trick.map((c, k) => h("button", { type: "button", class: `an-card an-col-${c.seat}` + (c.step === step ? " current" : "") + (k === 0 ? " led" : ""),
          "data-testid": `an-card-${c.card}`, "data-card": c.card, "data-seat": c.seat, "aria-current": c.step === step ? "step" : null, onclick: () => jump(c.step) },
          h("span", { class: "sr-only" }, `${name(c.seat)}${k === 0 ? ` (${t("an_led")})` : ""}: `), cardText(c.card), costMark(game, c, name(c.seat))))))));
  }

  // Each player's loss in every deal and in the game; the deal on show is marked.
  summary(doc, replay, dealIndex, name) {
    const seats = doc.loss_by_seat.map((_, s) => s);
    const byNumber = new Map(doc.deals.map((d) => [d.number, d]));
    const shown = replay.deals[dealIndex].number;
    const numbers = replay.deals.map((d) => d.number);
    return h("div", { class: "an-summary" },
      h("div", { class: "scroll" }, h("table", { class: "an-table", "data-testid": "analysis-summary" },
        h("caption", {}, t(this.words.summary)),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("player")), h("th", { scope: "col" }, t("total")),
          numbers.map((n) => h("th", { scope: "col", class: n === shown ? "current" : null, title: t("deal_n", { n }) }, String(n))))),
        h("tbody", {}, seats.map((s) => h("tr", { "data-seat": s },
          h("th", { scope: "row", class: "name" }, name(s)),
          h("td", { class: "num total", "data-testid": `loss-total-${s}` }, String(doc.loss_by_seat[s])),
          numbers.map((n) => {
            const d = byNumber.get(n);
            const text = !d ? "" : d.void ? "—" : String(d.loss_by_seat[s]);
            return h("td", { class: "num" + (n === shown ? " current" : ""), "data-deal": n }, text);
          })))))));
  }
}
