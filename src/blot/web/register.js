// The League's register (issue 38 item 6; L-3, L-9, L-10): the pairs barred after a tars kapoot, and
// the Court of Conduct's published decisions: each dishonour's kind, penance, the names the Court
// publishes, the event or game, forgiven ones marked. A member of the Court of Conduct also finds
// here the form that records a dishonour (on one of the court's cases or on its own) and a
// "Forgive" button on each dishonour not forgiven. The server checks everything; the page shows
// what it answers.
import { t, lang } from "/static/i18n.js";

const KINDS = ["signals", "stakes", "cheating", "barred_pair", "arranged_loss"];

export function registerPage({ h, api, toast, refusalText, main, showPending }) {
  const fail = async (e) => toast(await refusalText(e)); // in the reader's language (reasons.js)
  const field = (id, label, control) => {
    control.id = id;
    return h("div", { class: "field" }, h("label", { for: id }, label), control);
  };
  const day = (iso) => (iso ? new Date(iso).toLocaleDateString(lang()) : "—");

  class RegisterPage {
    constructor() {
      this.data = null;
      this.member = false; // a member of the Court of Conduct (GET /api/courts)
      this.cases = [];
      this.form = { kind: "signals", usernames: "", penance: "warning", until: "", explanation: "", concerns: "", case: "", publish: true };
      this.load();
    }

    leave() { this.left = true; }

    async load() {
      try {
        this.data = await api("GET", "/api/register");
      } catch (e) { this.error = e; }
      try {
        const courts = (await api("GET", "/api/courts")).courts || [];
        this.member = courts.includes("conduct");
        if (this.member) this.cases = (await api("GET", "/api/courts/conduct/cases")).cases || [];
      } catch { this.member = false; } // signed out, or a court of no one: the register alone
      this.render();
    }

    async record() {
      const f = this.form;
      const body = {
        kind: f.kind,
        usernames: f.usernames.split(",").map((u) => u.trim()).filter(Boolean),
        penance: f.penance,
        until: f.penance === "bar" ? f.until || null : null,
        explanation: f.explanation,
        concerns: f.concerns,
        publish_names: f.publish,
      };
      if (f.case) body.case = Number(f.case);
      try {
        this.data.decisions = (await api("POST", "/api/conduct/decisions", body)).decisions;
        this.form = { ...this.form, usernames: "", until: "", explanation: "", concerns: "", case: "" };
        toast(t("dishonour_recorded"));
      } catch (e) { fail(e); }
      this.render();
    }

    async forgive(d) {
      try {
        this.data.decisions = (await api("POST", `/api/conduct/decisions/${d.id}/forgive`)).decisions;
      } catch (e) { fail(e); }
      this.render();
    }

    penance(d) {
      if (d.penance === "bar") return t("penance_bar", { until: day(d.until) });
      if (d.penance === "life") return t("penance_life");
      return t("penance_warning");
    }

    decision(d) {
      const forgiven = d.forgiven !== null && d.forgiven !== undefined;
      return h("li", { class: forgiven ? "decision forgiven" : "decision", "data-testid": `decision-${d.id}` },
        h("p", {}, h("strong", {}, day(d.date)), " · ", d.concerns, d.case ? h("span", { class: "muted small" }, ` (${t("on_a_case")})`) : null),
        d.kind
          ? h("p", { class: "dishonour" },
              h("span", { class: "badge", "data-testid": "decision-kind" }, t(`kind_${d.kind}`)), " ",
              h("span", { class: d.in_force ? "badge warn" : "badge", "data-testid": "decision-penance" }, this.penance(d)),
              forgiven ? h("span", { class: "badge ok", "data-testid": "decision-forgiven" }, t("forgiven_on", { date: day(d.forgiven) })) : null)
          : null,
        d.kind ? h("p", { class: "muted small", "data-testid": "decision-names" },
          d.names.length ? t("named", { names: d.names.join(", ") }) : t("names_withheld")) : null,
        h("p", {}, d.decision),
        this.member && d.kind && !forgiven
          ? h("button", { "data-testid": `forgive-${d.id}`, onclick: () => this.forgive(d) }, t("forgive"))
          : null);
    }

    dishonourForm() {
      const f = this.form;
      const set = (key) => (e) => { f[key] = e.target.type === "checkbox" ? e.target.checked : e.target.value; if (key === "penance") this.render(); };
      const select = (key, options) => h("select", { "data-testid": `dishonour-${key}`, onchange: set(key) },
        options.map(([value, label]) => h("option", { value, selected: f[key] === value }, label)));
      return h("section", { class: "panel", "data-testid": "dishonour-form" },
        h("h2", {}, t("dishonour_form")),
        h("div", { class: "form" },
          field("dishonour-kind", t("dishonour_kind_label"), select("kind", KINDS.map((k) => [k, t(`kind_${k}`)]))),
          field("dishonour-usernames", t("dishonour_accounts_label"),
            h("input", { type: "text", "data-testid": "dishonour-usernames", value: f.usernames, oninput: set("usernames") })),
          field("dishonour-penance", t("penance_label"), select("penance",
            [["warning", t("penance_warning")], ["bar", t("penance_bar_option")], ["life", t("penance_life")]])),
          f.penance === "bar"
            ? field("dishonour-until", t("until_label"), h("input", { type: "date", "data-testid": "dishonour-until", value: f.until, oninput: set("until") }))
            : null,
          field("dishonour-case", t("case_label"), select("case",
            [["", t("no_case")], ...this.cases.map((c) => [String(c.id), t("case_n", { n: c.id })])])),
          field("dishonour-concerns", t("concerns_label"),
            h("input", { type: "text", maxlength: 200, "data-testid": "dishonour-concerns", value: f.concerns, oninput: set("concerns") })),
          field("dishonour-explanation", t("explanation_label"),
            h("textarea", { rows: 3, maxlength: 4000, "data-testid": "dishonour-explanation", oninput: set("explanation") }, f.explanation)),
          h("label", { class: "check" },
            h("input", { type: "checkbox", "data-testid": "dishonour-publish", checked: f.publish, onchange: set("publish") }), " ", t("publish_names")),
          h("button", { class: "primary", "data-testid": "dishonour-record", onclick: () => this.record() }, t("record_dishonour"))));
    }

    render() {
      if (this.left) return;
      if (showPending(this.data, this.error && { key: "no_register", testid: "no-register" })) return;
      const d = this.data;
      main.replaceChildren(h("div", { class: "register" },
        h("section", { class: "panel" }, h("h1", {}, t("register_title")), h("p", { class: "muted small" }, t("register_help"))),
        h("section", { class: "panel" }, h("h2", {}, t("bans")),
          d.bans.length ? h("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": t("bans") }, h("table", { class: "board-table", "data-testid": "bans" },
            h("thead", {}, h("tr", {}, h("th", { class: "name" }, t("pair")), h("th", {}, t("since")), h("th", {}, t("ban")), h("th", {}, t("until")))),
            h("tbody", {}, d.bans.map((b) => h("tr", { class: b.in_force ? "" : "muted" }, h("td", { class: "name" }, b.players.join(" & ")),
              h("td", {}, day(b.since)), h("td", {}, t(b.ban === "lifetime" ? "ban_lifetime" : "ban_year")), h("td", {}, b.until ? day(b.until) : "—"))))))
            : h("p", { class: "muted" }, t("no_bans"))),
        this.member ? this.dishonourForm() : null,
        h("section", { class: "panel" }, h("h2", {}, t("decisions")),
          d.decisions.length ? h("ul", { class: "tables", "data-testid": "decisions" }, d.decisions.map((x) => this.decision(x)))
            : h("p", { class: "muted" }, t("no_decisions")))));
    }
  }

  return { RegisterPage };
}
