// The referee's console beside the Davtar (L-6 to L-8) and a court member's cases (L-5): the
// console's announcements, disputes with a B-72 penalty and questions to a court; a court's
// cases, each its question only, never its event, table or names.
import { t, lang } from "/static/i18n.js";
import { Page } from "/static/util.js";
import { presenter, sheetGame } from "/static/games.js";

// The penalties a dispute may give over the board: those of the game with a score sheet (B-72).
async function sheetPenalties() {
  const game = await sheetGame();
  return game ? (await presenter(game)).scoreSheet.PENALTIES || [] : [];
}

export function consolePages({ h, api, main, showPending, when, fail, field, go, noteText }) {
  // The referee's console: announcements, a dispute (with a B-72 penalty), a question to a court;
  // the Davtar itself is the score sheet page, opened beside it.
  class ConsolePage extends Page {
    constructor(eventId, tableId) {
      super();
      this.eventId = eventId;
      this.tableId = tableId;
      this.data = null;
      this.load();
    }

    load() {
      return this.show(async () => {
        const d = await api("GET", `/api/events/${this.eventId}/tables/${this.tableId}/console`);
        if (d.sheet && !this.penalties) this.penalties = await sheetPenalties();
        return d;
      });
    }

    // A note, a dispute or a question sent: the console as the server then has it.
    async send(path, body) {
      await this.saved(api("POST", `/api/events/${this.eventId}/tables/${this.tableId}/${path}`, body).then((d) => { this.data = d; }));
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
        (this.penalties || []).flatMap((k) => [0, 1].map((team) => h("option", { value: `${k}:${team}` }, `${t("penalty_" + k)} — ${t("team_n", { n: team + 1 })}`))));
      main.replaceChildren(h("div", { class: "console" },
        h("section", { class: "panel" }, h("h1", {}, t("referee_console")),
          h("p", { class: "muted" }, `${t("round_n", { n: d.round })}, ${t("table_n", { n: d.number })}`),
          h("div", { class: "row wrap" },
            d.sheet ? h("a", { class: "button primary", href: `/scoresheet/${d.sheet}`, "data-link": true, "data-testid": "open-sheet" }, t("open_davtar")) : null,
            d.online_table ? h("a", { class: "button primary", href: `/table/${d.online_table}`, "data-link": true, "data-testid": "watch-table" }, t("watch")) : null,
            d.online_table ? [true, false].map((paused) => h("button", { "data-testid": paused ? "pause-table" : "resume-table",
              onclick: () => this.saved(api("POST", `/api/events/${this.eventId}/tables/${this.tableId}/pause`, { paused })) },
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
      go(`/event/${this.eventId}`);
    } catch (e) { fail(e); }
  };

  function fetchApply(page, c) {
    api("POST", `/api/events/${page.eventId}/tables/${page.tableId}/cases/${c.id}/apply`, { applied: c.answer })
      .then((d) => { page.data = d; page.render(); }).catch(fail);
  }

  // A court member's page (L-5): the open cases of each court he sits on, each with its answer
  // form, then the answered ones; a case is its question only, never its event, table or names.
  class CourtPage extends Page {
    constructor() {
      super();
      this.data = null; // each court's cases
      this.drafts = {};
      this.load();
    }

    load() {
      return this.show(async () => {
        const found = await api("GET", "/api/courts");
        // the fair-play view (issue 43, L-9): the Court of Conduct's members and administrators only
        if (found.fairplay && !this.fairplay) {
          const { fairPlayPanel } = await import("/static/fairplay.js");
          this.fairplay = fairPlayPanel({ h, api, fail, field, rerender: () => this.render(), reloadCases: () => this.load() });
        }
        return Promise.all(found.courts.map((c) => api("GET", `/api/courts/${c}/cases`)));
      });
    }

    async answer(c) {
      const text = (this.drafts[c.id] || "").trim();
      if (await this.saved(api("POST", `/api/cases/${c.id}/answer`, { answer: text }))) delete this.drafts[c.id];
      this.load();
    }

    render() {
      if (this.left) return;
      if (showPending(this.data, this.error && { key: "no_courts_page", testid: "no-courts" })) return;
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
      const sections = this.data.map((court) => {
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
        sections.length ? sections : h("section", { class: "panel" }, h("p", { class: "muted", "data-testid": "no-court" }, t("no_courts"))),
        this.fairplay ? this.fairplay.render() : null));
    }
  }
  return { ConsolePage, CourtPage };
}
