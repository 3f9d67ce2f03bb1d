// League events (docs/protocol.md, "Events"): the list of events and a new event, an event with its
// entries, rounds, tables, standings and cross table, the referee's console beside the Davtar, a
// court member's cases (no event, table or names: L-5), and the League's register. The server decides everything (pairing, results, standings); this page
// shows what it answers and sends what the person clicks.
import { t, lang } from "/static/i18n.js";
import { games } from "/static/games.js";

export function eventPages({ h, api, toast, errorText, main, showPending, currentMe, refreshMe }) {
  const when = (iso) => (iso ? new Date(iso).toLocaleString(lang(), { dateStyle: "short", timeStyle: "short" }) : "");
  const fail = (e) => toast(errorText(e.code, e.message));
  // Why a bar withdrew an entry (issue 38 item 5, L-3, L-10): "barred by tars kapoot in round 2".
  const barredText = (b) => t(`barred_${b.by === "tars_kapoot" ? "tars" : "court"}_${b.round ? "round" : "before"}`, { n: b.round });
  const field = (id, label, control) => {
    control.id = id;
    return h("div", { class: "field" }, h("label", { for: id }, label), control);
  };

  class EventsPage {
    constructor() {
      this.events = null;
      this.games = null;
      this.form = { name: "", game: "", format: "swiss", rounds: 5, online: true, rated: false, public: true, target: 301, deals: 4, deadline: "", first: "" };
      this.load();
    }

    leave() { this.left = true; }

    async load() {
      try {
        await refreshMe();
        this.games = await games(); // what each game allows an event (GET /api/games)
        this.form.game ||= this.games[0].game;
        this.events = (await api("GET", "/api/events")).events;
      } catch (e) { fail(e); }
      this.render();
    }

    render() {
      if (this.left) return;
      if (showPending(this.events)) return;
      const f = this.form;
      const info = this.games.find((g) => g.game === f.game);
      const me = currentMe();
      const list = this.events.length
        ? h("ul", { class: "tables", "data-testid": "events" }, this.events.map((ev) => h("li", { class: "table-row" },
            h("div", { class: "what" }, h("a", { href: `/event/${ev.id}`, "data-link": true }, ev.name), " ",
              h("span", { class: "muted" }, `${t("game_" + ev.game)} · ${t("format_" + ev.format)} · ${t(ev.online ? "online" : "over_the_board")}`),
              h("span", { class: `status ${ev.status}` }, t("event_status_" + ev.status)),
              ev.rated ? h("span", { class: "badge rated" }, t("rated")) : null),
            h("small", { class: "muted" }, when(ev.created_at)))))
        : h("p", { class: "muted" }, t("no_events"));
      const input = (key, attrs) => h("input", { ...attrs, value: f[key], onchange: (e) => {
        f[key] = attrs.type === "number" ? parseInt(e.target.value, 10) || 0 : e.target.value;
      } });
      const select = (key, values, label) => {
        const s = h("select", { "data-testid": `event-${key}`, onchange: (e) => { f[key] = e.target.value; this.render(); } },
          values.map((v) => h("option", { value: v }, label(v))));
        s.value = f[key];
        return s;
      };
      const check = (key, label) => h("label", { class: "check" },
        h("input", { type: "checkbox", checked: f[key], "data-testid": `event-${key}`, onchange: (e) => { f[key] = e.target.checked; if (key === "online") this.render(); } }),
        h("span", {}, label));
      const form = me && me.username
        ? h("div", { class: "form" },
            field("ev-name", t("event_name"), input("name", { type: "text", maxlength: 80, "data-testid": "event-name" })),
            field("ev-game", t("game"), select("game", this.games.map((g) => g.game), (g) => t("game_" + g))),
            field("ev-format", t("format"), select("format", info.duplicate ? ["swiss", "round_robin", "duplicate"] : ["swiss", "round_robin"], (v) => t("format_" + v))),
            f.format !== "round_robin" ? field("ev-rounds", t("rounds"), input("rounds", { type: "number", min: 1, max: 30, "data-testid": "event-rounds" })) : null,
            f.format === "duplicate" ? field("ev-deals", t("deals_per_round"), input("deals", { type: "number", min: 1, max: 16 })) : null,
            "target" in info.options && f.format !== "duplicate" ? field("ev-target", t("target"), input("target", { type: "number", min: 1, max: 10000, "data-testid": "event-target" })) : null,
            field("ev-deadline", t("registration_deadline"), input("deadline", { type: "datetime-local", "data-testid": "event-deadline" })),
            field("ev-first", t("first_round_at"), input("first", { type: "datetime-local", "data-testid": "event-first" })),
            info.score_sheet ? check("online", t("online")) : null, check("rated", t("rated_table")), check("public", t("event_public")),
            // a referee at every table (L-6): the server's default (over the board under the League's rules) until changed
            h("label", { class: "check" },
              h("input", { type: "checkbox", checked: f.referees ?? !(f.online || !info.score_sheet), "data-testid": "event-referees",
                onchange: (e) => { f.referees = e.target.checked; } }),
              h("span", {}, t("require_referees"))),
            h("button", { class: "primary", "data-testid": "create-event", onclick: () => this.create() }, t("create_event")))
        : h("p", { class: "muted small" }, h("a", { href: "/login", "data-link": true }, t("event_login")));
      main.replaceChildren(h("div", { class: "events" },
        h("section", { class: "panel" }, h("h1", {}, t("events")), list),
        h("section", { class: "panel" }, h("h2", {}, t("new_event")), form),
        h("section", { class: "panel help" }, h("a", { href: "/register", "data-link": true, "data-testid": "register-link" }, t("register_title")),
          " · ", h("a", { href: "/courts", "data-link": true, "data-testid": "courts-link" }, t("courts_link")))));
    }

    async create() {
      const f = this.form;
      const info = this.games.find((g) => g.game === f.game);
      const body = { name: f.name, game: f.game, format: f.format, rounds: f.rounds,
        online: f.online || !info.score_sheet, // over the board only with the game's score sheet
        rated: f.rated && f.online, public: f.public };
      if (f.referees !== undefined) body.referees = f.referees;
      if (f.format === "duplicate") body.deals = f.deals;
      else if ("target" in info.options) body.options = { target: f.target };
      // datetime-local is the browser's local time: the server is sent UTC
      if (f.deadline) body.deadline = new Date(f.deadline).toISOString();
      if (f.first) body.schedule = [new Date(f.first).toISOString()];
      try {
        const ev = await api("POST", "/api/events", body);
        history.pushState({}, "", `/event/${ev.id}`);
        window.dispatchEvent(new PopStateEvent("popstate"));
      } catch (e) { fail(e); }
    }
  }

  class EventPage {
    constructor(id) {
      this.id = id;
      this.data = null;
      this.partner = "";
      this.load();
      this.poll = setInterval(() => this.load(), 5000);
    }

    leave() { clearInterval(this.poll); this.left = true; }

    async load() {
      try {
        this.data = await api("GET", `/api/events/${this.id}`);
        this.info = (await games()).find((g) => g.game === this.data.game);
      } catch (e) { if (!this.data) this.error = e; }
      this.render();
    }

    async act(method, path, body) {
      try {
        this.data = await api(method, path, body);
      } catch (e) { fail(e); }
      this.render();
    }

    render() {
      if (this.left) return;
      if (showPending(this.data, this.error && { key: "no_event", testid: "no-event" })) return;
      const d = this.data;
      const me = currentMe();
      const names = Object.fromEntries(d.entries.map((e) => [e.id, e.bot ? `${t("bot")} (${t("bot_" + e.bot)}) ${e.name.split(" ").pop()}` : e.name]));
      const mine = me ? d.entries.filter((e) => e.members.some((m) => m.player === me.id)) : [];
      const head = h("section", { class: "panel" },
        h("h1", { "data-testid": "event-title" }, d.name),
        h("p", { class: "muted" }, `${t("game_" + d.game)} · ${t("format_" + d.format)} · ${t(d.settings.online ? "online" : "over_the_board")}`,
          d.settings.rated ? ` · ${t("rated")}` : "",
          d.rounds_total ? ` · ${t("rounds_of", { n: d.rounds.length, of: d.rounds_total })}` : ""),
        h("p", {}, h("span", { class: `status ${d.status}`, "data-testid": "event-status" }, t("event_status_" + d.status))),
        this.timetable(d),
        this.nextGame(d, mine));
      const entries = h("section", { class: "panel" }, h("h2", {}, t("entries")),
        h("ul", { class: "tables", "data-testid": "entries" }, d.entries.map((e) => h("li", { class: "table-row" },
          h("div", { class: "what" }, names[e.id],
            e.barred ? h("span", { class: "badge warn", "data-testid": `barred-${e.id}` }, barredText(e.barred))
              : e.withdrawn ? h("span", { class: "badge" }, t("withdrawn")) : null,
            !e.confirmed ? h("span", { class: "badge" }, t("unconfirmed")) : null),
          h("div", { class: "go" },
            me && !e.confirmed && e.members.some((m) => m.player === me.id && !m.confirmed)
              ? h("button", { class: "primary", "data-testid": `confirm-${e.id}`, onclick: () => this.act("POST", `/api/events/${d.id}/entries/${e.id}/confirm`) }, t("confirm_entry")) : null,
            me && !e.withdrawn && d.status !== "finished" && (d.organizer || e.members.some((m) => m.player === me.id))
              ? h("button", { "data-testid": `withdraw-${e.id}`, onclick: () => this.act("DELETE", `/api/events/${d.id}/entries/${e.id}`) }, t("withdraw")) : null)))),
        this.enterForm(d, me, mine));
      const rounds = h("section", { class: "panel" }, h("h2", {}, t("rounds")),
        d.organizer && d.status !== "finished" && (d.rounds_total === null || d.rounds.length < d.rounds_total)
          ? h("button", { class: "primary", "data-testid": "start-round", onclick: () => this.act("POST", `/api/events/${d.id}/rounds`) }, t("start_round", { n: d.rounds.length + 1 })) : null,
        d.rounds.length ? d.rounds.slice().reverse().map((r) => this.round(d, r, names, me)) : h("p", { class: "muted" }, t("no_rounds")));
      main.replaceChildren(h("div", { class: "event" }, head, this.standings(d, names), rounds, entries, this.crossTable(d, names), this.notes(d), this.courtQuestions(d)));
    }

    // The registration deadline (while nothing is played) and the next round's scheduled start.
    timetable(d) {
      const next = (d.settings.schedule || [])[d.rounds.length];
      const lines = [
        d.settings.deadline && !d.rounds.length ? t("deadline_at", { when: when(d.settings.deadline) }) : null,
        next && d.status !== "finished" ? t("round_at", { n: d.rounds.length + 1, when: when(next) }) : null,
      ].filter(Boolean);
      return lines.length ? h("p", { class: "muted small", "data-testid": "event-timetable" }, lines.join(" ")) : null;
    }

    nextGame(d, mine) {
      const ids = new Set(mine.map((e) => e.id));
      for (const r of d.rounds) {
        for (const tb of r.tables) {
          if (tb.table && tb.status === "playing" && tb.entries.some((e) => ids.has(e))) {
            return h("p", { class: "ready", "data-testid": "your-table" }, t("table_ready"), " ",
              h("a", { class: "button primary", href: `/table/${tb.table}`, "data-link": true }, t("go_to_table")));
          }
        }
      }
      return null;
    }

    enterForm(d, me, mine) {
      if (!me || !me.username || d.status === "finished") return null;
      const rows = [];
      if (!mine.length && !d.rounds.length) {
        const pair = Boolean(this.info) && this.info.teams[0].length === 2; // an entry is one of the game's teams
        const partner = pair ? h("input", { type: "text", "data-testid": "partner", placeholder: t("partner"), "aria-label": t("partner"),
          value: this.partner, onchange: (e) => (this.partner = e.target.value.trim()) }) : null;
        rows.push(h("div", { class: "row" }, partner,
          h("button", { class: "primary", "data-testid": "enter", onclick: () => this.act("POST", `/api/events/${d.id}/entries`,
            { usernames: pair ? [me.username, this.partner] : [me.username] }) }, t(pair ? "enter_pair" : "enter"))));
      }
      if (d.organizer && d.settings.online) {
        rows.push(h("div", { class: "row" }, ["basic", "heuristic"].map((level) =>
          h("button", { "data-testid": `add-bot-${level}`, onclick: () => this.act("POST", `/api/events/${d.id}/entries`, { bot: level }) },
            t("add_bot_entrant", { level: t("bot_" + level) })))));
      }
      return rows;
    }

    round(d, r, names, me) {
      return h("div", { class: "round", "data-testid": `round-${r.number}` },
        h("h3", {}, t("round_n", { n: r.number }), " ", h("span", { class: `status ${r.status}` }, t("event_status_" + r.status))),
        (r.without_referee || []).length ? h("p", { class: "muted small", "data-testid": `without-referee-${r.number}` },
          t(r.status === "awaiting_referees" ? "tables_awaiting_referee" : "tables_without_referee", { tables: r.without_referee.join(", ") })) : null,
        h("ul", { class: "tables" }, r.tables.map((tb) => h("li", { class: "table-row", "data-testid": `table-${r.number}-${tb.number}` },
          h("div", { class: "what" }, h("strong", {}, t("table_n", { n: tb.number })), " ",
            tb.entries.flatMap((e, i) => [i ? " — " : "", names[e]]),
            tb.result ? h("span", { class: "badge", "data-testid": "result" }, tb.result.join(" : ")) : null,
            tb.status === "unfinished" ? h("span", { class: "badge" }, t("unfinished")) : null,
            tb.status === "awaiting_referee" ? h("span", { class: "badge" }, t("awaiting_referee")) : null),
          h("div", { class: "go" },
            tb.table && tb.status === "playing" && me && this.playsAt(d, tb, me)
              ? h("a", { class: "button primary", href: `/table/${tb.table}`, "data-link": true, "data-testid": `play-${tb.id}` }, t("go_to_table"))
              : tb.table && !tb.secret ? h("a", { class: "button", href: `/table/${tb.table}`, "data-link": true }, t(tb.status === "playing" ? "watch" : "replay"))
              : tb.secret ? h("span", { class: "muted", "data-testid": `secret-${tb.id}` }, t("deals_secret_until")) : null,
            tb.status === "unfinished" && me && this.playsAt(d, tb, me)
              ? h("button", { class: "primary", "data-testid": `resume-${tb.id}`, onclick: () => api("POST", `/api/tables/${tb.table}/resume`).then(() => this.load()).catch(fail) }, t("continue_game")) : null,
            me && (tb.referee === me.id || (d.organizer && tb.sheet && tb.sheet !== "shared"))
              ? h("a", { class: "button primary", href: `/event/${d.id}/table/${tb.id}`, "data-link": true, "data-testid": `console-${tb.id}` }, t("referee_console")) : null,
            d.organizer && !tb.result && !(me && this.playsAt(d, tb, me)) ? this.refereeField(d, tb) : null,
            tb.referee && me && this.playsAt(d, tb, me) ? this.conflictField(d, tb) : null)))),
        r.byes.length ? h("p", { class: "muted" }, `${t("byes")}: `, r.byes.map((e) => names[e]).join(", ")) : null);
    }

    playsAt(d, tb, me) {
      return d.entries.some((e) => tb.entries.includes(e.id) && e.members.some((m) => m.player === me.id));
    }

    // A player at the table raises a conflict of interest (L-8): the referee steps down.
    conflictField(d, tb) {
      const input = h("input", { type: "text", "data-testid": `conflict-reason-${tb.id}`, placeholder: t("conflict_reason"), "aria-label": t("conflict_reason") });
      return h("span", { class: "row" }, input,
        h("button", { class: "danger", "data-testid": `conflict-${tb.id}`, onclick: () => this.act("POST", `/api/events/${d.id}/tables/${tb.id}/conflict`, { reason: input.value.trim() }) }, t("raise_conflict")));
    }

    refereeField(d, tb) {
      const input = h("input", { type: "text", "data-testid": `referee-${tb.id}`, placeholder: t("referee"), "aria-label": t("referee") });
      return h("span", { class: "row" }, input,
        h("button", { "data-testid": `assign-${tb.id}`, onclick: () => this.act("POST", `/api/events/${d.id}/tables/${tb.id}/referee`, { username: input.value.trim() }) }, t("assign_referee")));
    }

    standings(d, names) {
      const keys = d.standings.length ? Object.keys(d.standings[0].tiebreaks) : [];
      const barredOf = Object.fromEntries(d.entries.filter((e) => e.barred).map((e) => [e.id, e.barred]));
      return h("section", { class: "panel" }, h("h2", {}, t("standings")),
        h("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": t("standings") }, h("table", { class: "board-table", "data-testid": "standings" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", { class: "name" }, t("entry")),
            h("th", {}, t(d.format === "duplicate" ? "percent" : "match_points")), keys.map((k) => h("th", {}, t("tb_" + k))), h("th", {}, t("games_played")))),
          h("tbody", {}, d.standings.map((s) => h("tr", {}, h("td", { class: "num" }, s.rank), h("td", { class: "name" }, names[s.entry], barredOf[s.entry] ? h("span", { class: "muted small" }, ` (${barredText(barredOf[s.entry])})`) : s.withdrawn ? ` (${t("withdrawn")})` : ""),
            h("td", { class: "num" }, s.points), keys.map((k) => h("td", { class: "num" }, s.tiebreaks[k])), h("td", { class: "num" }, s.games)))))),
        h("p", { class: "small" }, h("a", { href: `/api/events/${d.id}/standings?format=csv`, download: `blot-event-${d.id}.csv`, "data-testid": "standings-csv" }, t("download_csv")), " · ",
          h("a", { href: `/api/events/${d.id}`, download: `blot-event-${d.id}.json` }, t("download_json"))));
    }

    crossTable(d, names) {
      const ids = d.standings.map((s) => s.entry);
      if (!d.rounds.length || ids.length > 24) return null;
      const cell = (a, b) => {
        if (a === b) return h("td", { class: "num muted" }, "×");
        const games = (d.cross_table[a] || {})[b] || [];
        return h("td", { class: "num" }, games.map((g) => (g.points === null ? "…" : `${g.points}:${g.against}`)).join(" "));
      };
      return h("section", { class: "panel" }, h("h2", {}, t("cross_table")),
        h("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": t("cross_table") }, h("table", { class: "board-table cross", "data-testid": "cross-table" },
          h("thead", {}, h("tr", {}, h("th", {}, ""), ids.map((_, i) => h("th", {}, i + 1)))),
          h("tbody", {}, ids.map((a, i) => h("tr", {}, h("th", { class: "name" }, `${i + 1}. ${names[a]}`), ids.map((b) => cell(a, b))))))));
    }

    // That a question went to a court and, once applied, its answer: beside no table (L-5).
    courtQuestions(d) {
      if (!(d.court_questions || []).length) return null;
      return h("section", { class: "panel" }, h("h2", {}, t("court_questions")),
        h("ul", { class: "tables", "data-testid": "court-questions" }, d.court_questions.map((q) => h("li", {},
          h("strong", {}, t("court_" + q.court)), ": ", q.answer === null ? h("span", { class: "muted" }, t("awaiting_answer")) : q.answer))));
    }

    notes(d) {
      if (!d.notes.length) return null;
      return h("section", { class: "panel" }, h("h2", {}, t("announcements")),
        h("ul", { class: "tables", "data-testid": "notes" }, d.notes.map((n) => h("li", {},
          h("small", { class: "muted" }, `${when(n.at)} · ${t("round_n", { n: n.round })}, ${t("table_n", { n: n.number })} · `),
          h("strong", {}, t("note_" + n.kind)), " ", noteText(n)))));
    }
  }

  function noteText(n) {
    if (n.kind === "dispute") return `${n.claim} — ${n.ruling}${n.penalty ? ` (${t("penalty")}: ${t("penalty_" + n.penalty.kind)})` : ""}`;
    if (n.kind === "escalation") return `${t("court_" + n.court)}: ${n.question}`;
    if (n.kind === "court_answer") return `${n.answer} — ${n.applied}`;
    if (n.kind === "conflict" || n.kind === "stepped_down") return n.reason || "";
    return n.text || "";
  }

  // The referee's console: announcements, a dispute (with a B-72 penalty), a question to a court;
  // the Davtar itself is the score sheet page, opened beside it.
  class ConsolePage {
    constructor(eventId, tableId) {
      this.eventId = eventId;
      this.tableId = tableId;
      this.data = null;
      this.load();
    }

    leave() { this.left = true; }

    async load() {
      try {
        this.data = await api("GET", `/api/events/${this.eventId}/tables/${this.tableId}/console`);
      } catch (e) { this.error = e; }
      this.render();
    }

    async send(path, body) {
      try {
        this.data = await api("POST", `/api/events/${this.eventId}/tables/${this.tableId}/${path}`, body);
        toast(t("saved"));
      } catch (e) { fail(e); }
      this.render();
    }

    render() {
      if (this.left) return;
      if (showPending(this.data, this.error && { key: "no_console", testid: "no-console" })) return;
      const d = this.data;
      const text = (id, label) => field(id, label, h("textarea", { rows: 2, "data-testid": id }));
      const value = (id) => main.querySelector(`[data-testid="${id}"]`).value.trim();
      // an online game is left unfinished by its players at the table, not announced (L-2)
      const kinds = ["start", "players", "break", "complaint", "end", "winner", ...(d.sheet ? ["unfinished", "reopened"] : [])];
      const penalty = h("select", { "data-testid": "dispute-penalty", disabled: !d.sheet },
        h("option", { value: "" }, t("no_penalty")),
        ["misdeal", "misplay"].flatMap((k) => [0, 1].map((team) => h("option", { value: `${k}:${team}` }, `${t("penalty_" + k)} — ${t("team_n", { n: team + 1 })}`))));
      main.replaceChildren(h("div", { class: "console" },
        h("section", { class: "panel" }, h("h1", {}, t("referee_console")),
          h("p", { class: "muted" }, `${t("round_n", { n: d.round })}, ${t("table_n", { n: d.number })}`),
          h("div", { class: "row wrap" },
            d.sheet ? h("a", { class: "button primary", href: `/scoresheet/${d.sheet}`, "data-link": true, "data-testid": "open-sheet" }, t("open_davtar")) : null,
            d.online_table ? h("a", { class: "button primary", href: `/table/${d.online_table}`, "data-link": true, "data-testid": "watch-table" }, t("watch")) : null,
            d.online_table ? [true, false].map((paused) => h("button", { "data-testid": paused ? "pause-table" : "resume-table",
              onclick: () => api("POST", `/api/events/${this.eventId}/tables/${this.tableId}/pause`, { paused }).then(() => toast(t("saved"))).catch(fail) },
              t(paused ? "pause_table" : "resume_table"))) : null,
            h("button", { class: "danger", "data-testid": "step-down", onclick: () => this.stepDown() }, t("step_down")))),
        h("section", { class: "panel" }, h("h2", {}, t("announce")),
          text("note-text", t("note_text")),
          h("div", { class: "row wrap" }, kinds.map((k) => h("button", { "data-testid": `announce-${k}`, onclick: () => this.send("notes", { kind: k, text: value("note-text") }) }, t("note_" + k))))),
        h("section", { class: "panel" }, h("h2", {}, t("dispute")),
          d.sheet ? null : h("p", { class: "muted small" }, t("online_dispute_help")),
          text("dispute-claim", t("claim")), text("dispute-explanation", t("explanation")), text("dispute-ruling", t("ruling")),
          field("dispute-penalty-f", t("penalty"), penalty),
          h("button", { class: "primary", "data-testid": "record-dispute", onclick: () => {
            const p = penalty.value ? { kind: penalty.value.split(":")[0], team: parseInt(penalty.value.split(":")[1], 10) } : null;
            this.send("disputes", { claim: value("dispute-claim"), explanation: value("dispute-explanation"), ruling: value("dispute-ruling"), penalty: p });
          } }, t("record_dispute"))),
        h("section", { class: "panel" }, h("h2", {}, t("escalate")),
          h("p", { class: "muted small" }, t("escalate_help")),
          text("case-question", t("question")),
          h("div", { class: "row" }, ["sages", "conduct"].map((court) => h("button", { "data-testid": `escalate-${court}`,
            onclick: () => this.send("cases", { court, question: value("case-question") }) }, t("court_" + court)))),
          h("ul", { class: "tables", "data-testid": "cases" }, d.cases.map((c) => h("li", {},
            h("p", {}, h("strong", {}, t("court_" + c.court)), ": ", h("span", { "data-testid": "case-question" }, c.question)),
            c.answer ? h("p", {}, `${t("answer")}: ${c.answer}`) : h("p", { class: "muted" }, t("awaiting_answer")),
            c.answer && !c.applied ? h("button", { "data-testid": `apply-${c.id}`, onclick: () => fetchApply(this, c) }, t("apply_answer")) : null)))),
        h("section", { class: "panel" }, h("h2", {}, t("announcements")),
          h("ul", { class: "tables", "data-testid": "console-notes" }, d.notes.map((n) => h("li", {},
            h("small", { class: "muted" }, `${when(n.at)} · `), h("strong", {}, t("note_" + n.kind)), " ", noteText(n)))))));
    }
  }

  // A referee steps down on his own (L-8): the console is no longer his, nor the table ever again.
  ConsolePage.prototype.stepDown = async function stepDown() {
    try {
      await api("POST", `/api/events/${this.eventId}/tables/${this.tableId}/step_down`, {});
      history.pushState({}, "", `/event/${this.eventId}`);
      window.dispatchEvent(new PopStateEvent("popstate"));
    } catch (e) { fail(e); }
  };

  function fetchApply(page, c) {
    api("POST", `/api/events/${page.eventId}/tables/${page.tableId}/cases/${c.id}/apply`, { applied: c.answer })
      .then((d) => { page.data = d; page.render(); }).catch(fail);
  }

  // A court member's page (L-5): the open cases of each court he sits on, each with its answer
  // form, then the answered ones; a case is its question only, never its event, table or names.
  class CourtPage {
    constructor() {
      this.courts = null;
      this.drafts = {};
      this.load();
    }

    leave() { this.left = true; }

    async load() {
      try {
        const mine = (await api("GET", "/api/courts")).courts;
        const found = await Promise.all(mine.map((c) => api("GET", `/api/courts/${c}/cases`)));
        this.courts = found;
      } catch (e) { this.error = e; }
      this.render();
    }

    async answer(c) {
      const text = (this.drafts[c.id] || "").trim();
      try {
        await api("POST", `/api/cases/${c.id}/answer`, { answer: text });
        delete this.drafts[c.id];
        toast(t("saved"));
      } catch (e) { fail(e); }
      this.load();
    }

    render() {
      if (this.left) return;
      if (showPending(this.courts, this.error && { key: "no_courts_page", testid: "no-courts" })) return;
      // a case's days only (a time would match the table's public announcements)
      const day = (date) => (date ? new Date(`${date}T12:00:00Z`).toLocaleDateString(lang()) : "");
      const caseItem = (c, open) => h("li", { class: "case", "data-testid": `case-${c.id}` },
        h("p", { class: "muted small" }, `${t("case_n", { n: c.id })} · ${t("asked_on", { when: day(c.asked_at) })}`),
        h("p", { "data-testid": "court-case-question" }, c.question),
        open
          ? h("div", { class: "form" },
              field(`answer-${c.id}`, t("answer"), h("textarea", { rows: 3, "data-testid": `answer-text-${c.id}`,
                oninput: (e) => { this.drafts[c.id] = e.target.value; } }, this.drafts[c.id] || "")),
              h("button", { class: "primary", "data-testid": `answer-${c.id}`, onclick: () => this.answer(c) }, t("send_answer")))
          : h("p", {}, h("strong", {}, `${t("answer")}: `), c.answer,
              h("span", { class: "muted small" }, ` · ${t("answered_on", { when: day(c.answered_at) })}`,
                c.applied ? ` · ${t("applied_at_table")}` : "")));
      const sections = this.courts.map((court) => {
        const open = court.cases.filter((c) => c.answer === null);
        const done = court.cases.filter((c) => c.answer !== null).reverse();
        return h("section", { class: "panel", "data-testid": `court-${court.court}` },
          h("h2", {}, t("court_" + court.court)),
          h("h3", {}, t("open_cases")),
          open.length ? h("ul", { class: "tables", "data-testid": "open-cases" }, open.map((c) => caseItem(c, true))) : h("p", { class: "muted" }, t("no_cases")),
          h("h3", {}, t("answered_cases")),
          done.length ? h("ul", { class: "tables", "data-testid": "answered-cases" }, done.map((c) => caseItem(c, false))) : h("p", { class: "muted" }, t("no_cases")));
      });
      main.replaceChildren(h("div", { class: "courts" },
        h("section", { class: "panel" }, h("h1", {}, t("courts_title")), h("p", { class: "muted small" }, t("courts_help"))),
        sections.length ? sections : h("section", { class: "panel" }, h("p", { class: "muted", "data-testid": "no-court" }, t("no_courts")))));
    }
  }

  return { EventsPage, EventPage, ConsolePage, CourtPage };
}

// The lobby's "your next game": the player's event tables being played.
export async function nextGames(api) {
  try {
    return (await api("GET", "/api/events/next")).games;
  } catch {
    return [];
  }
}
