// A round on the event page (issue 42 items 2 and 7): its tables with their entrants, results,
// referee (named) and the links each person may follow — a player to his table or to its live
// read-only Davtar, a referee to his console, an organizer to assign a referee —, its byes; and,
// while the organizer's pairings are published but not started, the desk that corrects them
// (swap two entrants, move the bye, pair again, each change listed with who and when) and
// "Start", which opens the tables.
import { t } from "/static/i18n.js";

export function roundView(kit) {
  const { h, when } = kit;

  // The referee's name (the API names him on each table) or nothing.
  const refereeName = (tb) => (tb.referee && typeof tb.referee === "object" ? tb.referee.name : tb.referee_name) || null;
  const refereeId = (tb) => (tb.referee && typeof tb.referee === "object" ? tb.referee.id : tb.referee) || null;
  // A table's live read-only Davtar (an over-the-board table's score sheet, as its players see it).
  const davtarPath = (tb) => tb.davtar || (tb.share ? `/scoresheet/shared/${tb.share}` : null);

  function playsAt(d, tb, me) {
    return Boolean(me) && d.entries.some((e) => tb.entries.includes(e.id) && e.members.some((m) => m.player === me.id));
  }

  // What one change of published pairings did, in words: "swapped A and B", "the bye to A", "paired again".
  function changeText(c, names) {
    const w = c.what || {};
    if (w.swap) return t("change_swap", { a: names[w.swap[0]], b: names[w.swap[1]] });
    if (w.bye) return t("change_bye", { a: names[w.bye.to], b: names[w.bye.from] });
    if (w.repair) return t("change_repair");
    return JSON.stringify(w);
  }

  // The organizer's tools for published pairings.
  function desk(page, d, r, names) {
    const inRound = [...r.tables.flatMap((tb) => tb.entries), ...r.byes];
    const pick = (id) => {
      const s = h("select", { "data-testid": id, "aria-label": t("entry") }, inRound.map((e) => h("option", { value: e }, names[e])));
      return s;
    };
    const a = pick(`swap-a-${r.number}`);
    const b = pick(`swap-b-${r.number}`);
    if (inRound.length > 1) b.value = String(inRound[1]);
    // the bye goes to an entrant at a table; with several byes, the organizer says whose it was
    const seated = r.tables.flatMap((tb) => tb.entries);
    const bye = h("select", { "data-testid": `bye-to-${r.number}`, "aria-label": t("give_bye") }, seated.map((e) => h("option", { value: e }, names[e])));
    const instead = r.byes.length > 1 ? h("select", { "data-testid": `bye-from-${r.number}`, "aria-label": t("bye_from") }, r.byes.map((e) => h("option", { value: e }, names[e]))) : null;
    const path = `/api/events/${d.id}/rounds/${r.number}`;
    return h("div", { class: "desk", "data-testid": `desk-${r.number}` },
      h("p", { class: "muted small" }, t("published_help")),
      h("div", { class: "row wrap" }, a, b,
        h("button", { "data-testid": `swap-${r.number}`, onclick: () => page.act("PATCH", path, { swap: [Number(a.value), Number(b.value)] }) }, t("swap_entrants"))),
      r.byes.length ? h("div", { class: "row wrap" }, bye, instead,
        h("button", { "data-testid": `move-bye-${r.number}`, onclick: () => page.act("PATCH", path,
          instead ? { bye: Number(bye.value), instead: Number(instead.value) } : { bye: Number(bye.value) }) }, t("give_bye"))) : null,
      h("div", { class: "row wrap" },
        h("button", { "data-testid": `repair-${r.number}`, onclick: () => page.act("PATCH", path, { repair: true }) }, t("pair_again")),
        h("button", { class: "primary", "data-testid": `start-${r.number}`, onclick: () => page.act("POST", `${path}/start`) }, t("start_round", { n: r.number }))));
  }

  function changesList(r, names) {
    const list = r.changes || [];
    if (!list.length) return null;
    return h("div", {}, h("h4", {}, t("changes")),
      h("ul", { class: "changes", "data-testid": `changes-${r.number}` }, list.map((c) => h("li", {},
        h("small", { class: "muted" }, `${when(c.at)} · ${c.by} · `), changeText(c, names)))));
  }

  function table(page, d, r, tb, names, me) {
    const mine = playsAt(d, tb, me);
    const referee = refereeName(tb);
    const davtar = davtarPath(tb);
    const started = r.status !== "published";
    return h("li", { class: "table-row", "data-testid": `table-${r.number}-${tb.number}` },
      h("div", { class: "what" }, h("strong", {}, t("table_n", { n: tb.number })), " ",
        tb.entries.flatMap((e, i) => [i ? " — " : "", names[e]]),
        tb.result ? h("span", { class: "badge", "data-testid": "result" }, tb.result.join(" : ")) : null,
        tb.status === "unfinished" ? h("span", { class: "badge" }, t("unfinished")) : null,
        tb.status === "awaiting_referee" ? h("span", { class: "badge" }, t("awaiting_referee")) : null,
        referee ? h("div", { class: "muted small", "data-testid": `referee-of-${tb.id}` }, t("refereed_by", { name: referee })) : null),
      h("div", { class: "go" },
        started && tb.table && tb.status === "playing" && mine
          ? h("a", { class: "button primary", href: `/table/${tb.table}`, "data-link": true, "data-testid": `play-${tb.id}` }, t("go_to_table"))
          : tb.table && !tb.secret ? h("a", { class: "button", href: `/table/${tb.table}`, "data-link": true }, t(tb.status === "playing" ? "watch" : "replay"))
          : tb.secret ? h("span", { class: "muted", "data-testid": `secret-${tb.id}` }, t("deals_secret_until")) : null,
        started && davtar && mine ? h("a", { class: "button", href: davtar, "data-link": true, "data-testid": `davtar-${tb.id}` }, t("live_davtar")) : null,
        tb.status === "unfinished" && mine
          ? h("button", { class: "primary", "data-testid": `resume-${tb.id}`, onclick: () => kit.api("POST", `/api/tables/${tb.table}/resume`).then(() => page.load()).catch(kit.fail) }, t("continue_game")) : null,
        me && (refereeId(tb) === me.id || (d.organizer && tb.sheet && tb.sheet !== "shared"))
          ? h("a", { class: "button primary", href: `/event/${d.id}/table/${tb.id}`, "data-link": true, "data-testid": `console-${tb.id}` }, t("referee_console")) : null,
        d.organizer && !tb.result && !mine ? refereeField(page, d, tb) : null,
        refereeId(tb) && mine && started ? conflictField(page, d, tb) : null));
  }

  // A player at the table raises a conflict of interest (L-8): the referee steps down.
  function conflictField(page, d, tb) {
    const input = h("input", { type: "text", "data-testid": `conflict-reason-${tb.id}`, placeholder: t("conflict_reason"), "aria-label": t("conflict_reason") });
    return h("span", { class: "row" }, input,
      h("button", { class: "danger", "data-testid": `conflict-${tb.id}`, onclick: () => page.act("POST", `/api/events/${d.id}/tables/${tb.id}/conflict`, { reason: input.value.trim() }) }, t("raise_conflict")));
  }

  function refereeField(page, d, tb) {
    const input = h("input", { type: "text", "data-testid": `referee-${tb.id}`, placeholder: t("referee"), "aria-label": t("referee") });
    return h("span", { class: "row" }, input,
      h("button", { "data-testid": `assign-${tb.id}`, onclick: () => page.act("POST", `/api/events/${d.id}/tables/${tb.id}/referee`, { username: input.value.trim() }) }, t("assign_referee")));
  }

  return function round(page, d, r, names, me) {
    const published = r.status === "published";
    return h("div", { class: "round", "data-testid": `round-${r.number}` },
      h("h3", {}, t("round_n", { n: r.number }), " ", h("span", { class: `status ${r.status}`, "data-testid": `round-status-${r.number}` }, t("event_status_" + r.status))),
      (r.without_referee || []).length && !published ? h("p", { class: "muted small", "data-testid": `without-referee-${r.number}` },
        t(r.status === "awaiting_referees" ? "tables_awaiting_referee" : "tables_without_referee", { tables: r.without_referee.join(", ") })) : null,
      h("ul", { class: "tables" }, r.tables.map((tb) => table(page, d, r, tb, names, me))),
      r.byes.length ? h("p", { class: "muted", "data-testid": `byes-${r.number}` }, `${t("byes")}: `, r.byes.map((e) => names[e]).join(", ")) : null,
      d.format === "duplicate" && !published ? h("p", { class: "small" }, h("a", { href: `/event/${d.id}/boards/${r.number}`, "data-link": true, "data-testid": `boards-${r.number}` }, t("print_boards"))) : null,
      (r.absent || []).length ? h("p", { class: "muted", "data-testid": `absent-${r.number}` }, `${t("requested_byes")}: `, r.absent.map((e) => names[e]).join(", ")) : null,
      published && d.organizer ? desk(page, d, r, names) : null,
      changesList(r, names));
  };
}
