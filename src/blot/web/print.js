// An event's printed sheets (issue 42 items 3 and 5): a round's pairings, the standings with the
// cross table, a table card per table (event, round, table, pairs and seats, referee), a blank
// Davtar per table (the score sheet's columns, web/scoresheet.js), and a duplicate round's boards
// (each board's hand record and traveller, GET /api/events/{id}/rounds/{n}/boards). Each is a page
// of its own, /event/{id}/print/{kind}?round=n, that prints on A4: style.css's "@media print" hides
// the site's header, this page's bar and every button. The server decides everything shown.
import { t } from "/static/i18n.js";
import { eventKit } from "/static/events_kit.js";
import { Page } from "/static/util.js";
import { presenter, sheetGame, gameInfo, hasPartners } from "/static/games.js";
import { SUIT, SUIT_ORDER } from "/static/cards.js";

// The paper Davtar of the game with a score sheet (its presenter's): its column heads and rows.
async function paperSheet() {
  const { PAPER_COLUMNS, PAPER_ROWS } = (await presenter(await sheetGame())).scoreSheet;
  return { columns: PAPER_COLUMNS, rows: PAPER_ROWS };
}

//: The printed sheets, in the order the event page's Print menu offers them.
export const PRINTS = ["pairings", "standings", "cards", "davtar", "boards"];

export function printPages(ctx) {
  const kit = eventKit(ctx);
  const { h, api, main, showPending, entryNames } = kit;

  const suitOf = (card) => card.slice(-1);
  const hand = (text) => SUIT_ORDER.map((s) => {
    const cards = text.split(" ").filter((c) => suitOf(c) === s).map((c) => c.slice(0, -1));
    return h("div", { class: `hand-suit suit-${s}` }, SUIT[s], " ", cards.length ? cards.join(" ") : "—");
  });

  return class PrintPage extends Page {
    constructor(id, kind, round) {
      super();
      this.id = id;
      this.kind = PRINTS.includes(kind) ? kind : "pairings";
      this.round = round ? Number(round) : null;
      this.load();
    }

    leave() { super.leave(); document.body.classList.remove("printing"); }

    load() {
      return this.show(async () => {
        const d = await api("GET", `/api/events/${this.id}`);
        const n = this.roundNumber(d);
        // the score sheet's columns and rows, from its own module (loaded only for this sheet)
        if (this.kind === "davtar") this.paper = await paperSheet();
        if (this.kind === "boards" && n) this.boards = await api("GET", `/api/events/${this.id}/rounds/${n}/boards`);
        // the sides and a table card's seats are the event's game's teams (GET /api/games)
        this.info = await gameInfo(d.game);
        // a traveller's contract is written by the event's game (its presenter's boardContract)
        if (this.kind === "boards") this.game = await presenter(this.info);
        return d;
      });
    }

    // The round printed (of the event ``d``): the one asked for, else the latest.
    roundNumber(d = this.data) {
      const rounds = d ? d.rounds : [];
      return this.round && rounds.some((r) => r.number === this.round) ? this.round : rounds.length ? rounds[rounds.length - 1].number : null;
    }

    render() {
      if (this.left) return;
      document.body.classList.add("printing");
      if (showPending(this.data, this.error && { key: "no_event", testid: "no-event" })) return;
      const d = this.data;
      const names = entryNames(d);
      const n = this.roundNumber();
      const r = d.rounds.find((x) => x.number === n);
      const body = this.kind === "standings" ? this.standings(d, names)
        : !r ? [h("p", {}, t("no_rounds"))]
        : this.kind === "cards" ? r.tables.map((tb) => this.card(d, r, tb, names))
        : this.kind === "davtar" ? r.tables.map((tb) => this.davtar(d, r, tb, names))
        : this.kind === "boards" ? this.travellers(d, names)
        : this.pairings(d, r, names);
      main.replaceChildren(h("div", { class: "print-sheet", "data-testid": `print-${this.kind}` }, this.bar(d, n), ...body));
    }

    // The screen's bar (never printed): back to the event, each round, and Print.
    bar(d, n) {
      const rounds = this.kind === "standings" ? [] : d.rounds.map((r) => h("a", {
        href: `/event/${d.id}/print/${this.kind}?round=${r.number}`, "data-link": true, class: r.number === n ? "current" : "",
      }, t("round_n", { n: r.number })));
      return h("div", { class: "print-bar no-print" },
        h("a", { href: `/event/${d.id}`, "data-link": true }, "← ", d.name),
        h("span", { class: "grow" }), ...rounds,
        h("button", { class: "primary", "data-testid": "print-now", onclick: () => window.print() }, t("print_now")));
    }

    title(d, what, n) {
      return h("header", { class: "print-head" }, h("h1", {}, d.name),
        h("p", {}, [what, n ? t("round_n", { n }) : null, t(`format_${d.format}`)].filter(Boolean).join(" · ")));
    }

    pairings(d, r, names) {
      const referee = (tb) => tb.referee_name || "";
      return [this.title(d, t("print_pairings"), r.number),
        // a phone scrolls a wide round (3-5-8's three players a table) instead of the page
        h("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": t("print_pairings") }, h("table", { class: "print-table", "data-testid": "print-pairings-table" },
          h("thead", {}, h("tr", {}, h("th", {}, t("print_table")), r.tables[0] && r.tables[0].entries.map((_, i) => h("th", {}, sideLabel(this.info, i))),
            h("th", {}, t("print_referee")), h("th", {}, t("score")))),
          h("tbody", {}, r.tables.map((tb) => h("tr", {}, h("td", { class: "num" }, tb.number),
            tb.entries.map((e) => h("td", {}, names[e])), h("td", {}, referee(tb)),
            h("td", { class: "num" }, tb.result ? tb.result.join(" : ") : "")))))),
        r.byes.length ? h("p", {}, `${t("byes")}: `, r.byes.map((e) => names[e]).join(", ")) : null].filter(Boolean);
    }

    standings(d, names) {
      const keys = d.standings.length ? Object.keys(d.standings[0].tiebreaks) : [];
      const order = d.standings.map((s) => s.entry);
      const cell = (a, b) => {
        if (a === b) return h("td", { class: "self" }, "×");
        const games = (d.cross_table[a] || {})[b] || [];
        return h("td", { class: "num" }, games.map((g) => g.points === null ? "·" : `${g.points}:${g.against}`).join(" "));
      };
      return [this.title(d, t("standings")),
        h("table", { class: "print-table", "data-testid": "print-standings-table" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", { class: "name" }, t("entry")),
            h("th", {}, t(d.format === "duplicate" ? "percent" : "match_points")), keys.map((k) => h("th", {}, t("tb_" + k))), h("th", {}, t("games_played")))),
          h("tbody", {}, d.standings.map((s) => h("tr", {}, h("td", { class: "num" }, s.rank),
            h("td", { class: "name" }, names[s.entry], s.withdrawn ? ` (${t("withdrawn")})` : ""),
            h("td", { class: "num" }, s.points), keys.map((k) => h("td", { class: "num" }, s.tiebreaks[k])), h("td", { class: "num" }, s.games))))),
        h("h2", {}, t("cross_table")),
        h("table", { class: "print-table cross", "data-testid": "print-cross-table" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", { class: "name" }, t("entry")), order.map((_, i) => h("th", {}, i + 1)))),
          h("tbody", {}, order.map((a, i) => h("tr", {}, h("td", { class: "num" }, i + 1), h("td", { class: "name" }, names[a]), order.map((b) => cell(a, b))))))];
    }

    // A table card: stands on the table; one A4 page each.
    card(d, r, tb, names) {
      return h("section", { class: "table-card", "data-testid": "table-card" },
        h("p", { class: "card-event" }, d.name, " · ", t("round_n", { n: r.number })),
        h("p", { class: "card-number" }, t("table_n", { n: tb.number })),
        tb.entries.map((e, i) => h("div", { class: "card-pair" }, h("h2", {}, names[e]),
          h("p", {}, seatsOf(this.info, d, tb, i).map(([seat, who]) => h("span", { class: "card-seat" }, t("seat_n", { n: seat }), who ? `: ${who}` : ""))))),
        h("p", { class: "card-referee" }, t("print_referee"), ": ", tb.referee_name || "—"));
    }

    // A blank Davtar: the score sheet's columns (web/scoresheet.js), a line per deal, and the
    // signatures of both pairs and the referee.
    davtar(d, r, tb, names) {
      const sides = tb.entries.map((e) => names[e]);
      const empty = () => h("td", {}, "");
      return h("section", { class: "davtar-blank", "data-testid": "davtar-blank" },
        this.title(d, t("sheet_title"), r.number),
        h("p", { class: "davtar-who" }, t("table_n", { n: tb.number }), " · ", sides.join(" — "), " · ", t("print_referee"), ": ", tb.referee_name || "—"),
        h("table", { class: "print-table davtar-grid" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), this.paper.columns.map((k) => h("th", {}, t(k))),
            sides.map((s) => h("th", { class: "pts" }, s)), sides.map((s) => h("th", { class: "pts" }, `${t("total")} ${s}`)))),
          h("tbody", {}, Array.from({ length: this.paper.rows }, (_, i) => h("tr", {}, h("td", { class: "num" }, i + 1),
            this.paper.columns.map(empty), sides.map(empty), sides.map(empty))))),
        h("div", { class: "signatures" }, [...sides, t("print_referee")].map((s) => h("p", {}, `${s}: `, h("span", { class: "sign-line" })))));
    }

    // A duplicate round's boards: each one's hand record and traveller (secret ones say so).
    travellers(d, names) {
      const b = this.boards;
      if (d.format !== "duplicate" || !b) return [this.title(d, t("print_boards")), h("p", {}, t("boards_duplicate"))];
      const pair = (line, i) => names[line.entries[i]];
      return [this.title(d, t("print_boards"), b.round), ...b.boards.map((board) => h("section", { class: "board-print", "data-testid": "board" },
        h("h2", {}, t("board_n", { n: board.board })),
        board.secret ? h("p", { class: "muted", "data-testid": "board-secret" }, t("board_secret")) : [
          board.hand_record ? h("div", { class: "hand-record", "data-testid": "hand-record" },
            board.hand_record.hands.map((x, seat) => h("div", { class: "seat-hand" }, h("strong", {}, t("seat_n", { n: seat + 1 }), seat === board.hand_record.dealer ? ` (${t("dealer")})` : ""), hand(x)))) : null,
          h("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": t("board_n", { n: board.board }) }, h("table", { class: "print-table traveller", "data-testid": "traveller" },
            h("thead", {}, h("tr", {}, h("th", {}, t("print_table")), h("th", {}, t("pair")),
              h("th", {}, t("contract")), h("th", {}, t("print_declarer")), h("th", {}, t("print_result")),
              h("th", {}, t("score")), h("th", {}, t("print_matchpoints")), h("th", {}, t("percent")))),
            h("tbody", {}, board.traveller.map((line) => h("tr", {}, h("td", { class: "num" }, line.table),
              h("td", {}, pair(line, 0), h("br"), pair(line, 1)),
              h("td", {}, this.game.boardContract(line.contract)), h("td", {}, line.declarer === null ? "" : sideLabel(this.info, line.declarer)),
              h("td", {}, line.result ? t(`print_${line.result}`) : ""),
              h("td", { class: "num" }, line.points.join(" : ")), h("td", { class: "num" }, line.matchpoints.join(":")),
              h("td", { class: "num" }, line.percent[0] === null ? "" : line.percent.join(":")))))))]))];
    }
  };
}

// The ``i``-th side of a table as its head says it: "Pair 1" in a game of partners, else "Player 1".
export function sideLabel(info, i) {
  return t(hasPartners(info) ? "print_side" : "print_player_side", { n: i + 1 });
}

// The seats of a table's ``i``-th entry, 1-based as the page says them, with who sits there: the
// entry plays as the game's ``i``-th team (GET /api/games ``teams``: a Bazar Blot pair at seats 1
// and 3 or 2 and 4, a 3-5-8 player at its own seat), its members in their order; a bot entrant's
// seats have no name.
export function seatsOf(info, d, tb, i) {
  const entry = d.entries.find((e) => e.id === tb.entries[i]);
  const members = entry ? [...entry.members].sort((a, b) => a.position - b.position) : [];
  return info.teams[i].map((seat, k) => [seat + 1, members[k] ? members[k].name : ""]);
}

// The event page's Print menu: each printed sheet of the latest round, and the exports (the TRF
// of a Swiss or round robin of a game of two sides, the latest round as CSV).
export function printMenu(h, d, info) {
  const last = d.rounds.length ? d.rounds[d.rounds.length - 1].number : null;
  const kinds = PRINTS.filter((k) => k === "standings" || (last && (k !== "boards" || d.format === "duplicate")));
  const link = (k) => h("a", { href: `/event/${d.id}/print/${k}${k === "standings" || !last ? "" : `?round=${last}`}`, "data-link": true, "data-testid": `print-${k}-link` }, t(`print_${k}`));
  const trf = info && info.teams.length === 2 && d.format !== "duplicate" // a TRF's game has two sides
    ? h("a", { href: `/api/events/${d.id}/trf`, download: `blot-event-${d.id}.trf`, "data-testid": "trf-link" }, "TRF") : null;
  const csv = last ? h("a", { href: `/api/events/${d.id}/rounds/${last}/csv`, download: `blot-event-${d.id}-round-${last}.csv` }, `${t("round_n", { n: last })} (CSV)`) : null;
  return h("details", { class: "print-menu", "data-testid": "print-menu" }, h("summary", {}, t("print_menu")),
    h("p", { class: "row" }, kinds.map(link), trf, csv));
}
