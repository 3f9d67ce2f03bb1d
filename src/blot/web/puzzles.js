// Puzzles mined from finished games (issue 28; docs/protocol.md, "Puzzles"): every hand shown, the
// contract, the bidding, the declarations and the tricks so far, from the seat to play; a click on
// a card is the attempt, and the server answers right or wrong, each card's value and the ratings
// it moved. The lobby shows the puzzle of the day. No rule and no value is decided here.
import { t } from "/static/i18n.js";
import { h, api, toast, errorText, main, showPending, Page } from "/static/util.js";
import { SUIT_ORDER, splitCard, cardEl, cardButton, cardLabel } from "/static/cards.js";
import { games, presenter, placesFrom } from "/static/games.js";

// What a seat is called seen from the seat to play.
function placeName(where) {
  return where === "bottom" ? t("you") : where === "top" ? t("partner_short") : t("pos_" + where);
}

function byOrder(cards) {
  return SUIT_ORDER.map((su) => cards.filter((c) => splitCard(c).suit === su)).filter((g) => g.length);
}

export class PuzzlePage extends Page {
  constructor(id, game) {
    super();
    this.id = id;
    this.game = game; // the server's first game when it names none the server has
    this.games = null;
    this.presenter = null;
    this.data = null;
    this.result = null;
    this.none = false;
    this.pending = false;
    this.load();
  }

  async load() {
    this.data = null;
    this.result = null;
    this.none = false;
    this.render();
    try {
      this.games ||= await games();
      if (!this.games.some((g) => g.game === this.game)) this.game = this.games[0].game;
      const data = this.id ? await api("GET", `/api/puzzles/${this.id}`)
        : await api("GET", `/api/puzzles/next?game=${encodeURIComponent(this.game)}`);
      this.presenter = await presenter(this.games.find((g) => g.game === data.game));
      this.data = data;
      this.game = data.game;
      if (!this.id) history.replaceState({}, "", `/puzzles/${this.data.id}`);
      this.id = this.data.id;
    } catch (e) {
      if (e.status === 404) this.none = true;
      else toast(errorText(e.code, e.message));
    }
    this.render();
  }

  async attempt(card) {
    if (this.result || this.pending) return;
    this.pending = true;
    try {
      this.result = await api("POST", `/api/puzzles/${this.id}/attempt`, { card });
    } catch (e) {
      toast(errorText(e.code, e.message));
    }
    this.pending = false;
    this.render();
  }

  next(game) {
    this.id = null;
    this.game = game || this.game;
    history.pushState({}, "", `/puzzles?game=${encodeURIComponent(this.game)}`);
    this.load();
  }

  gameTabs() {
    return h("div", { class: "row", role: "group", "aria-label": t("game") }, (this.games || []).map(({ game: g }) => h("button", {
      class: g === this.game ? "primary" : "", "aria-pressed": g === this.game ? "true" : "false", "data-testid": `puzzle-game-${g}`,
      onclick: () => this.next(g),
    }, t("game_" + g))));
  }

  render() {
    if (this.left) return;
    if (this.none) {
      main.replaceChildren(h("section", { class: "panel puzzle" }, h("h1", {}, t("puzzles")), this.gameTabs(),
        h("p", { "data-testid": "no-puzzle" }, t(this.id ? "no_such_puzzle" : "puzzle_none_left"))));
      return;
    }
    if (showPending(this.data, null)) return;
    const d = this.data;
    const v = d.view;
    const where = placesFrom(this.presenter.info, d.seat);
    const name = (s) => placeName(where[s]);
    const head = h("div", { class: "puzzle-head" },
      h("h1", {}, t("puzzle_n", { n: d.id }), " ", h("span", { class: "muted" }, t("game_" + d.game))),
      h("span", { class: "badge", "data-testid": "puzzle-rating" }, t("pz_rating", { r: d.rating.toFixed(1) })));
    const task = h("p", { class: "puzzle-task", "data-testid": "puzzle-task" },
      this.presenter.puzzleTask(d));
    main.replaceChildren(h("section", { class: "panel puzzle", "data-testid": "puzzle" },
      head, this.gameTabs(), task, this.facts(d, name), this.grid(d, where, name), this.answer(d),
      this.tricks(v, name), h("p", { class: "muted small" }, t("pz_from"))));
  }

  // What the seat to play knows of the deal (the game's presenter says: the contract and the
  // bidding, or the trump and the targets).
  facts(d, name) {
    const lines = this.presenter.puzzleFacts(d, name);
    return h("dl", { class: "puzzle-facts" }, lines.flatMap(([k, x]) => [h("dt", {}, k), h("dd", {}, x)]));
  }

  // Every hand, the seat to play's as buttons (its legal cards), and the trick in progress.
  grid(d, where, name) {
    const legal = new Set(d.view.legal ? d.view.legal.cards : []);
    const values = this.result ? this.result.values : null;
    const best = this.result ? new Set(this.result.solution) : new Set();
    const hands = d.hands.map((cards, s) => {
      const mine = s === d.seat;
      const groups = byOrder(cards).map((g) => h("span", { class: "suit-group" }, g.map((c) => {
        if (!mine) return cardEl(c, { class: "mini" });
        const ok = legal.has(c) && !this.result;
        const value = values && c in values ? values[c] : null;
        const button = cardButton(c, { class: "mini" + (legal.has(c) ? " legal" : " illegal") + (best.has(c) && values ? " best" : ""),
          disabled: !ok, "data-card": c, "data-legal": legal.has(c) ? "true" : null, onclick: () => this.attempt(c) });
        return value === null ? button : h("span", { class: "valued" }, button, h("small", { class: "value", "data-value": value }, String(value)));
      })));
      return h("div", { class: `replay-hand pos-${where[s]}` + (mine ? " to-act" : ""), "data-testid": `puzzle-hand-${where[s]}` },
        h("div", { class: "seat-name" }, name(s)),
        h("div", { class: "mini-hand" + (mine ? " puzzle-mine" : "") }, groups));
    });
    const trick = d.view.trick.length ? h("div", { class: "replay-trick", role: "group", "aria-label": t("trick") },
      d.view.trick.map((x) => h("span", { class: "slot" }, cardEl(x.card), h("small", {}, name(x.seat))))) : null;
    return h("div", { class: `replay-grid puzzle-grid seats-${d.hands.length}` }, hands, trick);
  }

  // After the attempt: right or wrong, every legal card's value, the ratings, the next puzzle.
  // Without an account the server says right or wrong only (issue 38 item 7): no values, no
  // solution, and an invitation to sign in.
  answer(d) {
    const r = this.result;
    if (!r) return h("p", { class: "muted small", "aria-live": "polite" }, t("pz_choose"));
    if (!r.values) return this.plainAnswer(r);
    const best = Math.max(...Object.values(r.values));
    const order = Object.keys(r.values).sort((a, b) => r.values[b] - r.values[a]);
    const verdict = r.solved ? t("pz_right", { card: cardLabel(r.card) })
      : t("pz_wrong", { card: cardLabel(r.card), v: r.values[r.card], best, cards: r.solution.map(cardLabel).join(" ") });
    const rating = r.rating ? t("pz_your_rating", { before: r.rating.before.toFixed(1), after: r.rating.after.toFixed(1) })
      : d.you.rated ? t("pz_again") : t("pz_guest");
    return h("div", { class: "puzzle-answer " + (r.solved ? "right" : "wrong"), role: "status", "data-testid": "puzzle-answer",
      "data-solved": r.solved ? "true" : "false" },
      h("p", { class: "verdict" }, h("strong", {}, r.solved ? "✓ " : "✗ "), verdict),
      h("p", {}, t("pz_values"), " ", order.flatMap((c, i) => [i ? " · " : null,
        h(r.values[c] === best ? "strong" : "span", { "data-valued": c }, `${cardLabel(c)} ${r.values[c]}`)])),
      rating ? h("p", { class: "muted", "data-testid": "puzzle-rating-change" }, rating) : null,
      h("div", { class: "row" }, h("button", { class: "primary", "data-testid": "puzzle-next", onclick: () => this.next() }, t("pz_next"))));
  }

  // An attempt without an account: right or wrong, and the way to the solution.
  plainAnswer(r) {
    return h("div", { class: "puzzle-answer " + (r.solved ? "right" : "wrong"), role: "status", "data-testid": "puzzle-answer",
      "data-solved": r.solved ? "true" : "false" },
      h("p", { class: "verdict" }, h("strong", {}, r.solved ? "✓ " : "✗ "),
        t(r.solved ? "pz_right" : "pz_wrong_only", { card: cardLabel(r.card) })),
      h("p", {}, h("a", { href: "/login", "data-link": true, "data-testid": "puzzle-sign-in" }, t("pz_sign_in_solution"))),
      h("div", { class: "row" }, h("button", { class: "primary", "data-testid": "puzzle-next", onclick: () => this.next() }, t("pz_next"))));
  }

  // The tricks played so far in the deal, each with who led and who took it.
  tricks(v, name) {
    const done = v.tricks || [];
    return h("details", { class: "puzzle-tricks", open: done.length <= 4 ? true : null },
      h("summary", {}, t("pz_tricks_so_far", { n: done.length })),
      done.length ? h("ol", {}, done.map((tr) => h("li", {},
        tr.cards.map((c, i) => `${name((tr.leader + i) % tr.cards.length)} ${cardLabel(c)}`).join(", "),
        h("span", { class: "muted" }, ` → ${name(tr.winner)}`))))
        : h("p", { class: "muted" }, t("pz_no_tricks")));
  }
}

// The lobby's puzzle of the day (of the first game, in the server's order, that has one): a link
// to it, with its rating.
export class DailyPuzzle {
  constructor(changed) {
    this.data = undefined; // undefined: asked for; null: there is none yet
    this.find().then((d) => { this.data = d; }, () => { this.data = null; }).then(() => changed());
  }

  // The first game's puzzle of the day that has one (null while there is none).
  find() {
    return api("GET", "/api/puzzles/daily");
  }

  view() {
    const d = this.data;
    const body = d === undefined ? h("p", { class: "muted" }, t("loading"))
      : d === null ? h("p", { class: "muted" }, t("pz_none_yet"))
      : [h("p", {}, t("pz_daily_about", { game: t("game_" + d.game), r: d.rating.toFixed(1) })),
        h("div", { class: "row" },
          h("a", { class: "button primary", href: `/puzzles/${d.id}`, "data-link": true, "data-testid": "daily-open" }, t("pz_open")),
          h("a", { href: "/puzzles", "data-link": true, "data-testid": "more-puzzles" }, t("pz_more")))];
    return h("section", { class: "panel daily", "data-testid": "daily-puzzle" }, h("h2", {}, t("pz_daily")), body);
  }
}
