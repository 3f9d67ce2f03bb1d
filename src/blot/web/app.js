// blot in the browser: lobby, table, replays. The server is authoritative: this page only shows the
// views it receives and sends what the player clicks (docs/protocol.md). No rule is decided here.
import { t, setLang, lang, LANGS } from "/static/i18n.js";
import { scoresheetPages } from "/static/scoresheet.js";
import { accountPages, barLines } from "/static/accounts.js";
import { ratingPages, endPanel } from "/static/ratings.js";

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_ORDER = ["S", "H", "D", "C"];
const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
const main = document.getElementById("main");

// --- small helpers ---------------------------------------------------------------------------------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function splitCard(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

function cardLabel(card) {
  const { rank, suit } = splitCard(card);
  return rank + SUIT[suit];
}

function cardEl(card, attrs = {}) {
  const { rank, suit } = splitCard(card);
  const red = suit === "H" || suit === "D";
  return h("span", { class: "card" + (red ? " red" : ""), ...attrs }, h("b", {}, rank), SUIT[suit]);
}

function strainLabel(strain) {
  return strain === "NT" ? t("nt") : SUIT[strain];
}

function callLabel(call) {
  if (call === "pass") return t("pass");
  if (call === "contra") return t("contra");
  if (call === "redouble") return t("redouble");
  if (call === "sevens") return t("sevens");
  if (call === "NT") return t("nt");
  if (SUIT[call]) return SUIT[call];
  const m = /^(\d+)(S|H|D|C|NT)$/.exec(call);
  return m ? m[1] + (m[2] === "NT" ? " " : "") + strainLabel(m[2]) : call;
}

function rankName(rank) {
  return t("rank_" + rank);
}

function declarationLabel(d) {
  // {kind, rank, suit?} as announced (B-43): kind and top rank; the suit once shown.
  const base = d.kind === "four" ? t("decl_four", { rank: rankName(d.rank) }) : t("decl_" + d.kind, { rank: rankName(d.rank) });
  return d.suit ? `${base} ${SUIT[d.suit]}` : base;
}

let toastTimer = null;
function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), 5000);
}

function errorText(code, message) {
  const head = t("error_" + code) || t("error_generic");
  return message ? `${head} ${message}` : head;
}

// --- the player: a name and a token kept by the browser -----------------------------------------------

const store = window.localStorage;
let me = null;

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const token = store.getItem("blot.token");
  if (token) headers.Authorization = "Bearer " + token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.message) || res.statusText);
    err.code = (data && data.error) || "generic";
    err.status = res.status;
    err.field = (data && data.field) || null;
    throw err;
  }
  return data;
}

// A player record is made on the first page that can act (the lobby, a table, the score sheets);
// read-only pages (replays, a shared score sheet) use one only when this browser already has it.
async function ensurePlayer(create = true) {
  if (me) return me;
  const token = store.getItem("blot.token");
  if (token) {
    try {
      me = await api("GET", "/api/me");
    } catch (e) {
      if (e.status !== 403) throw e;
      store.removeItem("blot.token");
    }
  }
  if (!me && !create) return null;
  if (!me) {
    const name = store.getItem("blot.name") || `${t("player")} ${Math.floor(100 + Math.random() * 900)}`;
    const made = await api("POST", "/api/players", { name });
    store.setItem("blot.token", made.token);
    me = { id: made.id, name: made.name };
  }
  store.setItem("blot.name", me.name);
  document.getElementById("name").value = me.name;
  renderMe();
  return me;
}

// The header: a guest edits their name; an account shows its username, linked to its page.
function renderMe() {
  const link = document.getElementById("account-link");
  const account = me && me.username;
  document.querySelector("header.top .me").hidden = Boolean(account);
  link.textContent = account ? me.username : t("log_in");
  link.setAttribute("href", account ? "/account" : "/login");
}

// What the account pages need of the player kept here.
const session = {
  me: () => me,
  async signedIn(made) {
    store.setItem("blot.token", made.token);
    me = null;
    await ensurePlayer(false);
  },
  async signedOut() {
    store.removeItem("blot.token");
    store.removeItem("blot.name");
    me = null;
    await ensurePlayer(true);
  },
};

document.getElementById("name").addEventListener("change", async (ev) => {
  try {
    await ensurePlayer();
    me = await api("PUT", "/api/me", { name: ev.target.value });
    store.setItem("blot.name", me.name);
  } catch (e) {
    toast(errorText(e.code, e.message));
  }
});

// --- language ---------------------------------------------------------------------------------------

const langSelect = document.getElementById("lang");
langSelect.value = lang();
langSelect.addEventListener("change", () => {
  setLang(langSelect.value);
  store.setItem("blot.lang", langSelect.value);
  translateStatic();
  rerender();
});

function translateStatic() {
  document.documentElement.lang = lang();
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  document.title = t("title");
  renderMe();
}

// --- routing ----------------------------------------------------------------------------------------

const { SheetsPage, SheetPage } = scoresheetPages({ h, api, toast, errorText, go, store, main });
const { LoginPage, AccountPage } = accountPages({ h, api, toast, errorText, go, main, session });
const { LeaderboardPage, ProfilePage } = ratingPages({ h, api, toast, errorText, session, main });

let page = null; // the current page object: {render(), leave()}

function go(path) {
  history.pushState({}, "", path);
  route();
}

document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-link]");
  if (a && a.origin === location.origin && !ev.metaKey && !ev.ctrlKey) {
    ev.preventDefault();
    go(a.pathname + a.search);
  }
});
window.addEventListener("popstate", route);

function rerender() {
  if (page) page.render();
}

async function route() {
  if (page && page.leave) page.leave();
  page = null;
  main.replaceChildren();
  const path = location.pathname;
  const readOnly = /^\/(replays$|replay\/|scoresheet\/shared\/|leaderboard$|players\/|login$|account$)/.test(path);
  let m;
  try {
    await ensurePlayer(!readOnly);
  } catch (e) {
    toast(errorText(e.code, e.message));
  }
  if ((m = /^\/table\/([\w-]+)$/.exec(path))) page = new TablePage(m[1]);
  else if (path === "/replays") page = new ReplaysPage();
  else if ((m = /^\/replay\/([\w-]+)$/.exec(path))) page = new ReplayPage(m[1]);
  else if (path === "/scoresheet") page = new SheetsPage();
  else if ((m = /^\/scoresheet\/shared\/([\w-]+)$/.exec(path))) page = new SheetPage(null, m[1]);
  else if ((m = /^\/scoresheet\/([\w-]+)$/.exec(path))) page = new SheetPage(m[1], null);
  else if (path === "/login") page = new LoginPage();
  else if (path === "/account") page = new AccountPage();
  else if (path === "/leaderboard") page = new LeaderboardPage(new URLSearchParams(location.search).get("game"));
  else if ((m = /^\/players\/([^/]+)$/.exec(path))) page = new ProfilePage(decodeURIComponent(m[1]));
  else page = new LobbyPage();
  window.blotPage = page; // for tests and the console
  page.render();
}

// --- lobby ------------------------------------------------------------------------------------------

class LobbyPage {
  constructor() {
    this.games = null;
    this.tables = [];
    this.form = { game: "bazar-blot", ruleset: "league", public: true, timer: 0, bot: "basic", options: {}, rated: false };
    this.load();
    this.poll = setInterval(() => this.loadTables(), 5000);
  }

  leave() {
    clearInterval(this.poll);
    this.left = true;
  }

  async load() {
    try {
      if (me && me.username) me = await api("GET", "/api/me");
      this.games = (await api("GET", "/api/games")).games;
      await this.loadTables();
    } catch (e) {
      toast(errorText(e.code, e.message));
    }
    this.render();
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

  render() {
    if (this.left) return; // an answer that came after the player moved on
    const f = this.form;
    const info = this.gameInfo();
    const gameSelect = h("select", { "data-testid": "game", name: "game", onchange: (e) => {
      f.game = e.target.value;
      const gi = this.gameInfo();
      f.ruleset = gi ? gi.rulesets[0] : "league";
      f.options = {};
      this.render();
    } },
      h("option", { value: "bazar-blot" }, t("game_bazar-blot")),
      h("option", { value: "3-5-8" }, t("game_3-5-8")));
    gameSelect.value = f.game;
    const fields = [h("label", {}, h("span", {}, t("game")), gameSelect)];
    if (info && info.rulesets.length > 1) {
      const rs = h("select", { "data-testid": "ruleset", onchange: (e) => (f.ruleset = e.target.value) },
        info.rulesets.map((r) => h("option", { value: r }, t("ruleset_" + r))));
      rs.value = f.ruleset;
      fields.push(h("label", {}, h("span", {}, t("ruleset")), rs));
    }
    if (info && f.game === "bazar-blot") {
      const o = { ...info.options, ...f.options };
      const target = h("input", { type: "number", min: 1, max: 10000, value: o.target, "data-testid": "target",
        onchange: (e) => (f.options.target = parseInt(e.target.value, 10) || 301) });
      fields.push(h("label", {}, h("span", {}, t("target")), target));
      const box = (key) => h("label", { class: "check" },
        h("input", { type: "checkbox", checked: o[key], onchange: (e) => (f.options[key] = e.target.checked) }),
        h("span", {}, t("opt_" + key)));
      fields.push(box("kanach"), box("three_passes_end_bidding"));
      const nines = h("select", { onchange: (e) => (f.options.nt_four_nines = parseInt(e.target.value, 10)) },
        h("option", { value: 10 }, "10"), h("option", { value: 0 }, "0"));
      nines.value = String(o.nt_four_nines);
      fields.push(h("label", {}, h("span", {}, t("opt_nt_four_nines")), nines));
    }
    const vis = h("select", { "data-testid": "visibility", onchange: (e) => (f.public = e.target.value === "public") },
      h("option", { value: "public" }, t("public")), h("option", { value: "private" }, t("private")));
    vis.value = f.public ? "public" : "private";
    const timer = h("select", { "data-testid": "timer", onchange: (e) => (f.timer = parseInt(e.target.value, 10)) },
      [0, 15, 30, 60, 120].map((s) => h("option", { value: s }, s ? t("seconds", { n: s }) : t("no_timer"))));
    timer.value = String(f.timer);
    fields.push(h("label", {}, h("span", {}, t("visibility")), vis), h("label", {}, h("span", {}, t("turn_timer")), timer));
    if (me && me.username) {
      fields.push(h("label", { class: "check" }, h("input", { type: "checkbox", checked: f.rated, "data-testid": "rated",
        onchange: (e) => (f.rated = e.target.checked) }), h("span", {}, t("rated_table"))));
    } else {
      fields.push(h("p", { class: "muted small" }, h("a", { href: "/login", "data-link": true }, t("rated_login"))));
    }
    const create = h("button", { class: "primary", "data-testid": "new-table", disabled: !this.games, onclick: () => this.create() }, t("new_table"));
    this.tablesEl = h("ul", { class: "tables", "data-testid": "open-tables" });
    const bars = barLines(me && me.bars, lang());
    main.replaceChildren(
      ...(bars.length ? [h("section", { class: "panel league", "data-testid": "league-bars" }, bars.map((b) => h("p", {}, b)))] : []),
      h("section", { class: "panel lobby-new" }, h("h2", {}, t("new_table")), h("div", { class: "form" }, fields), create),
      h("section", { class: "panel" }, h("h2", {}, t("open_tables")), this.tablesEl),
      h("section", { class: "panel help" }, h("p", {}, t("lobby_help"))),
      h("section", { class: "panel help" }, h("p", {}, t("lobby_scoresheet"), " ",
        h("a", { href: "/scoresheet", "data-link": true, "data-testid": "lobby-scoresheet" }, t("open_scoresheet")))),
    );
    this.renderTables();
  }

  renderTables() {
    if (!this.tablesEl) return;
    if (!this.tables.length) {
      this.tablesEl.replaceChildren(h("li", { class: "muted" }, t("no_tables")));
      return;
    }
    this.tablesEl.replaceChildren(...this.tables.map((tb) => {
      const names = tb.seats.map((s) => s.name || "—").join(", ");
      const free = tb.seats.filter((s) => !s.name).length;
      return h("li", {},
        h("a", { href: `/table/${tb.id}`, "data-link": true }, `${t("game_" + tb.game)} · ${t("status_" + tb.status)}`),
        h("span", { class: "muted" }, ` ${names}`),
        free ? h("span", { class: "badge" }, t("free_seats", { n: free })) : null,
        tb.settings.rated ? h("span", { class: "badge rated" }, t("rated")) : null);
    }));
  }

  async create() {
    const f = this.form;
    try {
      await ensurePlayer();
      if (!this.games) this.games = (await api("GET", "/api/games")).games;
      const info = this.gameInfo();
      const ruleset = info.rulesets.includes(f.ruleset) ? f.ruleset : info.rulesets[0];
      const body = { game: f.game, ruleset, public: f.public, timer: f.timer, rated: Boolean(f.rated && me && me.username) };
      if (f.game === "bazar-blot") body.options = { ...info.options, ...f.options };
      const table = await api("POST", "/api/tables", body);
      go(`/table/${table.id}`);
    } catch (e) {
      toast(errorText(e.code, e.message));
    }
  }
}

// --- the table --------------------------------------------------------------------------------------

class TablePage {
  constructor(id) {
    this.id = id;
    this.n = null; // the number of the last event received
    this.table = null;
    this.view = null;
    this.you = { player: null, seat: null };
    this.log = [];
    this.showLast = false;
    this.dismissed = 0; // the deal number whose result panel was closed
    this.pending = false;
    this.botLevel = "basic";
    this.bots = [];
    this.closed = false;
    this.retry = 0;
    this.tick = setInterval(() => this.renderTimer(), 500);
    api("GET", "/api/games").then((g) => {
      const info = g.games.find((x) => this.table && x.game === this.table.game) || g.games[0];
      this.allBots = Object.fromEntries(g.games.map((x) => [x.game, x.bots]));
      this.render();
    }).catch(() => {});
    this.connect();
  }

  leave() {
    this.closed = true;
    clearInterval(this.tick);
    if (this.ws) this.ws.close();
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${this.id}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", token: store.getItem("blot.token"), since: this.n }));
      this.banner(null);
    };
    ws.onmessage = (ev) => this.receive(JSON.parse(ev.data));
    ws.onclose = (ev) => {
      if (this.closed) return;
      if (ev.code === 4404) {
        this.notFound = true;
        this.render();
        return;
      }
      this.banner(t("reconnecting"));
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => !this.closed && this.connect(), wait);
    };
  }

  banner(text) {
    const el = document.getElementById("banner");
    el.hidden = !text;
    el.textContent = text || "";
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || this.pending) return;
    this.pending = true;
    this.ws.send(JSON.stringify({ type: "action", ...message }));
    this.render();
  }

  receive(m) {
    if (m.type === "error") {
      this.pending = false;
      if (m.code === "not_found") this.notFound = true;
      toast(errorText(m.code, m.message));
      this.render();
      return;
    }
    if (m.type === "pong") return;
    if (m.table) this.table = m.table;
    if (m.type === "presence") {
      this.render();
      return;
    }
    if (m.type === "snapshot") {
      if (m.reset) this.log = [];
      for (const e of m.events) this.addLog(e);
      this.you = m.you;
      this.view = m.view;
      this.n = m.n;
    } else if (m.type === "event") {
      if (this.n !== null && m.n <= this.n) return; // seen already
      this.addLog({ ...m.event, n: m.n });
      this.view = m.view;
      this.n = m.n;
      if (m.event.kind === "sit" || m.event.kind === "leave") this.you.seat = this.mySeat();
      if (m.event.kind === "card" && m.view && m.view.trick.length) this.showLast = false;
    }
    this.pending = false;
    this.render();
  }

  mySeat() {
    if (!this.table || this.you.player === null) return null;
    const s = this.table.seats.find((x) => x.player === this.you.player);
    return s ? s.seat : null;
  }

  name(seat) {
    const s = this.table && this.table.seats[seat];
    if (!s) return t("seat_n", { n: seat + 1 });
    if (s.bot) return `${t("bot")} ${seat + 1} (${t("bot_" + s.bot.split(":")[0]) || s.bot})`;
    return s.name || t("seat_n", { n: seat + 1 });
  }

  addLog(e) {
    const who = e.seat !== undefined ? this.name(e.seat) : "";
    let text = null;
    switch (e.kind) {
      case "sit": text = t("log_sit", { who: e.name, seat: e.seat + 1 }); break;
      case "leave": text = t("log_leave", { seat: e.seat + 1 }); break;
      case "bot":
        text = e.level ? t("log_bot", { seat: e.seat + 1, level: t("bot_" + e.level.split(":")[0]) || e.level }) : t("log_leave", { seat: e.seat + 1 });
        if (e.reason) text += ` — ${e.reason}`; // a built-in bot took the seat of a failed bot program
        break;
      case "start": text = t("log_start"); break;
      case "deal": text = t("log_deal", { n: e.deal_number, who: this.name(e.dealer) }); break;
      case "call": text = `${who}: ${callLabel(e.action)}`; break;
      case "declare":
        text = e.declare.length ? `${who}: ${e.declare.map(declarationLabel).join(", ")}` : null;
        break;
      case "card":
        text = `${who}: ${cardLabel(e.action)}` + (e.belote ? ` — ${t(e.belote)}` : "");
        if (e.trick_winner !== undefined) text += ` · ${t("log_trick", { who: this.name(e.trick_winner) })}`;
        break;
      case "give":
        text = t("log_give", { who, to: this.name(e.to) }) + (e.action ? ` (${cardLabel(e.action)} → ${cardLabel(e.returned)})` : "");
        break;
      case "discard": text = t("log_discard", { who }) + (e.action ? ` (${cardLabel(e.action)})` : ""); break;
      case "end": text = e.ended ? t("log_ended") : t(e.agree ? "log_end_agree" : "log_end_decline", { who }); break;
      default: text = null;
    }
    if (e.by === "timer") text += ` (${t("by_timer")})`;
    if (text) this.log.push(text);
    if (this.log.length > 60) this.log.splice(0, this.log.length - 60);
  }

  // --- rendering ----------------------------------------------------------------------------------

  render() {
    if (this.notFound) {
      main.replaceChildren(h("section", { class: "panel" }, h("p", {}, t("no_such_table")), h("a", { href: "/", "data-link": true }, t("nav_lobby"))));
      return;
    }
    if (!this.table) {
      main.replaceChildren(h("p", { class: "muted" }, t("connecting")));
      return;
    }
    const tb = this.table;
    const parts = [];
    parts.push(this.header());
    if (tb.status === "waiting") parts.push(this.setup());
    else if (this.view) parts.push(this.board());
    parts.push(this.side());
    main.replaceChildren(h("div", { class: `table-page game-${tb.game}` }, parts));
    main.dataset.n = String(this.n ?? 0); // the last event shown (tests wait on it)
  }

  header() {
    const tb = this.table;
    const v = this.view;
    const bits = [h("strong", {}, t("game_" + tb.game))];
    if (tb.settings.rated) bits.push(h("span", { class: "badge rated", "data-testid": "rated-badge" }, t("rated")));
    if (tb.game === "bazar-blot") bits.push(h("span", { class: "muted" }, `${t("ruleset_" + tb.settings.ruleset)} · ${t("to_points", { n: tb.settings.options.target })}`));
    if (v && tb.status !== "waiting") {
      bits.push(h("span", {}, t("deal_n", { n: v.deal_number })));
      bits.push(h("span", {}, `${t("dealer")}: ${this.name(v.dealer)}`));
      if (tb.game === "bazar-blot" && v.contract) {
        const c = v.contract;
        const mult = c.multiplier === 2 ? ` ${t("contra")}` : c.multiplier === 4 ? ` ${t("redouble")}` : "";
        bits.push(h("span", { class: "contract", "data-testid": "contract" }, `${t("contract")}: ${c.level}${strainLabel(c.strain)}${mult} — ${this.name(c.seat)}`));
      }
      if (tb.game === "3-5-8" && v.trump) bits.push(h("span", { class: "contract", "data-testid": "contract" }, `${t("trump")}: ${callLabel(v.trump)} — ${this.name(v.caller)}`));
    }
    bits.push(h("span", { class: "timer", "data-testid": "timer-left" }));
    return h("div", { class: "table-head" }, bits);
  }

  renderTimer() {
    const el = main.querySelector("[data-testid=timer-left]");
    if (!el || !this.table) return;
    const d = this.table.deadline;
    el.textContent = d ? `⏱ ${Math.max(0, Math.ceil((d - Date.now()) / 1000))}` : "";
  }

  setup() {
    const tb = this.table;
    const mine = this.mySeat();
    const bots = (this.allBots && this.allBots[tb.game]) || ["basic", "random"];
    if (!bots.includes(this.botLevel)) this.botLevel = bots[0];
    const level = h("select", { "data-testid": "bot-level", onchange: (e) => (this.botLevel = e.target.value) },
      bots.map((b) => h("option", { value: b }, t("bot_" + b) || b)));
    level.value = this.botLevel;
    const seats = tb.seats.map((s) => {
      const label = s.bot ? `${t("bot")} (${t("bot_" + s.bot.split(":")[0]) || s.bot})` : s.name || t("empty_seat");
      const actions = [];
      if (!s.name && !s.bot) {
        actions.push(h("button", { "data-testid": `sit-${s.seat}`, onclick: () => this.post("sit", { seat: s.seat }) }, t("sit_here")));
        actions.push(h("button", { "data-testid": `add-bot-${s.seat}`, onclick: () => this.post("bot", { seat: s.seat, level: this.botLevel }) }, t("add_bot")));
      } else if (s.bot) {
        actions.push(h("button", { onclick: () => this.post("bot", { seat: s.seat, level: null }) }, t("remove_bot")));
      } else if (s.seat === mine) {
        actions.push(h("button", { "data-testid": "leave-seat", onclick: () => this.post("leave", {}) }, t("leave_seat")));
      }
      return h("li", { class: s.seat === mine ? "mine" : "" }, h("span", { class: "seat-no" }, `${t("seat")} ${s.seat + 1}`),
        h("span", { class: "seat-name" }, label, tb.game === "bazar-blot" ? h("small", { class: "muted" }, ` · ${t("team")} ${(s.seat % 2) + 1}`) : null),
        actions);
    });
    const link = `${location.origin}/table/${tb.id}`;
    const full = tb.seats.every((s) => s.name || s.bot);
    return h("section", { class: "panel setup" },
      h("h2", {}, t("seats")),
      h("ul", { class: "seats" }, seats),
      h("div", { class: "row" }, h("label", {}, h("span", {}, t("bot_level")), level),
        h("button", { "data-testid": "fill-bots", onclick: () => this.post("fill-bots", { level: this.botLevel }) }, t("fill_bots")),
        h("button", { class: "primary", "data-testid": "start", disabled: !full, onclick: () => this.post("start", {}) }, t("start"))),
      h("p", {}, t(tb.public ? "invite_public" : "invite_private")),
      h("div", { class: "row" }, h("input", { readonly: true, value: link, "data-testid": "invite-link", onclick: (e) => e.target.select() }),
        h("button", { onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast(t("copied"))) }, t("copy"))));
  }

  async post(what, body) {
    try {
      this.table = await api("POST", `/api/tables/${this.id}/${what}`, body);
      this.render();
    } catch (e) {
      toast(errorText(e.code, e.message));
    }
  }

  positions() {
    const n = this.table.seats.length;
    const base = this.you.seat === null ? 0 : this.you.seat;
    const names = n === 4 ? ["bottom", "left", "top", "right"] : ["bottom", "left", "right"];
    const out = {};
    for (let s = 0; s < n; s++) out[s] = names[(s - base + n) % n];
    return out;
  }

  board() {
    const v = this.view;
    const tb = this.table;
    const pos = this.positions();
    const n = tb.seats.length;
    const seatBoxes = [];
    for (let s = 0; s < n; s++) {
      if (s === this.you.seat) continue;
      seatBoxes.push(this.seatBox(s, pos[s]));
    }
    const center = this.center(pos);
    const own = this.you.seat !== null ? this.seatBox(this.you.seat, "bottom", true) : null;
    return h("section", { class: "board" },
      h("div", { class: "ring" }, seatBoxes, center),
      own,
      this.prompt(),
      this.you.seat !== null ? this.hand() : h("p", { class: "muted center-text" }, t("spectating")));
  }

  seatBox(s, where, own = false) {
    const v = this.view;
    const seat = this.table.seats[s];
    const badges = [];
    if (v.dealer === s) badges.push(h("span", { class: "badge" }, t("dealer_short")));
    if (seat.away && !seat.substitute) badges.push(h("span", { class: "badge warn" }, t("away")));
    if (seat.substitute) badges.push(h("span", { class: "badge warn" }, t("bot_plays")));
    const info = [];
    if (v.game === "bazar-blot") {
      info.push(`${t("tricks")}: ${v.tricks_won[s]}`);
      const said = v.announced.filter((a) => a.seat === s);
      if (said.length && !v.tricks.length) info.push(said.map(declarationLabel).join(", "));
      const shown = v.shown.filter((a) => a.seat === s);
      if (shown.length) info.push(shown.map(declarationLabel).join(", "));
      const bel = v.belotes.filter((b) => b.seat === s);
      if (bel.length) info.push(t(bel.length === 1 ? "belote" : "rebelote"));
      const call = [...v.calls].reverse().find((c) => c.seat === s);
      if (v.phase === "bidding" && call) info.push(callLabel(call.call));
    } else {
      info.push(`${t("tricks")}: ${v.tricks_taken[s]} / ${v.targets[s]}`);
      const call = v.calls.find((c) => c.seat === s);
      if (v.phase === "call" && call) info.push(callLabel(call.call));
    }
    return h("div", { class: `seat-box pos-${where}` + (v.to_act === s ? " to-act" : "") + (own ? " own" : ""), "data-seat": s, "data-testid": `seat-${s}` },
      h("div", { class: "seat-name" }, this.name(s), badges),
      h("div", { class: "seat-info" }, own ? null : h("span", { class: "backs", title: t("cards_in_hand") }, h("span", { class: "back" }), `× ${v.hand_sizes[s]}`)),
      h("div", { class: "seat-info muted" }, info.join(" · ")));
  }

  center(pos) {
    const v = this.view;
    let trick = v.trick;
    let title = null;
    let winner = null;
    const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
    const n = this.table.seats.length;
    if (this.showLast && last) {
      trick = last.cards.map((c, i) => ({ seat: (last.leader + i) % n, card: c }));
      title = t("last_trick");
      winner = last.winner;
    } else if (!trick.length && last && v.phase !== "over") {
      trick = last.cards.map((c, i) => ({ seat: (last.leader + i) % n, card: c }));
      winner = last.winner;
    }
    const slots = trick.map((x) => h("div", { class: `slot pos-${pos[x.seat]}` + (x.seat === winner ? " won" : "") },
      cardEl(x.card, { "data-trick-card": x.card }), h("small", {}, this.name(x.seat))));
    const extra = [];
    if (v.game === "3-5-8" && v.talon && (v.phase === "discard" || (v.phase === "play" && !v.tricks.length && !v.trick.length))) {
      extra.push(h("div", { class: "talon", "data-testid": "talon" }, h("small", {}, t("talon")), v.talon.map((c) => cardEl(c))));
    }
    return h("div", { class: "center", "data-testid": "trick" },
      title ? h("div", { class: "muted" }, title) : null,
      h("div", { class: "slots" }, slots),
      extra,
      last ? h("button", { class: "small", "data-testid": "last-trick", onclick: () => { this.showLast = !this.showLast; this.render(); } }, this.showLast ? t("hide_last_trick") : t("show_last_trick")) : null);
  }

  prompt() {
    const v = this.view;
    const L = v.legal;
    if (v.game_over) return null;
    if (!L || this.you.seat === null || v.to_act !== this.you.seat) {
      if (v.to_act === null || v.to_act === undefined) return null;
      return h("div", { class: "prompt muted" }, t("waiting_for", { who: this.name(v.to_act) }));
    }
    const dis = this.pending;
    if (L.kind === "call") {
      const special = L.calls.filter((c) => !/^\d/.test(c));
      const bids = L.calls.filter((c) => /^\d/.test(c));
      const levels = [...new Set(bids.map((b) => parseInt(b, 10)))];
      return h("div", { class: "prompt bidding", "data-testid": "bidding" },
        h("div", {}, t(v.game === "3-5-8" ? "your_trump_call" : "your_call")),
        h("div", { class: "calls" }, special.map((c) => h("button", { "data-call": c, disabled: dis, onclick: () => this.send({ action: c }) }, callLabel(c)))),
        levels.length ? h("div", { class: "bids" }, levels.map((lvl) => h("div", { class: "bid-row" },
          bids.filter((b) => parseInt(b, 10) === lvl).map((b) => h("button", { "data-call": b, class: /H|D$/.test(b) ? "red" : "", disabled: dis, onclick: () => this.send({ action: b }) }, callLabel(b)))))) : null);
    }
    if (L.kind === "declare") {
      const best = L.best;
      const label = (texts) => texts.length ? texts.map((x) => x.split(" ").map(cardLabel).join(" ")).join(" + ") : t("nothing");
      const finer = L.options.map((opt, i) => [opt, i]).filter(([opt]) => opt.length && JSON.stringify(opt) !== JSON.stringify(best));
      return h("div", { class: "prompt declare", "data-testid": "declare" },
        h("div", {}, t("your_declarations")),
        h("div", { class: "calls" },
          h("button", { class: "primary", "data-declare": "best", disabled: dis, onclick: () => this.send({ declare: "best" }) }, `${t("declare_best")}: ${label(best)}`),
          h("button", { "data-declare": "none", disabled: dis, onclick: () => this.send({ declare: "none" }) }, t("declare_none")),
          finer.map(([opt, i]) => h("button", { "data-declare": String(i), disabled: dis, onclick: () => this.send({ declare: opt }) }, label(opt)))));
    }
    if (L.kind === "give") return h("div", { class: "prompt" }, t("give_card", { to: this.name(L.to) }));
    if (L.kind === "discard") return h("div", { class: "prompt" }, t("discard_cards", { n: L.left }));
    return h("div", { class: "prompt" }, t("your_card"));
  }

  hand() {
    const v = this.view;
    const L = v.legal;
    const legal = new Set(L && L.cards && v.to_act === this.you.seat ? L.cards : []);
    const groups = {};
    for (const c of v.hand) (groups[splitCard(c).suit] ||= []).push(c);
    const trump = v.game === "bazar-blot" ? v.trump : v.trump;
    const order = SUIT_ORDER.filter((s) => groups[s]);
    const rank = (c) => RANKS.indexOf(splitCard(c).rank);
    return h("div", { class: "hand", "data-testid": "hand" }, order.map((s) => h("div", { class: "suit-group" + (s === trump ? " trump" : "") },
      groups[s].sort((a, b) => rank(a) - rank(b)).map((c) => {
        const ok = legal.has(c);
        const el = cardEl(c, { "data-card": c, "data-legal": ok ? "true" : null, role: "button", tabindex: ok ? 0 : null });
        el.classList.add(ok ? "legal" : "idle");
        if (ok && !this.pending) {
          el.addEventListener("click", () => this.send({ action: c }));
          el.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && this.send({ action: c }));
        }
        return el;
      }))));
  }

  // --- the side: result, score sheet, game over, log ------------------------------------------------

  side() {
    const v = this.view;
    const parts = [];
    parts.push(endPanel(h, this));
    if (v) {
      if (v.game_over) parts.push(this.gameOver());
      const result = v.result || (v.history.length && ["bidding", "call"].includes(v.phase) && this.dismissed !== v.deal_number ? v.history[v.history.length - 1] : null);
      if (result) parts.push(this.resultPanel(result, !v.result));
      parts.push(this.sheet());
    }
    parts.push(h("section", { class: "panel log", "data-testid": "log" }, h("h3", {}, t("log")), h("ol", {}, this.log.slice(-12).map((x) => h("li", {}, x)))));
    return h("aside", { class: "side" }, parts);
  }

  teamName(team) {
    const seats = this.table.seats.map((_, i) => i).filter((i) => i % 2 === team);
    return seats.map((s) => this.name(s)).join(" & ");
  }

  resultPanel(r, previous) {
    const close = previous ? h("button", { class: "small", onclick: () => { this.dismissed = this.view.deal_number; this.render(); } }, "×") : null;
    if (this.table.game === "bazar-blot") {
      if (r.void) return h("section", { class: "panel result", "data-testid": "deal-result" }, close, h("h3", {}, t("deal_result")), h("p", {}, t("void_deal")));
      const c = r.contract;
      const mult = c.multiplier === 2 ? ` ${t("contra")}` : c.multiplier === 4 ? ` ${t("redouble")}` : "";
      const rows = [["tricks", r.tricks], ["card_points", r.card_points], ["declarations", r.declaration_points], ["belote_points", r.belote], ["points", r.points]];
      return h("section", { class: "panel result", "data-testid": "deal-result" }, close,
        h("h3", {}, t("deal_result")),
        h("p", {}, `${c.level}${strainLabel(c.strain)}${mult} — ${this.name(c.seat)}: `, h("strong", { "data-testid": "made" }, t(r.made ? "made" : "failed")), r.tars_kapoot ? ` (${t("tars_kapoot")})` : ""),
        h("table", {}, h("tr", {}, h("th", {}), h("th", {}, this.teamName(0)), h("th", {}, this.teamName(1))),
          rows.map(([k, pair]) => h("tr", {}, h("td", {}, t(k)), h("td", {}, pair[0]), h("td", {}, pair[1])))));
    }
    if (r.void) return h("section", { class: "panel result", "data-testid": "deal-result" }, close, h("h3", {}, t("deal_result")), h("p", {}, t("void_deal_358")));
    return h("section", { class: "panel result", "data-testid": "deal-result" }, close,
      h("h3", {}, t("deal_result")),
      h("p", {}, `${t("trump")}: ${callLabel(r.trump)} — ${this.name(r.caller)}`),
      h("table", {}, h("tr", {}, h("th", {}), h("th", {}, t("target")), h("th", {}, t("tricks")), h("th", {}, t("score"))),
        r.targets.map((tg, s) => h("tr", {}, h("td", {}, this.name(s)), h("td", {}, tg), h("td", {}, r.tricks[s]), h("td", {}, signed(r.scores[s]))))));
  }

  sheet() {
    const v = this.view;
    const deals = [...v.history, ...(v.result ? [v.result] : [])].filter((r) => !r.void);
    if (this.table.game === "bazar-blot") {
      let run = [0, 0];
      const rows = deals.map((r, i) => {
        run = [run[0] + r.points[0], run[1] + r.points[1]];
        const c = r.contract;
        return h("tr", {}, h("td", {}, i + 1), h("td", {}, `${c.level}${strainLabel(c.strain)}${c.multiplier > 1 ? "×" + c.multiplier : ""}${r.made ? "" : " ✗"}`), h("td", {}, r.points[0]), h("td", {}, r.points[1]));
      });
      const totals = v.game_over ? v.game_over.totals : v.totals;
      return h("section", { class: "panel sheet", "data-testid": "score-sheet" }, h("h3", {}, t("score_sheet")),
        h("table", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("contract")), h("th", {}, this.teamName(0)), h("th", {}, this.teamName(1))), rows,
          h("tr", { class: "total", "data-testid": "score-total" }, h("td", {}), h("td", {}, t("total")), h("td", {}, totals[0]), h("td", {}, totals[1]))));
    }
    const rows = deals.map((r, i) => h("tr", {}, h("td", {}, i + 1), h("td", {}, callLabel(r.trump)), r.scores.map((x) => h("td", {}, signed(x)))));
    const totals = v.game_over ? v.game_over.totals : v.totals;
    return h("section", { class: "panel sheet", "data-testid": "score-sheet" }, h("h3", {}, `${t("score_sheet")} (${v.counted}/9)`),
      h("table", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("trump")), [0, 1, 2].map((s) => h("th", {}, this.name(s)))), rows,
        h("tr", { class: "total", "data-testid": "score-total" }, h("td", {}), h("td", {}, t("total")), totals.map((x) => h("td", {}, signed(x))))));
  }

  gameOver() {
    const g = this.view.game_over;
    const winner = this.table.game === "bazar-blot" ? this.teamName(g.winner) : this.name(g.winner);
    return h("section", { class: "panel game-over", "data-testid": "game-over" },
      h("h2", {}, t("game_over")),
      h("p", {}, t("winner_is", { who: winner })),
      g.match_score ? h("p", {}, `${t("match_score")}: `, h("strong", { "data-testid": "match-score" }, g.match_score), g.tars_kapoot ? ` (${t("tars_kapoot")})` : "") : null,
      h("p", {}, `${t("total")}: ${g.totals.join(" : ")}`),
      h("div", { class: "row" },
        h("a", { href: `/replay/${this.id}`, "data-link": true }, t("watch_replay")),
        h("a", { href: `/api/tables/${this.id}/record?download=1`, download: `blot-${this.id}.json`, "data-testid": "download-record" }, t("download_record"))));
  }
}

function resultLine(game, r, name) {
  if (r.void) return t(game === "bazar-blot" ? "void_deal" : "void_deal_358");
  if (game === "bazar-blot") return `${t(r.made ? "made" : "failed")} · ${t("points")}: ${r.points.join(" : ")}`;
  return `${t("score")}: ${r.scores.map((x, s) => `${name(s)} ${signed(x)}`).join(" · ")}`;
}

function signed(x) {
  return x > 0 ? `+${x}` : String(x);
}

// --- replays ----------------------------------------------------------------------------------------

class ReplaysPage {
  constructor() {
    this.games = null;
    api("GET", "/api/replays").then((r) => { this.games = r.games; this.render(); }).catch((e) => toast(errorText(e.code, e.message)));
  }

  leave() {
    this.left = true;
  }

  render() {
    if (this.left) return; // an answer that came after the player moved on
    const list = this.games === null ? h("p", { class: "muted" }, t("loading"))
      : !this.games.length ? h("p", { class: "muted" }, t("no_replays"))
      : h("ul", { class: "tables", "data-testid": "replays" }, this.games.map((g) => h("li", {},
        h("a", { href: `/replay/${g.id}`, "data-link": true }, `${t("game_" + g.game)} · ${g.seats.map((s) => s.name || "—").join(", ")}`),
        g.summary ? h("span", { class: "muted" }, ` ${g.summary.totals.join(" : ")}${g.summary.match_score ? " (" + g.summary.match_score + ")" : ""}`) : null,
        g.finished_at ? h("small", { class: "muted" }, ` ${new Date(g.finished_at).toLocaleString(lang())}`) : null)));
    main.replaceChildren(h("section", { class: "panel" }, h("h2", {}, t("finished_games")), list));
  }
}

class ReplayPage {
  constructor(id) {
    this.id = id;
    this.data = null;
    this.deal = 0;
    this.step = 0;
    this.keys = (e) => {
      if (e.key === "ArrowRight") this.move(1);
      if (e.key === "ArrowLeft") this.move(-1);
    };
    document.addEventListener("keydown", this.keys);
    api("GET", `/api/tables/${id}/replay`).then((d) => { this.data = d; this.render(); }).catch((e) => { this.error = e; this.render(); });
  }

  leave() {
    document.removeEventListener("keydown", this.keys);
    this.left = true;
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
    if (this.error) {
      main.replaceChildren(h("section", { class: "panel" }, h("p", {}, t("no_replay"))));
      return;
    }
    if (!this.data) {
      main.replaceChildren(h("p", { class: "muted" }, t("loading")));
      return;
    }
    const d = this.data;
    const deal = d.deals[this.deal];
    const f = deal.frames[this.step];
    const name = (s) => d.players[s] || t("seat_n", { n: s + 1 });
    const dealSelect = h("select", { "data-testid": "replay-deal", onchange: (e) => { this.deal = parseInt(e.target.value, 10); this.step = 0; this.render(); } },
      d.deals.map((x, i) => h("option", { value: i }, t("deal_n", { n: x.number }))));
    dealSelect.value = String(this.deal);
    const action = f.action ? `${name(f.action.seat)}: ${/^[0-9JQKA]+[SHDC]$/.test(f.action.text) ? cardLabel(f.action.text) : callLabel(f.action.text)}` : t("log_deal", { n: deal.number, who: name(deal.dealer) });
    const hands = f.hands.map((cards, s) => h("div", { class: "replay-hand" + (f.to_act === s ? " to-act" : ""), "data-testid": `replay-hand-${s}` },
      h("div", { class: "seat-name" }, name(s), deal.dealer === s ? h("span", { class: "badge" }, t("dealer_short")) : null),
      h("div", {}, SUIT_ORDER.map((su) => cards.filter((c) => splitCard(c).suit === su)).filter((g) => g.length).map((g) => h("span", { class: "suit-group" }, g.map((c) => cardEl(c)))))));
    const info = [];
    if (f.contract) info.push(`${t("contract")}: ${f.contract} — ${name(f.declarer)}`);
    if (f.trump) info.push(`${t("trump")}: ${callLabel(f.trump)}`);
    if (f.targets) info.push(`${t("tricks")}: ${f.tricks.map((x, s) => `${x}/${f.targets[s]}`).join(" · ")}`);
    else if (f.tricks) info.push(`${t("tricks")}: ${f.tricks.join(" : ")}`);
    return main.replaceChildren(h("section", { class: "panel replay" },
      h("h2", {}, `${t("replay")}: ${t("game_" + d.game)}`),
      h("div", { class: "row" }, dealSelect,
        h("button", { "data-testid": "replay-prev", onclick: () => this.move(-1) }, "◀"),
        h("span", { "data-testid": "replay-step" }, `${this.step + 1} / ${deal.frames.length}`),
        h("button", { "data-testid": "replay-next", onclick: () => this.move(1) }, "▶"),
        h("a", { href: `/api/tables/${this.id}/record?download=1`, download: `blot-${this.id}.json`, "data-testid": "download-record" }, t("download_record"))),
      h("p", { "data-testid": "replay-action" }, action),
      h("p", { class: "muted" }, info.join(" · ")),
      h("div", { class: "replay-trick" }, f.trick.map((x) => h("span", { class: "slot" }, cardEl(x.card), h("small", {}, name(x.seat))))),
      h("div", { class: "replay-hands" }, hands),
      f.result ? h("p", { class: "result", "data-testid": "replay-result" }, resultLine(d.game, f.result, name)) : null,
      h("p", { class: "muted" }, `${t("total")}: ${f.totals.join(" : ")}`)));
  }
}

// --- start ------------------------------------------------------------------------------------------

setLang(store.getItem("blot.lang") || null);
langSelect.value = lang();
translateStatic();
route();
export { LANGS };
