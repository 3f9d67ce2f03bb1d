// An event's settings as a form (issue 42 item 1): the same fields make a new event (POST
// /api/events) and change one (PATCH /api/events/{id}, only what changed): its game, format and
// rounds, the ruleset with its options labelled as the lobby labels them, the time control — a
// turn timer and a forfeit time for the event and, where wanted, other ones for a round —, rated,
// public, a referee at every table, the registration deadline and the rounds' start times.
// Then the list of events with the form of a new one.
import { t } from "/static/i18n.js";
import { games as listGames, rulesetLabel, optionField } from "/static/games.js";
import { Page } from "/static/util.js";

const TIMERS = [0, 15, 30, 60, 120, 300, 600]; // seconds a turn may take (0: no timer)
const FORFEITS = [60, 180, 300, 600, 900, 1800, 3600]; // seconds a missing entrant is waited for
// the choices with the value an event already has (set through the API, say)
const withValue = (values, v) => (v === undefined || values.includes(v) ? values : [...values, v].sort((a, b) => a - b));

// A datetime-local input's value (the browser's local time) and back, the server speaking UTC.
const localTime = (iso) => {
  if (!iso) return "";
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
};
const utc = (local) => new Date(local).toISOString();

// The form's values: an event's settings to change, or a new event's defaults.
export function formOf(games, d) {
  if (!d) {
    const g = games[0];
    return { name: "", game: g.game, format: "swiss", rounds: 5, deals: 4, ruleset: g.rulesets[0], options: {}, online: true,
      rated: false, public: true, referees: undefined, timer: 0, forfeit: 300, deadline: "", schedule: [], per: {} };
  }
  const s = d.settings;
  const per = {};
  for (const [n, v] of Object.entries(s.rounds_settings || {})) per[n] = { timer: v.timer, forfeit: v.forfeit_seconds };
  return { name: d.name, game: d.game, format: d.format, rounds: s.rounds, deals: s.deals || 4, ruleset: s.ruleset,
    options: { ...s.options }, online: s.online, rated: s.rated, public: d.public, referees: s.referees, timer: s.timer,
    forfeit: s.forfeit_seconds, deadline: localTime(s.deadline), schedule: (s.schedule || []).map(localTime), per,
    roundsKnown: d.rounds_total || d.rounds.length };
}

// What the server is sent for the form (a new event's whole body; an edit sends what differs).
export function bodyOf(f, info) {
  const online = f.online || !info.score_sheet; // over the board only with the game's score sheet
  const body = { name: f.name, game: f.game, format: f.format, online, rated: f.rated && online, public: f.public,
    ruleset: info.rulesets.includes(f.ruleset) ? f.ruleset : info.rulesets[0], timer: f.timer, forfeit_seconds: f.forfeit };
  if (f.format !== "round_robin") body.rounds = f.rounds;
  if (f.referees !== undefined) body.referees = f.referees;
  if (f.format === "duplicate") body.deals = f.deals;
  if (info.option_fields.length) body.options = { ...info.options, ...f.options };
  if (f.deadline) body.deadline = utc(f.deadline);
  const times = [];
  for (const s of f.schedule.slice(0, roundCount(f))) { if (!s) break; times.push(utc(s)); } // the first rounds, in order
  if (times.length) body.schedule = times;
  const per = {};
  for (const [n, v] of Object.entries(f.per)) {
    if (Number(n) > roundCount(f)) continue;
    const own = {};
    if (v.timer !== undefined && v.timer !== f.timer) own.timer = v.timer;
    if (v.forfeit !== undefined && v.forfeit !== f.forfeit) own.forfeit_seconds = v.forfeit;
    if (Object.keys(own).length) per[n] = own;
  }
  if (Object.keys(per).length) body.rounds_settings = per;
  return body;
}

// The fields of an edit that differ from the event as it is.
export function changes(before, after) {
  const out = {};
  for (const [k, v] of Object.entries(after)) if (JSON.stringify(v) !== JSON.stringify(before[k])) out[k] = v;
  for (const k of ["deadline", "schedule", "rounds_settings"]) if (k in before && !(k in after)) out[k] = null;
  return out;
}

const roundCount = (f) => (f.format === "round_robin" ? Math.max(1, f.roundsKnown || 1) : f.rounds);

// The form's fields. `f` is changed in place; `redraw` draws the form again when a choice changes
// which fields there are; `editing` keeps the game and the format (an event's entries are of them).
export function settingsFields({ h, field }, games, f, redraw, editing = false) {
  const info = games.find((g) => g.game === f.game);
  const pre = editing ? "edit" : "event";
  const input = (key, attrs, parse = (v) => v) => h("input", { ...attrs, value: f[key], oninput: (e) => { f[key] = parse(e.target.value); } });
  const num = (v) => parseInt(v, 10) || 0;
  const select = (key, values, label, redrawn = false) => {
    const s = h("select", { "data-testid": `${pre}-${key}`, disabled: editing && (key === "game" || key === "format"),
      onchange: (e) => {
        f[key] = typeof f[key] === "number" ? num(e.target.value) : e.target.value;
        if (key === "game") Object.assign(f, { ruleset: games.find((g) => g.game === f.game).rulesets[0], options: {} });
        if (redrawn) redraw();
      } },
    values.map((v) => h("option", { value: v }, label(v))));
    s.value = f[key];
    return s;
  };
  const check = (key, label, value, redrawn = false) => h("label", { class: "check" },
    h("input", { type: "checkbox", checked: value, "data-testid": `${pre}-${key}`, onchange: (e) => { f[key] = e.target.checked; if (redrawn) redraw(); } }),
    h("span", {}, label));
  const seconds = (v) => (v ? t("seconds", { n: v }) : t("no_timer"));
  const out = [
    field(`${pre}-f-name`, t("event_name"), input("name", { type: "text", maxlength: 80, "data-testid": `${pre}-name` })),
    field(`${pre}-f-game`, t("game"), select("game", games.map((g) => g.game), (g) => t("game_" + g), true)),
    field(`${pre}-f-format`, t("format"), select("format", info.duplicate ? ["swiss", "round_robin", "duplicate"] : ["swiss", "round_robin"], (v) => t("format_" + v), true)),
    f.format !== "round_robin" ? field(`${pre}-f-rounds`, t("rounds"), input("rounds", { type: "number", min: 1, max: 30, "data-testid": `${pre}-rounds` }, num)) : null,
    f.format === "duplicate" ? field(`${pre}-f-deals`, t("deals_per_round"), input("deals", { type: "number", min: 1, max: 16, "data-testid": `${pre}-deals` }, num)) : null,
    info.rulesets.length > 1 ? field(`${pre}-f-ruleset`, t("ruleset"), select("ruleset", info.rulesets, (r) => rulesetLabel(info, r))) : null,
    ...info.option_fields.filter((o) => !(o.name === "target" && f.format === "duplicate")).map((o) => optionField(o, { ...info.options, ...f.options }[o.name], (v) => (f.options[o.name] = v), `${pre}-opt-${o.name}`, `${pre}-opt-${o.name}`)),
    field(`${pre}-f-timer`, t("turn_timer"), select("timer", withValue(TIMERS, f.timer), seconds)),
    field(`${pre}-f-forfeit`, t("forfeit_time"), select("forfeit", withValue(FORFEITS, f.forfeit), (v) => t("minutes", { n: v / 60 }))),
    field(`${pre}-f-deadline`, t("registration_deadline"), input("deadline", { type: "datetime-local", "data-testid": `${pre}-deadline` })),
    info.score_sheet ? check("online", t("online"), f.online, true) : null,
    check("rated", t("rated_table"), f.rated),
    check("public", t("event_public"), f.public),
    // a referee at every table (L-6): the server's default (over the board under the League's rules) until changed
    check("referees", t("require_referees"), f.referees ?? !(f.online || !info.score_sheet)),
    perRound(h, pre, f, seconds),
  ];
  // the rows of the rounds follow the number of rounds as it is typed (the rest of the form stays)
  const rounds = out[3] && out[3].querySelector("input");
  let each = out[out.length - 1];
  if (rounds) {
    rounds.addEventListener("input", () => {
      const fresh = perRound(h, pre, f, seconds);
      each.replaceWith(fresh);
      each = fresh;
    });
  }
  return out;
}

// Each round's start time (the first ones start by themselves) and, when it differs from the
// event's, its own turn timer and forfeit time.
function perRound(h, pre, f, seconds) {
  const n = roundCount(f);
  const rows = [];
  for (let r = 1; r <= n; r++) {
    const own = (f.per[r] ||= {});
    const pick = (key, values, label) => {
      const s = h("select", { "data-testid": `${pre}-${key}-${r}`, "aria-label": `${t("round_n", { n: r })}: ${t(key === "timer" ? "turn_timer" : "forfeit_time")}`,
        onchange: (e) => { own[key] = e.target.value === "" ? undefined : parseInt(e.target.value, 10); } },
      h("option", { value: "" }, t("as_the_event")), values.map((v) => h("option", { value: v }, label(v))));
      s.value = own[key] === undefined ? "" : String(own[key]);
      return s;
    };
    const start = h("input", { type: "datetime-local", value: f.schedule[r - 1] || "", "data-testid": `${pre}-start-${r}`,
      "aria-label": `${t("round_n", { n: r })}: ${t("starts_at")}`, oninput: (e) => { f.schedule[r - 1] = e.target.value; } });
    rows.push(h("div", { class: "round-settings", "data-testid": `${pre}-round-${r}` }, h("strong", {}, t("round_n", { n: r })),
      h("div", { class: "row wrap" }, h("label", {}, h("span", { class: "muted small" }, t("starts_at")), start),
        h("label", {}, h("span", { class: "muted small" }, t("turn_timer")), pick("timer", withValue(TIMERS, own.timer), seconds)),
        h("label", {}, h("span", { class: "muted small" }, t("forfeit_time")), pick("forfeit", withValue(FORFEITS, own.forfeit), (v) => t("minutes", { n: v / 60 }))))));
  }
  return h("details", { class: "more", open: f.schedule.some(Boolean) || Object.values(f.per).some((v) => v.timer !== undefined || v.forfeit !== undefined) },
    h("summary", { "data-testid": `${pre}-each-round` }, t("each_round")), h("p", { class: "muted small" }, t("each_round_help")), rows);
}

export function eventsList(kit) {
  const { h, api, main, showPending, currentMe, refreshMe, when, fail, go } = kit;
  return class EventsPage extends Page {
    constructor() {
      super();
      this.events = null;
      this.games = null;
      this.load();
    }

    async load() {
      try {
        await refreshMe();
        this.games = await listGames(); // what each game allows an event (GET /api/games)
        this.form ||= formOf(this.games);
        this.events = (await api("GET", "/api/events")).events;
      } catch (e) { fail(e); }
      this.render();
    }

    render() {
      if (this.left) return;
      if (showPending(this.events)) return;
      const me = currentMe();
      const list = this.events.length
        ? h("ul", { class: "tables", "data-testid": "events" }, this.events.map((ev) => h("li", { class: "table-row" },
            h("div", { class: "what" }, h("a", { href: `/event/${ev.id}`, "data-link": true }, ev.name), " ",
              h("span", { class: "muted" }, `${t("game_" + ev.game)} · ${t("format_" + ev.format)} · ${t(ev.online ? "online" : "over_the_board")}`),
              h("span", { class: `status ${ev.status}` }, t("event_status_" + ev.status)),
              ev.rated ? h("span", { class: "badge rated" }, t("rated")) : null),
            h("small", { class: "muted" }, when(ev.created_at)))))
        : h("p", { class: "muted" }, t("no_events"));
      const form = me && me.username
        ? h("div", { class: "form" }, settingsFields(kit, this.games, this.form, () => this.render()),
            h("button", { class: "primary", "data-testid": "create-event", onclick: () => this.create() }, t("create_event")))
        : h("p", { class: "muted small" }, h("a", { href: "/login", "data-link": true }, t("event_login")));
      main.replaceChildren(h("div", { class: "events" },
        h("section", { class: "panel" }, h("h1", {}, t("events")), list),
        h("section", { class: "panel" }, h("h2", {}, t("new_event")), form),
        h("section", { class: "panel help" }, h("a", { href: "/register", "data-link": true, "data-testid": "register-link" }, t("register_title")),
          " · ", h("a", { href: "/courts", "data-link": true, "data-testid": "courts-link" }, t("courts_link")))));
    }

    async create() {
      const info = this.games.find((g) => g.game === this.form.game);
      try {
        const ev = await api("POST", "/api/events", bodyOf(this.form, info));
        go(`/event/${ev.id}`);
      } catch (e) { fail(e); }
    }
  };
}
