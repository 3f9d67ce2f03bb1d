// The card table: one websocket (docs/protocol.md), the seat's view drawn as a card room seen from
// the player's side, and what the player clicks or types sent as actions. What only one game has is
// drawn by its presenter (games.js); this page names no game. The server is authoritative: the page
// offers only what the view's `legal` lists and decides no rule; the pauses it makes (a complete
// trick, the result of a deal) only hold what the server already said on the screen.
//
// The layout is reserved (style.css): the bar with the score, the board, the hand and the action
// bar keep their sizes whatever the phase, so nothing jumps when a contract or a prompt appears.
import { t } from "/static/i18n.js";
import { endControls, playerLabel } from "/static/ratings.js";
import { h, api, toast, refusalText, store, main, nav, syncName, pref, setPref } from "/static/util.js";
import { SUIT_ORDER, RANKS, splitCard, cardEl, cardButton, backEl, cardLabel } from "/static/cards.js";
import { gameInfo, presenter, placesFrom, teamOf, hasPartners, rulesText } from "/static/games.js";
import { AccuracyPanel } from "/static/learn.js";
import { ChatBox } from "/static/chat.js";
import { icon } from "/static/icons.js";
import { resultsPath } from "/static/daily.js";
import { playForMe } from "/static/quick.js";
import { arrivalPanel, askName, needsName } from "/static/arrival.js";
import { invitePanel, shareButton } from "/static/friends.js";
import { sounds, muteButton } from "/static/sound.js";
import { pushOffer, PushSettings } from "/static/notify.js";

const SWEEP_MS = 320; // the complete trick's move to its winner (style.css: .sweep)
const DEAL_MS = 900; // the dealing of a new hand (style.css: .dealing)
const ANNOUNCE_MS = 2200; // a big moment stays this long over the table
const RECENT = 60; // events asked for the log when the page opens the table

export class TablePage {
  constructor(id) {
    this.id = id;
    this.n = null; // the number of the last event received
    this.table = null;
    this.view = null;
    this.info = null; // the game as /api/games describes it
    this.game = null; // its presenter
    this.you = { player: null, seat: null };
    this.log = [];
    this.pending = false;
    this.awaiting = 0; // events still to come for actions sent together (3-5-8 discards)
    this.botLevel = null;
    this.closed = false;
    this.pushSettings = new PushSettings(() => this.render()); // ⚙: Web Push's kinds (notify.js)
    this.retry = 0;
    this.watchSeat = 0; // a spectator sees the table from this seat's side
    this.held = null; // a complete trick kept on the table: {deal, index, sweeping}
    this.arrived = null; // the card just played (it moves to its place)
    this.dealtAt = 0; // when the hand in view was dealt (it is being dealt for DEAL_MS)
    this.dismissed = new Set(); // deal numbers whose result the player closed
    this.overClosed = false; // the end of the game, closed to look at the table
    this.showLast = false;
    this.bid = { key: "", level: null }; // the bidding control's level
    this.pick = { key: "", cards: [] }; // cards picked in the hand, not yet sent
    this.typed = ""; // keyboard: a card or call being typed
    this.myTurn = false;
    this.moment = null; // a big moment over the table: {text, until}
    this.ratings = null; // a finished rated game's rating changes
    this.avatars = {}; // player id -> the emoji they chose
    this.chat = new ChatBox(this);
    this.tick = setInterval(() => this.onTick(), 250);
    this.keys = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keys);
    this.visible = () => this.cue();
    document.addEventListener("visibilitychange", this.visible);
    document.body.classList.add("at-table");
    this.connect();
  }

  leave() {
    this.closed = true;
    clearInterval(this.tick);
    clearTimeout(this.heldTimer);
    document.removeEventListener("keydown", this.keys);
    document.removeEventListener("visibilitychange", this.visible);
    document.body.classList.remove("at-table");
    document.title = t("title");
    if (this.ws) this.ws.close();
    if (this.accuracy) this.accuracy.leave();
    document.getElementById("page-tools").replaceChildren();
  }

  // --- the connection ------------------------------------------------------------------------------

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${this.id}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", token: store.getItem("blot.token"), since: this.n, recent: RECENT }));
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
      if (ev.code === 4403) return; // refused for good (a duplicate round's secret deals): no retry
      this.banner(t("reconnecting"));
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => !this.closed && this.connect(), wait);
    };
  }

  // The socket opened again (a guest was just made on arrival: the table now knows who this is).
  reconnect() {
    const old = this.ws;
    if (old) {
      old.onclose = null;
      old.close();
    }
    this.connect();
  }

  // A name was given on arrival (arrival.js): the socket opens again as that guest, who sits at
  // the seat he chose (or the first free one).
  async named(seat) {
    this.reconnect();
    const seats = this.table.seats;
    const free = seats.find((s) => !s.name && !s.bot);
    const chosen = seat !== null && seats[seat] && !seats[seat].name && !seats[seat].bot ? seat : free && free.seat;
    if (chosen !== undefined && chosen !== null) await this.sit(chosen);
  }

  banner(text) {
    const el = document.getElementById("banner");
    el.hidden = !text;
    el.textContent = text || "";
  }

  // Send a message of the table's websocket (false when it is not open).
  push(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  send(message) {
    if (this.pending || !this.push({ type: "action", ...message })) return;
    this.pending = true;
    this.render();
  }

  receive(m) {
    if (m.type === "error") {
      this.pending = false;
      this.awaiting = 0;
      if (m.code === "not_found") this.notFound = true;
      if (m.reason === "deals_secret") { // not to be watched before the round is over (issue 38)
        refusalText(m).then((text) => { this.secret = text; this.render(); });
        return;
      }
      refusalText(m).then(toast);
      this.render();
      return;
    }
    if (m.type === "pong") return;
    if (m.type === "status") { // the server's processes lost their broker a moment (events may pause)
      this.banner(m.state === "reconnecting" ? t("reconnecting") : null);
      return;
    }
    if (m.type === "chat" || m.type === "chat_history" || m.type === "muted") {
      this.chat.receive(m);
      return;
    }
    if (m.table) this.setTable(m.table);
    if (m.type === "presence") {
      this.render();
      return;
    }
    const seatBefore = this.you.seat;
    if (m.type === "snapshot") {
      if (m.reset) this.log = [];
      for (const e of m.events) this.addLog(e);
      this.you = m.you;
      this.view = m.view;
      this.n = m.n;
      this.held = null;
      this.awaiting = 0;
    } else if (m.type === "event") {
      if (this.n !== null && m.n <= this.n) return; // seen already
      if (this.awaiting) this.awaiting--;
      const e = m.event;
      this.addLog({ ...e, n: m.n });
      const before = this.view;
      this.view = m.view;
      this.n = m.n;
      if (e.kind === "sit" || e.kind === "leave") this.you.seat = this.mySeat();
      if (e.kind === "card") {
        this.arrived = { seat: e.seat, card: e.action };
        this.showLast = false;
        sounds.card(); // issue 41 item 5: the page's own sounds (sound.js)
        // the deal's last trick: the score bar keeps the totals before it while it is on the felt
        this.heldTotals = before && m.view && m.view.result && !before.result ? before.totals : null;
        if (e.trick_winner !== undefined) { this.holdTrick(); sounds.trick(); }
        else this.held = null;
      }
      if (e.kind === "deal") {
        sounds.shuffle();
        this.held = null;
        this.overClosed = false;
      }
      if (e.kind === "rematch_lapsed") this.iAsked = false;
      if (e.kind === "rematch" && this.iAsked && e.table) {
        nav.go(`/table/${e.table}`);
        return;
      }
      const said = this.game && this.view ? this.game.announce(e, this.view, this) : null;
      if (said) this.announce(said);
    }
    if (seatBefore !== this.you.seat && m.type === "event") this.chat.refresh(); // another room now
    // a hand seen for the first time before any card of its deal is played is dealt on the screen
    const v = this.view;
    if (v && v.deal_number !== this.seenDeal) {
      this.seenDeal = v.deal_number;
      if (!v.tricks.length && !v.trick.length && !v.result) this.dealtAt = Date.now();
    }
    this.pending = this.awaiting > 0; // the rest of what was sent together is still to come
    this.render();
    this.arrived = null;
  }

  // The table's summary; the game's description and presenter the first time; the avatars of
  // the persons seated.
  setTable(table) {
    const first = !this.table;
    this.table = table;
    if (first) {
      gameInfo(table.game).then(async (info) => {
        this.info = info;
        this.game = await presenter(info);
        this.render();
      }).catch((e) => refusalText(e).then(toast));
    }
    const unknown = table.seats.map((s) => s.player).filter((p) => p !== null && !(p in this.avatars));
    if (unknown.length) {
      for (const p of unknown) this.avatars[p] = null;
      api("GET", `/api/avatars?ids=${unknown.join(",")}`).then((r) => {
        Object.assign(this.avatars, Object.fromEntries(Object.entries(r.avatars).map(([k, v]) => [Number(k), v])));
        this.render();
      }).catch(() => {});
    }
  }

  // A complete trick stays on the table for the table's trick pause, then moves to its winner;
  // after the last trick of a deal the result shows only then.
  holdTrick() {
    const v = this.view;
    const pause = 1000 * Number(this.table.settings.trick_pause ?? 1);
    clearTimeout(this.heldTimer);
    if (!(pause > 0) || !v || !v.tricks.length) {
      this.held = null;
      return;
    }
    const held = { deal: v.deal_number, index: v.tricks.length - 1, sweeping: false };
    this.held = held;
    this.heldTimer = setTimeout(() => {
      if (this.held !== held) return;
      held.sweeping = true;
      this.render();
      this.heldTimer = setTimeout(() => {
        if (this.held === held) this.held = null;
        this.render();
      }, SWEEP_MS);
    }, pause);
  }

  // The view the score bar and the score sheet show: while the deal's last trick is on the felt,
  // the totals before it and no new line yet (issue 41 item 8: they moved before it was gathered).
  scoreView() {
    const v = this.view;
    return this.heldTotals && this.heldTrick() ? { ...v, totals: this.heldTotals, result: null, game_over: null } : v;
  }

  heldTrick() {
    const v = this.view;
    const held = this.held;
    if (!held || !v || v.deal_number !== held.deal || v.trick.length || v.tricks.length - 1 !== held.index) return null;
    return held;
  }

  // A big moment (belote, contra, kapoot …): shown over the table and said by screen readers.
  announce(text) {
    this.moment = { text, until: Date.now() + ANNOUNCE_MS };
    const live = document.getElementById("announcer");
    if (live) live.textContent = text;
  }

  // --- who is who -------------------------------------------------------------------------------------

  mySeat() {
    if (!this.table || this.you.player === null) return null;
    const s = this.table.seats.find((x) => x.player === this.you.player);
    return s ? s.seat : null;
  }

  // Whether the move now is this player's to make: their turn at a game under way, and their seat
  // not handed to a bot ("play for me", issue 41 item 6: the server refuses it, seat_handed).
  myMove() {
    const v = this.view;
    const seat = this.you.seat;
    if (!v || !v.legal || seat === null || v.to_act !== seat || v.game_over || this.table.status !== "playing") return false;
    return !this.table.seats[seat].handed;
  }

  base() {
    return this.you.seat === null ? this.watchSeat : this.you.seat;
  }

  positions() {
    return placesFrom(this.info, this.base());
  }

  // Where a seat sits as seen from this side of the table: "You", "Left", "Partner", "Right".
  shortName(seat) {
    if (seat === this.you.seat) return t("you");
    if (this.you.seat === null) {
      const s = this.table.seats[seat];
      return s && s.bot ? t("bot_n", { n: seat + 1 }) : this.name(seat);
    }
    const where = this.positions()[seat];
    const partner = where === "top" && teamOf(this.info, seat) === teamOf(this.info, this.you.seat);
    return t(partner ? "partner_short" : "pos_" + where);
  }

  name(seat) {
    const s = this.table && this.table.seats[seat];
    if (!s) return t("seat_n", { n: seat + 1 });
    if (s.bot) return botName(seat, s.bot);
    return s.name || t("seat_n", { n: seat + 1 });
  }

  // The team a seated player plays for (null for a spectator).
  myTeam() {
    return this.you.seat === null ? null : teamOf(this.info, this.you.seat);
  }

  // "We" and "They" for a seated player, else the team's names.
  teamLabel(team) {
    const mine = this.myTeam();
    if (mine !== null && hasPartners(this.info)) return t(mine === team ? "we" : "they");
    return this.info.teams[team].map((s) => this.shortName(s)).join(" & ");
  }

  // The winner in the seat's terms: "You and Maria won", "Ani and Bot 4 won", "You won".
  winnerLine(team) {
    const seats = this.info.teams[team];
    const mine = seats.includes(this.you.seat);
    const others = seats.filter((s) => s !== this.you.seat).map((s) => (this.table.seats[s].bot ? t("bot_n", { n: s + 1 }) : this.name(s)));
    if (mine) return others.length ? t("won_you_and", { who: others.join(", ") }) : t("won_you");
    return t("won_they", { who: others.join(t("and_sep")) });
  }

  // The line of an event in the log, its names taken now; an event only the game knows waits for
  // the game's presenter when that is not loaded yet (a snapshot comes first), and is said then.
  addLog(e) {
    const who = e.seat !== undefined ? this.name(e.seat) : "";
    if (e.kind === "pause" && this.table) this.table.paused = e.paused; // an event table's referee (L-7)
    const text = this.logText(e, who);
    if (text === undefined) this.log.push({ event: e, who, kind: "" });
    else if (text) this.addLine(text);
  }

  // The text of a log line: null when the event has none, undefined while the game's presenter
  // (which says the game's own events: calls, declarations, the exchange …) is not loaded.
  logText(e, who) {
    const own = this.game ? this.game.logLine(e, who, this) : undefined;
    let text = null;
    switch (e.kind) {
      case "sit": text = t("log_sit", { who: e.name, seat: e.seat + 1 }); break;
      case "leave": text = t("log_leave", { seat: e.seat + 1 }); break;
      case "bot":
        text = e.level ? t("log_bot", { seat: e.seat + 1, level: botLevelName(e.level) }) : t("log_leave", { seat: e.seat + 1 });
        if (e.reason) text += ` — ${e.reason}`; // a built-in bot took the seat of a failed bot program
        break;
      case "start": text = t("log_start"); break;
      case "deal": text = t("log_deal", { n: e.deal_number, who: this.name(e.dealer) }); break;
      case "card":
        if (!this.game) return undefined; // a belote is the game's word
        text = own ?? `${who}: ${cardLabel(e.action)}`;
        if (e.trick_winner !== undefined) text += ` · ${t("log_trick", { who: this.name(e.trick_winner) })}`;
        break;
      case "rematch": text = t("log_rematch"); break;
      case "rematch_ask": text = t("rematch_asked", { who }); break;
      case "rematch_lapsed": text = t("log_rematch_lapsed"); break;
      case "end": text = e.ended ? t("log_ended") : t(e.agree ? "log_end_agree" : "log_end_decline", { who }); break;
      case "pause": text = t(e.paused ? "log_paused" : "log_resumed"); break; // a referee paused or resumed (L-7)
      default:
        if (!this.game) return undefined;
        text = own ?? null;
    }
    if (text && e.by === "timer") text += ` (${t("by_timer")})`;
    return text;
  }

  addLine(text, kind = "") {
    this.log.push({ text, kind });
    if (this.log.length > 80) this.log.splice(0, this.log.length - 80);
  }

  // --- keyboard: arrows move between the choices, Enter takes one; or type "AS", "10H", "pass" ---

  onKey(e) {
    const target = e.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const choices = [...main.querySelectorAll("[data-card][data-legal='true'], [data-call], [data-declare], [data-pick]")];
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      if (!choices.length) return;
      const at = choices.indexOf(document.activeElement);
      const next = at < 0 ? 0 : (at + (e.key === "ArrowRight" ? 1 : -1) + choices.length) % choices.length;
      choices[next].focus();
      e.preventDefault();
      return;
    }
    if (e.key === "Escape") {
      this.setTyped("");
      return;
    }
    if (e.key === "Backspace" && this.typed) {
      this.setTyped(this.typed.slice(0, -1));
      e.preventDefault();
      return;
    }
    if (e.key === "Enter" && this.typed) {
      const text = this.typed.toUpperCase().replace(/^T(?=[SHDC]$)/, "10");
      const want = text === "P" || text === "PASS" ? "pass" : (this.game && this.game.typedCall(text)) || text;
      const el = choices.find((c) => (c.dataset.card || c.dataset.call || "").toUpperCase() === want.toUpperCase());
      this.setTyped("");
      if (el) el.click();
      else toast(t("no_such_choice", { text }));
      e.preventDefault();
      return;
    }
    if (e.key.length === 1 && /[0-9a-z]/i.test(e.key) && this.view && this.view.legal) {
      this.setTyped((this.typed + e.key).slice(-8));
      e.preventDefault();
    }
  }

  setTyped(text) {
    this.typed = text;
    const el = main.querySelector(".typed");
    if (el) {
      el.textContent = text ? `⌨ ${text.toUpperCase()}` : "";
      el.hidden = !text;
    }
  }

  // --- rendering -----------------------------------------------------------------------------------

  render() {
    if (this.closed) return;
    if (this.notFound) {
      main.replaceChildren(h("section", { class: "panel" }, h("p", {}, t("no_such_table")), h("a", { href: "/", "data-link": true }, t("nav_lobby"))));
      return;
    }
    if (this.secret) {
      main.replaceChildren(h("section", { class: "panel", "data-testid": "deals-secret" }, h("p", {}, this.secret), h("a", { href: "/", "data-link": true }, t("nav_lobby"))));
      return;
    }
    if (!this.table || !this.game) {
      main.replaceChildren(h("p", { class: "muted" }, t("connecting")));
      return;
    }
    const focused = document.activeElement;
    const keep = focused && main.contains(focused) ? keyOf(focused) : null;
    const tb = this.table;
    const waiting = tb.status === "waiting";
    const parts = [this.topBar()];
    if (waiting) parts.push(this.setup());
    else if (this.view) parts.push(this.play());
    parts.push(this.side());
    const end = endControls(h, this);
    const page = h("div", { class: "table-page" + (waiting ? " waiting" : "") + (this.you.seat === null ? " watching" : "") }, parts);
    main.replaceChildren(...[page, end.dialog, this.overlay(), this.chat.sheet()].filter(Boolean));
    main.dataset.n = String(this.n ?? 0); // the last event shown (tests wait on it)
    // the speaker sits in the header's thin bar, where a phone has room, one tap from anywhere
    document.getElementById("page-tools").replaceChildren(muteButton(() => this.render()));
    this.fitBar();
    if (keep) {
      const again = main.querySelector(keep);
      if (again) again.focus({ preventScroll: true });
    }
    this.onTick();
    this.cue();
  }

  // Each quarter second: the turn timer, and the end of a big moment or a chat bubble.
  onTick() {
    if (!this.table) return;
    const d = this.table.deadline;
    for (const el of main.querySelectorAll("[data-rematch-left]")) el.textContent = this.rematchLeft();
    for (const el of main.querySelectorAll("[data-testid=timer-left]")) {
      const left = d ? Math.max(0, (d - Date.now()) / 1000) : 0;
      el.hidden = !d;
      const secs = el.querySelector("b");
      if (secs) secs.textContent = t("seconds", { n: Math.ceil(left) });
      const bar = el.querySelector("i");
      if (bar) bar.style.setProperty("--left", String(Math.min(1, left / (this.table.settings.timer || 1))));
    }
    const now = Date.now();
    if (this.moment && this.moment.until <= now) {
      this.moment = null;
      const el = main.querySelector("[data-testid=announce]");
      if (el) el.remove();
    }
    this.chat.expire(now);
  }

  // The "your turn" cue: the action bar lights up (style.css), the tab's title says it, and on
  // request a sound, a vibration, and a notification when the tab is hidden.
  cue() {
    const v = this.view;
    const mine = this.myMove();
    if (mine && !this.myTurn) {
      // a browser lets a page vibrate only once the player has touched it
      const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
      if (pref("vibrate") && navigator.vibrate && touched) navigator.vibrate(60);
      sounds.turn();
      if (document.hidden) notify(t("notify_turn"), t("notify_turn_body", { game: t("game_" + this.table.game) }), this.id);
    }
    this.myTurn = mine;
    document.title = mine ? t("title_your_turn") : t("title");
  }

  // The bar above the table: the running score (both sides and what the game is played to), the
  // deal and its contract, and the tools. Its height never changes.
  topBar() {
    const v = this.view;
    const tools = h("div", { class: "tools" },
      v && v.tricks.length ? h("button", { class: "icon", "data-testid": "last-trick", "aria-pressed": this.showLast ? "true" : "false",
        title: t("show_last_trick"), "aria-label": t("show_last_trick"), onclick: () => { this.showLast = !this.showLast; this.render(); } }, icon("trick")) : null,
      this.chat.button(),
      this.menu());
    const bits = [];
    if (this.table.settings.rated) bits.push(h("span", { class: "badge rated", "data-testid": "rated-badge" }, t("rated")));
    if (v && this.table.status !== "waiting") {
      const score = this.game.score(this.scoreView(), this);
      const deal = this.game.dealLabel(v);
      // a set of the day's deals ends after its deals, not at the game's target (issue 45)
      if (this.table.settings.daily) score.goal = t("daily_deals_n", { n: this.table.settings.daily.deals });
      bits.push(h("div", { class: "score", "data-testid": "score", role: "group", "aria-label": t("running_score") },
        score.parts.map((p) => h("span", { class: "side" + (p.mine ? " mine" : "") }, h("small", {}, p.label), h("b", {}, p.value))),
        h("span", { class: "goal" }, score.goal)));
      bits.push(h("div", { class: "deal-line" }, this.game.contractLine(v, this), score.goal === deal ? null : h("span", { class: "deal-no" }, deal)));
    } else {
      bits.push(h("div", { class: "deal-line" }, h("strong", {}, t("game_" + this.table.game)), h("span", { class: "muted" }, ` ${this.rulesLine()}`)));
    }
    return h("div", { class: "table-bar" }, h("div", { class: "bits" }, bits), tools);
  }

  // A phone's bar keeps the score whole; the contract and the deal's number beside it are hidden
  // rather than cut when the score leaves them no room (a spectator's score names the players):
  // the contract shows at its seat, the deal on the score sheet.
  fitBar() {
    const line = main.querySelector(".table-bar .deal-line");
    if (!line) return;
    const cut = () => [...line.children].some((e) => e.scrollWidth > e.clientWidth + 1);
    // what does not fit goes, the least needed first: the deal's number (on the score sheet), the
    // declarer's name (its seat shows the contract's chip); the line only if the contract is still cut
    for (const part of line.querySelectorAll(".deal-no, .who")) if (cut()) part.hidden = true;
    if (cut()) line.style.visibility = "hidden";
  }

  rulesLine() {
    return rulesText(this.info, this.table.settings);
  }

  menu() {
    const box = (key, label, extra) => h("label", { class: "check" },
      h("input", { type: "checkbox", checked: pref(key), "data-testid": `pref-${key}`, onchange: (e) => { setPref(key, e.target.checked); if (extra) extra(e); } }),
      h("span", {}, t(label)));
    const end = endControls(h, this);
    const tb = this.table;
    const host = this.you.player !== null && this.you.player === tb.host;
    const items = [
      h("p", { class: "menu-title" }, t("game_" + tb.game), h("small", { class: "muted" }, ` ${this.rulesLine()}`)),
      box("fourColour", "pref_four_colour"),
      this.pushSettings.view(),
      box("vibrate", "pref_vibrate"),
      "Notification" in window ? box("notify", "pref_notify", (e) => e.target.checked && askToNotify(e.target)) : null,
      host ? this.chat.switchItem() : null,
      playForMe(this, botLevelName).menuItem,
      end.menuItem,
    ];
    // a redraw (every event) keeps the menu as the player left it
    return h("details", { class: "settings", "data-testid": "table-menu", open: this.menuOpen, ontoggle: (e) => (this.menuOpen = e.target.open) },
      h("summary", { "aria-label": t("settings"), title: t("settings") }, "⚙"),
      h("div", { class: "menu" }, items));
  }

  turnTable() {
    this.watchSeat = (this.watchSeat + 1) % this.info.seats;
    this.render();
  }

  // --- before the start ----------------------------------------------------------------------------

  // Only the table's host and its seated players may seat bots and start (the server says so too):
  // others are not shown those buttons.
  setup() {
    const tb = this.table;
    const mine = this.mySeat();
    const manager = mine !== null || (this.you.player !== null && this.you.player === tb.host);
    const bots = tb.settings.rated ? this.info.rated_bots : this.info.bots;
    if (!bots.includes(this.botLevel)) this.botLevel = bots.includes("basic") ? "basic" : bots[0];
    const level = h("select", { id: "bot-level", "data-testid": "bot-level", onchange: (e) => (this.botLevel = e.target.value) },
      bots.map((b) => h("option", { value: b }, botLevelName(b))));
    level.value = this.botLevel;
    const seats = tb.seats.map((s) => {
      const label = s.bot ? botName(s.seat, s.bot) : s.name || t("empty_seat");
      const actions = [];
      if (!s.name && !s.bot) {
        actions.push(h("button", { "data-testid": `sit-${s.seat}`, onclick: () => this.sit(s.seat) }, t("sit_here")));
        if (manager) actions.push(h("button", { "data-testid": `add-bot-${s.seat}`, onclick: () => this.post("bot", { seat: s.seat, level: this.botLevel }) }, t("add_bot")));
      } else if (s.bot) {
        if (manager) actions.push(h("button", { "aria-label": `${t("remove_bot")}: ${label}`, onclick: () => this.post("bot", { seat: s.seat, level: null }) }, t("remove_bot")));
      } else if (s.seat === mine) {
        actions.push(h("button", { "data-testid": "leave-seat", onclick: () => this.post("leave", {}) }, t("leave_seat")));
      }
      const team = hasPartners(this.info) ? h("small", { class: "muted" }, ` · ${t("team")} ${teamOf(this.info, s.seat) + 1}`) : null;
      return h("li", { class: s.seat === mine ? "mine" : "" }, this.avatar(s.seat), h("span", { class: "seat-no" }, t("seat_n", { n: s.seat + 1 })),
        h("span", { class: "seat-name" }, label, s.guest ? guestMark("badge") : null, team),
        actions.length ? h("span", { class: "seat-actions" }, actions) : null);
    });
    const link = `${location.origin}/table/${tb.id}`;
    const full = tb.seats.every((s) => s.name || s.bot);
    const arrival = needsName() && tb.seats.some((s) => !s.name && !s.bot) ? arrivalPanel(this) : null;
    return h("section", { class: "panel setup" },
      arrival,
      h("h2", {}, t("seats")),
      h("ul", { class: "seats" }, seats),
      manager ? h("div", { class: "row" }, h("label", { for: "bot-level" }, t("bot_level")), level,
        h("button", { "data-testid": "fill-bots", onclick: () => this.post("fill-bots", { level: this.botLevel }) }, t("fill_bots")),
        h("button", { class: "primary", "data-testid": "start", disabled: !full, onclick: () => this.post("start", {}) }, t("start")))
        : h("p", { class: "muted", "data-testid": "wait-start" }, t("wait_for_host")),
      h("p", {}, t(tb.public ? "invite_public" : "invite_private")),
      h("div", { class: "row" }, h("input", { readonly: true, value: link, "aria-label": t("invite_link"), "data-testid": "invite-link", onclick: (e) => e.target.select() }),
        shareButton(link, tb)),
      invitePanel(this));
  }

  async sit(seat) {
    if (needsName()) { // issue 41 item 1: a name first, never "Player 304"
      askName(this, seat);
      return;
    }
    try {
      await syncName();
    } catch (e) {
      toast(await refusalText(e));
      return;
    }
    await this.post("sit", { seat });
    this.you.seat = this.mySeat();
    this.chat.refresh();
  }

  async post(what, body) {
    try {
      this.setTable(await api("POST", `/api/tables/${this.id}/${what}`, body));
      this.render();
    } catch (e) {
      toast(await refusalText(e));
    }
  }

  // A rated game's rematch starts once every person asked: until then the answer is this table.
  async rematch() {
    this.iAsked = true;
    try {
      const table = await api("POST", `/api/tables/${this.id}/rematch`);
      if (table.id === this.id) {
        this.setTable(table);
        this.render();
        return;
      }
      nav.go(`/table/${table.id}`);
    } catch (e) {
      this.iAsked = false;
      toast(await refusalText(e));
    }
  }

  // --- the game ------------------------------------------------------------------------------------

  play() {
    const pos = this.positions();
    const n = this.info.seats;
    const boxes = [];
    for (let s = 0; s < n; s++) boxes.push(this.seatBox(s, pos[s]));
    const moment = this.moment && this.moment.until > Date.now()
      ? h("div", { class: "moment-banner", "data-testid": "announce", "aria-hidden": "true" }, this.moment.text) : null;
    const end = endControls(h, this);
    const board = h("section", { class: `board seats-${n}`, "aria-label": t("table_label") },
      boxes, this.center(pos), this.chat.bubbles(pos), moment, this.dealResultShown() ? null : end.banner);
    const parts = [board];
    if (this.you.seat !== null) parts.push(playForMe(this, botLevelName).banner, this.hand());
    parts.push(this.actionBar());
    return h("div", { class: "play" }, parts);
  }

  // A person's initials or chosen emoji; a bot's mark.
  avatar(s) {
    const seat = this.table.seats[s];
    if (seat.bot) return h("span", { class: "avatar bot", "aria-hidden": "true", title: t("bot") }, icon("bot", 18));
    if (!seat.name) return h("span", { class: "avatar empty", "aria-hidden": "true" }, "·");
    const chosen = seat.player !== null ? this.avatars[seat.player] : null;
    if (chosen) return h("span", { class: "avatar emoji", "aria-hidden": "true" }, chosen);
    const words = seat.name.trim().split(/\s+/);
    const initials = (words.length > 1 ? words[0][0] + words[1][0] : [...words[0]].slice(0, 2).join("")).toUpperCase();
    const hue = [...seat.name].reduce((a, ch) => (a * 31 + ch.codePointAt(0)) % 360, 7);
    const el = h("span", { class: "avatar", "aria-hidden": "true" }, initials);
    el.style.setProperty("--hue", String(hue));
    return el;
  }

  seatBox(s, where) {
    const v = this.view;
    const seat = this.table.seats[s];
    const own = s === this.you.seat;
    const badges = [];
    const deciding = this.deciding().includes(s); // a finished game's rematch waits for them (issue 41 item 8)
    if (deciding) badges.push(h("span", { class: "chip", "data-testid": "deciding" }, t("rematch_deciding")));
    else if (seat.away && !seat.substitute) badges.push(h("span", { class: "chip warn" }, t("away")));
    // one's own handed seat says so above the hand ("play for me", quick.js), not in the seat
    if (seat.substitute && !(own && seat.handed)) badges.push(h("span", { class: "chip warn" }, t("bot_plays")));
    if (seat.guest) badges.push(guestMark("chip"));
    const toAct = v.to_act === s && !v.result && this.table.status === "playing";
    const calling = v.phase === "bidding" || v.phase === "call";
    const call = calling ? [...v.calls].reverse().find((c) => c.seat === s) : null;
    const shown = seat.bot ? t("bot_n", { n: s + 1 }) : this.name(s);
    const count = own || (where === "bottom" && this.you.seat === null) ? null
      : h("span", { class: "backs", role: "img", "aria-label": t("cards_left", { n: v.hand_sizes[s] }) }, backEl(), h("small", {}, String(v.hand_sizes[s])));
    return h("div", { class: `seat-box pos-${where}` + (toAct ? " to-act" : "") + (own ? " own" : ""), "data-seat": s, "data-testid": `seat-${s}` },
      h("div", { class: "seat-head" },
        h("span", { class: "avatar-box" }, this.avatar(s),
          v.dealer === s ? h("span", { class: "chip dealer", title: t("dealer"), "data-testid": "dealer" }, t("dealer_short")) : null),
        // the name has its own line (two at a narrow side seat), the level and the badges the next:
        // on a phone they no longer squeeze it to initials or "B…" (issue 41 item 8)
        h("div", { class: "seat-name" },
          h("span", { class: "who-line" }, h("span", { class: "who", title: this.name(s), "data-testid": "seat-name" },
            toAct ? h("span", { class: "turn-mark", "aria-label": t("to_act") }, "▶ ") : null, shown)),
          seat.bot || badges.length ? h("span", { class: "badges" },
            seat.bot ? h("span", { class: "level", title: botLevelName(seat.bot) }, botLevelName(seat.bot)) : null, badges) : null)),
      // the last call sits in the seat's info line, beside its cards, not over its name
      h("div", { class: "seat-info" },
        call ? h("span", { class: "bubble" + (/H|D$/.test(call.call) ? " red" : ""), "data-testid": "bubble" }, this.game.callLabel(call.call)) : null,
        this.game.seatInfo(v, s, this), count),
      toAct && this.table.deadline ? h("div", { class: "timer", "data-testid": "timer-left", role: "timer", "aria-label": t("turn_timer") }, h("i"), h("b")) : null);
  }

  center(pos) {
    const v = this.view;
    const n = this.info.seats;
    const inner = [];
    const held = this.heldTrick();
    if (this.showLast && v.tricks.length) {
      const last = v.tricks[v.tricks.length - 1];
      inner.push(h("div", { class: "center-title" }, t("last_trick")), this.slots(trickCards(last, n), pos, last.winner, ""));
    } else if (v.trick.length) {
      inner.push(this.slots(v.trick, pos, null, ""));
    } else if (held) {
      const trick = v.tricks[held.index];
      inner.push(this.slots(trickCards(trick, n), pos, trick.winner, held.sweeping ? ` sweep to-${pos[trick.winner]}` : ""));
    } else {
      const own = this.game.center(v, this);
      if (own) inner.push(own);
      else if (v.phase === "play" && v.to_act !== null) inner.push(h("div", { class: "center-title" }, t("leads", { who: this.name(v.to_act) })));
    }
    return h("div", { class: "center", "data-testid": "trick" }, inner);
  }

  slots(cards, pos, winner, extra) {
    return h("div", { class: "slots" + extra }, cards.map((x) => {
      const fresh = this.arrived && this.arrived.card === x.card && this.arrived.seat === x.seat;
      return h("div", { class: `slot pos-${pos[x.seat]}` + (x.seat === winner ? " won" : "") + (fresh ? ` arrive from-${pos[x.seat]}` : "") },
        cardEl(x.card, { "data-trick-card": x.card }));
    }));
  }

  // The calls so far in seat columns, from the first to call (as bridge sites show it); the
  // heads are the seats' short names, on two lines when they are long.
  callsGrid(title) {
    const v = this.view;
    const n = this.info.seats;
    const first = (v.dealer + 1) % n;
    const order = Array.from({ length: n }, (_, i) => (first + i) % n);
    // a call may wrap at its spaces here ("10 NT", "Four sevens"): four columns between the side
    // seats of a phone leave each about 44 px (issue 41: Armenian's were cut)
    const cells = v.calls.map((c) => h("td", { class: /H|D$/.test(c.call) ? "red" : "" }, this.game.callLabel(c.call).replace(/\u00a0/g, " ")));
    if (v.to_act !== null && !v.result) cells.push(h("td", { class: "next" }, "?"));
    const rows = [];
    for (let i = 0; i < cells.length; i += n) rows.push(h("tr", {}, cells.slice(i, i + n)));
    const table = h("table", { class: "calls-grid", "data-testid": "calls" },
      h("thead", {}, h("tr", {}, order.map((s) => h("th", { scope: "col", title: this.name(s) }, this.shortName(s))))),
      h("tbody", {}, rows.slice(-5)));
    return h("div", { class: "calls-box" }, h("div", { class: "center-title" }, title), table);
  }

  // --- the end of a deal and of the game, over the table ------------------------------------------------

  // A deal's result is over the table now (then a vote to end the game is asked in it).
  dealResultShown() {
    const v = this.view;
    return !!(v && v.result && !v.game_over && !this.table.ended && this.table.status !== "waiting"
      && !this.heldTrick() && !this.dismissed.has(v.deal_number));
  }

  overlay() {
    const v = this.view;
    const tb = this.table;
    if (!v || tb.status === "waiting") return null;
    const over = v.game_over || tb.ended;
    if (!over && (!v.result || this.heldTrick())) return null;
    if (over && this.heldTrick()) return null;
    if (over && this.overClosed) {
      return h("div", { class: "reopen" }, h("button", { class: "primary", "data-testid": "show-game-over", onclick: () => { this.overClosed = false; this.render(); } }, t("show_game_over")));
    }
    if (!over && this.dismissed.has(v.deal_number)) return null;
    const closeLabel = t("close");
    const close = h("button", { class: "small close", "aria-label": closeLabel, title: closeLabel,
      onclick: () => { if (over) this.overClosed = true; else this.dismissed.add(v.deal_number); this.render(); } }, "×");
    const body = over
      ? [this.gameOver(), v.result && !tb.ended ? h("details", { class: "last-deal", open: true }, h("summary", {}, t("last_deal_result")), this.game.result(v, v.result, this)) : null]
      : [endControls(h, this).banner, this.game.result(v, v.result, this), h("p", { class: "muted next" }, t("next_deal_soon"))];
    return h("div", { class: "overlay", role: "dialog", "aria-modal": "false", "aria-label": t(over ? "game_over" : "deal_result") },
      h("div", { class: "overlay-card" + (over ? " over" : "") }, close, body));
  }

  // Who won in the seat's terms, the totals, the match score, a rated game's rating changes, and
  // what comes next; a game ended by agreement or resignation says so.
  gameOver() {
    const v = this.view;
    const g = v.game_over;
    const tb = this.table;
    const score = this.game.score(v, this);
    const totals = h("div", { class: "score final", "data-testid": "final-totals" },
      score.parts.map((p) => h("span", { class: "side" + (p.mine ? " mine" : "") }, h("small", {}, p.label), h("b", {}, p.value))));
    const daily = tb.settings.daily; // a set of the day's deals (issue 45)
    const headline = daily && tb.ended !== "resigned" ? h("p", { class: "winner", "data-testid": "daily-done" }, t("daily_set_done"))
      : tb.ended
      ? h("p", { class: "winner", "data-testid": "ended-agreement" }, t(tb.ended === "resigned" ? "ended_resigned" : "ended_agreement"))
      : h("p", { class: "winner", "data-testid": "winner" }, this.winnerLine(g.winner), g.match_score ? ` ${g.match_score.replace("-", "–")}` : "");
    const seated = this.you.seat !== null;
    const asks = tb.rematch_asks || [];
    // each player's accuracy once the server has analysed the game (issue 28)
    if (!this.accuracy) this.accuracy = new AccuracyPanel(this.id, () => this.render());
    // a set of the day's deals: its results instead of a rematch (its settings name the day, game and ruleset)
    return h("section", { class: "game-over", "data-testid": "game-over" },
      h("h2", {}, t("game_over")),
      headline,
      g && g.match_score ? h("p", { class: "muted" }, `${t("match_score")}: `, h("strong", { "data-testid": "match-score" }, g.match_score), this.game.matchNote(g)) : null,
      totals,
      this.ratingChanges(),
      this.accuracy.view((s) => this.name(s), this.game.analysis),
      this.rematchNote(),
      this.you.seat !== null ? pushOffer(() => this.render()) : null,
      h("div", { class: "row" },
        daily ? h("a", { class: "button primary", href: resultsPath(daily.game, daily.ruleset, daily.day), "data-link": true, "data-testid": "daily-results-link" }, t("daily_results"))
        : tb.rematch ? h("a", { class: "button primary", href: `/table/${tb.rematch}`, "data-link": true, "data-testid": "rematch" }, t("join_rematch"))
          : seated && !asks.includes(this.you.seat)
            ? h("button", { class: "primary", "data-testid": "rematch", onclick: () => this.rematch() }, t(asks.length ? "rematch_accept" : "rematch")) : null,
        h("a", { href: `/replay/${this.id}`, "data-link": true }, t("watch_replay")),
        h("a", { href: `/api/tables/${this.id}/record?download=1`, download: `blot-${this.id}.json`, "data-testid": "download-record" }, t("download_record"))));
  }

  // A rated game's end: each player's new rating and its change (asked once the game is over).
  ratingChanges() {
    if (!this.table.settings.rated) return null;
    if (this.ratings === null) {
      this.ratings = [];
      api("GET", `/api/tables/${this.id}/ratings`).then((r) => { this.ratings = r.seats; this.ratingsOf = r.provisional_games; this.render(); }).catch(() => {});
      return null;
    }
    // one line per rated player (the bots of one level are one rated player)
    const moved = this.ratings.filter((r, i, all) => r.rated && all.findIndex((x) => x.player === r.player) === i);
    if (!moved.length) return h("p", { class: "muted", "data-testid": "rating-changes" }, t("not_rated"));
    // ratings start at 0: the heading says that the first number is the rating, the badge its change
    return h("section", { class: "rating-changes", "aria-label": t("rating") }, h("h3", {}, t("rating")),
      h("ul", { "data-testid": "rating-changes" }, moved.map((r) => h("li", { class: r.seat === this.you.seat ? "mine" : "" },
        h("span", {}, this.table.seats[r.seat].bot ? playerLabel(r.player) : this.name(r.seat)), " ",
        // a provisional rating (its first rated games) is a word with its count, not a number that moved (issue 41 item 7)
        r.provisional ? h("b", { "data-testid": "provisional" }, t("provisional_of", { n: r.games, of: this.ratingsOf }))
          : [h("b", {}, r.rating.toFixed(1)), " ",
            h("span", { class: "badge " + (r.change >= 0 ? "up" : "down") }, (r.change > 0 ? "+" : "") + r.change.toFixed(1))]))));
  }

  // The seats of the people still deciding on a rematch one of them asked for (issue 41 item 8).
  deciding() {
    const tb = this.table;
    const asks = tb.rematch_asks || [];
    if (tb.rematch || !asks.length) return [];
    return tb.seats.filter((s) => s.player !== null && !asks.includes(s.seat)).map((s) => s.seat);
  }

  // Who asked for the rematch and whom it waits for (every person decides), with the seconds left
  // to decide (the server's `rematch_until`; then the others' seats go to bots, or it lapses).
  rematchNote() {
    const tb = this.table;
    const asks = tb.rematch_asks || [];
    if (tb.rematch || !asks.length) return null;
    const waiting = this.deciding();
    const text = asks.includes(this.you.seat)
      ? t("rematch_waiting", { who: waiting.map((s) => this.name(s)).join(", ") })
      : t("rematch_asked", { who: asks.map((s) => this.name(s)).join(", ") });
    return h("p", { class: "muted", "data-testid": "rematch-note" }, text,
      tb.rematch_until ? [" · ", h("span", { "data-rematch-left": "" }, this.rematchLeft())] : null);
  }

  rematchLeft() {
    const left = Math.max(0, Math.ceil((this.table.rematch_until - Date.now()) / 1000));
    return t("rematch_left", { n: left });
  }

  // --- what the player does now ----------------------------------------------------------------------

  actionBar() {
    const v = this.view;
    const parts = [];
    const playing = this.table.status === "playing";
    const mine = this.myMove();
    const handed = this.you.seat !== null && !!this.table.seats[this.you.seat].handed;
    if (this.table.paused) parts.push(h("div", { class: "waiting", "data-testid": "paused" }, t("log_paused")));
    if (this.you.seat === null) parts.push(this.spectatorBar());
    else if (mine) parts.push(this.game.prompt(v, this) || h("div", { class: "prompt" }, h("div", { class: "your-turn" }, t("your_card"))));
    else if (playing && v.to_act !== null && v.to_act !== undefined && !v.result && !(handed && v.to_act === this.you.seat)) parts.push(h("div", { class: "waiting" }, t("waiting_for", { who: this.name(v.to_act) })));
    parts.push(h("div", { class: "typed", hidden: !this.typed }, this.typed ? `⌨ ${this.typed.toUpperCase()}` : ""));
    return h("div", { class: "action-bar" + (mine ? " mine" : ""), "aria-live": "polite" }, parts);
  }

  spectatorBar() {
    const v = this.view;
    const acting = this.table.status === "playing" && v.to_act !== null && !v.result ? t("waiting_for", { who: this.name(v.to_act) }) : "";
    return h("div", { class: "spectating" },
      h("span", {}, t("spectating", { who: this.name(this.watchSeat) })), acting ? h("span", { class: "muted" }, acting) : null,
      h("button", { class: "small", "data-testid": "turn-table", onclick: () => this.turnTable() }, t("turn_table")));
  }

  togglePick(card) {
    const left = this.game.picking(this.view, this).left;
    const cards = this.pick.cards;
    const at = cards.indexOf(card);
    if (at >= 0) cards.splice(at, 1);
    else if (cards.length < left) cards.push(card);
    this.render();
  }

  // The cards picked, one action each (the actor handles them in order; each is checked).
  sendPicked() {
    if (this.pending || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.pending = true;
    this.awaiting = this.pick.cards.length;
    for (const c of this.pick.cards) this.push({ type: "action", action: c });
    this.pick.cards = [];
    this.render();
  }

  hand() {
    const v = this.view;
    const L = v.legal;
    const myTurn = this.myMove();
    const legal = new Set(myTurn && L.cards ? L.cards : []);
    const picking = myTurn ? this.game.picking(v, this) : null;
    const picked = new Set(picking ? this.pick.cards : []);
    const rank = (c) => RANKS.indexOf(splitCard(c).rank);
    const cards = SUIT_ORDER.flatMap((s) => v.hand.filter((c) => splitCard(c).suit === s).sort((a, b) => rank(a) - rank(b)));
    const trump = this.game.trump(v);
    const since = Date.now() - this.dealtAt;
    const dealing = since < DEAL_MS;
    const els = cards.map((c, i) => {
      const ok = legal.has(c);
      const suit = splitCard(c).suit;
      const cls = [ok ? "legal" : myTurn && L.cards ? "illegal" : "idle", suit === trump ? "trump" : "", picked.has(c) ? "picked" : ""].join(" ");
      const el = cardButton(c, { "data-card": c, "data-legal": ok ? "true" : null, class: cls, "aria-disabled": ok ? null : "true",
        "aria-pressed": picking ? (picked.has(c) ? "true" : "false") : null, tabindex: ok ? null : "-1" });
      if (ok && !this.pending) el.addEventListener("click", () => (picking ? this.togglePick(c) : this.send({ action: c })));
      if (dealing) {
        el.style.setProperty("--i", String(i));
        el.style.setProperty("--since", `${since}ms`);
      }
      return el;
    });
    // one row up to ten cards (and always on a wide screen), else two rows; the hand keeps the
    // height of its largest row count of the deal, so that what is under it never moves up
    const rows = els.length > 10 && window.innerWidth < 700 ? [els.slice(0, Math.ceil(els.length / 2)), els.slice(Math.ceil(els.length / 2))] : [els];
    if (!this.handRows || this.handRows.deal !== v.deal_number) this.handRows = { deal: v.deal_number, rows: 1 };
    this.handRows.rows = Math.max(this.handRows.rows, rows.length);
    return h("div", { class: "hand" + (myTurn && L.cards ? " choosing" : "") + (dealing ? " dealing" : "") + ` rows-${this.handRows.rows}`, "data-testid": "hand", role: "group", "aria-label": t("your_hand") },
      rows.map((r) => {
        const row = h("div", { class: "hand-row" }, r);
        row.style.setProperty("--n", String(r.length));
        return row;
      }));
  }

  // --- beside (or under) the table: the score sheet, the talk and the log --------------------------------

  side() {
    const v = this.view;
    const parts = [];
    if (v && this.table.status !== "waiting") parts.push(this.game.sheet(this.scoreView(), this));
    parts.push(this.chat.panel());
    // every line kept, in a box that stays scrolled to its newest line (column-reverse)
    parts.push(h("section", { class: "panel log", "data-testid": "log" }, h("h3", {}, t("log")),
      h("div", { class: "log-lines", tabindex: "0", role: "region", "aria-label": t("log") },
        h("ol", {}, this.log.map((x) => {
          if (x.text === undefined && this.game) x.text = this.logText(x.event, x.who); // the game's presenter is here now
          return x.text ? h("li", { class: x.kind }, x.text) : null;
        })))));
    return h("aside", { class: "side" }, parts);
  }
}

// --- helpers ----------------------------------------------------------------------------------------

export function botLevelName(level) {
  const base = String(level).split(":")[0];
  return t("bot_" + base) || level;
}

// A bot is named by its seat, so that two bots can be told apart: "Bot 2 (basic)".
export function botName(seat, level) {
  return t("bot_named", { n: seat + 1, level: botLevelName(level) });
}

// The small mark beside a guest's name: a guest has no account, so anybody may take any guest name.
export function guestMark(kind) {
  return h("span", { class: `${kind} guest-mark`, title: t("guest_long"), "data-testid": "guest-mark" }, t("guest"));
}

function trickCards(trick, n) {
  return trick.cards.map((c, i) => ({ seat: (trick.leader + i) % n, card: c }));
}

function keyOf(el) {
  for (const attr of ["data-card", "data-call", "data-declare", "data-pick", "data-testid"]) {
    const v = el.getAttribute(attr);
    if (v !== null) return `[${attr}="${CSS.escape(v)}"]`;
  }
  return null;
}

// The player asked for notifications: the browser asks them once; refused, the box unticks.
function askToNotify(box) {
  Notification.requestPermission().then((answer) => {
    if (answer !== "granted") {
      setPref("notify", false);
      box.checked = false;
      toast(t("notify_refused"));
    }
  });
}

// "Your turn" while the tab is hidden (through the service worker where there is one: phones
// show only those).
function notify(title, body, tag) {
  if (!pref("notify") || !("Notification" in window) || Notification.permission !== "granted") return;
  const options = { body, tag, icon: "/static/icons/icon-192.png", badge: "/static/icons/icon-192.png", renotify: true };
  const worker = navigator.serviceWorker;
  if (worker && worker.controller) worker.ready.then((reg) => reg.showNotification(title, options)).catch(() => {});
  else {
    try { new Notification(title, options); } catch { /* not here */ }
  }
}
