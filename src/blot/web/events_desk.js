// The organizer's desk on the event page (issue 42 item 1): the event's settings changed in the
// form that made it; pairs or players entered by their usernames, late ones too; bot entrants of
// any level the event allows; more organizers and the event's referees; pairs that must not meet
// (same club, same family) and the byes an entrant asked for. A player's own entry form is here
// too. Every change is the server's to accept (a refusal is said in the page's language).
import { t } from "/static/i18n.js";
import { formOf, bodyOf, changes, settingsFields } from "/static/events_form.js";

export function eventDesk(kit) {
  const { h } = kit;

  const text = (id, label) => h("input", { type: "text", "data-testid": id, placeholder: label, "aria-label": label, autocomplete: "off" });
  const value = (el) => el.value.trim();

  // The settings, folded until the organizer opens them.
  function settings(page, d, games) {
    page.edit ||= formOf(games, d);
    const info = games.find((g) => g.game === d.game);
    const save = async () => {
      const body = changes(bodyOf(formOf(games, d), info), bodyOf(page.edit, info));
      if (!Object.keys(body).length) return;
      if (!(await page.act("PATCH", `/api/events/${d.id}`, body))) return;
      Object.assign(page, { edit: null, editOpen: false, drawn: false }); // the event as the server now has it
      kit.toast(t("saved"));
      page.render();
    };
    return h("details", { class: "more", "data-testid": "edit-settings", open: page.editOpen || null,
      ontoggle: (e) => { page.editOpen = e.target.open; } },
    h("summary", {}, t("event_settings")),
    h("div", { class: "form" }, settingsFields(kit, games, page.edit, () => page.render(), true),
      h("button", { class: "primary", "data-testid": "save-settings", onclick: save }, t("save_settings"))));
  }

  // Entering an entry: a player enters himself (with his partner), an organizer anyone.
  function entries(page, d, me, mine, info) {
    if (!me || !me.username || d.status === "finished") return [];
    const pair = Boolean(info) && info.teams[0].length === 2; // an entry is one of the game's teams
    const rows = [];
    if (!mine.length && !d.rounds.length) {
      const partner = pair ? text("partner", t("partner")) : null;
      rows.push(h("div", { class: "row" }, partner,
        h("button", { class: "primary", "data-testid": "enter", onclick: () => page.act("POST", `/api/events/${d.id}/entries`,
          { usernames: pair ? [me.username, value(partner)] : [me.username] }) }, t(pair ? "enter_pair" : "enter"))));
    }
    if (!d.organizer) return rows;
    const names = (pair ? [1, 2] : [1]).map((i) => text(`entrant-${i}`, t("username_n", { n: i })));
    const late = d.rounds.length > 0;
    // a late entry's starting score: the organizer's (none: it starts from nothing)
    const score = late ? h("input", { type: "number", min: 0, step: 0.5, "data-testid": "late-score", placeholder: t("late_score"), "aria-label": t("late_score") }) : null;
    const body = () => ({ usernames: names.map(value), ...(score && score.value !== "" ? { late_score: Number(score.value) } : {}) });
    rows.push(h("h3", {}, t(late ? "late_entry" : "enter_others")),
      late ? h("p", { class: "muted small" }, t("late_entry_help")) : null,
      h("div", { class: "row wrap" }, names, score,
        h("button", { "data-testid": "enter-others", onclick: () => page.act("POST", `/api/events/${d.id}/entries`, body()) },
          t(pair ? "enter_that_pair" : "enter_that_player"))));
    if (d.settings.online) {
      const levels = (d.settings.rated ? info.rated_bots : info.bots) || [];
      const level = h("select", { "data-testid": "bot-level", "aria-label": t("bot_level") }, levels.map((b) => h("option", { value: b }, t("bot_" + b))));
      rows.push(h("div", { class: "row wrap" }, level,
        h("button", { "data-testid": "add-bot", onclick: () => page.act("POST", `/api/events/${d.id}/entries`, { bot: level.value }) }, t("add_bot_entry"))));
    }
    return rows;
  }

  // People who run the event with the organizer: organizers and referees, added by username.
  function people(page, d) {
    const names = (list) => (list || []).map((p) => (typeof p === "object" ? p.name : p)).join(", ");
    const add = (key, path) => {
      const input = text(`add-${key}-name`, t("username"));
      return h("div", { class: "row wrap" }, input,
        h("button", { "data-testid": `add-${key}`, onclick: () => page.act("POST", `/api/events/${d.id}/${path}`, { username: value(input) }) }, t(`add_${key}`)));
    };
    // the organizers by name where the event names them (their ids say nothing)
    const organizers = d.organizer_names || (d.organizers || []).filter((p) => typeof p === "object");
    return h("div", {},
      h("h3", {}, t("organizers")), organizers.length ? h("p", { "data-testid": "organizers-list" }, names(organizers)) : null, add("organizer", "organizers"),
      h("h3", {}, t("referees")), h("p", { class: "muted small" }, t("referees_help")),
      (d.referees || []).length ? h("p", { "data-testid": "referees-list" }, names(d.referees)) : null, add("referee", "referees"));
  }

  // Pairs that must not meet, and the rounds an entrant asked to sit out.
  function constraints(page, d, names) {
    const active = d.entries.filter((e) => !e.withdrawn);
    const pick = (id) => h("select", { "data-testid": id, "aria-label": t("entry") }, active.map((e) => h("option", { value: e.id }, names[e.id])));
    const a = pick("forbid-a");
    const b = pick("forbid-b");
    if (active.length > 1) b.value = String(active[1].id);
    const forbidden = (d.forbidden || []).map((p) => h("li", { class: "table-row" }, h("div", { class: "what" }, `${names[p[0]]} — ${names[p[1]]}`),
      h("button", { "data-testid": `unforbid-${p[0]}-${p[1]}`, onclick: () => page.act("DELETE", `/api/events/${d.id}/forbidden/${p[0]}/${p[1]}`) }, t("remove"))));
    const who = pick("bye-entry");
    const round = h("input", { type: "number", min: d.rounds.length + 1, max: 30, value: d.rounds.length + 1, "data-testid": "bye-round", "aria-label": t("round_word") });
    const byes = active.flatMap((e) => (e.byes_requested || []).map((n) => h("li", { class: "table-row" }, h("div", { class: "what" }, `${names[e.id]}: ${t("round_n", { n })}`),
      h("button", { "data-testid": `unbye-${e.id}-${n}`, onclick: () => page.act("DELETE", `/api/events/${d.id}/entries/${e.id}/byes/${n}`) }, t("remove")))));
    return h("div", {},
      h("h3", {}, t("forbidden_pairs")), h("p", { class: "muted small" }, t("forbidden_help")),
      forbidden.length ? h("ul", { class: "tables", "data-testid": "forbidden" }, forbidden) : null,
      h("div", { class: "row wrap" }, a, b, h("button", { "data-testid": "forbid", onclick: () => page.act("POST", `/api/events/${d.id}/forbidden`, { entries: [Number(a.value), Number(b.value)] }) }, t("forbid_pair"))),
      h("h3", {}, t("requested_byes")), h("p", { class: "muted small" }, t("requested_byes_help")),
      byes.length ? h("ul", { class: "tables", "data-testid": "requested-byes" }, byes) : null,
      h("div", { class: "row wrap" }, who, round, h("button", { "data-testid": "request-bye", onclick: () => page.act("POST", `/api/events/${d.id}/entries/${who.value}/byes`, { round: Number(round.value) }) }, t("request_bye"))));
  }

  return { settings, entries, people, constraints };
}
