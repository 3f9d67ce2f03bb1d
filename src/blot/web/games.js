// The games the server offers (GET /api/games, docs/protocol.md) and the presenter that draws each
// one. The rest of the page never names a game: it asks the description (seats, teams, which way
// play goes, how long a game lasts, rulesets, options, bot levels) or the game's presenter, a
// module of its own (games/<presenter>.js) loaded when a page first needs it.
//
// A presenter (`createPresenter(info)` of its module) draws what only its game has:
//   info                     the game as /api/games describes it
//   dealLabel(v)             "Deal 3", "Deal 3 of 9"
//   contractLine(v, ctx)     the contract or trump and who made it, or null
//   trump(v)                 the trump suit whose cards the hand marks, or null
//   seatInfo(v, seat, ctx)   what shows under a seat's name: tricks, declarations, chips
//   center(v, ctx)           the middle of the table when no trick lies there (the bidding, an
//                            exchange, the talon), or null
//   prompt(v, ctx)           the control of the seat to act when it is not a card of the hand
//                            (calls, declarations, discards), or null
//   picking(v, ctx)          the hand picks cards before they are sent (3-5-8 discards): {left}, or null
//   result(v, r, ctx)        the result of a deal
//   sheet(v, ctx)            the score sheet
//   score(v, ctx)            the running score: {parts: [{label, value, mine}], goal}
//   announce(event, v, ctx)  a big moment said aloud and shown (belote, contra, kapoot …), or null
//   resultLine(r, name)      a deal's result in one line (replays)
//   puzzleTask(d)            what a puzzle (web/puzzles.js) asks of the seat to play
//   puzzleFacts(d, name)     what that seat knows of the deal: [[label, text], …]
//   analysis                 the words of a finished game's analysis: {lost, unit, about, summary,
//                            costs} (unit: the heading of the mean loss per card)
//   callLabel(call)          a call of the game as the bidding, its bubbles and the replays write it
//   typedCall(text)          a call typed on the keyboard ("X" for contra), or undefined
//   logLine(e, who, ctx)     the table log's line of an event only the game has (calls, declarations,
//                            the exchange, a card with its belote), null for none, undefined when
//                            the event is the table's to say (sit, deal, a plain card …)
//   replayInfo(f, name)      a replay's frame: {facts: [line], seatNote(seat)} (the contract or
//                            trump, tricks, targets)
//   dealTable(a, n, name)    the game's own table of an analysed deal (Bazar Blot: each strain's
//                            double-dummy points), or null
//   biddingReview(a, n, name)  an analysed deal's calls valued against par bidding (Bazar Blot), or null
//   matchNote(g)             what a finished game's match score says besides its numbers (Bazar
//                            Blot: " (tars kapoot)"), or ""
//   boardContract(c)         a duplicate traveller's contract (web/print.js; c null: none played)
//   travellerLine(r, seat, who)  a deal's line of a traveller of the day's deals (web/daily.js),
//                            seen from `seat` (`who(s)` names a seat from there: "You", "Left"):
//                            the contract or trump and who made it, then how it went; or null
// The last nine may be left out (OPTIONAL below says what the page does then).
// A game's own words are files beside its presenter, web/games/<package>.<lang>.js, which the
// presenter loads (i18n.js addGameWords) in the page's language only.
// `ctx` is the table page: names of seats, the seat seen from, teams, sending an action.
import { api, h } from "/static/util.js";
import { lang, t } from "/static/i18n.js";

let listed = null;

// Every game, as the server describes them (asked once per page load).
export function games() {
  listed ||= api("GET", "/api/games").then((r) => r.games).catch((e) => { listed = null; throw e; });
  return listed;
}

export async function gameInfo(name) {
  return (await games()).find((g) => g.game === name) || null;
}

// A ruleset's name in the page's language: the label of its preset, which the server lists
// (`ruleset_labels`), so that a new ruleset needs no word of the page's; else its name.
export function rulesetLabel(info, name) {
  const labels = (info && info.ruleset_labels && info.ruleset_labels[name]) || {};
  return labels[lang()] || labels.en || name;
}

// The rules of a table in a few words, as the lobby lists it and its own bar says them: its ruleset
// when the game has several, and the value of each number option ("to 301"), named by the page's
// words for that option (`optval_<name>`), so that no page names a game's option.
export function rulesText(info, settings) {
  if (!info) return "";
  const bits = info.rulesets.length > 1 ? [rulesetLabel(info, settings.ruleset)] : [];
  for (const f of info.option_fields) {
    const value = settings.options && settings.options[f.name];
    if (f.kind === "number" && value !== undefined) bits.push(t("optval_" + f.name, { n: value }) || `${f.name} ${value}`);
  }
  return bits.join(" · ");
}

// An option of a game as the server describes it (`option_fields`), as the lobby and an event's
// form show it: a number, a yes/no box, or a choice, labelled by the page's words; `set` takes
// each new value, `testid` names the control and `id` its field.
export function optionField(o, value, set, testid, id) {
  const label = t("opt_" + o.name) || o.name;
  if (o.kind === "yes_no") {
    return h("label", { class: "check" }, h("input", { type: "checkbox", checked: value, "data-testid": testid, onchange: (e) => set(e.target.checked) }), h("span", {}, label));
  }
  let control;
  if (o.kind === "number") {
    control = h("input", { type: "number", min: o.min, max: o.max, value, "data-testid": testid, oninput: (e) => set(parseInt(e.target.value, 10) || value) });
  } else {
    control = h("select", { "data-testid": testid, onchange: (e) => set(JSON.parse(e.target.value)) },
      o.choices.map((c) => h("option", { value: JSON.stringify(c) }, String(c))));
    control.value = JSON.stringify(value);
  }
  control.id = id;
  return h("div", { class: "field" }, h("label", { for: id }, label), control);
}

// The game whose paper score sheet /scoresheet keeps (the one the server says has one), or null.
export async function sheetGame() {
  return (await games()).find((g) => g.score_sheet) || null;
}

const presenters = new Map();

// What a presenter may leave out: its calls are written as they are sent, the table says every
// event it knows and no other, a replay shows no fact of its own, an analysis no table of its own, a
// match score nothing but its numbers, a day's traveller nothing but each line's score.
const OPTIONAL = {
  callLabel: (call) => call,
  typedCall: () => undefined,
  logLine: () => undefined,
  replayInfo: () => ({ facts: [], seatNote: () => null }),
  dealTable: () => null,
  biddingReview: () => null,
  matchNote: () => "",
  boardContract: (c) => (c ? JSON.stringify(c) : "—"),
  travellerLine: () => null,
};

// The presenter of a game (its module loaded once).
export function presenter(info) {
  let made = presenters.get(info.game);
  if (!made) {
    made = import(`/static/games/${info.presenter}.js`).then((m) => ({ ...OPTIONAL, ...m.createPresenter(info) }));
    presenters.set(info.game, made);
  }
  return made;
}

// Where each seat sits as seen from `base`: the next seat in play on the left when play goes
// clockwise, on the right when it goes counter-clockwise; the rest across the table.
export function placesFrom(info, base) {
  const n = info.seats;
  const clockwise = info.direction === "clockwise";
  const ring = n === 4 ? ["bottom", clockwise ? "left" : "right", "top", clockwise ? "right" : "left"]
    : n === 3 ? ["bottom", clockwise ? "left" : "right", clockwise ? "right" : "left"]
      : ["bottom", "top"];
  const out = {};
  for (let s = 0; s < n; s++) out[s] = ring[(s - base + n) % n];
  return out;
}

// The team of each seat, and whether teams have partners (then the page says "we" and "they").
export function teamOf(info, seat) {
  return info.teams.findIndex((team) => team.includes(seat));
}

export function hasPartners(info) {
  return info.teams.some((team) => team.length > 1);
}
