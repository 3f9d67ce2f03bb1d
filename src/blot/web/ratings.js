// Leaderboards and profiles (docs/protocol.md, "Ratings"), the rating history drawn as a chart,
// and the panel of a table where the players may agree to end the game (League rulebook §7).
import { refusalText } from "/static/util.js";
import { t, lang } from "/static/i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const BOT = "bot:";
const GUEST = "guest:";

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

function day(iso) {
  return new Date(iso).toLocaleDateString(lang(), { year: "numeric", month: "short", day: "numeric" });
}

function signed(x) {
  return x > 0 ? `+${x}` : String(x);
}

// How a player is shown: a bot level by its translated name, an account by its username.
export function playerLabel(name) {
  if (name && name.startsWith(GUEST)) return `${name.slice(GUEST.length)} (${t("guest_player")})`;
  if (!name || !name.startsWith(BOT)) return name || "—";
  const level = name.slice(BOT.length);
  return `${t("bot")} (${t("bot_" + level.split(":")[0]) || level})`;
}

// A rating as a reader sees it (issue 41 item 7): the number, or while it is provisional (its
// first rated games: a first loss would show below 0, read as a penalty) the word, its count in
// the title and in what a screen reader says.
export function ratingShown(h, rating, provisional, games, of) {
  if (!provisional) return rating.toFixed(1);
  const full = t("provisional_of", { n: games, of: of || 10 });
  return h("span", { class: "provisional", title: full, "aria-label": full, "data-testid": "provisional" }, t("provisional"));
}

function playerLink(h, name) {
  if (!name) return "—";
  if (name.startsWith(GUEST)) return playerLabel(name); // a guest has no profile
  return h("a", { href: `/players/${encodeURIComponent(name)}`, "data-link": true }, playerLabel(name));
}

// Values over games as a line (equal steps: one per game). ``points`` are {at, value}; ``start``
// a value drawn before the first game (a rating starts at 0), or null; ``lo``/``hi`` the range
// (null: the values' own).
function lineChart(points, { start, lo, hi, label, testid, width, height, first }) {
  const pad = { left: 44, right: 12, top: 12, bottom: 24 };
  const values = [...(start === null ? [] : [start]), ...points.map((p) => p.value)];
  const offset = start === null ? 0 : 1;
  if (lo === null) lo = Math.min(...values);
  if (hi === null) hi = Math.max(...values);
  if (hi - lo < 1) { lo -= 0.5; hi += 0.5; }
  const x = (i) => pad.left + (values.length === 1 ? 0 : (i * (width - pad.left - pad.right)) / (values.length - 1));
  const y = (v) => pad.top + ((hi - v) * (height - pad.top - pad.bottom)) / (hi - lo);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "data-testid": testid, "aria-label": label });
  for (const v of [hi, (hi + lo) / 2, lo]) {
    chart.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }));
    chart.append(svg("text", { x: pad.left - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, v.toFixed(1)));
  }
  chart.append(svg("text", { x: pad.left, y: height - 6, class: "axis" }, String(first)));
  chart.append(svg("text", { x: width - pad.right, y: height - 6, class: "axis", "text-anchor": "end" }, String(points.length)));
  chart.append(svg("polyline", { class: "line", points: values.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  values.forEach((v, i) => {
    if (i < offset) return;
    const dot = svg("circle", { cx: x(i), cy: y(v), r: 3.5, class: "dot" });
    dot.append(svg("title", {}, `${day(points[i - offset].at)}: ${v}`));
    chart.append(dot);
  });
  return chart;
}

// The rating after each rated game, from 0.
export function ratingChart(history, width = 640, height = 200) {
  return lineChart(history.map((p) => ({ at: p.at, value: p.rating })),
    { start: 0, lo: null, hi: null, label: t("rating_history"), testid: "rating-chart", width, height, first: 0 });
}

// The accuracy of each of the last analysed games (issue 28), on a scale of 0 to 100.
export function accuracyChart(history, width = 640, height = 200) {
  return lineChart(history.map((p) => ({ at: p.at, value: p.accuracy })),
    { start: null, lo: 0, hi: 100, label: t("acc_history"), testid: "accuracy-chart", width, height, first: 1 });
}

export function ratingPages({ h, api, toast, session, main, showPending, dailyPanel = () => null }) {
  class LeaderboardPage {
    constructor(game) {
      this.game = game;
      this.games = null;
      this.rows = null;
      api("GET", "/api/games").then((g) => {
        this.games = g.games.map((x) => x.game);
        if (!this.games.includes(this.game)) this.game = this.games[0];
        this.load();
      }).catch((e) => refusalText(e).then(toast));
    }

    leave() {
      this.left = true;
    }

    async load() {
      this.rows = null;
      this.render();
      try {
        const board = await api("GET", `/api/leaderboard?game=${encodeURIComponent(this.game)}`);
        this.rows = board.players;
        this.provisionalGames = board.provisional_games;
      } catch (e) {
        refusalText(e).then(toast);
        this.rows = [];
      }
      this.render();
    }

    render() {
      if (this.left) return;
      const me = session.me();
      const tabs = (this.games || []).map((g) => h("button", {
        class: g === this.game ? "primary" : "", "data-testid": `board-${g}`, "aria-pressed": g === this.game ? "true" : "false",
        onclick: () => {
          this.game = g;
          history.replaceState({}, "", `/leaderboard?game=${encodeURIComponent(g)}`);
          this.load();
        },
      }, t("game_" + g)));
      let body;
      if (this.rows === null) body = h("p", { class: "muted" }, t("loading"));
      else if (!this.rows.length) body = h("p", { class: "muted", "data-testid": "no-ratings" }, t("no_ratings"));
      else {
        body = h("div", { class: "scroll" }, h("table", { class: "board-table", "data-testid": "leaderboard" },
          h("tr", {}, h("th", {}, "#"), h("th", { class: "name" }, t("player_col")), h("th", {}, t("rating")), h("th", {}, t("games")), h("th", {}, t("wins"))),
          this.rows.map((r) => h("tr", { class: me && me.username === r.username ? "mine" : "", "data-testid": `board-row-${r.rank}` },
            h("td", {}, r.rank),
            h("td", { class: "name" }, playerLink(h, r.username)),
            h("td", { class: "num" }, ratingShown(h, r.rating, r.provisional, r.games, this.provisionalGames)),
            h("td", { class: "num" }, r.games),
            h("td", { class: "num" }, r.wins)))));
      }
      main.replaceChildren(h("section", { class: "panel" },
        h("h2", {}, t("leaderboard")),
        h("div", { class: "row" }, tabs),
        body,
        h("p", { class: "muted small", "data-testid": "rating-help" }, t("rating_help", { n: this.provisionalGames || 10 }))));
    }
  }

  class ProfilePage {
    constructor(name) {
      this.name = name;
      this.data = null;
      api("GET", `/api/players/${encodeURIComponent(name)}`)
        .then((d) => { this.data = d; this.render(); })
        .catch((e) => { this.error = e; this.render(); });
    }

    leave() {
      this.left = true;
    }

    // The next page of recent games, added under the ones shown.
    more(page) {
      api("GET", `/api/players/${encodeURIComponent(this.name)}?page=${page}`)
        .then((d) => { this.data.recent = this.data.recent.concat(d.recent); this.data.next_page = d.next_page; this.render(); })
        .catch((e) => refusalText(e).then(toast));
    }

    gamePanel(game, g) {
      const stats = h("div", { class: "stats" },
        [[t("rating"), g.rating === null ? "—" : ratingShown(h, g.rating, g.provisional, g.rated_games, g.provisional_games), "stat-rating"],
          [t("rated_games"), g.rated_games, "stat-rated"],
          [t("played"), g.played, "stat-played"], [t("won"), g.won, "stat-won"]]
          .map(([label, value, id]) => h("div", { class: "stat" }, h("small", { class: "muted" }, label), h("strong", { "data-testid": `${id}-${game}` }, value))));
      const parts = [h("h3", {}, t("game_" + game)), stats,
        h("p", { class: "muted small", "data-testid": `rating-line-${game}` }, t("rating_line", { n: g.provisional_games })),
        h("h4", {}, t("rating_history"))];
      // The chart is drawn at about the size it is shown, so that its labels keep a readable size.
      const wide = window.matchMedia("(min-width: 900px)").matches;
      const width = Math.max(300, Math.min(1200, main.clientWidth - 48) / (wide ? 2 : 1));
      parts.push(g.history.length ? ratingChart(g.history, Math.round(width), 180) : h("p", { class: "muted" }, t("no_history")));
      if (g.accuracy) {
        parts.push(h("h4", {}, t("accuracy")),
          h("p", {}, t("acc_average", { n: g.accuracy.games }), " ", h("strong", { "data-testid": `accuracy-average-${game}` }, g.accuracy.average.toFixed(1))),
          accuracyChart(g.accuracy.history, Math.round(width), 160));
      }
      if (g.partners) {
        parts.push(h("h4", {}, t("partners")));
        parts.push(g.partners.length
          ? h("div", { class: "scroll" }, h("table", { "data-testid": `partners-${game}` },
            h("tr", {}, h("th", { class: "name" }, t("partner")), h("th", {}, t("games")), h("th", {}, t("wins")), h("th", {}, "%")),
            g.partners.map((p) => h("tr", {}, h("td", {}, playerLink(h, p.partner)), h("td", { class: "num" }, p.games),
              h("td", { class: "num" }, p.wins), h("td", { class: "num" }, `${Math.round(p.share * 100)}%`)))))
          : h("p", { class: "muted" }, t("no_partners")));
      }
      return h("section", { class: "panel", "data-testid": `profile-${game}` }, parts);
    }

    recentItem(r) {
      const bits = [h("a", { href: r.replay, "data-link": true }, `${t("game_" + r.game)} · ${day(r.at)}`)];
      if (r.ending === "agreement") bits.push(h("span", { class: "muted" }, ` · ${t("ending_agreement")}`));
      else if (r.ending === "left") bits.push(h("span", { class: "muted" }, ` · ${t("ending_left")}`));
      else if (r.secret) bits.push(h("span", { class: "muted" }, ` · ${t("deals_secret_until")}`)); // a duplicate round not played out
      else bits.push(h("span", {}, ` · ${r.place === 0 ? t("won_game") : t("place_n", { n: r.place + 1 })}`));
      if (r.match_score) bits.push(h("span", { class: "muted" }, ` (${r.match_score})`));
      bits.push(r.rated
        ? h("span", { class: "badge " + (r.rating_change >= 0 ? "up" : "down") }, signed(r.rating_change))
        : h("span", { class: "badge" }, t("not_rated")));
      if (r.accuracy !== null && r.accuracy !== undefined) {
        bits.push(h("span", { class: "badge", "data-testid": "recent-accuracy" }, t("acc_short", { x: r.accuracy.toFixed(1) })));
      }
      bits.push(h("div", { class: "muted small" }, r.players.map(playerLabel).join(", ")));
      return h("li", { "data-testid": "recent-game" }, bits);
    }

    render() {
      if (this.left || showPending(this.data, this.error && { key: "no_such_player", testid: "no-player" })) return;
      const d = this.data;
      const me = session.me();
      const head = h("section", { class: "panel" },
        h("h2", { "data-testid": "profile-name" }, playerLabel(d.username)),
        h("p", { class: "muted" }, t("profile_since", { date: day(d.since) })),
        me && me.username === d.username ? h("a", { href: "/account", "data-link": true }, t("account_title")) : null);
      const games = Object.entries(d.games).map(([g, x]) => this.gamePanel(g, x));
      const tars = d.tars_kapoot.length ? h("section", { class: "panel wide", "data-testid": "tars-kapoot" },
        h("h3", {}, t("tars_record")),
        h("ul", {}, d.tars_kapoot.map((r) => h("li", {}, t("tars_with", { who: playerLabel(r.partner), date: day(r.at) }), " ",
          r.table ? h("a", { href: `/replay/${r.table}`, "data-link": true }, t("watch_replay")) : null)))) : null;
      const more = d.next_page === null || d.next_page === undefined ? null
        : h("button", { class: "small", "data-testid": "more-games", onclick: () => this.more(d.next_page) }, t("more_games"));
      const recent = h("section", { class: "panel wide" }, h("h3", {}, t("recent_games")),
        d.recent.length ? h("ul", { class: "tables", "data-testid": "recent-games" }, d.recent.map((r) => this.recentItem(r)))
          : h("p", { class: "muted" }, t("no_games")), more);
      // the day's deals: the streak and the days played (issue 45, daily.js)
      main.replaceChildren(h("div", { class: "profile" }, head, games, dailyPanel(d.daily), tars, recent));
    }
  }

  return { LeaderboardPage, ProfilePage };
}

// Ending a game by agreement (League rulebook §7): every person seated must agree, and a game so
// ended is not rated. At a rated table where the other side has no person to agree, ending is a
// resignation (a loss). A seated player proposes it from the table's menu (`propose-end`); it is
// never one tap: a dialog asks to confirm (`confirm-end`, `cancel-end`). While a proposal stands,
// a banner over the table names who agreed and lets the others agree or decline. `page` is the
// table page (its table, seat, post, names, and `confirmingEnd`). Answers the menu item, the
// banner and the dialog (each may be null).
export function endControls(h, page) {
  const tb = page.table;
  const mine = page.mySeat();
  const none = { menuItem: null, banner: null, dialog: null };
  if (tb.status !== "playing" || mine === null) return none;
  const votes = tb.end_votes || [];
  const agreed = votes.includes(mine);
  const resign = tb.end_is_resignation;
  const ask = () => { page.confirmingEnd = true; page.menuOpen = false; page.render(); };
  const help = resign ? "end_help_resign" : tb.settings.rated ? "end_help_rated" : "end_help";
  const menuItem = agreed ? null : h("div", { class: "end-item" },
    h("button", { class: "small" + (resign ? " danger" : ""), "data-testid": "propose-end", onclick: ask },
      resign ? t("resign") : votes.length ? t("end_agree") : t("end_propose")),
    h("p", { class: "muted small" }, t(help)));
  let banner = null;
  if (votes.length) {
    banner = h("div", { class: "end-vote", "data-testid": "end-vote", role: "status" },
      h("p", {}, t("end_votes", { who: votes.map((s) => page.name(s)).join(", ") })),
      h("div", { class: "row" },
        agreed ? null : h("button", { class: "small primary", "data-testid": "end-agree", onclick: ask }, t("end_agree")),
        h("button", { class: "small", "data-testid": "end-decline", onclick: () => page.post("end", { agree: false }) },
          agreed ? t("end_withdraw") : t("end_decline"))));
  }
  let dialog = null;
  if (page.confirmingEnd && !agreed) {
    const close = () => { page.confirmingEnd = false; page.render(); };
    dialog = h("div", { class: "overlay modal", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "end-confirm-text" },
      h("div", { class: "overlay-card", "data-testid": "end-confirm" },
        h("p", { id: "end-confirm-text" }, t(resign ? "resign_confirm" : "end_confirm")),
        h("p", { class: "muted small" }, t(help)),
        h("div", { class: "row" },
          h("button", { class: "danger", "data-testid": "confirm-end", onclick: () => { page.confirmingEnd = false; page.post("end", { agree: true }); } },
            resign ? t("resign") : t("confirm")),
          h("button", { "data-testid": "cancel-end", onclick: close }, t("cancel")))));
  }
  return { menuItem, banner, dialog };
}
