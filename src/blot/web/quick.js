// A quick game (issue 41 item 3) and "play for me" (item 6). "Find a game" waits on the server
// (POST /api/quick) for people who want the same game, ruleset and ratedness; the page asks how
// the wait stands every two seconds (a page that stops asking is dropped by the server) and
// counts the wait the server measured. After a while it offers to fill the empty seats with bots.
// Leaving the page stops the wait. docs/protocol.md, "A quick game".
import { t } from "/static/i18n.js";
import { h, api, toast, refusalText, store } from "/static/util.js";

const POLL_MS = 2000;

// The panel that waits now: a closed tab or a reload stops its wait too (pagehide).
let current = null;
addEventListener("pagehide", () => current && current.leave());

// "1:07": a wait in minutes and seconds.
function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class QuickPanel {
  // onChange: draw the lobby again; go: open a path (the table once seated).
  constructor(onChange, go) {
    this.onChange = onChange;
    this.go = go;
    this.state = null; // the server's last answer while waiting
    this.at = 0; // when it came (Date.now()), to count on between answers
    this.level = null;
    this.busy = false;
  }

  get waiting() {
    return Boolean(this.state && this.state.status === "waiting");
  }

  // Start waiting for { game, ruleset, rated }.
  async find(body) {
    try {
      this.take(await api("POST", "/api/quick", body));
    } catch (e) {
      toast(await refusalText(e));
    }
  }

  take(answer) {
    if (answer.status === "seated") {
      this.stop();
      this.go(`/table/${answer.table}`);
      return;
    }
    if (answer.status !== "waiting") {
      this.stop();
      this.onChange();
      return;
    }
    this.state = answer;
    this.at = Date.now();
    current = this;
    if (!this.poller) this.poller = setInterval(() => this.poll(), POLL_MS);
    if (!this.ticker) this.ticker = setInterval(() => this.tick(), 1000);
    this.onChange();
  }

  async poll() {
    if (this.busy) return;
    try {
      this.take(await api("GET", "/api/quick"));
    } catch { /* the next poll tries again */ }
  }

  // The count between answers, and the offer of bots once the wait is long enough.
  tick() {
    const el = document.querySelector("[data-testid=quick-waited]");
    if (!el || !this.state) return;
    const waited = this.waited();
    el.textContent = t("quick_waited", { time: clockText(waited) });
    const offer = document.querySelector("[data-testid=quick-offer]");
    if (offer && offer.hidden && waited >= this.state.bots_after) offer.hidden = false;
  }

  waited() {
    return this.state.waited + (Date.now() - this.at) / 1000;
  }

  async fill(level) {
    this.busy = true;
    try {
      this.take(await api("POST", "/api/quick/bots", { level }));
    } catch (e) {
      toast(await refusalText(e));
    } finally {
      this.busy = false;
    }
  }

  async cancel() {
    this.stop();
    this.onChange();
    try {
      await api("DELETE", "/api/quick");
    } catch (e) {
      toast(await refusalText(e));
    }
  }

  stop() {
    if (current === this) current = null;
    clearInterval(this.poller);
    clearInterval(this.ticker);
    this.poller = this.ticker = null;
    this.state = null;
  }

  // The lobby is left (another page, the tab closed): the wait stops at once, even while the
  // page unloads (keepalive), else the server drops it when the page stops asking.
  leave() {
    if (!this.waiting) return;
    this.stop();
    const token = store.getItem("blot.token");
    fetch("/api/quick", { method: "DELETE", keepalive: true, headers: token ? { Authorization: `Bearer ${token}` } : {} }).catch(() => {});
  }

  // The waiting panel; null when not waiting. games: GET /api/games's list (the bot levels of the
  // game waited for, rated or not), each level named by botLevelName (table.js).
  view(games, botLevelName) {
    if (!this.waiting) return null;
    const s = this.state;
    const info = games.find((g) => g.game === s.game);
    const levels = info ? (s.rated ? info.rated_bots : info.bots) : ["basic"];
    if (!levels.includes(this.level)) this.level = levels.includes("basic") ? "basic" : levels[0];
    const level = h("select", { id: "quick-level", "data-testid": "quick-level", onchange: (e) => (this.level = e.target.value) },
      levels.map((b) => h("option", { value: b }, botLevelName(b))));
    level.value = this.level;
    const offer = h("div", { class: "quick-offer", "data-testid": "quick-offer", hidden: this.waited() < s.bots_after },
      h("p", { class: "muted small" }, t("quick_offer")),
      h("div", { class: "row" },
        h("label", { for: "quick-level", class: "sr-only" }, t("bot_level")), level,
        h("button", { class: "primary", "data-testid": "quick-fill", onclick: () => this.fill(this.level) }, t("quick_fill"))));
    return h("section", { class: "panel quick", "data-testid": "quick-panel", role: "status", "aria-live": "polite" },
      h("h2", {}, t("quick_title", { game: t("game_" + s.game) })),
      h("p", { class: "quick-count" },
        h("span", { "data-testid": "quick-people" }, t("quick_people", { n: s.people, seats: s.seats })), " · ",
        h("b", { "data-testid": "quick-waited" }, t("quick_waited", { time: clockText(this.waited()) }))),
      offer,
      h("button", { "data-testid": "quick-cancel", onclick: () => this.cancel() }, t("cancel")));
  }
}

// "Play for me" at a casual table (issue 41 item 6): a control in the table's menu, and while a
// bot plays the seat a line above the hand to take it back. A rated table, an event's or a day's
// deals' offer none (the server refuses them too).
export function playForMe(page, botLevelName) {
  const tb = page.table;
  const mine = page.mySeat();
  const none = { menuItem: null, banner: null };
  const s = tb.settings;
  if (tb.status !== "playing" || mine === null || s.rated || s.event || s.daily) return none;
  const handed = tb.seats[mine].handed;
  if (handed) {
    return { menuItem: null, banner: h("div", { class: "handed", "data-testid": "handed", role: "status" },
      h("span", {}, t("bot_plays_for_you", { level: botLevelName(handed) })),
      h("button", { class: "small primary", "data-testid": "take-back", onclick: () => page.post("play-for-me", { on: false }) }, t("take_seat_back"))) };
  }
  const level = s.substitute || "basic";
  return { banner: null, menuItem: h("div", { class: "end-item" },
    h("button", { class: "small", "data-testid": "play-for-me", onclick: () => { page.menuOpen = false; page.post("play-for-me", { on: true, level }); } }, t("play_for_me")),
    h("p", { class: "muted small" }, t("play_for_me_help"))) };
}
