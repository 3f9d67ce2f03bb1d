// The card table: one websocket (docs/protocol.md), the seat's view drawn as a table seen from the
// player's side, and what the player clicks or types sent as actions. The server is authoritative:
// the page offers only what the view's `legal` lists and decides no rule; the pauses it makes (a
// complete trick, the result of a deal) only hold what the server already said on the screen.
import { t } from "/static/i18n.js";
import { endPanel } from "/static/ratings.js";
import { AccuracyPanel } from "/static/learn.js";
import { h, api, toast, errorText, store, main, nav, syncName, pref, setPref } from "/static/util.js";
import {
  SUIT, SUIT_ORDER, RANKS, splitCard, cardEl, cardButton, backEl, cardLabel, cardName, callLabel, callName,
  bidLabel, contractLabel, strainLabel, declarationLabel, signed,
} from "/static/cards.js";

const SWEEP_MS = 320; // the complete trick's move to its winner (style.css: .sweep)

export class TablePage {
  constructor(id) {
    this.id = id;
    this.n = null; // the number of the last event received
    this.table = null;
    this.view = null;
    this.you = { player: null, seat: null };
    this.log = [];
    this.pending = false;
    this.botLevel = "basic";
    this.allBots = null;
    this.closed = false;
    this.retry = 0;
    this.watchSeat = 0; // a spectator sees the table from this seat's side
    this.held = null; // a complete trick kept on the table: {deal, index, sweeping}
    this.arrived = null; // the card just played (it moves to its place)
    this.dismissed = new Set(); // deal numbers whose result the player closed
    this.showLast = false;
    this.bid = { key: "", level: null }; // the bidding control's level
    this.pick = { key: "", cards: [] }; // 3-5-8 discards chosen, not yet sent
    this.typed = ""; // keyboard: a card or call being typed
    this.myTurn = false;
    this.tick = setInterval(() => this.renderTimer(), 250);
    this.keys = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keys);
    api("GET", "/api/games").then((g) => {
      this.allBots = Object.fromEntries(g.games.map((x) => [x.game, x.bots]));
      this.render();
    }).catch(() => {});
    this.connect();
  }

  leave() {
    this.closed = true;
    clearInterval(this.tick);
    clearTimeout(this.heldTimer);
    document.removeEventListener("keydown", this.keys);
    document.title = t("title");
    if (this.ws) this.ws.close();
    if (this.accuracy) this.accuracy.leave();
  }

  // --- the connection ------------------------------------------------------------------------------

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
      this.held = null;
    } else if (m.type === "event") {
      if (this.n !== null && m.n <= this.n) return; // seen already
      const e = m.event;
      this.addLog({ ...e, n: m.n });
      this.view = m.view;
      this.n = m.n;
      if (e.kind === "sit" || e.kind === "leave") this.you.seat = this.mySeat();
      if (e.kind === "card") {
        this.arrived = { seat: e.seat, card: e.action };
        this.showLast = false;
        if (e.trick_winner !== undefined) this.holdTrick();
        else this.held = null;
      }
      if (e.kind === "deal") this.held = null;
      if (e.kind === "rematch" && this.iAsked && e.table) {
        nav.go(`/table/${e.table}`);
        return;
      }
    }
    this.pending = false;
    this.render();
    this.arrived = null;
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

  heldTrick() {
    const v = this.view;
    const held = this.held;
    if (!held || !v || v.deal_number !== held.deal || v.trick.length || v.tricks.length - 1 !== held.index) return null;
    return held;
  }

  mySeat() {
    if (!this.table || this.you.player === null) return null;
    const s = this.table.seats.find((x) => x.player === this.you.player);
    return s ? s.seat : null;
  }

  // Where a seat sits as seen from this side of the table: "You", "Left", "Partner", "Right".
  shortName(seat) {
    if (seat === this.you.seat) return t("you");
    if (this.you.seat === null) {
      const s = this.table.seats[seat];
      return s && s.bot ? t("bot_n", { n: seat + 1 }) : this.name(seat);
    }
    const where = this.positions()[seat];
    return t(where === "top" ? "partner_short" : "pos_" + where);
  }

  name(seat) {
    const s = this.table && this.table.seats[seat];
    if (!s) return t("seat_n", { n: seat + 1 });
    if (s.bot) return botName(seat, s.bot);
    return s.name || t("seat_n", { n: seat + 1 });
  }

  addLog(e) {
    const who = e.seat !== undefined ? this.name(e.seat) : "";
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
      case "rematch": text = t("log_rematch"); break;
      case "rematch_ask": text = t("rematch_asked", { who }); break;
      case "end": text = e.ended ? t("log_ended") : t(e.agree ? "log_end_agree" : "log_end_decline", { who }); break;
      default: text = null;
    }
    if (text && e.by === "timer") text += ` (${t("by_timer")})`;
    if (text) this.log.push(text);
    if (this.log.length > 60) this.log.splice(0, this.log.length - 60);
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
      const want = text === "P" || text === "PASS" ? "pass" : text === "X" ? "contra" : text === "XX" ? "redouble" : text;
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
    if (!this.table) {
      main.replaceChildren(h("p", { class: "muted" }, t("connecting")));
      return;
    }
    const focused = document.activeElement;
    const keep = focused && main.contains(focused) ? keyOf(focused) : null;
    const tb = this.table;
    const parts = [this.header()];
    if (tb.status === "waiting") parts.push(this.setup());
    else if (this.view) parts.push(this.play());
    parts.push(this.side());
    main.replaceChildren(h("div", { class: `table-page game-${tb.game}` + (tb.status === "waiting" ? " waiting" : "") }, parts));
    main.dataset.n = String(this.n ?? 0); // the last event shown (tests wait on it)
    if (keep) {
      const again = main.querySelector(keep);
      if (again) again.focus({ preventScroll: true });
    }
    this.renderTimer();
    this.cue();
    // the end of a deal shows over the table: bring the table into view once, if it is not
    const shown = main.querySelector(".overlay");
    const key = shown && this.view ? `${this.view.deal_number}` : null;
    if (key && this.scrolledTo !== key) {
      this.scrolledTo = key;
      const box = main.querySelector(".board").getBoundingClientRect();
      if (box.top < 0 || box.bottom > innerHeight) window.scrollTo({ top: Math.max(0, scrollY + box.top - 4) });
    }
  }

  // The "your turn" cue: the action bar lights up (style.css), the tab's title says it, and on
  // request a short sound and a vibration when the turn comes.
  cue() {
    const v = this.view;
    const mine = !!(v && v.legal && this.you.seat !== null && v.to_act === this.you.seat && !v.game_over);
    if (mine && !this.myTurn) {
      if (pref("vibrate") && navigator.vibrate) navigator.vibrate(60);
      if (pref("sound")) beep();
    }
    this.myTurn = mine;
    document.title = (mine ? "● " : "") + t("title");
  }

  header() {
    const tb = this.table;
    const v = this.view;
    const bits = [h("strong", {}, t("game_" + tb.game))];
    if (tb.settings.rated) bits.push(h("span", { class: "badge rated", "data-testid": "rated-badge" }, t("rated")));
    if (tb.game === "bazar-blot") bits.push(h("span", { class: "muted" }, `${t("ruleset_" + tb.settings.ruleset)} · ${t("to_points", { n: tb.settings.options.target })}`));
    if (v && tb.status !== "waiting") {
      const counted = Math.min(9, v.result && !v.result.void ? v.counted : v.counted + 1);
      bits.push(h("span", {}, tb.game === "3-5-8" ? t("deal_of", { n: counted, of: 9 }) : t("deal_n", { n: v.deal_number })));
      if (tb.game === "bazar-blot" && v.contract) {
        const c = v.contract;
        bits.push(h("span", { class: "contract", "data-testid": "contract" }, contractLabel(c), h("small", {}, ` ${this.name(c.seat)}`)));
      }
      if (v.trump && (tb.game === "3-5-8" || v.contract)) {
        bits.push(h("span", { class: `trump-chip suit-${v.trump}`, "data-testid": "trump" }, `${t("trump")} `, h("b", {}, strainLabel(v.trump))));
      }
      if (tb.game === "3-5-8" && v.trump) bits.push(h("span", { class: "muted", "data-testid": "contract" }, t("called_by", { who: this.name(v.caller) })));
    }
    bits.push(h("span", { class: "grow" }));
    if (v && v.tricks.length) {
      bits.push(h("button", { class: "small", "data-testid": "last-trick", "aria-pressed": this.showLast ? "true" : "false", onclick: () => { this.showLast = !this.showLast; this.render(); } }, t("show_last_trick")));
    }
    bits.push(this.settingsMenu());
    return h("div", { class: "table-head" }, bits);
  }

  settingsMenu() {
    const box = (key, label) => h("label", { class: "check" },
      h("input", { type: "checkbox", checked: pref(key), onchange: (e) => { setPref(key, e.target.checked); if (key === "sound" && e.target.checked) beep(); } }),
      h("span", {}, t(label)));
    return h("details", { class: "settings" },
      h("summary", { "aria-label": t("settings") }, "⚙"),
      h("div", { class: "menu" }, box("fourColour", "pref_four_colour"), box("sound", "pref_sound"), box("vibrate", "pref_vibrate")));
  }

  renderTimer() {
    if (!this.table) return;
    const d = this.table.deadline;
    for (const el of main.querySelectorAll("[data-testid=timer-left]")) {
      const left = d ? Math.max(0, (d - Date.now()) / 1000) : 0;
      el.hidden = !d;
      const secs = el.querySelector("b");
      if (secs) secs.textContent = t("seconds", { n: Math.ceil(left) });
      const bar = el.querySelector("i");
      if (bar) bar.style.setProperty("--left", String(Math.min(1, left / (this.table.settings.timer || 1))));
    }
  }

  // --- before the start ----------------------------------------------------------------------------

  setup() {
    const tb = this.table;
    const mine = this.mySeat();
    const bots = (this.allBots && this.allBots[tb.game]) || ["basic", "random"];
    if (!bots.includes(this.botLevel)) this.botLevel = bots[0];
    const level = h("select", { id: "bot-level", "data-testid": "bot-level", onchange: (e) => (this.botLevel = e.target.value) },
      bots.map((b) => h("option", { value: b }, botLevelName(b))));
    level.value = this.botLevel;
    const seats = tb.seats.map((s) => {
      const label = s.bot ? botName(s.seat, s.bot) : s.name || t("empty_seat");
      const actions = [];
      if (!s.name && !s.bot) {
        actions.push(h("button", { "data-testid": `sit-${s.seat}`, onclick: () => this.sit(s.seat) }, t("sit_here")));
        actions.push(h("button", { "data-testid": `add-bot-${s.seat}`, onclick: () => this.post("bot", { seat: s.seat, level: this.botLevel }) }, t("add_bot")));
      } else if (s.bot) {
        actions.push(h("button", { "aria-label": `${t("remove_bot")}: ${label}`, onclick: () => this.post("bot", { seat: s.seat, level: null }) }, t("remove_bot")));
      } else if (s.seat === mine) {
        actions.push(h("button", { "data-testid": "leave-seat", onclick: () => this.post("leave", {}) }, t("leave_seat")));
      }
      return h("li", { class: s.seat === mine ? "mine" : "" }, h("span", { class: "seat-no" }, t("seat_n", { n: s.seat + 1 })),
        h("span", { class: "seat-name" }, label, s.guest ? guestMark("badge") : null, tb.game === "bazar-blot" ? h("small", { class: "muted" }, ` · ${t("team")} ${(s.seat % 2) + 1}`) : null),
        actions);
    });
    const link = `${location.origin}/table/${tb.id}`;
    const full = tb.seats.every((s) => s.name || s.bot);
    return h("section", { class: "panel setup" },
      h("h2", {}, t("seats")),
      h("ul", { class: "seats" }, seats),
      h("div", { class: "row" }, h("label", { for: "bot-level" }, t("bot_level")), level,
        h("button", { "data-testid": "fill-bots", onclick: () => this.post("fill-bots", { level: this.botLevel }) }, t("fill_bots")),
        h("button", { class: "primary", "data-testid": "start", disabled: !full, onclick: () => this.post("start", {}) }, t("start"))),
      h("p", {}, t(tb.public ? "invite_public" : "invite_private")),
      h("div", { class: "row" }, h("input", { readonly: true, value: link, "aria-label": t("invite_link"), "data-testid": "invite-link", onclick: (e) => e.target.select() }),
        h("button", { onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast(t("copied"))) }, t("copy"))));
  }

  async sit(seat) {
    try {
      await syncName();
    } catch (e) {
      toast(errorText(e.code, e.message));
      return;
    }
    await this.post("sit", { seat });
    this.you.seat = this.mySeat();
  }

  async post(what, body) {
    try {
      this.table = await api("POST", `/api/tables/${this.id}/${what}`, body);
      this.render();
    } catch (e) {
      toast(errorText(e.code, e.message));
    }
  }

  // A rated game's rematch starts once every person asked: until then the answer is this table.
  async rematch() {
    this.iAsked = true;
    try {
      const table = await api("POST", `/api/tables/${this.id}/rematch`);
      if (table.id === this.id) {
        this.table = table;
        this.render();
        return;
      }
      nav.go(`/table/${table.id}`);
    } catch (e) {
      this.iAsked = false;
      toast(errorText(e.code, e.message));
    }
  }

  // --- the game ------------------------------------------------------------------------------------

  base() {
    return this.you.seat === null ? this.watchSeat : this.you.seat;
  }

  positions() {
    const n = this.table.seats.length;
    // Bazar Blot goes clockwise (B-1): the next seat is on the left; 3-5-8 counter-clockwise
    // (T-1): the next seat is on the right.
    const names = n === 4 ? ["bottom", "left", "top", "right"] : ["bottom", "right", "left"];
    const out = {};
    for (let s = 0; s < n; s++) out[s] = names[(s - this.base() + n) % n];
    return out;
  }

  play() {
    const v = this.view;
    const pos = this.positions();
    const n = this.table.seats.length;
    const boxes = [];
    for (let s = 0; s < n; s++) boxes.push(this.seatBox(s, pos[s]));
    const board = h("section", { class: `board seats-${n}`, "aria-label": t("table_label") }, boxes, this.center(pos), this.overlay());
    const parts = [board, this.actionBar()];
    if (this.you.seat !== null) parts.push(this.hand());
    else parts.push(this.spectatorBar());
    return h("div", { class: "play" }, parts);
  }

  spectatorBar() {
    const n = this.table.seats.length;
    return h("div", { class: "spectating" }, h("span", {}, t("spectating", { who: this.name(this.watchSeat) })),
      h("button", { class: "small", "data-testid": "turn-table", onclick: () => { this.watchSeat = (this.watchSeat + 1) % n; this.render(); } }, t("turn_table")));
  }

  seatBox(s, where) {
    const v = this.view;
    const seat = this.table.seats[s];
    const own = s === this.you.seat;
    const badges = [];
    if (v.dealer === s) badges.push(h("span", { class: "chip dealer", title: t("dealer") }, t("dealer_short")));
    if (seat.away && !seat.substitute) badges.push(h("span", { class: "chip warn" }, t("away")));
    if (seat.substitute) badges.push(h("span", { class: "chip warn" }, t("bot_plays")));
    if (seat.guest) badges.push(guestMark("chip"));
    const info = [];
    if (v.game === "bazar-blot") {
      info.push(h("span", { class: "tricks" }, t("tricks_n", { n: v.tricks_won[s] })));
      const said = v.announced.filter((a) => a.seat === s);
      if (said.length && v.tricks.length === 0) info.push(h("span", { class: "chip" }, said.map(declarationLabel).join(", ")));
      const shown = v.shown.filter((a) => a.seat === s);
      if (shown.length) info.push(h("span", { class: "chip" }, shown.map(declarationLabel).join(", ")));
      const bel = v.belotes.filter((b) => b.seat === s);
      if (bel.length) info.push(h("span", { class: "chip" }, t(bel.length === 1 ? "belote" : "rebelote")));
      if (v.contract && v.contract.seat === s) info.push(h("span", { class: "chip contract-chip" }, contractLabel(v.contract)));
    } else {
      const taken = v.tricks_taken[s];
      const target = v.targets[s];
      info.push(h("span", { class: "tricks" + (taken > target ? " over" : taken === target ? " made" : "") }, t("tricks_of", { n: taken, of: target })));
      if (!v.may_pass[s]) info.push(h("span", { class: "chip used", title: t("pass_used_long") }, t("pass_used")));
      if (v.caller === s && v.trump) info.push(h("span", { class: "chip contract-chip" }, strainLabel(v.trump)));
    }
    const calling = v.phase === "bidding" || v.phase === "call";
    const call = calling ? [...v.calls].reverse().find((c) => c.seat === s) : null;
    const toAct = v.to_act === s && !v.result;
    return h("div", { class: `seat-box pos-${where}` + (toAct ? " to-act" : "") + (own ? " own" : ""), "data-seat": s, "data-testid": `seat-${s}` },
      h("div", { class: "seat-name" }, toAct ? h("span", { class: "turn-mark", "aria-label": t("to_act") }, "▶") : null,
        h("span", { class: "who", title: this.name(s) }, seat.bot ? t("bot_n", { n: s + 1 }) : this.name(s)), badges),
      seat.bot ? h("div", { class: "level" }, botLevelName(seat.bot)) : null,
      h("div", { class: "seat-info" }, info),
      own || where === "bottom" && this.you.seat === null ? null : h("div", { class: "backs", role: "img", "aria-label": t("cards_left", { n: v.hand_sizes[s] }) },
        Array.from({ length: Math.min(v.hand_sizes[s], 8) }, () => backEl()), h("small", {}, String(v.hand_sizes[s]))),
      where === "bottom" && this.you.seat === null ? h("div", { class: "backs" }, h("small", {}, t("cards_left", { n: v.hand_sizes[s] }))) : null,
      call ? h("div", { class: "bubble" + (/H|D$/.test(call.call) ? " red" : "") }, callLabel(call.call)) : null,
      toAct && this.table.deadline ? h("div", { class: "timer", "data-testid": "timer-left", role: "timer", "aria-label": t("turn_timer") }, h("i"), h("b")) : null);
  }

  center(pos) {
    const v = this.view;
    const n = this.table.seats.length;
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
    } else if (v.phase === "bidding" || v.phase === "call") {
      inner.push(this.callsGrid());
    } else if (v.phase === "exchange") {
      inner.push(this.exchangePanel());
    } else if (v.phase === "discard" || (v.game === "3-5-8" && v.phase === "play" && !v.tricks.length && v.talon)) {
      inner.push(this.talonPanel());
    } else if (v.phase === "play" && v.to_act !== null) {
      inner.push(h("div", { class: "center-title" }, t("leads", { who: this.name(v.to_act) })));
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

  // The bidding so far in seat columns, from the first to call (as bridge sites show it).
  callsGrid() {
    const v = this.view;
    const n = this.table.seats.length;
    const first = (v.dealer + 1) % n;
    const order = Array.from({ length: n }, (_, i) => (first + i) % n);
    const cells = v.calls.map((c) => h("td", { class: /H|D$/.test(c.call) ? "red" : "" }, callLabel(c.call)));
    if (v.to_act !== null && !v.result) cells.push(h("td", { class: "next" }, "?"));
    const rows = [];
    for (let i = 0; i < cells.length; i += n) rows.push(h("tr", {}, cells.slice(i, i + n)));
    const table = h("table", { class: "calls-grid", "data-testid": "calls" },
      h("thead", {}, h("tr", {}, order.map((s) => h("th", { scope: "col", title: this.name(s) }, this.shortName(s))))),
      h("tbody", {}, rows));
    const title = v.game === "3-5-8" ? t("trump_call") : t("bidding");
    return h("div", { class: "calls-box" }, h("div", { class: "center-title" }, title), table);
  }

  // 3-5-8, T-20/T-21: who gives how many cards to whom, and why.
  exchangePanel() {
    const v = this.view;
    const last = [...v.history].reverse().find((r) => !r.void);
    const me = this.you.seat;
    const lines = [];
    if (last) {
      for (let s = 0; s < 3; s++) {
        const d = last.tricks[s] - last.targets[s];
        if (d > 0) {
          const to = [...new Set(v.plan.filter((p) => p.giver === s).map((p) => p.receiver))];
          lines.push(h("li", {}, t(s === me ? "exchange_you_give" : "exchange_gives", {
            who: this.name(s), took: last.tricks[s], of: last.targets[s], n: d, to: to.map((x) => (x === me ? t("you_dative") : this.name(x))).join(", "),
          })));
        }
      }
    }
    // the steps grouped by giver and receiver: "Right → You 1/2: 3♣ → 9♣"
    const groups = [];
    v.plan.forEach((p, i) => {
      const last = groups[groups.length - 1];
      const g = last && last.giver === p.giver && last.receiver === p.receiver ? last : { giver: p.giver, receiver: p.receiver, steps: [] };
      if (g !== last) groups.push(g);
      g.steps.push(i);
    });
    const now = v.exchanges.length;
    const steps = groups.map((g) => {
      const done = g.steps.filter((i) => i < now);
      const cards = done.map((i) => v.exchanges[i]).filter((e) => e.gift).map((e) => `${cardLabel(e.gift)}→${cardLabel(e.returned)}`);
      const current = g.steps.includes(now);
      return h("li", { class: current ? "now" : done.length === g.steps.length ? "done" : "" },
        `${this.shortName(g.giver)} → ${this.shortName(g.receiver)}: ${done.length}/${g.steps.length}`,
        cards.length ? h("small", {}, ` ${cards.join(", ")}`) : null);
    });
    return h("div", { class: "exchange", "data-testid": "exchange" },
      h("div", { class: "center-title" }, t("exchange_title")),
      h("ul", { class: "why" }, lines),
      h("ul", { class: "steps" }, steps),
      h("details", { class: "rule" }, h("summary", {}, t("exchange_how")), t("exchange_rule")));
  }

  talonPanel() {
    const v = this.view;
    const holder = (v.dealer + 1) % 3;
    return h("div", { class: "talon", "data-testid": "talon" },
      h("div", { class: "center-title" }, v.phase !== "discard" ? t("talon") : holder === this.you.seat ? t("talon_yours") : t("talon_taken", { who: this.name(holder) })),
      h("div", { class: "talon-cards" }, v.talon.map((c) => cardEl(c))));
  }

  // --- the end of a deal, over the table ------------------------------------------------------------

  overlay() {
    const v = this.view;
    if (!v.result || this.heldTrick()) return null;
    if (this.dismissed.has(v.deal_number) && !v.game_over) return null;
    if (this.dismissed.has(v.deal_number)) return h("div", { class: "reopen" }, h("button", { class: "small", onclick: () => { this.dismissed.delete(v.deal_number); this.render(); } }, t("show_result")));
    const close = h("button", { class: "small close", "aria-label": t("close"), onclick: () => { this.dismissed.add(v.deal_number); this.render(); } }, "×");
    return h("div", { class: "overlay", role: "dialog", "aria-label": t("deal_result") },
      h("div", { class: "overlay-card" }, close,
        v.game_over ? this.gameOver() : null,
        this.resultPanel(v.result),
        v.game_over ? null : h("p", { class: "muted next" }, t("next_deal_soon"))));
  }

  // "We" and "They" for a seated player, else the names.
  teamLabel(team) {
    if (this.you.seat === null) return this.teamName(team);
    return t(this.you.seat % 2 === team ? "we" : "they");
  }

  teamName(team) {
    const seats = this.table.seats.map((_, i) => i).filter((i) => i % 2 === team);
    return seats.map((s) => (this.table.seats[s].bot ? t("bot_n", { n: s + 1 }) : this.name(s))).join(" & ");
  }

  resultPanel(r) {
    const v = this.view;
    if (this.table.game === "bazar-blot") {
      if (r.void) return h("section", { class: "result", "data-testid": "deal-result" }, h("h2", {}, t("deal_result_n", { n: v.deal_number })), h("p", {}, t("void_deal")));
      const c = r.contract;
      const mine = this.you.seat === null ? null : this.you.seat % 2;
      const rows = [["tricks", r.tricks], ["card_points", r.card_points], ["declarations", r.declaration_points], ["belote_points", r.belote], ["points", r.points], ["game_total", v.totals]];
      return h("section", { class: "result", "data-testid": "deal-result" },
        h("h2", {}, t("deal_result_n", { n: v.deal_number })),
        h("p", { class: "verdict " + (r.made ? "made" : "failed") }, h("b", {}, contractLabel(c)), ` ${this.name(c.seat)} — `,
          h("strong", { "data-testid": "made" }, t(r.made ? "made" : "failed")), r.tars_kapoot ? ` (${t("tars_kapoot")})` : ""),
        h("table", { class: "result-table" },
          h("thead", {}, h("tr", {}, h("td"), [0, 1].map((tm) => h("th", { scope: "col", class: tm === mine ? "us" : "" }, tm === mine ? t("we") : mine === null ? this.teamName(tm) : t("they"))))),
          h("tbody", {}, rows.map(([k, pair]) => h("tr", { class: k === "points" ? "total" : k === "game_total" ? "running" : "" }, h("th", { scope: "row" }, t(k)), h("td", {}, pair[0]), h("td", {}, pair[1]))))));
    }
    if (r.void) return h("section", { class: "result", "data-testid": "deal-result" }, h("h2", {}, t("deal_result")), h("p", {}, t("void_deal_358")));
    return h("section", { class: "result", "data-testid": "deal-result" },
      h("h2", {}, t("deal_result_n", { n: v.counted })),
      h("p", {}, `${t("trump")}: `, h("b", {}, callLabel(r.trump)), ` — ${this.name(r.caller)}`),
      h("table", { class: "result-table" },
        h("thead", {}, h("tr", {}, h("td"), h("th", { scope: "col" }, t("target")), h("th", { scope: "col" }, t("tricks")), h("th", { scope: "col" }, t("score")), h("th", { scope: "col" }, t("total")))),
        h("tbody", {}, r.targets.map((tg, s) => h("tr", { class: s === this.you.seat ? "us" : "" }, h("th", { scope: "row" }, this.name(s)), h("td", {}, tg), h("td", {}, r.tricks[s]), h("td", { class: r.scores[s] > 0 ? "plus" : r.scores[s] < 0 ? "minus" : "" }, signed(r.scores[s])), h("td", {}, signed(v.totals[s])))))));
  }

  gameOver() {
    const g = this.view.game_over;
    const tb = this.table;
    const winner = tb.game === "bazar-blot" ? this.teamName(g.winner) : this.name(g.winner);
    const seated = this.you.seat !== null;
    // each player's accuracy once the server has analysed the game (issue 28)
    if (!this.accuracy) this.accuracy = new AccuracyPanel(this.id, () => this.render());
    return h("section", { class: "game-over", "data-testid": "game-over" },
      h("h2", {}, t("game_over")),
      h("p", { class: "winner" }, t("winner_is", { who: winner })),
      g.match_score ? h("p", {}, `${t("match_score")}: `, h("strong", { "data-testid": "match-score" }, g.match_score), g.tars_kapoot ? ` (${t("tars_kapoot")})` : "") : null,
      h("p", {}, `${t("total")}: ${g.totals.join(" : ")}`),
      this.accuracy.view((s) => this.name(s)),
      this.rematchNote(),
      h("div", { class: "row" },
        tb.rematch ? h("a", { class: "button primary", href: `/table/${tb.rematch}`, "data-link": true, "data-testid": "rematch" }, t("join_rematch"))
          : seated && !(tb.rematch_asks || []).includes(this.you.seat)
            ? h("button", { class: "primary", "data-testid": "rematch", onclick: () => this.rematch() }, t((tb.rematch_asks || []).length ? "rematch_accept" : "rematch")) : null,
        h("a", { href: `/replay/${this.id}`, "data-link": true }, t("watch_replay")),
        h("a", { href: `/api/tables/${this.id}/record?download=1`, download: `blot-${this.id}.json`, "data-testid": "download-record" }, t("download_record"))));
  }

  // Who asked for a rated game's rematch and whom it waits for (every person must accept it).
  rematchNote() {
    const tb = this.table;
    const asks = tb.rematch_asks || [];
    if (tb.rematch || !asks.length) return null;
    const people = tb.seats.filter((s) => s.player !== null).map((s) => s.seat);
    const waiting = people.filter((s) => !asks.includes(s));
    const text = asks.includes(this.you.seat)
      ? t("rematch_waiting", { who: waiting.map((s) => this.name(s)).join(", ") })
      : t("rematch_asked", { who: asks.map((s) => this.name(s)).join(", ") });
    return h("p", { class: "muted", "data-testid": "rematch-note" }, text);
  }

  // --- what the player does now ----------------------------------------------------------------------

  actionBar() {
    const v = this.view;
    const L = v.legal;
    const parts = [];
    const mine = L && this.you.seat !== null && v.to_act === this.you.seat && !v.game_over;
    if (!mine) {
      if (v.to_act !== null && v.to_act !== undefined && !v.result) parts.push(h("div", { class: "waiting" }, t("waiting_for", { who: this.name(v.to_act) })));
    } else {
      parts.push(this.prompt());
    }
    parts.push(h("div", { class: "typed", hidden: !this.typed }, this.typed ? `⌨ ${this.typed.toUpperCase()}` : ""));
    return h("div", { class: "action-bar" + (mine ? " mine" : parts.length > 1 ? "" : " empty"), "aria-live": "polite" }, parts);
  }

  prompt() {
    const v = this.view;
    const L = v.legal;
    const dis = this.pending;
    if (L.kind === "call") return v.game === "3-5-8" ? this.trumpCall(L.calls, dis) : this.biddingControl(L.calls, dis);
    if (L.kind === "declare") {
      const best = L.best;
      const label = (texts) => texts.length ? texts.map((x) => x.split(" ").map(cardLabel).join(" ")).join(" + ") : t("nothing");
      const finer = L.options.map((opt, i) => [opt, i]).filter(([opt]) => opt.length && JSON.stringify(opt) !== JSON.stringify(best));
      return h("div", { class: "prompt declare", "data-testid": "declare" },
        h("div", { class: "your-turn" }, t("your_declarations")),
        h("div", { class: "calls" },
          h("button", { class: "primary", "data-declare": "best", disabled: dis, onclick: () => this.send({ declare: "best" }) }, `${t("declare_best")}: ${label(best)}`),
          h("button", { "data-declare": "none", disabled: dis, onclick: () => this.send({ declare: "none" }) }, t("declare_none")),
          finer.map(([opt, i]) => h("button", { "data-declare": String(i), disabled: dis, onclick: () => this.send({ declare: opt }) }, label(opt)))));
    }
    if (L.kind === "give") {
      const done = v.exchanges.filter((e) => e.giver === this.you.seat).length;
      const all = v.plan.filter((p) => p.giver === this.you.seat).length;
      return h("div", { class: "prompt" }, h("div", { class: "your-turn" }, t("give_card_n", { to: this.name(L.to), i: done + 1, n: all })));
    }
    if (L.kind === "discard") return this.discardControl(L, dis);
    return h("div", { class: "prompt" }, h("div", { class: "your-turn" }, t("your_card")));
  }

  // Bazar Blot: a level stepper and the five strains (only the bids `legal` lists are live), and
  // pass / contra / redouble / four sevens when legal; the hand stays in view.
  biddingControl(calls, dis) {
    const special = calls.filter((c) => !/^\d/.test(c));
    const bids = calls.filter((c) => /^\d/.test(c));
    const levels = [...new Set(bids.map((b) => parseInt(b, 10)))].sort((a, b) => a - b);
    const key = calls.join(",");
    if (this.bid.key !== key) this.bid = { key, level: levels.length ? levels[0] : null };
    const lvl = this.bid.level;
    const step = (d) => {
      const i = levels.indexOf(lvl) + d;
      if (i >= 0 && i < levels.length) {
        this.bid.level = levels[i];
        this.render();
      }
    };
    const strains = ["S", "H", "D", "C", "NT"].map((st) => {
      const call = `${lvl}${st}`;
      const ok = bids.includes(call);
      return h("button", { class: "strain" + (st === "H" || st === "D" ? " red" : "") + ` suit-${st}`, "data-call": ok ? call : null, disabled: dis || !ok,
        "aria-label": callName(call), onclick: () => this.send({ action: call }) }, strainLabel(st));
    });
    const row = levels.length ? h("div", { class: "bid-row" },
      h("div", { class: "stepper", role: "group", "aria-label": t("level") },
        h("button", { class: "step", "aria-label": t("lower"), disabled: lvl === levels[0], onclick: () => step(-1) }, "−"),
        h("output", { class: "level", "data-testid": "bid-level", "aria-live": "polite" }, String(lvl)),
        h("button", { class: "step", "aria-label": t("higher"), disabled: lvl === levels[levels.length - 1], onclick: () => step(1) }, "+")),
      h("div", { class: "strains" }, strains)) : null;
    return h("div", { class: "prompt bidding", "data-testid": "bidding" },
      h("div", { class: "your-turn" }, t("your_call")),
      row,
      h("div", { class: "calls" }, special.map((c) => h("button", { "data-call": c, class: c === "pass" ? "pass" : "", disabled: dis, onclick: () => this.send({ action: c }) }, callLabel(c)))));
  }

  trumpCall(calls, dis) {
    const v = this.view;
    const canPass = calls.includes("pass");
    return h("div", { class: "prompt bidding", "data-testid": "bidding" },
      h("div", { class: "your-turn" }, t("your_trump_call")),
      h("div", { class: "strains" }, calls.filter((c) => c !== "pass").map((c) => h("button", { class: "strain" + (c === "H" || c === "D" ? " red" : "") + ` suit-${c}`, "data-call": c, disabled: dis, "aria-label": callName(c), onclick: () => this.send({ action: c }) }, callLabel(c)))),
      h("div", { class: "calls" }, canPass ? h("button", { "data-call": "pass", class: "pass", disabled: dis, onclick: () => this.send({ action: "pass" }) }, t("pass_once")) : h("span", { class: "muted" }, t("pass_used_long"))));
  }

  // 3-5-8, T-22: choose the cards to put back (tap again to take one back), then confirm; the
  // choices go to the server only then, one card each.
  discardControl(L, dis) {
    const key = `${this.view.deal_number}:${L.left}`;
    if (this.pick.key !== key) this.pick = { key, cards: [] };
    const picked = this.pick.cards;
    return h("div", { class: "prompt discard" },
      h("div", { class: "your-turn" }, t("discard_choose", { n: L.left, k: picked.length })),
      h("div", { class: "picked" }, picked.map((c) => cardButton(c, { class: "mini", "data-pick": c, "aria-label": `${t("undo")}: ${cardName(c)}`, onclick: () => this.togglePick(c) }))),
      h("div", { class: "calls" },
        h("button", { class: "primary", "data-testid": "discard-confirm", disabled: dis || picked.length !== L.left, onclick: () => this.confirmDiscard() }, t("discard_confirm", { n: L.left })),
        picked.length ? h("button", { "data-testid": "discard-undo", onclick: () => { this.pick.cards = []; this.render(); } }, t("undo")) : null));
  }

  togglePick(card) {
    const L = this.view.legal;
    const cards = this.pick.cards;
    const at = cards.indexOf(card);
    if (at >= 0) cards.splice(at, 1);
    else if (cards.length < L.left) cards.push(card);
    this.render();
  }

  confirmDiscard() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || this.pending) return;
    this.pending = true;
    // The actor handles them in order; each is checked by the rules like any action.
    for (const c of this.pick.cards) this.ws.send(JSON.stringify({ type: "action", action: c }));
    this.pick.cards = [];
    this.render();
  }

  hand() {
    const v = this.view;
    const L = v.legal;
    const myTurn = L && v.to_act === this.you.seat;
    const legal = new Set(myTurn && L.cards ? L.cards : []);
    const discarding = myTurn && L.kind === "discard";
    const picked = new Set(discarding ? this.pick.cards : []);
    const rank = (c) => RANKS.indexOf(splitCard(c).rank);
    const cards = SUIT_ORDER.flatMap((s) => v.hand.filter((c) => splitCard(c).suit === s).sort((a, b) => rank(a) - rank(b)));
    const trump = v.trump && v.trump !== "NT" && (v.game === "3-5-8" || v.contract) ? v.trump : null;
    const els = cards.map((c) => {
      const ok = legal.has(c);
      const suit = splitCard(c).suit;
      const cls = [ok ? "legal" : myTurn && L.cards ? "illegal" : "idle", suit === trump ? "trump" : "", picked.has(c) ? "picked" : ""].join(" ");
      const el = cardButton(c, { "data-card": c, "data-legal": ok ? "true" : null, class: cls, "aria-disabled": ok ? null : "true",
        "aria-pressed": discarding ? (picked.has(c) ? "true" : "false") : null, tabindex: ok ? null : "-1" });
      if (ok && !this.pending) el.addEventListener("click", () => (discarding ? this.togglePick(c) : this.send({ action: c })));
      return el;
    });
    // one row up to ten cards (and always on a wide screen), else two rows
    const rows = els.length > 10 && window.innerWidth < 700 ? [els.slice(0, Math.ceil(els.length / 2)), els.slice(Math.ceil(els.length / 2))] : [els];
    return h("div", { class: "hand" + (myTurn && L.cards ? " choosing" : ""), "data-testid": "hand", role: "group", "aria-label": t("your_hand") },
      rows.map((r) => {
        const row = h("div", { class: "hand-row" }, r);
        row.style.setProperty("--n", String(r.length));
        return row;
      }));
  }

  // --- beside the table: the score sheet and the log ---------------------------------------------------

  side() {
    const v = this.view;
    const parts = [endPanel(h, this)];
    if (v && this.table.status !== "waiting") parts.push(this.sheet());
    parts.push(h("section", { class: "panel log", "data-testid": "log" }, h("h3", {}, t("log")), h("ol", {}, this.log.slice(-12).map((x) => h("li", {}, x)))));
    return h("aside", { class: "side" }, parts);
  }

  sheet() {
    const v = this.view;
    const deals = [...v.history, ...(v.result ? [v.result] : [])].filter((r) => !r.void);
    const totals = v.game_over ? v.game_over.totals : v.totals;
    if (this.table.game === "bazar-blot") {
      const rows = deals.map((r, i) => {
        const c = r.contract;
        return h("tr", { class: r.made ? "" : "failed" }, h("td", {}, i + 1), h("td", { class: "bid" }, `${contractLabel(c)}${r.made ? "" : " ✗"}`), h("td", {}, r.points[0]), h("td", {}, r.points[1]));
      });
      return h("section", { class: "panel sheet", "data-testid": "score-sheet" }, h("h3", {}, t("score_sheet")),
        h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("contract")), h("th", { scope: "col" }, this.teamLabel(0)), h("th", { scope: "col" }, this.teamLabel(1)))),
          h("tbody", {}, rows, h("tr", { class: "total", "data-testid": "score-total" }, h("td"), h("td", {}, t("total")), h("td", {}, totals[0]), h("td", {}, totals[1])))));
    }
    const rows = deals.map((r, i) => h("tr", {}, h("td", {}, i + 1), h("td", {}, callLabel(r.trump)), r.scores.map((x) => h("td", {}, signed(x)))));
    return h("section", { class: "panel sheet", "data-testid": "score-sheet" }, h("h3", {}, `${t("score_sheet")} (${v.counted}/9)`),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("trump")), [0, 1, 2].map((s) => h("th", { scope: "col", title: this.name(s) }, this.shortName(s))))),
        h("tbody", {}, rows, h("tr", { class: "total", "data-testid": "score-total" }, h("td"), h("td", {}, t("total")), totals.map((x) => h("td", {}, signed(x)))))));
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

let audio = null;
function beep() {
  try {
    audio ||= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch { /* no sound here */ }
}

export { SUIT, bidLabel };
