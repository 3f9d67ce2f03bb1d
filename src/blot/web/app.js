// blot in the browser: routing, the lobby and the replays; the table is table.js, the score sheets
// scoresheet.js. The server is authoritative: this page only shows what it receives and sends what
// the player clicks (docs/protocol.md). No rule is decided here.
import { t, setLang, lang, LANGS } from "/static/i18n.js";
import { accountPages, barLines } from "/static/accounts.js";
import { ratingPages } from "/static/ratings.js";
import { PuzzlePage, DailyPuzzle } from "/static/puzzles.js";
import { eventPages, nextGames } from "/static/events.js";
import { printPages } from "/static/print.js";
import { registerPage } from "/static/register.js";
import { JoinPage } from "/static/join.js";
import { DailyDeals, DailyResultsPage, dailyPanel } from "/static/daily.js";
import { QuickPanel } from "/static/quick.js";
import { arrivalPanel, focusName, needsName } from "/static/arrival.js";
import {
  h, api, toast, errorText, refusalText, store, main, nav, ensurePlayer, syncName, applyPrefs, session, renderMe, currentMe, refreshMe,
  showPending,
} from "/static/util.js";
import { TablePage, botName, botLevelName, guestMark } from "/static/table.js";
import { FriendsPage, watchInvitations } from "/static/friends.js";
import { SUIT_ORDER, splitCard, cardEl, cardLabel, isCard } from "/static/cards.js";
import { games as listGames, gameInfo, presenter, placesFrom, rulesetLabel, rulesText, optionField } from "/static/games.js";

document.getElementById("name").addEventListener("change", async () => {
  try {
    await syncName();
  } catch (e) {
    toast(await refusalText(e));
  }
});

// On a table page the header is a thin bar: its links open from a menu button.
const navToggle = document.getElementById("nav-toggle");
function openNav(open) {
  document.querySelector("header.top").classList.toggle("open", open);
  navToggle.setAttribute("aria-expanded", open ? "true" : "false");
}
navToggle.addEventListener("click", () => openNav(navToggle.getAttribute("aria-expanded") !== "true"));
document.getElementById("site-nav").addEventListener("click", () => openNav(false));

// --- language ---------------------------------------------------------------------------------------

const langSelect = document.getElementById("lang");
langSelect.value = lang();
langSelect.addEventListener("change", async () => {
  store.setItem("blot.lang", langSelect.value);
  await setLang(langSelect.value); // the words of that language are loaded first
  keepWords();
  translateStatic();
  rerender();
});

function translateStatic() {
  document.documentElement.lang = lang();
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  langSelect.setAttribute("aria-label", t("language"));
  navToggle.setAttribute("aria-label", t("menu"));
  document.title = t("title");
  renderMe();
}

// --- routing ----------------------------------------------------------------------------------------

// The score sheets' pages: their code is loaded the first time one is opened.
let sheetPages = null;
function scoresheets() {
  sheetPages ||= import("/static/scoresheet.js").then((m) => m.scoresheetPages({ h, api, toast, go, store, main, showPending }));
  return sheetPages;
}
const { LoginPage, AccountPage } = accountPages({ h, api, toast, go, main, session });
const { LeaderboardPage, ProfilePage } = ratingPages({ h, api, toast, session, main, showPending, dailyPanel });
const { EventsPage, EventPage, ConsolePage, CourtPage } = eventPages({ h, api, toast, errorText, main, showPending, currentMe, refreshMe });
const PrintPage = printPages({ h, api, toast, errorText, main, showPending, currentMe, refreshMe });
const { RegisterPage } = registerPage({ h, api, toast, refusalText, main, showPending });

let page = null; // the current page object: {render(), leave()}
// Set once the words are loaded, just before the first page is drawn. A link clicked earlier (the
// page's "load" comes before this module's top-level await ends) only changes the address, which
// that first route() draws: drawing it at once as well drew it twice, the second over what was typed.
let started = false;

function go(path) {
  history.pushState({}, "", path);
  if (started) route();
}
nav.go = go;

document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-link]");
  if (a && a.origin === location.origin && !ev.metaKey && !ev.ctrlKey) {
    ev.preventDefault();
    go(a.pathname + a.search);
  }
});
window.addEventListener("popstate", () => { if (started) route(); });

function rerender() {
  if (page) page.render();
}

// Each route() is numbered: one that a newer navigation overtook while it waited (a guest being
// made, a page's module loading) renders nothing, so a quick click never shows the older page.
let routing = 0;

async function route() {
  const mine = ++routing;
  if (page && page.leave) page.leave();
  page = null;
  main.replaceChildren();
  const path = location.pathname;
  const readOnly = /^\/(replays$|replay\/|scoresheet\/shared\/|leaderboard$|players\/|login$|account$|register$|daily\/|friends$|join$|join\/)/.test(path);
  // a table's link or the lobby opened without a session (or with one that ended) asks for a name
  // before a seat or a table (issue 41 item 1, arrival.js): no guest is made for it here
  const arriving = path.startsWith("/table/") || path === "/";
  let m;
  listGames().catch(() => {}); // asked for at once: the lobby and the tables need it
  const sheets = path.startsWith("/scoresheet") ? scoresheets() : null;
  try {
    await ensurePlayer(!readOnly && !arriving);
  } catch (e) {
    // with no network the page says so itself (the score sheet works without: issue 41 item 9)
    if (navigator.onLine !== false) toast(await refusalText(e));
  }
  watchInvitations(); // a friend's invitation shows on every page (issue 41 item 2)
  const { SheetsPage, SheetPage } = sheets ? await sheets : {};
  if (mine !== routing) return;
  if ((m = /^\/table\/([\w-]+)$/.exec(path))) page = new TablePage(m[1]);
  else if (path === "/replays") page = new ReplaysPage();
  else if (path === "/friends") page = new FriendsPage();
  else if ((m = /^\/replay\/([\w-]+)$/.exec(path))) page = new ReplayPage(m[1]);
  else if (path === "/scoresheet") page = new SheetsPage();
  else if ((m = /^\/scoresheet\/shared\/([\w-]+)$/.exec(path))) page = new SheetPage(null, m[1]);
  else if ((m = /^\/scoresheet\/([\w-]+)$/.exec(path))) page = new SheetPage(m[1], null);
  else if (path === "/events") page = new EventsPage();
  else if ((m = /^\/event\/([\w-]+)\/table\/(\d+)$/.exec(path))) page = new ConsolePage(m[1], m[2]);
  else if ((m = /^\/event\/([\w-]+)$/.exec(path))) page = new EventPage(m[1]);
  else if ((m = /^\/event\/([\w-]+)\/print\/(\w+)$/.exec(path))) page = new PrintPage(m[1], m[2], new URLSearchParams(location.search).get("round"));
  else if ((m = /^\/event\/([\w-]+)\/boards\/(\d+)$/.exec(path))) page = new PrintPage(m[1], "boards", m[2]);
  else if (path === "/register") page = new RegisterPage();
  else if ((m = /^\/join(?:\/([\w-]+))?$/.exec(path))) page = new JoinPage(m[1] || null);
  else if (path === "/courts") page = new CourtPage();
  else if (path === "/login") page = new LoginPage();
  else if (path === "/account") page = new AccountPage();
  else if (path === "/leaderboard") page = new LeaderboardPage(new URLSearchParams(location.search).get("game"));
  else if ((m = /^\/players\/([^/]+)$/.exec(path))) page = new ProfilePage(decodeURIComponent(m[1]));
  else if (path === "/puzzles") page = new PuzzlePage(null, new URLSearchParams(location.search).get("game"));
  else if ((m = /^\/puzzles\/(\d+)$/.exec(path))) page = new PuzzlePage(m[1], null);
  else if ((m = /^\/daily\/([\w-]+)$/.exec(path))) {
    const q = new URLSearchParams(location.search);
    page = new DailyResultsPage(m[1], q.get("ruleset"), q.get("day"));
  }
  else page = new LobbyPage();
  window.blotPage = page; // for tests and the console
  page.render();
}

// A seat in a list: the player's name, or the bot named by its seat in the page's language.
function seatLabel(s) {
  return s.bot ? botName(s.seat, s.bot) : s.name || t("empty_seat");
}

// The seats of a listed table, "Ani · Boris guest · Bot 3 (basic)", a guest's name marked.
function seatList(seats) {
  return seats.flatMap((s, i) => [i ? " · " : "", seatLabel(s), s.guest ? guestMark("badge") : ""]);
}

// --- lobby ------------------------------------------------------------------------------------------

class LobbyPage {
  constructor() {
    this.games = null;
    this.tables = [];
    this.form = { game: null, ruleset: null, public: true, timer: 0, trickPause: 1, bot: "basic", pace: "normal", options: {}, rated: false };
    this.quick = new QuickPanel(() => this.render(), go); // "Find a game" (issue 41 item 3)
    this.load();
    this.poll = setInterval(() => this.loadTables(), 5000);
    this.daily = new DailyPuzzle(() => this.render()); // issue 28
    this.deals = new DailyDeals(() => this.render(), go, (action, label) => this.ask(action, label)); // the day's deals (issue 45)
  }

  // A visitor with no session and no name typed in the header names himself before his first
  // table (issue 41 item 1): the name box shows, and what he clicked goes on once he has one.
  ask(action, label) {
    const typed = document.getElementById("name").value.trim();
    if (!needsName() || typed) return action();
    this.asking = { action, label };
    this.render();
    focusName();
  }

  // The name was given (arrival.js): what was clicked goes on.
  async named() {
    const asked = this.asking;
    this.asking = null;
    if (asked) await asked.action();
  }

  leave() {
    clearInterval(this.poll);
    this.quick.leave();
    this.left = true;
  }

  async load() {
    try {
      await refreshMe();
      this.games = await listGames();
      if (!this.form.game) this.pickGame(this.games[0].game);
      this.next = await nextGames(api);
      await this.loadTables();
    } catch (e) {
      toast(await refusalText(e));
    }
    this.render();
  }

  pickGame(game) {
    this.form.game = game;
    this.form.ruleset = this.gameInfo().rulesets[0];
    this.form.options = {};
  }

  async loadTables() {
    try {
      this.tables = (await api("GET", "/api/tables")).tables;
      this.renderTables();
    } catch { /* the next poll tries again */ }
  }

  gameInfo() {
    return (this.games || []).find((g) => g.game === this.form.game);
  }

  // An option of the game as the server describes it (games.js optionField).
  optionControl(f, value) {
    return optionField(f, value, (v) => (this.form.options[f.name] = v), f.name === "target" ? "target" : `opt-${f.name}`, `f-opt-${f.name}`);
  }

  render() {
    if (this.left) return; // an answer that came after the player moved on
    const f = this.form;
    const info = this.gameInfo();
    const field = (id, label, control) => {
      control.id = id;
      return h("div", { class: "field" }, h("label", { for: id }, label), control);
    };
    const gameSelect = h("select", { "data-testid": "game", name: "game", disabled: !this.games, onchange: (e) => {
      this.pickGame(e.target.value);
      this.render();
    } }, (this.games || []).map((g) => h("option", { value: g.game }, t("game_" + g.game) || g.title)));
    if (f.game) gameSelect.value = f.game;
    const fields = [field("f-game", t("game"), gameSelect)];
    if (info && info.rulesets.length > 1) {
      const rs = h("select", { "data-testid": "ruleset", onchange: (e) => (f.ruleset = e.target.value) },
        info.rulesets.map((r) => h("option", { value: r }, rulesetLabel(info, r))));
      rs.value = f.ruleset;
      fields.push(field("f-rules", t("ruleset"), rs));
    }
    const more = [];
    if (info) {
      const o = { ...info.options, ...f.options };
      for (const of of info.option_fields) (of.kind === "number" ? fields : more).push(this.optionControl(of, o[of.name]));
    }
    const vis = h("select", { "data-testid": "visibility", onchange: (e) => (f.public = e.target.value === "public") },
      h("option", { value: "public" }, t("public")), h("option", { value: "private" }, t("private")));
    vis.value = f.public ? "public" : "private";
    const timer = h("select", { "data-testid": "timer", onchange: (e) => (f.timer = parseInt(e.target.value, 10)) },
      [0, 15, 30, 60, 120].map((sec) => h("option", { value: sec }, sec ? t("seconds", { n: sec }) : t("no_timer"))));
    timer.value = String(f.timer);
    const pause = h("select", { "data-testid": "trick-pause", onchange: (e) => (f.trickPause = parseFloat(e.target.value)) },
      [0.5, 1, 2, 3].map((sec) => h("option", { value: sec }, t("seconds", { n: sec }))));
    pause.value = String(f.trickPause);
    const me = currentMe();
    const account = Boolean(me && me.username);
    const bots = info ? (f.rated && account ? info.rated_bots : info.bots) : ["basic"];
    const level = h("select", { "data-testid": "quick-bot-level", onchange: (e) => (f.bot = e.target.value) },
      bots.map((b) => h("option", { value: b }, botLevelName(b))));
    level.value = bots.includes(f.bot) ? f.bot : bots[0];
    more.push(field("f-vis", t("visibility"), vis), field("f-timer", t("turn_timer"), timer), field("f-pause", t("trick_pause"), pause));
    const rated = account
      ? h("label", { class: "check" }, h("input", { type: "checkbox", checked: f.rated, "data-testid": "rated", onchange: (e) => { f.rated = e.target.checked; this.render(); } }), h("span", {}, t("rated_table")))
      : h("p", { class: "muted small" }, h("a", { href: "/login", "data-link": true }, t("rated_login")));
    const bars = barLines(me && me.bars, lang());
    const quick = h("button", { class: "primary big", "data-testid": "play-bots", disabled: !this.games, onclick: () => this.ask(() => this.create(true), t("play_bots")) }, t("play_bots"));
    const find = h("button", { class: "primary", "data-testid": "find-game", disabled: !this.games || this.quick.waiting, onclick: () => this.ask(() => this.find(), t("find_game")) }, t("find_game"));
    const pace = h("select", { "data-testid": "pace", onchange: (e) => (f.pace = e.target.value) },
      ["slow", "normal", "fast"].map((p) => h("option", { value: p }, t("pace_" + p))));
    pace.value = f.pace;
    const create = h("button", { "data-testid": "new-table", disabled: !this.games, onclick: () => this.ask(() => this.create(false), t("new_table")) }, t("new_table"));
    this.tablesEl = h("ul", { class: "tables", "data-testid": "open-tables" });
    main.replaceChildren(h("div", { class: "lobby" },
      bars.length ? h("section", { class: "panel league", "data-testid": "league-bars" }, bars.map((b) => h("p", {}, b))) : null,
      (this.next || []).length ? h("section", { class: "panel ready", "data-testid": "next-game" }, this.next.map((g) => h("p", {},
        t("your_next_game", { event: g.event_name, n: g.round }), " ",
        h("a", { class: "button primary", href: `/table/${g.table}`, "data-link": true }, t("go_to_table"))))) : null,
      h("section", { class: "panel lobby-new" }, h("h1", {}, t("play")),
        this.asking ? arrivalPanel(this, this.asking.label) : null,
        this.quick.view(this.games || [], botLevelName),
        h("div", { class: "form" }, fields, field("f-bot", t("bot_level"), level), field("f-pace", t("bot_pace"), pace), rated),
        h("p", { class: "muted small", "data-testid": "bot-levels-help" }, t("bot_levels_help")),
        h("div", { class: "row" }, quick, find, create),
        h("p", { class: "muted small" }, t("lobby_help")),
        // opened stays open when the lobby draws itself again (its lists refresh while a player chooses)
        h("details", { class: "more", open: Boolean(this.moreOpen), ontoggle: (e) => { this.moreOpen = e.target.open; } },
          h("summary", {}, t("more_settings")), h("div", { class: "form" }, more))),
      this.deals.view(),
      h("section", { class: "panel" }, h("h2", {}, t("open_tables")), this.tablesEl),
      this.daily.view(),
      h("section", { class: "panel help" }, h("p", {}, t("lobby_scoresheet"), " ",
        h("a", { href: "/scoresheet", "data-link": true, "data-testid": "lobby-scoresheet" }, t("open_scoresheet"))))));
    this.renderTables();
  }

  renderTables() {
    if (!this.tablesEl) return;
    if (!this.tables.length) {
      this.tablesEl.replaceChildren(h("li", { class: "muted" }, t("no_tables")));
      return;
    }
    this.tablesEl.replaceChildren(...this.tables.map((tb) => {
      const free = tb.seats.filter((s) => !s.name && !s.bot).length;
      const rules = rulesText((this.games || []).find((g) => g.game === tb.game), tb.settings);
      const join = tb.status === "waiting" && free;
      return h("li", { class: "table-row" },
        h("div", { class: "what" }, h("strong", {}, t("game_" + tb.game)), rules ? h("span", { class: "muted" }, ` ${rules}`) : null,
          h("span", { class: `status ${tb.status}` }, t("status_" + tb.status)),
          tb.settings.rated ? h("span", { class: "badge rated" }, t("rated")) : null),
        h("div", { class: "who muted" }, seatList(tb.seats)),
        h("div", { class: "go" }, free ? h("span", { class: "badge" }, t("free_seats", { n: free })) : null,
          h("a", { class: "button" + (join ? " primary" : ""), href: `/table/${tb.id}`, "data-link": true }, t(join ? "join" : "watch"))));
    }));
  }

  // "Find a game": wait for people who want the same game, ruleset and ratedness (quick.js).
  async find() {
    const f = this.form;
    try {
      await syncName();
      const info = this.gameInfo();
      const me = currentMe();
      const rated = Boolean(f.rated && me && me.username);
      this.quick.level = f.bot;
      await this.quick.find({ game: f.game, ruleset: info.rulesets.includes(f.ruleset) ? f.ruleset : info.rulesets[0], rated });
    } catch (e) {
      toast(await refusalText(e));
    }
  }

  async create(withBots) {
    const f = this.form;
    try {
      await syncName();
      if (!this.games) this.games = await listGames();
      const info = this.gameInfo();
      const ruleset = info.rulesets.includes(f.ruleset) ? f.ruleset : info.rulesets[0];
      const me = currentMe();
      const rated = Boolean(f.rated && me && me.username);
      const body = { game: f.game, ruleset, public: f.public, timer: f.timer, trick_pause: f.trickPause, pace: f.pace, rated };
      if (info.option_fields.length) body.options = { ...info.options, ...f.options };
      const table = await api("POST", "/api/tables", body);
      if (withBots) {
        const bots = rated ? info.rated_bots : info.bots;
        const level = bots.includes(f.bot) ? f.bot : bots[0];
        await api("POST", `/api/tables/${table.id}/fill-bots`, { level });
        await api("POST", `/api/tables/${table.id}/start`);
      }
      go(`/table/${table.id}`);
    } catch (e) {
      toast(await refusalText(e));
    }
  }
}

// --- replays ----------------------------------------------------------------------------------------

class ReplaysPage {
  constructor() {
    this.games = null;
    this.mine = new URLSearchParams(location.search).get("mine") === "1";
    this.load();
  }

  load() {
    this.games = null;
    api("GET", this.mine ? "/api/replays?mine=1" : "/api/replays")
      .then((r) => { this.games = r.games; this.render(); })
      .catch(async (e) => { this.games = []; this.render(); toast(await refusalText(e)); });
  }

  leave() {
    this.left = true;
  }

  // All public games, or only the player's own (their private ones too).
  filter(mine) {
    this.mine = mine;
    history.replaceState({}, "", mine ? "/replays?mine=1" : "/replays");
    this.load();
    this.render();
  }

  render() {
    if (this.left) return; // an answer that came after the player moved on
    const list = this.games === null ? h("p", { class: "muted" }, t("loading"))
      : !this.games.length ? h("p", { class: "muted", "data-testid": "no-replays" }, t(this.mine ? "no_replays_mine" : "no_replays"))
      : h("ul", { class: "tables", "data-testid": "replays" }, this.games.map((g) => h("li", { class: "table-row" },
        h("div", { class: "what" }, h("a", { href: `/replay/${g.id}`, "data-link": true }, t("game_" + g.game)),
          g.summary ? h("span", { class: "muted" }, ` ${g.summary.totals.join(" : ")}${g.summary.match_score ? " (" + g.summary.match_score + ")" : ""}`) : null),
        h("div", { class: "who muted" }, seatList(g.seats)),
        g.finished_at ? h("small", { class: "muted" }, new Date(g.finished_at).toLocaleString(lang())) : null)));
    const tab = (mine, key, testid) => h("button", { class: mine === this.mine ? "primary" : "", "aria-pressed": mine === this.mine ? "true" : "false",
      "data-testid": testid, onclick: () => this.filter(mine) }, t(key));
    const tabs = currentMe() ? h("div", { class: "row" }, tab(false, "replays_all", "replays-all"), tab(true, "replays_mine", "replays-mine")) : null;
    main.replaceChildren(h("section", { class: "panel" }, h("h1", {}, t("finished_games")), tabs, list));
  }
}

class ReplayPage {
  constructor(id) {
    this.id = id;
    this.data = null;
    this.deal = 0;
    this.step = 0;
    this.keys = (e) => {
      if (e.target instanceof HTMLSelectElement) return;
      if (e.key === "ArrowRight") this.move(1);
      if (e.key === "ArrowLeft") this.move(-1);
    };
    document.addEventListener("keydown", this.keys);
    // a finished game only (the replay answers 404 otherwise): then its analysis may be asked for;
    // its code (analysis.js) is loaded by the replays only, not by the lobby or a table
    this.analysis = null;
    const code = import("/static/analysis.js");
    code.catch(() => null); // a game not over never awaits it: no unhandled rejection then
    api("GET", `/api/tables/${id}/replay`).then(async (d) => {
      this.info = await gameInfo(d.game);
      this.game = await presenter(this.info);
      // ?deal=k opens at the deal numbered k (the day's results link a deal: issue 45)
      const q = new URLSearchParams(location.search);
      this.deal = Math.max(0, d.deals.findIndex((x) => String(x.number) === q.get("deal")));
      this.data = d;
      this.render();
      if (d.secret) return; // a duplicate round's deals still being played elsewhere: no record, no analysis yet
      const { Analysis } = await code;
      this.analysis = new Analysis(id, () => this.render(), this.game);
      if (q.get("analysis") === "1" && !this.analysis.on) this.analysis.toggle(); // ?analysis=1: shown at once
      this.render();
    }).catch((e) => { if (!this.data) this.error = e; this.render(); });
  }

  leave() {
    document.removeEventListener("keydown", this.keys);
    if (this.analysis) this.analysis.leave();
    this.left = true;
  }

  show(step) {
    this.step = step;
    this.render();
  }

  move(delta) {
    if (!this.data) return;
    const frames = this.data.deals[this.deal].frames;
    let s = this.step + delta;
    if (s >= frames.length && this.deal + 1 < this.data.deals.length) { this.deal++; s = 0; }
    else if (s < 0 && this.deal > 0) { this.deal--; s = this.data.deals[this.deal].frames.length - 1; }
    this.step = Math.max(0, Math.min(s, this.data.deals[this.deal].frames.length - 1));
    this.render();
  }

  render() {
    if (this.left) return; // an answer that came after the player moved on
    if (showPending(this.data, this.error && { key: "no_replay" })) return;
    const d = this.data;
    const deal = d.deals[this.deal];
    const f = deal.frames[this.step];
    const n = f.hands.length;
    const bots = d.bots || [];
    const name = (s) => (bots[s] ? botName(s, bots[s]) : d.players[s] || t("seat_n", { n: s + 1 }));
    const dealSelect = h("select", { "data-testid": "replay-deal", "aria-label": t("deal"), onchange: (e) => { this.deal = parseInt(e.target.value, 10); this.step = 0; this.render(); } },
      d.deals.map((x, i) => h("option", { value: i }, t("deal_n", { n: x.number }))));
    dealSelect.value = String(this.deal);
    const action = f.action ? `${name(f.action.seat)}: ${isCard(f.action.text) ? cardLabel(f.action.text) : this.game.callLabel(f.action.text)}` : t("log_deal", { n: deal.number, who: name(deal.dealer) });
    const about = this.game.replayInfo(f, name); // the contract or trump, tricks, targets: the game's own
    const where = placesFrom(this.info, 0);
    const hands = f.hands.map((cards, s) => h("div", { class: `replay-hand pos-${where[s]}` + (f.to_act === s ? " to-act" : ""), "data-testid": `replay-hand-${s}` },
      h("div", { class: "seat-name" }, name(s), deal.dealer === s ? h("span", { class: "chip dealer" }, t("dealer_short")) : null,
        about.seatNote(s) ? h("span", { class: "muted" }, ` ${about.seatNote(s)}`) : null),
      h("div", { class: "mini-hand" }, SUIT_ORDER.map((su) => cards.filter((c) => splitCard(c).suit === su)).filter((g) => g.length).map((g) => h("span", { class: "suit-group" }, g.map((c) => cardEl(c, { class: "mini", "data-hand-card": c })))))));
    const info = about.facts;
    const trick = h("div", { class: "replay-trick", role: "group", "aria-label": t("trick") }, f.trick.map((x) => h("span", { class: `slot pos-${where[x.seat]}`, "data-trick-slot": x.card }, cardEl(x.card), h("small", {}, name(x.seat)))));
    const an = this.analysis ? this.analysis.view(d, this.deal, this.step, name, (step) => this.show(step))
      : { toggle: null, status: null, note: null, panel: null, decorate: () => {} };
    const grid = h("div", { class: `replay-grid seats-${n}` }, hands, trick);
    an.decorate(grid);
    const focused = document.activeElement && main.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    main.replaceChildren(h("section", { class: "panel replay" },
      h("h1", {}, `${t("replay")}: ${t("game_" + d.game)}`),
      h("div", { class: "row" }, dealSelect,
        h("button", { "data-testid": "replay-prev", "aria-label": t("previous"), onclick: () => this.move(-1) }, "◀"),
        h("span", { "data-testid": "replay-step" }, `${this.step + 1} / ${deal.frames.length}`),
        h("button", { "data-testid": "replay-next", "aria-label": t("next"), onclick: () => this.move(1) }, "▶"),
        d.secret ? null : h("a", { href: `/api/tables/${this.id}/record?download=1`, download: `blot-${this.id}.json`, "data-testid": "download-record" }, t("download_record")),
        an.toggle),
      d.secret ? h("p", { class: "muted", "data-testid": "replay-secret" }, t("deals_secret_until")) : null,
      an.status,
      h("p", { "data-testid": "replay-action", "aria-live": "polite" }, action),
      an.note,
      h("p", { class: "muted" }, info.join(" · ")),
      grid,
      f.result ? h("p", { class: "result", "data-testid": "replay-result" }, this.game.resultLine(f.result, name)) : null,
      h("p", { class: "muted" }, `${t("total")}: ${f.totals.join(" : ")}`)), an.panel || "");
    // a click draws the page again: the control clicked keeps the keyboard's focus
    const again = focused && main.querySelector(`[data-testid="${focused}"]`);
    if (again) again.focus();
  }
}

// The service worker keeps the words of the page's language only (sw.js): it is told which.
function keepWords() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.ready.then((r) => r.active && r.active.postMessage({ lang: lang() })).catch(() => {});
}

// --- start ------------------------------------------------------------------------------------------

await setLang(store.getItem("blot.lang") || null); // only this language's words are downloaded
langSelect.value = lang();
translateStatic();
applyPrefs();
started = true;
route();
// The installable app: a service worker keeps the page's files (a repeat visit opens at once) and
// answers with a friendly page when the network is gone (sw.js). Registered once the page is up.
if ("serviceWorker" in navigator) {
  const register = () => navigator.serviceWorker.register("/sw.js").then(keepWords).catch(() => { /* the page works without it */ });
  if (document.readyState === "complete") setTimeout(register, 1000);
  else window.addEventListener("load", () => setTimeout(register, 1000));
}
export { LANGS };
