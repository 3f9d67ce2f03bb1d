// Talk at the table (docs/protocol.md, "Talk at the table"): quick phrases and emotes for everybody,
// free text at casual tables, shown as bubbles by the seat for a few seconds and in the table's log.
// Players and spectators talk in two rooms. What may be said and when is the server's to decide (at
// a rated or event table nobody says anything during a deal); the page only greys out what it
// would refuse. A guest's message carries a guest mark (a guest may look like an account).
// Messages are always shown as text, never as HTML.
import { t } from "/static/i18n.js";
import { h } from "/static/util.js";
import { icon } from "/static/icons.js";

const BUBBLE_MS = 4500;
const SHOWN = 40; // messages kept in the panel
const TEXT_LIMIT = 200;

// The guest mark beside an author's name (as table.js marks a guest's seat).
function guestMark() {
  return h("span", { class: "badge guest-mark", title: t("guest_long"), "data-testid": "chat-guest" }, t("guest"));
}

export class ChatBox {
  constructor(page) {
    this.page = page;
    this.state = null; // the room's rules as the server sent them (chat_history)
    this.messages = [];
    this.muted = new Set();
    this.open = false;
    this.unread = 0;
    this.said = {}; // seat -> {text, until}: the bubble by the seat
    this.draft = "";
  }

  receive(m) {
    if (m.type === "chat_history") {
      this.state = m;
      this.messages = m.messages;
      this.muted = new Set(m.muted);
    } else if (m.type === "muted") {
      this.muted = new Set(m.players);
    } else if (m.type === "chat") {
      const said = m.message;
      if (!this.state) return;
      this.messages.push(said);
      if (this.messages.length > SHOWN) this.messages.splice(0, this.messages.length - SHOWN);
      if (said.kind === "off" || said.kind === "on") this.state.on = said.kind === "on";
      const text = this.words(said);
      if (said.seat !== null && said.room === "players" && said.kind !== "off" && said.kind !== "on") {
        this.said[said.seat] = { text, until: Date.now() + BUBBLE_MS };
      }
      const who = said.guest ? `${this.author(said)} (${t("guest")})` : this.author(said);
      this.page.addLine(`${who}: ${text}`, "said");
      const live = document.getElementById("announcer");
      if (live) live.textContent = `${who}: ${text}`;
      if (!this.open) this.unread++;
    }
    this.page.render();
  }

  // The room changed (a spectator sat down): its talk is asked for again.
  refresh() {
    this.page.push({ type: "chat_history" });
  }

  expire(now) {
    for (const [seat, b] of Object.entries(this.said)) {
      if (b.until > now) continue;
      delete this.said[seat];
      const el = document.querySelector(`[data-testid=say-${seat}]`);
      if (el) el.remove();
    }
  }

  author(said) {
    if (said.seat !== null && said.room === "players" && this.page.table) return this.page.name(said.seat);
    return said.name;
  }

  words(said) {
    if (said.kind === "phrase") return t("phrase_" + said.body) || said.body;
    if (said.kind === "off") return t("chat_turned_off");
    if (said.kind === "on") return t("chat_turned_on");
    return said.body;
  }

  // Why nothing may be said now (a sentence), or null.
  silence() {
    const s = this.state;
    const page = this.page;
    if (!s) return t("connecting");
    if (page.you.player === null) return t("chat_need_player");
    if (!s.on) return t("chat_is_off");
    const v = page.view;
    const inDeal = page.table.status === "playing" && v && !v.result && !v.game_over;
    const league = page.table.settings.rated || page.table.settings.event;
    if (league && inDeal) return t("chat_rated_wait");
    return null;
  }

  // At a rated or event table the host's switch waits for the deal's end, as the server says.
  switchLocked() {
    const page = this.page;
    const v = page.view;
    const league = page.table && (page.table.settings.rated || page.table.settings.event);
    return Boolean(league && page.table.status === "playing" && v && !v.result && !v.game_over);
  }

  say(message) {
    this.page.push({ type: "chat", ...message });
  }

  button() {
    const label = this.unread ? t("chat_unread", { n: this.unread }) : t("chat");
    return h("button", { class: "icon chat-button", "data-testid": "chat", "aria-expanded": this.open ? "true" : "false", "aria-label": label, title: label,
      onclick: () => { this.open = !this.open; this.unread = 0; this.page.render(); } },
      icon("chat"), this.unread ? h("span", { class: "unread", "aria-hidden": "true" }, String(this.unread)) : null);
  }

  // The talk, the phrases and emotes, the text box and who is muted: a sheet over the page.
  sheet() {
    if (!this.open) return null;
    const s = this.state;
    const quiet = this.silence();
    const shown = this.messages.filter((m) => !this.muted.has(m.player) || m.kind === "off" || m.kind === "on");
    const list = h("ol", { class: "chat-list", "data-testid": "chat-messages", "aria-live": "polite" },
      shown.length ? shown.map((m) => h("li", { class: m.kind === "off" || m.kind === "on" ? "switch" : m.player === this.page.you.player ? "mine" : "" },
        h("b", {}, this.author(m)), m.guest ? guestMark() : null, " ", h("span", { class: m.kind === "emote" ? "emote" : "" }, this.words(m))))
        : h("li", { class: "muted" }, t("chat_empty")));
    const phrases = s ? h("div", { class: "phrases", role: "group", "aria-label": t("chat_phrases") },
      s.phrases.map((p) => h("button", { class: "small", "data-phrase": p, disabled: Boolean(quiet), onclick: () => this.say({ phrase: p }) }, t("phrase_" + p))),
      s.emotes.map((e) => h("button", { class: "small emote", "data-emote": e, "aria-label": e, disabled: Boolean(quiet), onclick: () => this.say({ emote: e }) }, e))) : null;
    let form = null;
    if (s && s.free_text) {
      const input = h("input", { type: "text", maxlength: TEXT_LIMIT, value: this.draft, disabled: Boolean(quiet), "data-testid": "chat-text",
        "aria-label": t("chat_write"), placeholder: t("chat_write"), autocomplete: "off", oninput: (e) => (this.draft = e.target.value) });
      form = h("form", { class: "chat-form", onsubmit: (e) => {
        e.preventDefault();
        const text = this.draft.trim();
        if (!text) return;
        this.say({ text });
        this.draft = "";
        input.value = "";
      } }, input, h("button", { type: "submit", class: "primary small", disabled: Boolean(quiet), "data-testid": "chat-send" }, t("chat_send")));
    } else if (s) {
      form = h("p", { class: "muted small" }, t("chat_no_text"));
    }
    return h("div", { class: "chat-sheet", role: "dialog", "aria-label": t("chat"), "data-testid": "chat-sheet" },
      h("div", { class: "chat-head" }, h("h2", {}, t(s && s.room === "spectators" ? "chat_spectators" : "chat")),
        h("button", { class: "small close", "aria-label": t("close"), title: t("close"), onclick: () => { this.open = false; this.page.render(); } }, "×")),
      list,
      quiet ? h("p", { class: "chat-quiet small", "data-testid": "chat-quiet" }, quiet) : null,
      phrases, form, this.muteList());
  }

  // Everybody who spoke or sits here (but oneself): mute or hear again.
  muteList() {
    const me = this.page.you.player;
    const people = new Map();
    for (const seat of this.page.table.seats) if (seat.player !== null && seat.player !== me) people.set(seat.player, this.page.name(seat.seat));
    for (const m of this.messages) if (m.player !== me && !people.has(m.player)) people.set(m.player, m.name);
    if (!people.size || me === null) return null;
    return h("details", { class: "mutes", open: this.mutesOpen, ontoggle: (e) => (this.mutesOpen = e.target.open) }, h("summary", {}, t("chat_mutes")),
      h("ul", {}, [...people].map(([player, name]) => {
        const muted = this.muted.has(player);
        return h("li", {}, h("span", {}, name), h("button", { class: "small", "data-testid": `mute-${player}`, "aria-pressed": muted ? "true" : "false",
          onclick: () => this.page.push({ type: "mute", player, muted: !muted }) }, t(muted ? "chat_unmute" : "chat_mute")));
      })));
  }

  // The table's log holds the talk; the side has nothing more of it.
  panel() {
    return null;
  }

  // What each seat said a moment ago, by the seat.
  bubbles(pos) {
    const now = Date.now();
    return Object.entries(this.said).filter(([, b]) => b.until > now).map(([seat, b]) =>
      h("div", { class: `say pos-${pos[seat]}`, "data-testid": `say-${seat}` }, b.text));
  }

  // The host's switch, in the table's menu (greyed out while it would be refused).
  switchItem() {
    const on = !this.state || this.state.on;
    return h("label", { class: "check" },
      h("input", { type: "checkbox", checked: on, "data-testid": "chat-switch", disabled: this.switchLocked(), onchange: (e) => this.page.push({ type: "chat_switch", on: e.target.checked }) }),
      h("span", {}, t("chat_allowed")));
  }
}
