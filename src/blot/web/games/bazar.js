// Bazar Blot on the page (docs/rules.md, B-): the bidding's level stepper and strains, the
// declarations of the first trick, the seat's tricks and chips, the deal's result and score sheet
// by team, and the big moments (contra, redouble, belote, kapoot). The engine decides every rule;
// this draws its view (games.js says what a presenter is).
import { t, addGameWords } from "/static/i18n.js";
import { h } from "/static/util.js";
import { SUIT, suitsName, cardLabel } from "/static/cards.js";
import { lossMark } from "/static/learn.js";
import * as scoreSheet from "/static/games/bazar_sheet.js";

const STRAINS = ["S", "H", "D", "C", "NT"];

// The words only Bazar Blot says (declarations, belote, kapoot …): web/games/bazar.<lang>.js.
await addGameWords(import.meta.url.replace(/\.js$/, ""));

// A strain of the bidding (B-20): a suit's symbol, or NT.
export function strainLabel(strain) {
  return strain === "NT" ? t("nt") : SUIT[strain];
}

// What a screen reader says for a strain: "hearts", "no trump".
export function strainName(strain) {
  return strain === "NT" ? t("no_trump") : suitsName(strain);
}

// One format for a bid in every language and every place: "10♥", "11 NT" (a no-break space).
export function bidLabel(level, strain) {
  return `${level}${strain === "NT" ? "\u00a0" : ""}${strainLabel(strain)}`;
}

// A call of the bidding (B-20 … B-26): a bid by its level and strain, else its word.
export function callLabel(call) {
  if (call === "pass" || call === "contra" || call === "redouble" || call === "sevens") return t(call);
  if (call === "NT" || SUIT[call]) return strainLabel(call);
  const m = /^(\d+)(S|H|D|C|NT)$/.exec(call);
  return m ? bidLabel(m[1], m[2]) : call;
}

// What a screen reader says for a call: "10 hearts", "no trump", "pass".
export function callName(call) {
  const m = /^(\d+)?(S|H|D|C|NT)$/.exec(call);
  if (!m) return callLabel(call);
  return m[1] ? `${m[1]} ${strainName(m[2])}` : strainName(m[2]);
}

// A contract as {level, strain, multiplier}: "10♥ ×2".
export function contractLabel(c) {
  const mult = c.multiplier === 2 ? " ×2" : c.multiplier === 4 ? " ×4" : "";
  return bidLabel(c.level, c.strain) + mult;
}

// A declaration {kind, rank, suit?} as announced (B-43): kind and top rank; the suit once shown.
export function declarationLabel(d) {
  // a sequence names its top card as "to the …" wants it (Russian: the genitive), a four its rank
  const rank = t((d.kind === "four" ? "rank_" : "decl_top_") + d.rank);
  const base = t("decl_" + d.kind, { rank });
  return d.suit ? `${base} ${SUIT[d.suit]}` : base;
}

// A replay's contract ("10H×2") as the page writes it: "10♥ ×2".
export function contractText(text) {
  const m = /^(\d+)(S|H|D|C|NT)(×\d)?$/.exec(text || "");
  return m ? `${bidLabel(m[1], m[2])}${m[3] ? " " + m[3] : ""}` : null;
}

export function createPresenter(info) {
  const teamOfSeat = (seat) => info.teams.findIndex((team) => team.includes(seat));

  return {
    info,
    // the score sheet's side of the game (web/scoresheet.js: the deal form, an entry's columns)
    scoreSheet,
    // a tars kapoot's match score says so (B-71)
    matchNote: scoreSheet.matchNote,
    // a duplicate traveller's contract: "10♥ ×2", or void when nobody bid (B-23)
    boardContract: (c) => (c ? contractLabel(c) : t("sheet_void")),

    dealLabel(v) {
      return t("deal_n", { n: v.deal_number });
    },

    trump(v) {
      return v.contract && v.trump !== "NT" ? v.trump : null;
    },

    contractLine(v, ctx) {
      if (!v.contract) return null;
      const c = v.contract;
      return h("span", { class: "contract", "data-testid": "contract" },
        h("b", { class: `suit-${c.strain}` }, contractLabel(c)), " ", h("span", { class: "who" }, ctx.shortName(c.seat)));
    },

    seatInfo(v, s) {
      const out = [h("span", { class: "tricks" }, t("tricks_n", { n: v.tricks_won[s] }))];
      if (v.contract && v.contract.seat === s) out.push(h("span", { class: "chip contract-chip" }, contractLabel(v.contract)));
      const bel = v.belotes.filter((b) => b.seat === s);
      if (bel.length) out.push(h("span", { class: "chip belote-chip" }, t(bel.length === 1 ? "belote" : "rebelote")));
      const said = v.tricks.length === 0 ? v.announced.filter((a) => a.seat === s) : v.shown.filter((a) => a.seat === s);
      if (said.length) {
        const text = said.map(declarationLabel).join(", ");
        out.push(h("span", { class: "chip decl", title: text }, text));
      }
      return out;
    },

    center(v, ctx) {
      if (v.phase === "bidding") return ctx.callsGrid(t("bidding"));
      return null;
    },

    prompt(v, ctx) {
      const L = v.legal;
      if (L.kind === "call") return biddingControl(L.calls, ctx);
      if (L.kind === "declare") return declareControl(L, ctx);
      return null;
    },

    picking() {
      return null;
    },

    result(v, r, ctx) {
      const head = h("h2", {}, t("deal_result_n", { n: v.deal_number }));
      if (r.void) return h("section", { class: "result", "data-testid": "deal-result" }, head, h("p", {}, t("void_deal")));
      const c = r.contract;
      const mine = ctx.myTeam();
      const rows = [["tricks", r.tricks], ["card_points", r.card_points], ["declarations", r.declaration_points],
        ["belote_points", r.belote], ["points", r.points], ["game_total", v.totals]];
      const moment = r.tars_kapoot ? t("tars_kapoot") : r.kapoot !== null && r.kapoot !== undefined ? t("kapoot_moment", { who: ctx.teamLabel(r.kapoot) }) : null;
      return h("section", { class: "result", "data-testid": "deal-result" }, head,
        h("p", { class: "verdict " + (r.made ? "made" : "failed") }, h("b", {}, contractLabel(c)), ` ${ctx.teamLabel(c.team)} (${ctx.name(c.seat)}) — `,
          h("strong", { "data-testid": "made" }, t(r.made ? "made" : "failed"))),
        moment ? h("p", { class: "moment", "data-testid": "kapoot" }, moment) : null,
        h("table", { class: "result-table" },
          h("thead", {}, h("tr", {}, h("td"), [0, 1].map((tm) => h("th", { scope: "col", class: tm === mine ? "us" : "" }, ctx.teamLabel(tm))))),
          h("tbody", {}, rows.map(([k, pair]) => h("tr", { class: k === "points" ? "total" : k === "game_total" ? "running" : "" },
            h("th", { scope: "row" }, t(k)), h("td", {}, pair[0]), h("td", {}, pair[1]))))));
    },

    // Each line names the contract's team ("10♥ ×2 · we"), a failed one is marked.
    sheet(v, ctx) {
      const deals = [...v.history, ...(v.result ? [v.result] : [])].filter((r) => !r.void);
      const totals = v.game_over ? v.game_over.totals : v.totals;
      const rows = deals.map((r, i) => {
        const c = r.contract;
        return h("tr", { class: r.made ? "" : "failed" }, h("td", {}, i + 1),
          h("td", { class: "bid" }, contractLabel(c), h("small", { class: "team-of" }, ` ${ctx.teamLabel(c.team)}`), r.made ? "" : " ✗",
            r.kapoot !== null && r.kapoot !== undefined ? h("small", {}, ` · ${t("kapoot_short")}`) : null),
          h("td", {}, r.points[0]), h("td", {}, r.points[1]));
      });
      return h("section", { class: "panel sheet", "data-testid": "score-sheet" }, h("h3", {}, t("score_sheet")),
        h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("contract")),
          h("th", { scope: "col" }, ctx.teamLabel(0)), h("th", { scope: "col" }, ctx.teamLabel(1)))),
          h("tbody", {}, rows, h("tr", { class: "total", "data-testid": "score-total" }, h("td"), h("td", {}, t("total")), h("td", {}, totals[0]), h("td", {}, totals[1])))));
    },

    score(v, ctx) {
      const totals = v.game_over ? v.game_over.totals : v.totals;
      const mine = ctx.myTeam();
      const order = mine === 1 ? [1, 0] : [0, 1];
      return {
        parts: order.map((tm) => ({ label: ctx.teamLabel(tm), value: String(totals[tm]), mine: tm === mine })),
        goal: t("to_points", { n: ctx.table.settings.options.target }),
      };
    },

    announce(e, v, ctx) {
      if (e.kind === "call" && (e.action === "contra" || e.action === "redouble")) return `${t(e.action)}! — ${ctx.name(e.seat)}`;
      if (e.kind === "card" && e.belote) return `${t(e.belote)}! — ${ctx.name(e.seat)}`;
      if (e.kind === "card" && v.result && !v.result.void) {
        if (v.result.tars_kapoot) return `${t("tars_kapoot")}!`;
        if (v.result.kapoot !== null && v.result.kapoot !== undefined) return t("kapoot_moment", { who: ctx.teamLabel(v.result.kapoot) });
      }
      return null;
    },

    resultLine(r) {
      if (r.void) return t("void_deal");
      const kapoot = r.kapoot !== null && r.kapoot !== undefined ? ` · ${t("kapoot_short")}` : "";
      return `${t(r.made ? "made" : "failed")}${kapoot} · ${t("points")}: ${r.points.join(" : ")}`;
    },

    // A traveller's line of the day's deals (web/daily.js): the contract and who bid it, ``who``
    // naming a seat as the reader sits, then made or failed (B-51).
    travellerLine(r, seat, who) {
      if (r.void) return t("void_deal");
      const c = r.contract;
      return `${bidLabel(c.level, c.strain)}${c.multiplier > 1 ? "\u00a0×" + c.multiplier : ""} (${who(c.seat)}) · ${t(r.made ? "made" : "failed")}`;
    },

    puzzleTask: (d) => t("pz_task_bazar", { n: d.threshold }),

    // The contract, the bidding, the declarations and the card points so far.
    puzzleFacts(d, name) {
      const v = d.view;
      const lines = [];
      if (v.contract) lines.push([t("contract"), `${contractLabel(v.contract)} — ${name(v.contract.seat)}`]);
      lines.push([t("bidding"), v.calls.map((c) => `${name(c.seat)}: ${callLabel(c.call)}`).join(" · ")]);
      const shown = (v.shown || []).map((x) => `${name(x.seat)}: ${declarationLabel(x)}`);
      const announced = (v.announced || []).filter((a) => !(v.shown || []).some((x) => x.seat === a.seat))
        .map((a) => `${name(a.seat)}: ${declarationLabel(a)}`);
      if (shown.length || announced.length) lines.push([t("declarations"), [...shown, ...announced].join(" · ")]);
      const us = teamOfSeat(d.seat);
      lines.push([t("card_points"), `${t("we")} ${v.card_points[us]} · ${t("they")} ${v.card_points[1 - us]}`]);
      return lines;
    },

    // An analysed deal's double-dummy table (web/analysis.js): each strain's card points per team
    // and the highest level it makes, 25 written as kapoot.
    dealTable(analysed, number, name) {
      const dd = analysed.dd_table;
      if (!dd) return null;
      const team = (k) => info.teams[k].map(name).join(" · ");
      const made = (level) => (level === null ? "—" : level === 25 ? t("kapoot_short") : String(level));
      const th = (key) => h("th", { scope: "col" }, t(key));
      return h("div", { class: "an-dd" }, h("div", { class: "scroll" }, h("table", { class: "an-table dd", "data-testid": "dd-table" },
        h("caption", {}, t("an_dd_title", { n: number })),
        h("thead", {},
          h("tr", {}, h("td", {}), [0, 1].map((k) => h("th", { scope: "colgroup", colspan: 2, class: "team" }, team(k)))),
          h("tr", {}, th("an_strain"), [0, 1].flatMap(() => [th("an_dd_points"), th("an_dd_makes")]))),
        h("tbody", {}, STRAINS.map((s) => h("tr", { "data-strain": s },
          h("th", { scope: "row", class: "strain" + (s === "H" || s === "D" ? " red" : "") }, strainLabel(s)),
          [0, 1].flatMap((k) => [h("td", { class: "num" }, String(dd[s].card_points[k])), h("td", { class: "num" }, made(dd[s].makes[k]))])))))),
        h("p", { class: "muted small" }, t("an_dd_help")));
    },

    // An analysed deal's bidding against par (web/analysis.js), or null when it has none.
    biddingReview: (analysed, number, name) => (analysed.bidding ? bidReview(analysed.bidding, number, name, info.teams) : null),

    analysis: {
      lost: "an_lost_points",
      unit: "acc_loss_points",
      about: "an_about_bazar",
      summary: "an_summary_bazar",
      costs: [["none", "an_cost_none"], ["small", "an_cost_small"], ["large", "an_cost_large"]],
    },

    teamOf: teamOfSeat,

    callLabel,

    // A call typed on the keyboard: X is contra, XX redouble (the rest are typed as they are sent).
    typedCall: (text) => ({ X: "contra", XX: "redouble" })[text],

    // The table's log line of an event only Bazar Blot has (a call, the declarations, a card with
    // its belote), or undefined: the table says the others.
    logLine(e, who) {
      if (e.kind === "call") return `${who}: ${callLabel(e.action)}`;
      if (e.kind === "declare") return e.declare.length ? `${who}: ${e.declare.map(declarationLabel).join(", ")}` : null;
      if (e.kind === "card" && e.belote) return `${who}: ${cardLabel(e.action)} — ${t(e.belote)}`;
      return undefined;
    },

    // A replay's frame: the label of its call, the contract and the tricks so far.
    replayInfo(f, name) {
      const facts = [];
      const contract = contractText(f.contract);
      if (contract) facts.push(`${t("contract")}: ${contract} — ${name(f.declarer)}`);
      if (f.tricks) facts.push(`${t("tricks")}: ${f.tricks.join(" : ")}`);
      return { facts, seatNote: () => null };
    },
  };
}

// The par contract of a deal and each call of its bidding valued against par bidding (the server's
// analysis: docs/protocol.md): a call that gave away 10 points of margin or more is a large loss.
function bidReview(review, number, name, teams) {
  const team = (k) => teams[k].map(name).join(" · ");
  const par = review.par;
  const points = (p) => `${p[0]}\u00a0:\u00a0${p[1]}`;
  const parLine = par.contract === null ? t("bid_par_none")
    : t("bid_par", {
      contract: callLabel(par.contract) + (par.multiplier === 2 ? " ×2" : par.multiplier === 4 ? " ×4" : ""),
      team: team(par.team), outcome: t(par.made ? "made" : "failed"), points: points(par.points),
    });
  const cost = (loss) => (loss === null ? null : loss === 0 ? "none" : loss >= 10 ? "large" : "small");
  const mark = (kind, loss) => lossMark(kind, loss, kind === "none" ? t("bid_no_loss") : t("bid_lost", { n: loss }));
  return h("section", { class: "an-bidding", "aria-labelledby": "bid-title" },
    h("h3", { id: "bid-title" }, t("bid_review_title", { n: number })),
    h("p", { "data-testid": "bid-par" }, parLine),
    h("p", { class: "muted small" }, t("bid_par_calls", { calls: par.calls.map(callLabel).join(" · ") })),
    review.contract ? h("p", { "data-testid": "bid-contract" }, t("bid_contract_dd", { points: points(review.contract.points) })) : null,
    h("div", { class: "scroll" }, h("table", { class: "an-table bid-table", "data-testid": "bid-review" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("player")), h("th", { scope: "col" }, t("bid_call")),
        h("th", { scope: "col" }, t("bid_loss")))),
      h("tbody", {}, review.calls.map((c, i) => {
        const kind = cost(c.loss);
        return h("tr", { "data-call": i, "data-loss": c.loss === null ? "" : c.loss },
          h("th", { scope: "row", class: "name" }, name(c.seat)),
          h("td", {}, callLabel(c.call),
            c.makes === undefined ? null : h("small", { class: "muted" }, t(c.makes ? "bid_would_make" : "bid_would_fail"))),
          h("td", {}, mark(kind, c.loss),
            kind === null || kind === "none" ? null : h("small", {}, t("bid_best_was", { call: callLabel(c.best) }))));
      })))),
    h("p", { class: "muted small" }, t("bid_help")));
}

// A level stepper and the five strains (only the bids `legal` lists are live), and pass / contra /
// redouble / four sevens when legal (B-20 … B-26).
function biddingControl(calls, ctx) {
  const dis = ctx.pending;
  const special = calls.filter((c) => !/^\d/.test(c));
  const bids = calls.filter((c) => /^\d/.test(c));
  const levels = [...new Set(bids.map((b) => parseInt(b, 10)))].sort((a, b) => a - b);
  const key = calls.join(",");
  if (ctx.bid.key !== key) ctx.bid = { key, level: levels.length ? levels[0] : null };
  const lvl = ctx.bid.level;
  const step = (d) => {
    const i = levels.indexOf(lvl) + d;
    if (i >= 0 && i < levels.length) {
      ctx.bid.level = levels[i];
      ctx.render();
    }
  };
  const strains = ["S", "H", "D", "C", "NT"].map((st) => {
    const call = `${lvl}${st}`;
    const ok = bids.includes(call);
    return h("button", { class: "strain" + (st === "H" || st === "D" ? " red" : "") + ` suit-${st}`, "data-call": ok ? call : null, disabled: dis || !ok,
      "aria-label": callName(call), onclick: () => ctx.send({ action: call }) }, strainLabel(st));
  });
  const row = levels.length ? h("div", { class: "bid-row" },
    h("div", { class: "stepper", role: "group", "aria-label": t("level") },
      h("button", { class: "step", "aria-label": t("lower"), disabled: lvl === levels[0], onclick: () => step(-1) }, "−"),
      h("output", { class: "level", "data-testid": "bid-level", "aria-live": "polite" }, String(lvl)),
      h("button", { class: "step", "aria-label": t("higher"), disabled: lvl === levels[levels.length - 1], onclick: () => step(1) }, "+")),
    h("div", { class: "strains" }, strains)) : null;
  return h("div", { class: "prompt bidding", "data-testid": "bidding" },
    h("div", { class: "your-turn" }, t("your_call")),
    row,
    h("div", { class: "calls" }, special.map((c) => h("button", { "data-call": c, class: c === "pass" ? "pass" : "", disabled: dis, onclick: () => ctx.send({ action: c }) }, callLabel(c)))));
}

// The first trick: declare the best set, nothing, or another set the hand holds (B-43).
function declareControl(L, ctx) {
  const dis = ctx.pending;
  const best = L.best;
  const label = (texts) => texts.length ? texts.map((x) => x.split(" ").map(cardLabel).join(" ")).join(" + ") : t("nothing");
  const finer = L.options.map((opt, i) => [opt, i]).filter(([opt]) => opt.length && JSON.stringify(opt) !== JSON.stringify(best));
  return h("div", { class: "prompt declare", "data-testid": "declare" },
    h("div", { class: "your-turn" }, t("your_declarations")),
    h("div", { class: "calls" },
      h("button", { class: "primary", "data-declare": "best", disabled: dis, onclick: () => ctx.send({ declare: "best" }) }, `${t("declare_best")}: ${label(best)}`),
      h("button", { "data-declare": "none", disabled: dis, onclick: () => ctx.send({ declare: "none" }) }, t("declare_none")),
      finer.map(([opt, i]) => h("button", { "data-declare": String(i), disabled: dis, onclick: () => ctx.send({ declare: opt }) }, label(opt)))));
}
