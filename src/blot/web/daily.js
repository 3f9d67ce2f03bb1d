// The day's deals (issue 45; docs/protocol.md, "The day's deals"): the lobby's panel of the day's
// sets (one per game and ruleset, each with its deals, the bots' level, the seat, whether this
// player has played it and the time left in the day), the day's results (the player's percent and
// rank, the ranking, the par line, each finished deal's traveller with its replay and analysis),
// and the profile's history and streak. The server decides everything — the deals, the scores, what
// is still secret; this page shows what it answers and sends "start" when the player clicks.
import { t, lang } from "/static/i18n.js";
import { h, api, toast, refusalText, main, showPending, Page } from "/static/util.js";
import { games, gameInfo, presenter, rulesetLabel, placesFrom, teamOf } from "/static/games.js";
import { playerLabel } from "/static/ratings.js";

const POLL_MS = 20000; // an open results page asks again this often: others play all day

// A bot level in the page's language ("basic"; table.js says it the same way).
function botLevelName(level) {
  return t("bot_" + String(level).split(":")[0]) || level;
}

// "62.5%" (the server's percent, 0 … 100).
export function percentText(p) {
  return p === null || p === undefined ? "—" : `${Number(p).toFixed(1)}%`;
}

// A day ("2026-11-27", the server's zone) as the reader writes dates.
function dayText(day) {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(lang(), { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
}

// The time left until ``ends`` in hours and minutes ("5 h 12 min").
export function timeLeft(ends, now = Date.now()) {
  const min = Math.max(0, Math.floor((Date.parse(ends) - now) / 60000));
  return min >= 60 ? t("daily_hours_left", { h: Math.floor(min / 60), m: min % 60 }) : t("daily_minutes_left", { m: min });
}

// Where a set's results are: /daily/<game>?ruleset=…(&day=…).
export function resultsPath(game, ruleset, day) {
  const q = new URLSearchParams({ ruleset });
  if (day) q.set("day", day);
  return `/daily/${encodeURIComponent(game)}?${q}`;
}

// The player's own row of a results answer, or null (not finished, or the ranking still closed).
function yours(results) {
  return (results && results.ranking || []).find((r) => r.you) || null;
}

// "rank 2 of 7".
function rankText(rank, field) {
  return t("daily_rank", { rank, field });
}

// Start (or resume) a set, then open its table as any table is opened.
async function play(set, go) {
  try {
    const r = await api("POST", `/api/daily/${encodeURIComponent(set.game)}/start`, { ruleset: set.ruleset });
    go(`/table/${r.table}`);
  } catch (e) {
    toast(await refusalText(e));
  }
}

// The lobby's panel: the day's sets, each with its status and its button.
export class DailyDeals {
  // nameFirst(action, label): the lobby asks a visitor's name first (issue 41 item 1), then acts
  constructor(changed, go, nameFirst = (action) => action()) {
    this.changed = changed;
    this.go = go;
    this.nameFirst = nameFirst;
    this.data = undefined; // undefined: asked for; null: the server has none (or said no)
    this.mine = {}; // "game/ruleset" → the player's row of a finished set's results
    this.infos = null;
    this.load();
  }

  async load() {
    try {
      this.infos = await games();
      this.data = await api("GET", "/api/daily");
    } catch {
      this.data = null;
    }
    this.changed();
    for (const s of (this.data && this.data.sets) || []) {
      if (s.status !== "finished" || s.percent !== undefined) continue;
      // a finished set's percent and rank, from its results (the ranking is open to its players)
      api("GET", `/api/daily/${encodeURIComponent(s.game)}/results?${new URLSearchParams({ ruleset: s.ruleset })}`)
        .then((r) => { this.mine[`${s.game}/${s.ruleset}`] = { ...yours(r), field: r.field }; this.changed(); })
        .catch(() => {});
    }
  }

  // One set: the game and rules, the deals, the bots, the seat, the status, the button.
  row(s) {
    const info = (this.infos || []).find((g) => g.game === s.game);
    const rules = info && info.rulesets.length > 1 ? ` · ${rulesetLabel(info, s.ruleset)}` : "";
    const mine = s.percent !== undefined ? s : this.mine[`${s.game}/${s.ruleset}`];
    let status;
    if (s.status === "finished") {
      status = [h("span", { class: "status finished", "data-testid": "daily-status" }, t("daily_played")),
        mine && mine.percent !== undefined ? h("span", { class: "badge ok", "data-testid": "daily-mine" },
          `${percentText(mine.percent)}${mine.rank ? " · " + rankText(mine.rank, mine.field ?? s.field) : ""}`) : null];
    } else {
      status = h("span", { class: `status ${s.status === "playing" ? "playing" : "waiting"}`, "data-testid": "daily-status" },
        t(s.status === "playing" ? "daily_in_progress" : "daily_new"));
    }
    const about = [t("daily_deals_n", { n: s.deals }), t("daily_bots", { level: botLevelName(s.bots) }),
      t("daily_seat", { n: s.seat + 1 }), t("daily_field", { n: s.field })].join(" · ");
    const button = s.status === "finished"
      ? h("a", { class: "button", href: resultsPath(s.game, s.ruleset), "data-link": true, "data-testid": "daily-results" }, t("daily_results"))
      : h("button", { class: "primary", "data-testid": "daily-play", onclick: () => this.nameFirst(() => play(s, this.go), t(s.status === "playing" ? "daily_continue" : "daily_play")) },
        t(s.status === "playing" ? "daily_continue" : "daily_play"));
    return h("li", { class: "table-row daily-set", "data-testid": `daily-set-${s.game}`, "data-status": s.status },
      h("div", { class: "what" }, h("strong", {}, t("game_" + s.game) || s.game), rules ? h("span", { class: "muted" }, rules) : null, status),
      h("div", { class: "who muted" }, about),
      h("div", { class: "go" }, button));
  }

  view() {
    const d = this.data;
    if (d === null) return null; // a server without the day's deals: no panel
    const body = d === undefined ? h("p", { class: "muted" }, t("loading"))
      : [h("p", { class: "muted small" }, t("daily_about"), " ",
        h("span", { "data-testid": "daily-left" }, timeLeft(d.ends))),
      h("ul", { class: "tables", "data-testid": "daily-sets" }, d.sets.map((s) => this.row(s)))];
    return h("section", { class: "panel daily-deals", "data-testid": "daily-deals" }, h("h2", {}, t("daily_title")), body);
  }
}

// A person in a ranking or a traveller: a guest marked as such.
function personText(r) {
  return r.guest ? playerLabel(`guest:${r.name}`) : playerLabel(r.name);
}

// One line of a traveller, short enough for a phone: a deal's result (DealResult.to_json,
// docs/format.md) as the game's presenter writes it (travellerLine: its contract or trump and who
// made it, then how it went), each seat named as seen from the day's seat; the score column says
// the points. A string is shown as it comes.
export function resultText(game, info, r, seat) {
  if (r === null || r === undefined) return "—";
  if (typeof r === "string" || !game) return typeof r === "string" ? r : "—";
  const where = placesFrom(info, seat);
  // a partner is one of the seat's team (the game's teams), the others by where they sit
  const who = (s) => (s === seat ? t("you") : teamOf(info, s) === teamOf(info, seat) ? t("partner_short") : t("pos_" + where[s]));
  return game.travellerLine(r, seat, who) || "—";
}

// The results of a set: /daily/<game>?ruleset=&day=.
export class DailyResultsPage extends Page {
  constructor(game, ruleset, day) {
    super();
    this.game = game;
    this.ruleset = ruleset;
    this.day = day;
    this.data = null;
    this.load();
    this.poll = setInterval(() => this.load(), POLL_MS);
  }

  async load() {
    const q = new URLSearchParams();
    if (this.ruleset) q.set("ruleset", this.ruleset);
    if (this.day) q.set("day", this.day);
    try {
      const data = await api("GET", `/api/daily/${encodeURIComponent(this.game)}/results?${q}`);
      this.info = await gameInfo(data.game);
      this.presenter = this.info ? await presenter(this.info) : null;
      this.data = data;
    } catch (e) {
      if (!this.data) this.error = e;
    }
    this.render();
  }

  render() {
    if (this.left) return;
    if (showPending(this.data, this.error && { key: "daily_no_results", testid: "daily-no-results" })) return;
    const d = this.data;
    const me = yours(d);
    const rules = this.info && this.info.rulesets.length > 1 ? ` · ${rulesetLabel(this.info, d.ruleset)}` : "";
    const head = h("section", { class: "panel" },
      h("h1", {}, t("daily_results_title")),
      h("p", { class: "muted" }, `${t("game_" + d.game) || d.game}${rules} · ${dayText(d.day)}`),
      me ? h("p", { class: "daily-you", "data-testid": "daily-you" }, t("daily_your_score", { percent: percentText(me.percent) }), " ",
        h("strong", {}, rankText(me.rank, d.field)))
        : h("p", { "data-testid": "daily-closed" }, t(d.over ? "daily_field_n" : "daily_ranking_closed", { n: d.field })),
      d.over && d.seed ? h("p", { class: "muted small", "data-testid": "daily-seed" }, t("daily_seed", { seed: d.seed })) : null,
      h("p", { class: "row" },
        !me && !d.over && d.table ? h("a", { class: "button primary", href: `/table/${d.table}`, "data-link": true, "data-testid": "daily-continue" }, t("daily_continue")) : null,
        h("a", { href: "/", "data-link": true }, t("nav_lobby"))));
    const ranking = d.ranking && d.ranking.length ? h("section", { class: "panel" }, h("h2", {}, t("daily_ranking")),
      h("div", { class: "scroll" }, h("table", { class: "board-table", "data-testid": "daily-ranking" },
        h("tr", {}, h("th", {}, "#"), h("th", { class: "name" }, t("player_col")), h("th", {}, "%"), h("th", {}, t("total"))),
        d.ranking.map((r) => h("tr", { class: r.you ? "mine" : "", "data-testid": "daily-rank-row" },
          h("td", { class: "num" }, r.rank), h("td", { class: "name" }, personText(r)),
          h("td", { class: "num" }, percentText(r.percent)), h("td", { class: "num" }, r.total ?? "—"))),
        d.par ? h("tr", { class: "par", "data-testid": "daily-par" }, h("td"), h("td", { class: "name" }, t("daily_par")),
          h("td", { class: "num" }, percentText(d.par.percent)), h("td", { class: "num" }, d.par.total ?? "—")) : null)),
      h("p", { class: "muted small" }, t("daily_par_help"))) : null;
    const deals = (d.deals || []).map((x) => this.deal(x));
    main.replaceChildren(h("div", { class: "daily-results" }, head, ranking,
      deals.length ? h("section", { class: "panel" }, h("h2", {}, t("daily_travellers")), deals) : null));
  }

  // A deal: its traveller (every result from the player's seat, each with its percent), the par,
  // the replay and the analysis — or, not yet played by this player, that it is still secret.
  deal(x) {
    const title = h("h3", {}, t("deal_n", { n: x.number }));
    if (x.secret || !x.traveller) {
      return h("div", { class: "daily-deal", "data-testid": `daily-deal-${x.number}` }, title, h("p", { class: "muted" }, t("daily_deal_secret")));
    }
    const seat = this.data.seat;
    const rows = x.traveller.map((r) => h("tr", { class: r.you || (x.table && r.table === x.table) ? "mine" : "", "data-testid": "traveller-row" },
      h("td", { class: "name" }, personText(r), h("small", { class: "res" }, resultText(this.presenter, this.info, r.result, seat))),
      h("td", { class: "num" }, r.score ?? "—"), h("td", { class: "num" }, percentText(r.percent))));
    const par = x.par ? h("tr", { class: "par" }, h("td", { class: "name" }, t("daily_par"), h("small", { class: "res" }, resultText(this.presenter, this.info, x.par.result, seat))),
      h("td", { class: "num" }, x.par.score ?? "—"), h("td", { class: "num" }, percentText(x.par.percent))) : null;
    // the replay page of the player's own table at this deal (its analysis is asked there)
    const replay = x.table ? `/replay/${x.table}?deal=${x.number}` : null;
    return h("div", { class: "daily-deal", "data-testid": `daily-deal-${x.number}` }, title,
      h("div", { class: "scroll" }, h("table", { class: "board-table", "data-testid": "traveller" },
        h("tr", {}, h("th", { class: "name" }, `${t("player_col")} · ${t("daily_result_col")}`), h("th", {}, t("score")), h("th", {}, "%")),
        rows, par)),
      h("p", { class: "row" },
        replay ? h("a", { href: replay, "data-link": true, "data-testid": "daily-replay" }, t("watch_replay")) : null,
        // the analyses of a day's games wait until the day is over (players.md, "The day's deals")
        replay && x.analysis && this.data.over ? h("a", { href: `${replay}&analysis=1`, "data-link": true, "data-testid": "daily-analysis" }, t("analysis")) : null));
  }
}

// The profile's panel: the streak and the days played (percent, rank, field), newest first.
export function dailyPanel(daily) {
  if (!daily || (!daily.streak && !(daily.history || []).length)) return null;
  return h("section", { class: "panel wide", "data-testid": "daily-history" },
    h("h3", {}, t("daily_title")),
    h("p", {}, t("daily_streak", { n: daily.streak || 0 })),
    (daily.history || []).length ? h("div", { class: "scroll" }, h("table", { class: "board-table" },
      h("tr", {}, h("th", {}, t("daily_day_col")), h("th", { class: "name" }, t("game")), h("th", {}, "%"), h("th", {}, t("daily_rank_col"))),
      daily.history.map((x) => h("tr", { "data-testid": "daily-history-row" },
        h("td", {}, h("a", { href: resultsPath(x.game, x.ruleset, x.day), "data-link": true }, dayText(x.day))),
        h("td", { class: "name" }, t("game_" + x.game) || x.game),
        h("td", { class: "num" }, percentText(x.percent)),
        h("td", { class: "num" }, x.rank ? `${x.rank} / ${x.field}` : "—"))))) : null);
}
