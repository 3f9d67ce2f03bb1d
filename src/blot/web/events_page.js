// One event's page (docs/protocol.md, "Events"): its facts and timetable, the standings, the rounds
// (web/events_round.js), the entries, the organizer's desk (web/events_desk.js), the cross table,
// the referees' announcements and the questions sent to a court. The server decides everything
// (pairing, results, standings); this page shows what it answers and sends what the person clicks.
import { t } from "/static/i18n.js";
import { games as listGames } from "/static/games.js";
import { roundView } from "/static/events_round.js";
import { eventDesk } from "/static/events_desk.js";
import { printMenu } from "/static/print.js";
import { Page } from "/static/util.js";

export function eventPage(kit) {
  const { h, api, main, showPending, currentMe, when, fail, barredText, entryNames, noteText } = kit;
  const round = roundView(kit);
  const desk = eventDesk(kit);

  return class EventPage extends Page {
    constructor(id) {
      super();
      this.id = id;
      this.data = null;
      this.load();
      this.poll = setInterval(() => { if (!this.busy) this.load(); }, 5000);
    }

    async load() {
      try {
        const d = await api("GET", `/api/events/${this.id}`);
        this.games = await listGames();
        this.info = this.games.find((g) => g.game === d.game);
        const last = d.rounds[d.rounds.length - 1];
        if (last && last.changes === undefined) { // who changed the latest pairings, and how
          const detail = await api("GET", `/api/events/${this.id}/rounds/${last.number}`).catch(() => null);
          if (detail) Object.assign(last, { changes: detail.changes, absent: detail.absent ?? last.absent });
        }
        this.data = d;
      } catch (e) { if (!this.data) this.error = e; }
      this.render();
    }

    // A change sent to the server, then the event read again (an answer may be the event or a
    // round); whether the server took it.
    async act(method, path, body) {
      this.busy = true;
      let done = false;
      try {
        await api(method, path, body);
        done = true;
      } catch (e) { fail(e); }
      this.busy = false;
      this.drawn = false; // drawn again even with a field in focus
      await this.load();
      return done;
    }

    render() {
      if (this.left) return;
      if (showPending(this.data, this.error && { key: "no_event", testid: "no-event" })) return;
      const d = this.data;
      const me = currentMe();
      const names = entryNames(d);
      const mine = me ? d.entries.filter((e) => e.members.some((m) => m.player === me.id)) : [];
      // keep what is being typed: the poll draws the page again only when nothing has focus in a form
      if ((main.contains(document.activeElement) && document.activeElement.matches("input, select, textarea") && this.drawn)) return;
      this.drawn = true;
      const head = h("section", { class: "panel" },
        h("h1", { "data-testid": "event-title" }, d.name),
        h("p", { class: "muted" }, `${t("game_" + d.game)} · ${t("format_" + d.format)} · ${t(d.settings.online ? "online" : "over_the_board")}`,
          d.settings.rated ? ` · ${t("rated")}` : "",
          d.rounds_total ? ` · ${t("rounds_of", { n: d.rounds.length, of: d.rounds_total })}` : ""),
        h("p", {}, h("span", { class: `status ${d.status}`, "data-testid": "event-status" }, t("event_status_" + d.status))),
        this.timetable(d),
        this.nextGame(d, mine),
        printMenu(h, d, this.info));
      const entries = h("section", { class: "panel" }, h("h2", {}, t("entries")),
        h("ul", { class: "tables", "data-testid": "entries" }, d.entries.map((e) => h("li", { class: "table-row", "data-testid": `entry-${e.id}` },
          h("div", { class: "what" }, names[e.id],
            e.barred ? h("span", { class: "badge warn", "data-testid": `barred-${e.id}` }, barredText(e.barred))
              : e.withdrawn ? h("span", { class: "badge" }, t("withdrawn")) : null,
            e.late ? h("span", { class: "badge" }, t("late")) : null,
            !e.confirmed ? h("span", { class: "badge" }, t("unconfirmed")) : null),
          h("div", { class: "go" },
            me && !e.confirmed && e.members.some((m) => m.player === me.id && !m.confirmed)
              ? h("button", { class: "primary", "data-testid": `confirm-${e.id}`, onclick: () => this.act("POST", `/api/events/${d.id}/entries/${e.id}/confirm`) }, t("confirm_entry")) : null,
            me && !e.withdrawn && d.status !== "finished" && (d.organizer || e.members.some((m) => m.player === me.id))
              ? h("button", { "data-testid": `withdraw-${e.id}`, onclick: () => this.act("DELETE", `/api/events/${d.id}/entries/${e.id}`) }, t("withdraw")) : null)))),
        desk.entries(this, d, me, mine, this.info));
      // the next round is paired once the last one is over (the server refuses it before)
      const last = d.rounds[d.rounds.length - 1];
      const more = d.status !== "finished" && (d.rounds_total === null || d.rounds.length < d.rounds_total) && (!last || last.status === "finished");
      const rounds = h("section", { class: "panel" }, h("h2", {}, t("rounds")),
        d.organizer && more
          ? h("button", { class: "primary", "data-testid": "pair-round", onclick: () => this.act("POST", `/api/events/${d.id}/rounds`) }, t("pair_round", { n: d.rounds.length + 1 })) : null,
        d.rounds.length ? d.rounds.slice().reverse().map((r) => round(this, d, r, names, me)) : h("p", { class: "muted" }, t("no_rounds")));
      const office = d.organizer && d.status !== "finished"
        ? h("section", { class: "panel", "data-testid": "organizer-desk" }, h("h2", {}, t("organizer_desk")),
            desk.settings(this, d, this.games), desk.people(this, d), desk.constraints(this, d, names))
        : null;
      main.replaceChildren(h("div", { class: "event" }, head, this.standings(d, names), rounds, entries, office,
        this.crossTable(d, names), this.notes(d), this.courtQuestions(d)));
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
        if (r.status === "published") continue;
        for (const tb of r.tables) {
          if (tb.table && tb.status === "playing" && tb.entries.some((e) => ids.has(e))) {
            return h("p", { class: "ready", "data-testid": "your-table" }, t("table_ready"), " ",
              h("a", { class: "button primary", href: `/table/${tb.table}`, "data-link": true }, t("go_to_table")));
          }
        }
      }
      return null;
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
  };
}
