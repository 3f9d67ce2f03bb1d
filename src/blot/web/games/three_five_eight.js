// 3-5-8 on the page (docs/rules.md, T-): the trump call with the one pass of the game, the
// exchange (who gives how many cards to whom, and why), the talon and the four cards put back,
// tricks against targets, the deal's result and score sheet by seat. The engine decides every
// rule; this draws its view (games.js says what a presenter is).
import { t, addGameWords } from "/static/i18n.js";
import { h } from "/static/util.js";
import { SUIT, suitsName, cardLabel, cardEl, cardButton, cardName, signed } from "/static/cards.js";

// The words only 3-5-8 says (the exchange, the talon, targets …): web/games/three_five_eight.<lang>.js.
await addGameWords(import.meta.url.replace(/\.js$/, ""));

// A trump named (T-10): a suit's symbol, or NT.
export function strainLabel(strain) {
  return strain === "NT" ? t("nt") : SUIT[strain];
}

// What a screen reader says for a trump: "hearts", "no trump".
export function strainName(strain) {
  return strain === "NT" ? t("no_trump") : suitsName(strain);
}

// A call of the trump (T-): a strain or the one pass.
export function callLabel(call) {
  return call === "pass" ? t("pass") : strainLabel(call);
}

// What a screen reader says for a call: "hearts", "no trump", "pass".
export function callName(call) {
  return call === "pass" ? t("pass") : strainName(call);
}

export function createPresenter(info) {
  const seats = info.seats;
  return {
    info,

    dealLabel(v) {
      const counted = Math.min(info.counted_deals, v.result && !v.result.void ? v.counted : v.counted + 1);
      return t("deal_of", { n: counted, of: info.counted_deals });
    },

    trump(v) {
      return v.trump && v.trump !== "NT" ? v.trump : null;
    },

    contractLine(v, ctx) {
      if (!v.trump) return null;
      return h("span", { class: "contract", "data-testid": "contract" },
        h("span", { class: `trump-chip suit-${v.trump}`, "data-testid": "trump" }, h("b", {}, strainLabel(v.trump))), " ",
        h("span", { class: "who" }, ctx.shortName(v.caller)));
    },

    seatInfo(v, s) {
      const taken = v.tricks_taken[s];
      const target = v.targets[s];
      const out = [h("span", { class: "tricks" + (taken > target ? " over" : taken === target ? " made" : "") }, t("tricks_of", { n: taken, of: target }))];
      if (v.caller === s && v.trump) out.push(h("span", { class: "chip contract-chip" }, strainLabel(v.trump)));
      if (!v.may_pass[s]) out.push(h("span", { class: "chip used", title: t("pass_used_long") }, t("pass_used")));
      return out;
    },

    center(v, ctx) {
      if (v.phase === "call") return ctx.callsGrid(t("trump_call"));
      if (v.phase === "exchange") return exchangePanel(v, ctx);
      if (v.phase === "discard" || (v.phase === "play" && !v.tricks.length && !v.trick.length && v.talon)) return talonPanel(v, ctx);
      return null;
    },

    prompt(v, ctx) {
      const L = v.legal;
      if (L.kind === "call") return trumpCall(L.calls, ctx);
      if (L.kind === "give") {
        const done = v.exchanges.filter((e) => e.giver === ctx.you.seat).length;
        const all = v.plan.filter((p) => p.giver === ctx.you.seat).length;
        return h("div", { class: "prompt" }, h("div", { class: "your-turn" }, t("give_card_n", { to: ctx.name(L.to), i: done + 1, n: all })));
      }
      if (L.kind === "discard") return discardControl(v, L, ctx);
      return null;
    },

    picking(v) {
      return v.legal && v.legal.kind === "discard" ? { left: v.legal.left } : null;
    },

    result(v, r, ctx) {
      if (r.void) return h("section", { class: "result", "data-testid": "deal-result" }, h("h2", {}, t("deal_result")), h("p", {}, t("void_deal_358")));
      return h("section", { class: "result", "data-testid": "deal-result" },
        h("h2", {}, t("deal_result_n", { n: v.counted })),
        h("p", {}, `${t("trump")}: `, h("b", {}, callLabel(r.trump)), ` — ${ctx.name(r.caller)}`),
        h("table", { class: "result-table" },
          h("thead", {}, h("tr", {}, h("td"), h("th", { scope: "col" }, t("target")), h("th", { scope: "col" }, t("tricks")), h("th", { scope: "col" }, t("score")), h("th", { scope: "col" }, t("total")))),
          h("tbody", {}, r.targets.map((tg, s) => h("tr", { class: s === ctx.you.seat ? "us" : "" }, h("th", { scope: "row" }, ctx.name(s)), h("td", {}, tg), h("td", {}, r.tricks[s]),
            h("td", { class: r.scores[s] > 0 ? "plus" : r.scores[s] < 0 ? "minus" : "" }, signed(r.scores[s])), h("td", {}, signed(v.totals[s])))))));
    },

    // Each line names its trump and who called it.
    sheet(v, ctx) {
      const deals = [...v.history, ...(v.result ? [v.result] : [])].filter((r) => !r.void);
      const totals = v.game_over ? v.game_over.totals : v.totals;
      const rows = deals.map((r, i) => h("tr", {}, h("td", {}, i + 1),
        h("td", { class: "bid" }, callLabel(r.trump), h("small", { class: "team-of" }, ` ${ctx.shortName(r.caller)}`)),
        r.scores.map((x) => h("td", {}, signed(x)))));
      const seatsRow = Array.from({ length: seats }, (_, s) => s);
      return h("section", { class: "panel sheet", "data-testid": "score-sheet" }, h("h3", {}, `${t("score_sheet")} (${v.counted}/${info.counted_deals})`),
        h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("trump")),
          seatsRow.map((s) => h("th", { scope: "col", title: ctx.name(s) }, ctx.shortName(s))))),
          h("tbody", {}, rows, h("tr", { class: "total", "data-testid": "score-total" }, h("td"), h("td", {}, t("total")), totals.map((x) => h("td", {}, signed(x)))))));
    },

    score(v, ctx) {
      const totals = v.game_over ? v.game_over.totals : v.totals;
      const base = ctx.base();
      const order = Array.from({ length: seats }, (_, i) => (base + i) % seats);
      return {
        parts: order.map((s) => ({ label: ctx.shortName(s), value: signed(totals[s]), mine: s === ctx.you.seat })),
        goal: this.dealLabel(v),
      };
    },

    announce(e, v, ctx) {
      if (e.kind === "call" && e.action !== "pass") return `${t("trump")}: ${callLabel(e.action)} — ${ctx.name(e.seat)}`;
      return null;
    },

    resultLine(r, name) {
      if (r.void) return t("void_deal_358");
      return `${t("score")}: ${r.scores.map((x, s) => `${name(s)} ${signed(x)}`).join(" · ")}`;
    },

    // A traveller's line of the day's deals (web/daily.js): the trump and who named it (``who``
    // names a seat as the reader sits), then the reader's tricks of its target (T-3).
    travellerLine(r, seat, who) {
      if (r.void) return t("void_deal_358");
      return `${callLabel(r.trump)} (${who(r.caller)}) · ${t("tricks")} ${r.tricks[seat]}/${r.targets[seat]}`;
    },

    puzzleTask: () => t("pz_task_358"),

    // The trump and who called it, and each seat's tricks against its target.
    puzzleFacts(d, name) {
      const v = d.view;
      return [
        [t("trump"), `${callLabel(v.trump)} — ${name(v.caller)}`],
        [t("tricks"), [...Array(v.targets.length).keys()]
          .map((s) => `${name(s)}: ${t("tricks_of", { n: v.tricks_taken[s], of: v.targets[s] })}`).join(" · ")],
      ];
    },

    analysis: {
      lost: "an_lost_tricks",
      unit: "acc_loss_tricks",
      about: "an_about_358",
      summary: "an_summary_358",
      costs: [["none", "an_cost_none"], ["large", "an_cost_large_358"]],
    },

    teamOf: (seat) => seat,

    callLabel,

    // The table's log line of an event only 3-5-8 has (the trump call, a gift of the exchange, the
    // four cards put back), or undefined: the table says the others.
    logLine(e, who, ctx) {
      if (e.kind === "call") return `${who}: ${callLabel(e.action)}`;
      if (e.kind === "give") return t("log_give", { who, to: ctx.name(e.to) }) + (e.action ? ` (${cardLabel(e.action)} → ${cardLabel(e.returned)})` : "");
      if (e.kind === "discard") return t("log_discard", { who }) + (e.action ? ` (${cardLabel(e.action)})` : "");
      return undefined;
    },

    // A replay's frame: the trump, and each seat's tricks against its target.
    replayInfo(f) {
      const facts = f.trump ? [`${t("trump")}: ${callLabel(f.trump)}`] : [];
      return { facts, seatNote: (s) => (f.targets ? t("tricks_of", { n: f.tricks[s], of: f.targets[s] }) : null) };
    },
  };
}

function trumpCall(calls, ctx) {
  const dis = ctx.pending;
  const canPass = calls.includes("pass");
  return h("div", { class: "prompt bidding", "data-testid": "bidding" },
    h("div", { class: "your-turn" }, t("your_trump_call")),
    h("div", { class: "strains" }, calls.filter((c) => c !== "pass").map((c) => h("button", { class: "strain" + (c === "H" || c === "D" ? " red" : "") + ` suit-${c}`, "data-call": c, disabled: dis, "aria-label": callName(c), onclick: () => ctx.send({ action: c }) }, callLabel(c)))),
    h("div", { class: "calls" }, canPass ? h("button", { "data-call": "pass", class: "pass", disabled: dis, onclick: () => ctx.send({ action: "pass" }) }, t("pass_once")) : h("span", { class: "muted" }, t("pass_used_long"))));
}

// T-22: choose the cards to put back (tap again to take one back), then confirm; the choices go to
// the server only then, one card each.
function discardControl(v, L, ctx) {
  const dis = ctx.pending;
  const key = `${v.deal_number}:${L.left}`;
  if (ctx.pick.key !== key) ctx.pick = { key, cards: [] };
  const picked = ctx.pick.cards;
  return h("div", { class: "prompt discard" },
    h("div", { class: "your-turn" }, t("discard_choose", { n: L.left, k: picked.length })),
    h("div", { class: "picked" }, picked.map((c) => cardButton(c, { class: "mini", "data-pick": c, "aria-label": `${t("undo")}: ${cardName(c)}`, onclick: () => ctx.togglePick(c) }))),
    h("div", { class: "calls" },
      h("button", { class: "primary", "data-testid": "discard-confirm", disabled: dis || picked.length !== L.left, onclick: () => ctx.sendPicked() }, t("discard_confirm", { n: L.left })),
      picked.length ? h("button", { "data-testid": "discard-undo", onclick: () => { ctx.pick.cards = []; ctx.render(); } }, t("undo")) : null));
}

// T-20, T-21: who gives how many cards to whom, and why.
function exchangePanel(v, ctx) {
  const last = [...v.history].reverse().find((r) => !r.void);
  const me = ctx.you.seat;
  const lines = [];
  if (last) {
    for (let s = 0; s < last.targets.length; s++) {
      const d = last.tricks[s] - last.targets[s];
      if (d > 0) {
        const to = [...new Set(v.plan.filter((p) => p.giver === s).map((p) => p.receiver))];
        lines.push(h("li", {}, t(s === me ? "exchange_you_give" : "exchange_gives", {
          who: ctx.name(s), took: last.tricks[s], of: last.targets[s], n: d, to: to.map((x) => (x === me ? t("you_dative") : ctx.name(x))).join(", "),
        })));
      }
    }
  }
  // the steps grouped by giver and receiver: "Right → You 1/2: 3♣ → 9♣"
  const groups = [];
  v.plan.forEach((p, i) => {
    const prev = groups[groups.length - 1];
    const g = prev && prev.giver === p.giver && prev.receiver === p.receiver ? prev : { giver: p.giver, receiver: p.receiver, steps: [] };
    if (g !== prev) groups.push(g);
    g.steps.push(i);
  });
  const now = v.exchanges.length;
  const steps = groups.map((g) => {
    const done = g.steps.filter((i) => i < now);
    const cards = done.map((i) => v.exchanges[i]).filter((e) => e.gift).map((e) => `${cardLabel(e.gift)}→${cardLabel(e.returned)}`);
    const current = g.steps.includes(now);
    return h("li", { class: current ? "now" : done.length === g.steps.length ? "done" : "" },
      `${ctx.shortName(g.giver)} → ${ctx.shortName(g.receiver)}: ${done.length}/${g.steps.length}`,
      cards.length ? h("small", {}, ` ${cards.join(", ")}`) : null);
  });
  return h("div", { class: "exchange", "data-testid": "exchange" },
    h("div", { class: "center-title" }, t("exchange_title")),
    h("ul", { class: "why" }, lines),
    h("ul", { class: "steps" }, steps),
    h("details", { class: "rule" }, h("summary", {}, t("exchange_how")), t("exchange_rule")));
}

function talonPanel(v, ctx) {
  const holder = (v.dealer + 1) % v.targets.length;
  return h("div", { class: "talon", "data-testid": "talon" },
    h("div", { class: "center-title" }, v.phase !== "discard" ? t("talon") : holder === ctx.you.seat ? t("talon_yours") : t("talon_taken", { who: ctx.name(holder) })),
    h("div", { class: "talon-cards" }, v.talon.map((c) => cardEl(c))));
}
