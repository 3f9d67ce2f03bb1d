// The score sheet (Davtar) of a game played with real cards: create a sheet, enter and edit its
// deals, and follow it live through its read-only link. Every point, total, the end of the game and
// the match score come from the server, which scores with the engine's own rules (docs/protocol.md,
// "Score sheets"). What the game says — the deal form, an entry's columns and text — is its
// presenter's (`scoreSheet`, web/games/<package>.js); this page names no game (issue 39 item 2).
import { refusalText } from "/static/util.js";
import { t, lang } from "/static/i18n.js";
import { presenter, rulesetLabel, sheetGame, optionField } from "/static/games.js";
import * as queue from "/static/sheet_queue.js";

const MINE = "blot.sheets";
const GAME = "blot.sheet-game";

// The game with a score sheet (its rulesets, its presenter) as the server lists it; with no network
// the copy this device kept the last time (issue 41 item 9).
async function sheetInfo(store) {
  try {
    const info = await sheetGame();
    if (info) store.setItem(GAME, JSON.stringify(info));
    return info;
  } catch (e) {
    const kept = JSON.parse(store.getItem(GAME) || "null");
    if (kept) return kept;
    throw e;
  }
}

// What the game says on its sheet (issue 39 item 2: the columns, the deal form, an entry's text),
// from its presenter (web/games/<package>.js, `scoreSheet`).
async function sheetPart(info) {
  return info ? (await presenter(info)).scoreSheet : null;
}

export function scoresheetPages({ h, api, toast, go, store, main, showPending }) {

  function mine() {
    try {
      const list = JSON.parse(store.getItem(MINE) || "[]");
      return Array.isArray(list) ? list : [];
    } catch {
      return [];
    }
  }

  function remember(sheet) {
    const list = mine().filter((s) => s.id !== sheet.id);
    list.unshift({ id: sheet.id, teams: sheet.teams, at: sheet.created_at });
    store.setItem(MINE, JSON.stringify(list.slice(0, 30)));
  }

  // --- /scoresheet: a new sheet, and the sheets this browser made ---------------------------------

  class SheetsPage {
    constructor() {
      this.form = { teams: ["", ""], ruleset: null, options: {} };
      // the rulesets are the presets the server lists for the game with a score sheet, its options
      // those of the game's that its presenter's part of the sheet asks (scoreSheet.OPTIONS)
      this.info = null;
      this.part = null;
      sheetGame().then(async (info) => {
        this.info = info;
        if (info && !this.form.ruleset) this.form.ruleset = info.rulesets[0];
        if (this.rulesetEl) this.fillRulesets(this.rulesetEl);
        this.part = await sheetPart(info);
        if (this.optionsEl) this.fillOptions(this.optionsEl);
      }).catch(() => {});
    }

    // The sheet's options as the lobby draws a game's (games.js optionField), the game's defaults first.
    fillOptions(box) {
      const asked = this.part ? this.part.OPTIONS : [];
      const fields = this.info ? this.info.option_fields.filter((o) => asked.includes(o.name)) : [];
      const options = this.form.options;
      for (const o of fields) if (!(o.name in options)) options[o.name] = this.info.options[o.name];
      box.replaceChildren(...fields.map((o) => optionField(o, options[o.name], (v) => (options[o.name] = v), `sheet-${o.name}`, `sheet-opt-${o.name}`)));
    }

    fillRulesets(select) {
      const names = this.info ? this.info.rulesets : [];
      select.replaceChildren(...names.map((r) => h("option", { value: r }, rulesetLabel(this.info, r))));
      if (this.form.ruleset) select.value = this.form.ruleset;
    }

    render() {
      const f = this.form;
      const team = (i) => h("label", {}, h("span", {}, t("sheet_team_n", { n: i + 1 })),
        h("input", { "data-testid": `team-name-${i}`, maxlength: 40, value: f.teams[i], placeholder: t("sheet_team_n", { n: i + 1 }),
          oninput: (e) => (f.teams[i] = e.target.value) }));
      const ruleset = h("select", { "data-testid": "sheet-ruleset", onchange: (e) => (f.ruleset = e.target.value) });
      this.rulesetEl = ruleset;
      this.fillRulesets(ruleset);
      const options = h("div", { class: "form sheet-options", "data-testid": "sheet-options" });
      this.optionsEl = options;
      this.fillOptions(options);
      const list = mine();
      main.replaceChildren(
        h("section", { class: "panel" },
          h("h2", {}, t("sheet_title")),
          h("p", { class: "muted" }, t("sheet_help")),
          h("div", { class: "form" }, team(0), team(1),
            h("label", {}, h("span", {}, t("ruleset")), ruleset),
            options),
          h("button", { class: "primary", "data-testid": "create-sheet", onclick: () => this.create() }, t("sheet_create"))),
        h("section", { class: "panel" }, h("h3", {}, t("sheet_mine")),
          list.length
            ? h("ul", { class: "tables", "data-testid": "my-sheets" }, list.map((s) => h("li", {},
              h("a", { href: `/scoresheet/${s.id}`, "data-link": true }, `${s.teams[0]} — ${s.teams[1]}`),
              s.at ? h("small", { class: "muted" }, ` ${new Date(s.at).toLocaleString(lang())}`) : null)))
            : h("p", { class: "muted" }, t("sheet_none"))));
    }

    async create() {
      const f = this.form;
      const teams = f.teams.map((x, i) => x.trim() || t("sheet_team_n", { n: i + 1 }));
      try {
        const sheet = await api("POST", "/api/scoresheets", { ruleset: f.ruleset || undefined, options: f.options, teams });
        remember(sheet);
        go(`/scoresheet/${sheet.id}`);
      } catch (e) {
        refusalText(e).then(toast);
      }
    }
  }

  // --- /scoresheet/{id} (edit) and /scoresheet/shared/{share} (read only, live) -------------------

  class SheetPage {
    constructor(id, share) {
      this.id = id;
      this.share = share;
      this.readOnly = !id;
      this.sheet = null;
      this.part = null; // the game's side of the sheet (sheetPart), once known
      this.form = null;
      this.editing = null; // the number of the deal being edited
      this.formError = null;
      this.badField = null;
      this.pending = false;
      this.closed = false;
      this.retry = 0;
      this.live = false;
      this.offline = false;
      // the changes made here and not yet sent (issue 41 item 9: web/sheet_queue.js)
      this.queue = this.readOnly ? { changes: [], refused: [] } : queue.loadQueue(store, id);
      this.editingCid = null; // the id of the waiting deal being edited
      this.keys = (e) => this.key(e);
      this.online = () => this.flush();
      document.addEventListener("keydown", this.keys);
      window.addEventListener("online", this.online);
      this.load();
    }

    leave() {
      this.closed = true;
      document.removeEventListener("keydown", this.keys);
      window.removeEventListener("online", this.online);
      clearTimeout(this.retryTimer);
      if (this.ws) this.ws.close();
    }

    async load() {
      try {
        const sheet = await api("GET", this.readOnly ? `/api/scoresheets/shared/${this.share}` : `/api/scoresheets/${this.id}`);
        this.info = await sheetInfo(store).catch(() => null);
        this.part = await sheetPart(this.info);
        this.form = this.part && this.part.emptyForm();
        this.took(sheet);
        this.share = sheet.share;
        if (!this.readOnly) remember(sheet);
      } catch (e) {
        if (e.status === 404) this.notFound = true;
        else if (!this.readOnly && queue.isOffline(e)) await this.openCopy();
        else refusalText(e).then(toast);
      }
      this.render();
      if (this.sheet && !this.ws) this.connect();
      if (this.sheet && this.queue.changes.length) this.flush();
    }

    // No network: the last copy this device read, and the changes waiting here.
    async openCopy() {
      this.offline = true;
      this.sheet = queue.loadCopy(store, this.id);
      this.info = await sheetInfo(store).catch(() => null);
      this.part = await sheetPart(this.info).catch(() => null);
      this.form = this.part && this.part.emptyForm();
      if (!this.sheet || !this.part) {
        this.sheet = null;
        this.noCopy = true;
      }
    }

    // A sheet read from the server: kept for the next time there is no network, and the new deals
    // it already has dropped from the waiting ones.
    took(sheet) {
      this.sheet = sheet;
      if (this.readOnly) return;
      queue.saveCopy(store, this.id, sheet);
      this.queue = { ...this.queue, changes: queue.settled(this.queue.changes, sheet) };
      queue.saveQueue(store, this.id, this.queue);
    }

    keep(change) {
      this.queue = { ...this.queue, changes: queue.enqueue(this.queue.changes, change) };
      queue.saveQueue(store, this.id, this.queue);
    }

    // Send the waiting changes in order; stop at the first that meets no network (then again
    // when the browser says it is back, or in a few seconds); a refused one is set aside with its
    // sentence, and the others go on.
    async flush() {
      if (this.flushing || this.closed || this.readOnly) return;
      this.flushing = true;
      clearTimeout(this.retryTimer);
      let sent = false;
      try {
        while (this.queue.changes.length && !this.closed) {
          const change = this.queue.changes[0];
          const [method, path, body] = queue.request(this.id, change);
          try {
            await api(method, path, body);
          } catch (e) {
            if (queue.isOffline(e)) {
              this.offline = true;
              this.retryTimer = setTimeout(() => this.flush(), 5000);
              return;
            }
            const why = await refusalText(e);
            this.queue = { ...this.queue, refused: [...this.queue.refused, { change, why }] };
          }
          sent = true;
          this.queue = { ...this.queue, changes: this.queue.changes.slice(1) };
          queue.saveQueue(store, this.id, this.queue);
        }
        this.offline = false;
        if (sent) await this.refresh().catch(() => {});
      } finally {
        this.flushing = false;
        if (!this.closed && this.tableEl) this.renderSheet();
        this.renderLive();
      }
    }

    connect() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(`${proto}//${location.host}/ws/scoresheets/${this.share}`);
      this.ws = ws;
      ws.onopen = () => { this.retry = 0; this.live = true; this.renderLive(); };
      ws.onmessage = (ev) => {
        const m = JSON.parse(ev.data);
        if (m.type !== "sheet") return;
        this.took(this.readOnly ? m.sheet : { ...m.sheet, id: this.id, read_only: false });
        if (this.offline) this.flush();
        this.renderSheet();
      };
      ws.onclose = (ev) => {
        this.live = false;
        if (this.closed) return;
        this.renderLive();
        if (ev.code === 4404) return;
        const wait = Math.min(5000, 300 * 2 ** this.retry++);
        setTimeout(() => !this.closed && this.connect(), wait);
      };
    }

    teams() {
      return this.sheet.teams;
    }

    render() {
      if (this.closed) return; // an answer that came after the page was left
      const missing = this.notFound ? { key: "sheet_not_found", testid: "sheet-not-found" }
        : this.noCopy ? { key: "sheet_offline_none", testid: "sheet-offline-none" } : null;
      if (showPending(this.sheet, missing)) return;
      const s = this.sheet;
      const rules = [rulesetLabel(this.info, s.ruleset), this.part ? this.part.rulesLine(s.options) : ""].filter(Boolean).join(" · ");
      this.liveEl = h("span", { class: "badge", "data-testid": "sheet-live" });
      this.overEl = h("div");
      this.tableEl = h("div", { class: "sheet-scroll" });
      this.historyEl = h("div");
      this.formEl = h("div");
      const head = h("section", { class: "panel sheet-head" },
        h("h2", {}, t("sheet_title"), " ", this.liveEl),
        h("p", { class: "teams" }, h("strong", { "data-testid": "sheet-team-0" }, s.teams[0]), " — ", h("strong", { "data-testid": "sheet-team-1" }, s.teams[1])),
        h("p", { class: "muted" }, rules),
        this.readOnly ? h("p", { class: "muted" }, t("sheet_read_only")) : this.shareBox());
      main.replaceChildren(h("div", { class: "sheet-page" + (this.readOnly ? " read-only" : "") },
        h("div", { class: "sheet-main" }, head, this.overEl, h("section", { class: "panel sheet-panel" }, this.tableEl)),
        h("div", { class: "sheet-side" }, this.formEl, this.historyEl)));
      this.renderLive();
      this.renderSheet();
    }

    shareBox() {
      const url = `${location.origin}${this.sheet.share_path}`;
      const input = h("input", { readonly: true, value: url, "aria-label": t("sheet_share"), "data-testid": "share-link", onfocus: (e) => e.target.select() });
      const copy = h("button", { class: "small", onclick: async () => {
        try { await navigator.clipboard.writeText(url); toast(t("copied")); } catch { input.select(); }
      } }, t("copy"));
      return h("div", { class: "share" },
        h("p", {}, t("sheet_share")),
        h("div", { class: "row" }, input, copy, h("a", { href: this.sheet.share_path, target: "_blank", rel: "noopener", "data-testid": "share-open" }, "↗")),
        h("p", { class: "muted small" }, t("sheet_edit_link")));
    }

    renderLive() {
      if (!this.liveEl) return;
      const waiting = this.queue.changes.length;
      let text = this.live ? t("sheet_live") : t("reconnecting");
      if (this.offline) text = t("sheet_offline");
      if (waiting) text += ` · ${t("sheet_waiting", { n: waiting })}`;
      this.liveEl.textContent = text;
      this.liveEl.className = "badge" + (this.live && !this.offline && !waiting ? "" : " warn");
      this.liveEl.dataset.offline = this.offline ? "true" : "false";
    }

    renderSheet() {
      if (!this.tableEl) return;
      this.overEl.replaceChildren(...(this.sheet.finished ? [this.over()] : []), ...this.refusedBox());
      this.tableEl.replaceChildren(this.table());
      this.historyEl.replaceChildren(this.history());
      this.renderForm();
    }

    // The changes the sheet refused when they were sent (a deal after the game's end that another
    // device recorded first, say): shown with the sentence until dismissed.
    refusedBox() {
      const refused = this.queue.refused;
      if (this.readOnly || !refused.length) return [];
      const dismiss = () => {
        this.queue = { ...this.queue, refused: [] };
        queue.saveQueue(store, this.id, this.queue);
        this.renderSheet();
      };
      return [h("section", { class: "panel sheet-refused", "data-testid": "sheet-refused" },
        h("h3", {}, t("sheet_refused")),
        h("ul", {}, refused.map((r) => h("li", {},
          r.change.entry ? `${this.part.entryText(this.part.filled(r.change.entry), this.sheet.teams)} — ` : "", h("span", { class: "muted" }, r.why)))),
        h("button", { class: "small", "data-testid": "sheet-refused-dismiss", onclick: dismiss }, t("sheet_dismiss")))];
    }

    over() {
      const s = this.sheet;
      return h("section", { class: "panel game-over", "data-testid": "sheet-over" },
        h("h2", {}, t("game_over")),
        h("p", {}, t("winner_is", { who: "" }), h("strong", { "data-testid": "sheet-winner" }, s.teams[s.winner])),
        h("p", {}, `${t("match_score")}: `, h("strong", { "data-testid": "sheet-match-score" }, s.match_score),
          this.part ? this.part.matchNote(s) : ""),
        h("p", {}, `${t("total")}: ${s.totals.join(" : ")}`));
    }

    table() {
      const s = this.sheet;
      const teams = s.teams;
      const part = this.part;
      const columns = part.PAPER_COLUMNS;
      const rows = s.deals.map((d) => {
        const numberCell = this.readOnly
          ? h("td", {}, d.number)
          : h("td", {}, h("button", { class: "small", "data-testid": `edit-${d.number}`, title: t("sheet_edit"), onclick: () => this.edit(d.number) }, `${d.number} ✎`));
        const pts = (i) => h("td", { class: "pts" }, h("b", { "data-testid": `points-${i}` }, d.points[i]), h("small", { "data-testid": `total-${i}` }, d.totals[i]));
        return h("tr", { "data-testid": `deal-row-${d.number}`, class: (this.editing === d.number ? "editing " : "") + part.rowClass(d) },
          numberCell, ...part.cells(d, teams), pts(0), pts(1));
      });
      const waiting = this.readOnly ? [] : queue.waitingRows(s, this.queue.changes).map((w) =>
        h("tr", { "data-testid": `waiting-row-${w.number}`, class: "waiting" + (this.editingCid === w.cid ? " editing" : "") },
          h("td", {}, h("button", { class: "small", "data-testid": `edit-waiting-${w.number}`, title: t("sheet_edit"), onclick: () => this.editWaiting(w.cid) }, `${w.number} ✎`)),
          h("td", { class: "bid", colspan: columns.length }, h("span", { "data-testid": "bid" }, part.entryText(part.filled(w.entry), teams))),
          h("td", { class: "pts", colspan: 2 }, h("small", {}, t("sheet_waiting_row")))));
      rows.push(...waiting);
      return h("table", { class: "davtar", "data-testid": "sheet-table" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), ...columns.map((c, i) => h("th", i ? {} : { class: "bid" }, t(c))),
          h("th", { class: "pts", title: teams[0] }, h("span", {}, teams[0])), h("th", { class: "pts", title: teams[1] }, h("span", {}, teams[1])))),
        h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: columns.length + 3, class: "muted" }, t("sheet_no_deals")))),
        h("tfoot", {}, h("tr", { class: "total", "data-testid": "sheet-totals" }, h("td", { colspan: columns.length + 1 }, t("total")),
          h("td", { class: "pts", "data-testid": "sheet-total-0" }, s.totals[0]), h("td", { class: "pts", "data-testid": "sheet-total-1" }, s.totals[1]))));
    }

    history() {
      const s = this.sheet;
      if (!s.history.length) return h("span");
      const who = (x) => x.who || t("someone");
      const what = { add: "hist_add", replace: "hist_replace", delete: "hist_delete" };
      return h("details", { class: "panel history", "data-testid": "sheet-history" },
        h("summary", {}, `${t("sheet_history")} (${s.history.length})`),
        h("ol", {}, s.history.slice().reverse().map((x) => h("li", { "data-testid": "history-item" },
          h("div", {}, t("hist_line", { when: new Date(x.when).toLocaleString(lang()), n: x.deal, what: t(what[x.action]), who: who(x) })),
          x.action === "replace" ? h("small", { class: "muted" }, `${this.part.entryText(x.before, s.teams)} → ${this.part.entryText(x.after, s.teams)}`)
            : h("small", { class: "muted" }, this.part.entryText(x.after || x.before, s.teams))))));
    }

    // --- the form -------------------------------------------------------------------------------------

    renderForm() {
      if (!this.formEl) return;
      const s = this.sheet;
      if (this.readOnly || (s.finished && this.editing === null)) {
        this.formEl.replaceChildren(...(this.readOnly ? [] : [this.undoRow()]));
        return;
      }
      this.formEl.replaceChildren(this.dealForm());
    }

    undoRow() {
      if (this.nextNumber() === 1) return h("span");
      return h("div", { class: "row" }, h("button", { class: "small", "data-testid": "undo-last", disabled: this.pending, onclick: () => this.undo() }, t("sheet_undo")));
    }

    set(key, value) {
      this.form[key] = value;
      this.formError = null;
      this.badField = null;
      this.renderForm();
    }

    dealForm() {
      const number = this.editing ?? this.nextNumber();
      const parts = [
        h("h3", { "data-testid": "form-title" }, this.editing ? t("sheet_editing", { n: number }) : t("sheet_deal_n", { n: number })),
        ...this.part.fields(this),
      ];
      parts.push(
        h("p", { class: "form-error", "data-testid": "form-error", hidden: !this.formError }, this.formError || ""),
        h("div", { class: "row" },
          h("button", { class: "primary", "data-testid": "submit-deal", disabled: this.pending, onclick: () => this.submit() },
            this.editing ? t("sheet_save", { n: number }) : t("sheet_add", { n: number })),
          this.editing ? h("button", { "data-testid": "cancel-edit", onclick: () => this.cancel() }, t("sheet_cancel")) : null,
          !this.editing && this.nextNumber() > 1 ? h("button", { class: "small", "data-testid": "undo-last", disabled: this.pending, onclick: () => this.undo() }, t("sheet_undo")) : null));
      return h("section", { class: "panel deal-form", "data-testid": "deal-form" }, parts);
    }

    key(e) {
      if (this.part) this.part.key(e, this);
    }

    async submit() {
      if (this.pending) return;
      const entry = this.part.entry(this.form);
      if (entry.missing) {
        this.formError = t(entry.missing);
        this.badField = entry.field;
        this.renderForm();
        return;
      }
      let change;
      if (this.editingCid) change = { kind: "replace", cid: this.editingCid, entry };
      else if (this.editing) change = { kind: "replace", number: this.editing, entry };
      else change = { kind: "add", cid: queue.newId(), entry };
      await this.send(change, (why, field) => {
        this.formError = why;
        this.badField = field;
      });
    }

    // A change sent at once while the network is there and nothing waits (a refusal is said at
    // once); else, or when the network is found gone, kept here and sent in order later.
    async send(change, refused) {
      const clear = () => {
        if (change.kind !== "delete") {
          this.form = this.part.emptyForm();
          this.editing = null;
          this.editingCid = null;
          this.formError = null;
          this.badField = null;
        }
      };
      if (this.queue.changes.length || this.offline || change.cid && change.kind !== "add") {
        this.keep(change);
        clear();
        this.renderSheet();
        this.renderLive();
        this.flush();
        return;
      }
      this.pending = true;
      this.renderForm();
      try {
        await api(...queue.request(this.id, change));
        clear();
        await this.refresh();
      } catch (e) {
        if (queue.isOffline(e)) {
          this.offline = true;
          this.keep(change);
          clear();
          this.retryTimer = setTimeout(() => this.flush(), 5000);
          this.renderSheet();
        } else {
          refused(await refusalText(e), e.field || null);
        }
      } finally {
        this.pending = false;
        this.renderForm();
        this.renderLive();
      }
    }

    // The number the next deal will have (the server's deals, then those waiting here).
    nextNumber() {
      const rows = queue.waitingRows(this.sheet, this.queue.changes);
      return rows.length ? rows[rows.length - 1].number + 1 : this.sheet.deals.length + 1 - this.queue.changes.filter((c) => c.kind === "delete").length;
    }

    async refresh() {
      this.took(await api("GET", `/api/scoresheets/${this.id}`));
      this.renderSheet();
    }

    editWaiting(cid) {
      const change = this.queue.changes.find((c) => c.kind === "add" && c.cid === cid);
      if (!change) return;
      const number = queue.waitingRows(this.sheet, this.queue.changes).find((w) => w.cid === cid).number;
      this.openForm(number, cid, change.entry);
    }

    edit(number) {
      const deal = this.sheet.deals[number - 1];
      if (deal) this.openForm(number, null, deal.entry);
    }

    // The deal form opened on a deal's entry: a recorded deal's (cid null) or one waiting to be sent.
    openForm(number, cid, entry) {
      this.editing = number;
      this.editingCid = cid;
      this.form = this.part.formOf(entry);
      this.formError = null;
      this.badField = null;
      this.renderSheet();
      this.formEl.scrollIntoView({ block: "start" });
    }

    cancel() {
      this.editing = null;
      this.editingCid = null;
      this.form = this.part.emptyForm();
      this.formError = null;
      this.renderSheet();
    }

    // Take back the last deal: one still waiting here is dropped; else its take-back waits its
    // turn to be sent (the server refuses it if another device added a deal after it).
    undo() {
      const rows = queue.waitingRows(this.sheet, this.queue.changes);
      const n = this.nextNumber() - 1;
      if (n < 1 || this.pending) return;
      if (this.editing === n) this.cancel();
      const change = rows.length ? { kind: "delete", cid: rows[rows.length - 1].cid } : { kind: "delete", number: n };
      this.send(change, (why) => toast(why));
    }
  }

  return { SheetsPage, SheetPage };
}
