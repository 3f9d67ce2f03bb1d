// Bazar Blot's score sheet (the League's Davtar, issue 6): what the shared page (web/scoresheet.js)
// asks the game — the deal form's fields and keypad, an entry's text and its columns in the sheet —
// so that the page itself names no game (issue 39 item 2). Its words are the game's own
// (web/games/bazar.<lang>.js, which web/games/bazar.js loads), the rest the page's (web/i18n).
import { t, addGameWords } from "/static/i18n.js";
import { h } from "/static/util.js";

// Bazar Blot's words (web/games/bazar.<lang>.js), loaded once whichever module asks first.
await addGameWords(import.meta.url.replace(/_sheet\.js$/, ""));

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const STRAINS = ["S", "H", "D", "C", "NT"];
const TOTAL = 162;
const DECL_STEPS = [2, 5, 10, 15, 20];
const on = (cond) => (cond ? "on" : "");
const strainLabel = (s) => (s === "NT" ? t("nt") : SUIT[s]);
const pair = (p) => `${p[0]}–${p[1]}`;

// The paper Davtar's column heads before each pair's points and totals: web/print.js prints a
// blank one per table of an over-the-board round (issue 42 item 3); the sheet shows the same.
export const PAPER_COLUMNS = ["sheet_bid", "sheet_cards", "sheet_decl_short", "sheet_belote_short"];
//: The lines of a blank one: a long game of Bazar Blot rarely needs more deals.
export const PAPER_ROWS = 24;

// The table penalties a referee may give with a dispute's ruling (B-72; web/events_console.js), each
// against one of the two teams: their words are the shared penalty_<kind>, which the League's
// notes say too.
export const PENALTIES = ["misdeal", "misplay"];

// The game's options a new sheet asks (drawn as the lobby draws them, games.js optionField): the
// others change the play, not the scoring of a deal written down.
export const OPTIONS = ["target", "kanach"];

// A sheet's options in a line beside its ruleset's name: "to 301 · kanach".
export function rulesLine(options) {
  return [t("to_points", { n: options.target }), options.kanach ? t("opt_kanach_short") : ""].filter(Boolean).join(" · ");
}

// What the match score of a finished sheet says besides its numbers: " (tars kapoot)", or "".
export function matchNote(sheet) {
  return sheet.tars_kapoot ? ` (${t("tars_kapoot")})` : "";
}

export function bidText(entry) {
  if (entry.void) return t("sheet_void");
  if (entry.penalty) return t(entry.penalty.kind === "misdeal" ? "penalty_misdeal" : "penalty_misplay");
  const c = entry.contract;
  const mult = c.multiplier === 2 ? " ×2" : c.multiplier === 4 ? " ×4" : "";
  return `${c.level}${c.strain === "NT" ? " " : ""}${strainLabel(c.strain)}${mult}`;
}

// One line of text for an entry (the history's before and after).
export function entryText(entry, teams) {
  if (!entry) return "—";
  if (entry.void) return t("sheet_void");
  if (entry.penalty) {
    const p = entry.penalty;
    const extra = p.declaration_points ? ` +${p.declaration_points}` : "";
    return `${bidText(entry)} (${teams[p.team]})${extra}`;
  }
  const parts = [`${bidText(entry)} ${teams[entry.contract.team]}`];
  if (entry.kapoot !== null && entry.kapoot !== undefined) parts.push(t("kapoot_by", { team: teams[entry.kapoot] }));
  else parts.push(`${t("sheet_cards")} ${pair(entry.card_points)}`);
  if (entry.declaration_points.some((x) => x)) parts.push(`${t("sheet_decl_short")} ${pair(entry.declaration_points)}`);
  if (entry.belote.some((x) => x)) parts.push(`${t("belote_points")} ${teams[entry.belote[0] ? 0 : 1]}`);
  return parts.join(", ");
}

// An entry as the form sends it (one team's card points typed) with the other team's share
// filled in, as the sheet shows a deal the server has.
export function filled(entry) {
  const cp = entry.card_points;
  if (!cp || (cp[0] !== null && cp[1] !== null)) return entry;
  return { ...entry, card_points: cp[0] === null ? [TOTAL - cp[1], cp[1]] : [cp[0], TOTAL - cp[0]] };
}

export function emptyForm() {
  return {
  kind: "played", team: null, level: null, strain: null, mult: 1, kapoot: null, alone: false,
  cpTeam: 0, cp: "", declTeam: 0, decl: 0, belote: null, penKind: "misdeal", penTeam: null, penDecl: 0,
  };
}

export function formOf(entry) {
  const f = emptyForm();
  if (entry.void) return { ...f, kind: "void" };
  if (entry.penalty) {
  const p = entry.penalty;
  return { ...f, kind: "penalty", penKind: p.kind, penTeam: p.team, penDecl: p.declaration_points || 0 };
  }
  const c = entry.contract;
  const decl = entry.declaration_points;
  return {
  ...f, team: c.team, level: c.level, strain: c.strain, mult: c.multiplier,
  kapoot: entry.kapoot ?? null, alone: !!entry.declarer_alone,
  cpTeam: c.team, cp: entry.kapoot === null || entry.kapoot === undefined ? String(entry.card_points[c.team]) : "",
  declTeam: decl[1] ? 1 : 0, decl: decl[0] || decl[1],
  belote: entry.belote[0] ? 0 : entry.belote[1] ? 1 : null,
  };
}

// The class of a deal's row on the sheet: a failed contract's is marked (B-53).
export function rowClass(d) {
  return d.made === false ? "failed" : "";
}

// A deal's cells under PAPER_COLUMNS: the bid (with made or failed, who, kapoot), the card points,
// the declarations and the belote.
export function cells(d, teams) {
  const e = d.entry;
  const played = !e.void && !e.penalty;
  const mark = d.made === null ? "" : d.made ? " ✓" : " ✗";
  let who = "";
  if (played) who = teams[e.contract.team];
  else if (e.penalty) who = teams[e.penalty.team];
  const extras = [];
  if (played && e.kapoot !== null) extras.push(t("kapoot_by", { team: teams[e.kapoot] }));
  if (d.tars_kapoot) extras.push(t("tars_kapoot"));
  return [
  h("td", { class: "bid" }, h("span", { "data-testid": "bid" }, bidText(e) + mark), h("small", {}, [who, ...extras].filter(Boolean).join(" · "))),
  h("td", { "data-testid": "cards" }, !played ? "—" : e.kapoot === null ? pair(e.card_points) : t("kapoot_short")),
  h("td", { "data-testid": "decl" }, played && e.declaration_points.some((x) => x) ? pair(e.declaration_points) : e.penalty && e.penalty.declaration_points ? `+${e.penalty.declaration_points}` : "—"),
  h("td", { "data-testid": "belote" }, played && e.belote.some((x) => x) ? pair(e.belote) : "—"),
  ];
}

// The form's fields for the deal being entered (`page`: the sheet's page — its `form`, `sheet`,
// `teams()`, `badField`, and `set(key, value)` that changes the form and draws it again).
export function fields(page) {
  const f = page.form;
  const teams = page.teams();
  const kanach = page.sheet.options.kanach;
  const seg = (testid, active, label, onclick, cls = "") => h("button", { type: "button", "data-testid": testid, class: `${on(active)} ${cls}`.trim(), "aria-pressed": active ? "true" : "false", onclick }, label);
  const section = (field, title, ...body) => h("div", { class: "field" + (page.badField && page.badField.startsWith(field) ? " bad" : ""), "data-field": field },
  h("div", { class: "field-title" }, title), ...body);
  const parts = [
    h("div", { class: "seg", "data-field": "kind" }, ["played", "void", "penalty"].map((k) => seg(`kind-${k}`, f.kind === k, t("deal_kind_" + k), () => page.set("kind", k)))),
  ];
  if (f.kind === "played") {
    parts.push(
      section("contract.team", t("sheet_contract_team"), h("div", { class: "seg" }, [0, 1].map((i) => seg(`contract-team-${i}`, f.team === i, teams[i], () => {
        if (f.cp === "") f.cpTeam = i;
        page.set("team", i);
      })))),
      section("contract.level", t("sheet_level"), h("div", { class: "levels" },
        [...Array.from({ length: 18 }, (_, i) => i + 8), ...(kanach ? [30] : [])].map((lvl) => seg(`level-${lvl}`, f.level === lvl, String(lvl), () => {
          if (lvl !== 30) f.alone = false;
          page.set("level", lvl);
        })))),
      section("contract.strain", t("trump"), h("div", { class: "seg strains" }, STRAINS.map((st) => seg(`strain-${st}`, f.strain === st, strainLabel(st), () => {
        if (st === "NT") f.belote = null;
        page.set("strain", st);
      }, st === "H" || st === "D" ? "red" : "")))),
      section("contract.multiplier", t("sheet_contra"), h("div", { class: "seg" },
        seg("mult-1", f.mult === 1, t("no_contra"), () => page.set("mult", 1)),
        seg("mult-2", f.mult === 2, t("contra"), () => page.set("mult", 2)),
        seg("mult-4", f.mult === 4, t("redouble"), () => page.set("mult", 4)))),
      section("kapoot", t("sheet_kapoot"), h("div", { class: "seg" },
        seg("kapoot-none", f.kapoot === null, t("no_kapoot"), () => page.set("kapoot", null)),
        [0, 1].map((i) => seg(`kapoot-${i}`, f.kapoot === i, t("kapoot_by", { team: teams[i] }), () => page.set("kapoot", i)))),
        f.level === 30 && f.kapoot !== null && f.kapoot === f.team ? h("label", { class: "check" },
          h("input", { type: "checkbox", "data-testid": "declarer-alone", checked: f.alone, onchange: (e) => page.set("alone", e.target.checked) }),
          h("span", {}, t("declarer_alone"))) : null),
    );
    if (f.kapoot === null) parts.push(section("card_points", t("card_points"), cardPoints(page)));
    parts.push(section("declaration_points", t("declarations"),
      h("div", { class: "seg" }, [0, 1].map((i) => seg(`decl-team-${i}`, f.declTeam === i, teams[i], () => page.set("declTeam", i)))),
      h("div", { class: "row" },
        h("input", { type: "number", inputmode: "numeric", min: 0, max: 200, class: "decl", "aria-label": t("declarations"), "data-testid": "decl-points", value: f.decl,
          oninput: (e) => { f.decl = parseInt(e.target.value, 10) || 0; } }),
        DECL_STEPS.map((n) => h("button", { type: "button", class: "small", "data-testid": `decl-add-${n}`, onclick: () => page.set("decl", Math.min(200, f.decl + n)) }, `+${n}`)),
        h("button", { type: "button", class: "small", "data-testid": "decl-clear", onclick: () => page.set("decl", 0) }, "0"))));
    if (f.strain !== "NT") {
      parts.push(section("belote", t("belote_points"), h("div", { class: "seg" },
        seg("belote-none", f.belote === null, t("no_belote"), () => page.set("belote", null)),
        [0, 1].map((i) => seg(`belote-${i}`, f.belote === i, teams[i], () => page.set("belote", i))))));
    }
  } else if (f.kind === "penalty") {
    parts.push(
      section("penalty.kind", t("sheet_penalty"), h("div", { class: "seg" },
        seg("penalty-misdeal", f.penKind === "misdeal", t("penalty_misdeal"), () => page.set("penKind", "misdeal")),
        seg("penalty-misplay", f.penKind === "misplay", t("penalty_misplay"), () => page.set("penKind", "misplay")))),
      section("penalty.team", t("penalty_team"), h("div", { class: "seg" }, [0, 1].map((i) => seg(`penalty-team-${i}`, f.penTeam === i, teams[i], () => page.set("penTeam", i))))),
    );
    if (f.penKind === "misplay") {
      parts.push(section("penalty.declaration_points", t("penalty_decl"),
        h("input", { type: "number", inputmode: "numeric", min: 0, max: 200, class: "decl", "data-testid": "penalty-decl", value: f.penDecl,
          oninput: (e) => { f.penDecl = parseInt(e.target.value, 10) || 0; } })));
    }
  } else {
    parts.push(h("p", { class: "muted" }, t("sheet_void_help")));
  }
  return parts;
}

export function cardPoints(page) {
  const f = page.form;
  const teams = page.teams();
  const typed = f.cp === "" ? null : parseInt(f.cp, 10);
  const value = (i) => (i === f.cpTeam ? (f.cp === "" ? "…" : f.cp) : typed === null ? "—" : String(TOTAL - typed));
  const boxes = h("div", { class: "cp" }, [0, 1].map((i) => h("button", { type: "button", "data-testid": `cp-${i}`, class: on(i === f.cpTeam),
    onclick: () => { f.cpTeam = i; f.cp = ""; page.set("cp", ""); } }, h("small", {}, teams[i]), h("b", {}, value(i)))));
  const key = (label, testid, action) => h("button", { type: "button", "data-testid": testid, onclick: action }, label);
  const pad = h("div", { class: "keypad", "data-testid": "keypad" },
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => key(String(d), `key-${d}`, () => digit(page, d))),
    key("C", "key-clear", () => page.set("cp", "")),
    key("0", "key-0", () => digit(page, 0)),
    key("⌫", "key-back", () => page.set("cp", f.cp.slice(0, -1))));
  return [boxes, h("small", { class: "muted" }, t("sheet_cp_hint")), pad];
}

export function digit(page, d) {
  const next = page.form.cp === "0" ? String(d) : page.form.cp + String(d);
  if (parseInt(next, 10) > TOTAL) return;
  page.set("cp", next);
}

export function key(e, page) {
  if (page.readOnly || !page.sheet || (page.sheet.finished && page.editing === null)) return;
  if (page.form.kind !== "played" || page.form.kapoot !== null) return;
  if (e.target instanceof HTMLElement && e.target.closest("input, select, textarea")) return;
  if (/^[0-9]$/.test(e.key)) digit(page, parseInt(e.key, 10));
  else if (e.key === "Backspace") page.set("cp", page.form.cp.slice(0, -1));
  else return;
  e.preventDefault();
}

// The entry in the API's form, or a missing choice (a key of the strings) before anything is sent.
export function entry(f) {
  if (f.kind === "void") return { void: true };
  if (f.kind === "penalty") {
    if (f.penTeam === null) return { missing: "missing_penalty_team", field: "penalty.team" };
    return { penalty: { kind: f.penKind, team: f.penTeam, declaration_points: f.penKind === "misplay" ? f.penDecl : 0 } };
  }
  if (f.team === null) return { missing: "missing_team", field: "contract.team" };
  if (f.level === null) return { missing: "missing_level", field: "contract.level" };
  if (f.strain === null) return { missing: "missing_strain", field: "contract.strain" };
  if (f.kapoot === null && f.cp === "") return { missing: "missing_cards", field: "card_points" };
  const cp = f.kapoot === null ? parseInt(f.cp, 10) : null;
  const decl = [0, 0];
  decl[f.declTeam] = f.decl;
  return {
    void: false,
    contract: { team: f.team, level: f.level, strain: f.strain, multiplier: f.mult },
    card_points: f.kapoot === null ? (f.cpTeam === 0 ? [cp, null] : [null, cp]) : null,
    kapoot: f.kapoot,
    declarer_alone: f.level === 30 && f.kapoot === f.team && f.alone,
    declaration_points: decl,
    belote: f.belote === null || f.strain === "NT" ? [0, 0] : f.belote === 0 ? [2, 0] : [0, 2],
  };
}
