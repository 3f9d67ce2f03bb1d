// The Court of Conduct's fair-play view (issue 43 item 4, L-9) on the courts page, for its members
// and the server's administrators only (GET /api/courts says "fairplay"; the server answers anybody
// else as a path that does not exist): an account or a pair, its games (the last deals, an event or
// game ids), the figures of `blot fairplay` (deals, accuracies, the score and its p-value), the deals
// that weigh most with their replays, and a case for the Court opened from them. The warning of
// docs/fairplay.md ("what a high score does and does not prove") stands beside the figures.
import { t } from "/static/i18n.js";
import { games } from "/static/games.js";

// The figures' columns: each row's key and how it is written.
// The test's score and p-value come first: a phone shows them without scrolling the table.
const COLUMNS = [
  ["fp_col_name", (r) => r.name],
  ["fp_col_deals", (r) => r.deals],
  ["fp_col_score", (r) => (r.test.score >= 0 ? "+" : "") + r.test.score.toFixed(2)],
  ["fp_col_p", (r) => r.test.p_value.toFixed(4)],
  ["fp_col_tested", (r) => r.test.decisions],
  ["fp_col_acc", (r) => r.accuracy],
  ["fp_col_lead", (r) => r.opening_lead_accuracy],
  ["fp_col_decl", (r) => r.declarer_accuracy],
  ["fp_col_def", (r) => r.defence_accuracy],
  ["fp_col_par", (r) => r.bidding_loss_per_call],
];

export function fairPlayPanel({ h, api, fail, field, rerender, reloadCases }) {
  const state = { accounts: "", game: null, games: [], by: "last", value: "200", busy: false, data: null, question: "", opened: null };
  // the games the server offers (GET /api/games): the shared page names none itself
  games().then((list) => { state.games = list.map((g) => g.game); state.game ||= state.games[0] || null; rerender(); }).catch(() => null);

  const names = () => state.accounts.split(",").map((s) => s.trim()).filter(Boolean);

  function query() {
    const body = { accounts: names(), game: state.game };
    const value = state.value.trim();
    if (state.by === "last") body.last = /^\d+$/.test(value) ? Number(value) : value;
    else if (state.by === "event") body.event = value;
    else body.tables = value.split(/[\s,]+/).filter(Boolean);
    return body;
  }

  // the case's first words: the pair's figures (or the account's); the server puts the names first
  const signed = (x) => (x >= 0 ? "+" : "") + x.toFixed(2);
  function summary(d) {
    const r = d.pairs[0] || d.accounts[0];
    return r ? t("fp_case_cites", { deals: r.deals, score: signed(r.test.score), p: r.test.p_value.toFixed(4) }) : "";
  }

  async function compute() {
    state.busy = true; state.opened = null; rerender();
    try {
      state.data = await api("POST", "/api/conduct/fairplay", query());
      state.question = summary(state.data);
    } catch (e) { fail(e); }
    state.busy = false; rerender();
  }

  async function openCase() {
    try {
      const c = await api("POST", "/api/conduct/fairplay/cases", { accounts: names(), question: state.question });
      state.opened = c.id;
      reloadCases();
    } catch (e) { fail(e); }
    rerender();
  }

  const input = (id, key, attrs = {}) => h("input", { "data-testid": id, value: state[key], oninput: (e) => { state[key] = e.target.value; }, ...attrs });

  function table(rows, testid) {
    return h("div", { class: "fp-scroll" }, h("table", { class: "fp-figures", "data-testid": testid },
      h("thead", {}, h("tr", {}, COLUMNS.map(([k]) => h("th", {}, t(k))))),
      h("tbody", {}, rows.map((r) => h("tr", {}, COLUMNS.map(([, f]) => h("td", {}, String(f(r) ?? "—"))))))));
  }

  function weighty(rows) {
    const items = rows.flatMap((r) => r.weighty_deals.map((w) => ({ ...w, name: r.name })));
    if (!items.length) return null;
    return h("div", {}, h("h4", {}, t("fp_weighty")),
      h("ul", { class: "fp-weighty", "data-testid": "fp-weighty" }, items.map((w) => h("li", {},
        h("a", { href: w.replay, "data-link": true }, t("fp_weighty_item", { name: w.name, table: w.table, deal: w.deal })),
        h("span", { class: "muted small" }, ` · ${t("fp_weight", { w: w.weight })}`)))));
  }

  function results(d) {
    return h("div", { "data-testid": "fp-results" },
      h("p", { class: "muted small" }, t("fp_read", { games: d.games.length, deals: d.deals, analysed: d.analysed })),
      // the games without an analysis that the server now analyses in the background (docs/fairplay.md, Cost)
      d.queued ? h("p", { class: "muted small", "data-testid": "fp-queued" }, t("fp_queued", { n: d.queued })) : null,
      table([...d.accounts, ...d.pairs], "fp-table"),
      h("p", { class: "fp-warning", "data-testid": "fp-warning" }, t("fp_warning")),
      weighty(d.pairs.length ? d.pairs : d.accounts), // a pair's own deals, else each account's
      h("h4", {}, t("fp_case")),
      h("div", { class: "form" },
        field("fp-question", t("fp_case_text"), h("textarea", { rows: 3, "data-testid": "fp-question", oninput: (e) => { state.question = e.target.value; } }, state.question)),
        h("button", { class: "primary", "data-testid": "fp-open-case", onclick: openCase }, t("fp_open_case"))),
      state.opened ? h("p", { class: "muted", "data-testid": "fp-case-opened" }, t("fp_case_opened", { n: state.opened })) : null);
  }

  return {
    render() {
      const by = h("select", { "data-testid": "fp-by", onchange: (e) => { state.by = e.target.value; state.value = state.by === "last" ? "200" : ""; rerender(); } },
        ["last", "event", "tables"].map((k) => h("option", { value: k, selected: state.by === k }, t("fp_by_" + k))));
      const game = h("select", { "data-testid": "fp-game", onchange: (e) => { state.game = e.target.value; } },
        state.games.map((g) => h("option", { value: g, selected: state.game === g }, t("game_" + g))));
      return h("section", { class: "panel fairplay", "data-testid": "fairplay" },
        h("h2", {}, t("fp_title")),
        h("p", { class: "muted small" }, t("fp_help")),
        h("div", { class: "form" },
          field("fp-accounts", t("fp_accounts"), input("fp-accounts", "accounts", { placeholder: t("fp_accounts_hint") })),
          field("fp-game", t("game"), game),
          field("fp-by", t("fp_games"), by),
          field("fp-value", t("fp_value_" + state.by), input("fp-value", "value")),
          h("p", { class: "muted small" }, t("fp_cost")),
          h("button", { class: "primary", "data-testid": "fp-compute", disabled: state.busy, onclick: compute }, state.busy ? t("fp_computing") : t("fp_compute"))),
        state.data ? results(state.data) : null);
    },
  };
}
