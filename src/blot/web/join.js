// A club night's join codes (issue 41 item 10; docs/players.md, "Club nights"): /join/{code} signs
// a person in without a password, with the name they type (or the one the code gives), until the
// code's time; /join lets them type a code, and lets an event's organizer or a table's host make
// codes for it (pasting its link), see how many were used, and revoke them.
import { t, lang } from "/static/i18n.js";
import { h, api, toast, refusalText, main, nav, session, currentMe } from "/static/util.js";

// A code as typed or read off a board: letters and digits only, upper case.
export function cleanCode(text) {
  return String(text || "").toUpperCase().replace(/[^A-Z0-9]/g, "");
}

// What a pasted link or id names: { event } or { table }, or null.
export function targetOf(text) {
  const value = String(text || "").trim();
  let m;
  if ((m = /\/event\/([\w-]+)/.exec(value))) return { event: m[1] };
  if ((m = /\/table\/([\w-]+)/.exec(value))) return { table: m[1] };
  return null;
}

const when = (iso) => new Date(iso).toLocaleString(lang(), { dateStyle: "short", timeStyle: "short" });

export class JoinPage {
  constructor(code) {
    this.code = code ? cleanCode(code) : null;
    this.info = null;
    this.error = null;
    this.name = "";
    this.mine = null;
    this.make = { target: "", uses: 60, hours: 6 };
    if (this.code) this.look();
    this.loadMine();
  }

  async look() {
    try {
      this.info = await api("GET", `/api/join/${this.code}`);
      this.error = null;
    } catch (e) {
      this.info = null;
      this.error = await refusalText(e);
    }
    this.render();
  }

  async loadMine() {
    if (!currentMe()) return;
    try {
      this.mine = (await api("GET", "/api/joincodes")).codes;
    } catch {
      this.mine = null;
    }
    this.render();
  }

  async join() {
    try {
      const made = await api("POST", `/api/join/${this.code}`, this.info && this.info.name ? {} : { name: this.name.trim() });
      await session.signedIn(made);
      nav.go(made.goto);
    } catch (e) {
      this.error = await refusalText(e);
      this.render();
    }
  }

  render() {
    const parts = [h("section", { class: "panel join" }, h("h2", {}, t("join_title")), h("p", { class: "muted" }, t("join_help")), this.codeForm())];
    if (!this.code && currentMe() && currentMe().id) parts.push(this.makerPanel()); // /join: the maker's side
    main.replaceChildren(...parts);
  }

  codeForm() {
    const typed = h("input", { "data-testid": "join-code", "aria-label": t("join_code"), autocomplete: "off", autocapitalize: "characters",
      maxlength: 12, value: this.code || "", placeholder: "ABCD-EFGH" });
    const error = h("p", { class: "form-error", "data-testid": "join-error", hidden: !this.error }, this.error || "");
    if (!this.info) {
      return h("div", { class: "form" }, h("label", {}, h("span", {}, t("join_code")), typed), error,
        h("button", { class: "primary", "data-testid": "join-look", onclick: () => {
          this.code = cleanCode(typed.value);
          if (this.code) this.look();
        } }, t("join_go")));
    }
    const i = this.info;
    const name = i.name ? h("p", { "data-testid": "join-given-name" }, t("join_given_name", { name: i.name }))
      : h("label", {}, h("span", {}, t("your_name")), h("input", { "data-testid": "join-name", maxlength: 40, value: this.name,
        autocomplete: "nickname", oninput: (e) => (this.name = e.target.value) }));
    return h("div", { class: "form" },
      h("p", { class: "code", "data-testid": "join-shown-code" }, `${i.code.slice(0, 4)}-${i.code.slice(4)}`),
      h("p", { class: "muted", "data-testid": "join-left" }, t("join_left", { n: i.left, until: when(i.until) })),
      name, error,
      h("button", { class: "primary", "data-testid": "join-submit", onclick: () => this.join() }, t("join_go")));
  }

  makerPanel() {
    const m = this.make;
    const list = (this.mine || []).map((c) => h("li", { "data-testid": "my-code" },
      h("strong", {}, `${c.code.slice(0, 4)}-${c.code.slice(4)}`), " ",
      h("small", { class: "muted" }, `${c.used}/${c.uses} · ${when(c.until)}${c.revoked ? " · " + t("join_revoked") : ""}`), " ",
      h("a", { href: c.link, "data-link": true }, c.link), " ",
      c.revoked ? null : h("button", { class: "small", "data-testid": "revoke-code", onclick: () => this.revoke(c.code) }, t("join_revoke"))));
    return h("section", { class: "panel join" }, h("h3", {}, t("join_codes_title")), h("p", { class: "muted" }, t("join_codes_help")),
      h("div", { class: "form" },
        h("label", {}, h("span", {}, t("join_for")), h("input", { "data-testid": "code-target", placeholder: `${location.origin}/event/…`, value: m.target, oninput: (e) => (m.target = e.target.value) })),
        h("label", {}, h("span", {}, t("join_uses")), h("input", { type: "number", min: 1, max: 200, "data-testid": "code-uses", value: m.uses, onchange: (e) => (m.uses = parseInt(e.target.value, 10) || 60) })),
        h("label", {}, h("span", {}, t("join_hours")), h("input", { type: "number", min: 1, max: 24, "data-testid": "code-hours", value: m.hours, onchange: (e) => (m.hours = Number(e.target.value) || 6) })),
        h("button", { class: "primary", "data-testid": "make-code", onclick: () => this.create() }, t("join_make"))),
      list.length ? h("ul", { class: "tables" }, list) : null);
  }

  async create() {
    const target = targetOf(this.make.target) || {};
    try {
      await api("POST", "/api/joincodes", { ...target, uses: this.make.uses, hours: this.make.hours });
      await this.loadMine();
    } catch (e) {
      refusalText(e).then(toast);
    }
  }

  async revoke(code) {
    try {
      await api("DELETE", `/api/joincodes/${code}`);
      await this.loadMine();
    } catch (e) {
      refusalText(e).then(toast);
    }
  }
}
