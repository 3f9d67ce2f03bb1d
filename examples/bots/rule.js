// A bot of the blot bot protocol (docs/bot-protocol.md) in JavaScript for node, with one simple
// rule per decision: a call names the suit it holds most of (Bazar Blot: the lowest bid in it,
// with four cards or more; else pass); Bazar Blot's declarations: the best set; a card to give or
// discard (3-5-8): the weakest; a card to play: the strongest. Any trump is stronger than any
// other card; then the game's order decides: in Bazar Blot trumps rank J 9 A 10 K Q 8 7 and the
// other suits A 10 K Q J 9 8 7, in 3-5-8 every suit A K Q ... 2.
//
//   blot arena --game 3-5-8 --a "cmd:node examples/bots/rule.js" --b random --deals 20

const readline = require("readline");

// Each order from weakest to strongest.
const NATURAL = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const BAZAR_PLAIN = ["7", "8", "9", "J", "Q", "K", "10", "A"];
const BAZAR_TRUMP = ["7", "8", "Q", "K", "10", "A", "9", "J"];

function strength(card, view) {
  const rank = card.slice(0, -1);
  const trump = card.slice(-1) === view.trump;
  const order = view.game === "3-5-8" ? NATURAL : trump ? BAZAR_TRUMP : BAZAR_PLAIN;
  return (trump ? 100 : 0) + order.indexOf(rank);
}

function choose(view, legal) {
  const offer = view.legal;
  if (offer.kind === "call") {
    const count = {};
    for (const suit of "SHDC") count[suit] = view.hand.filter((card) => card.endsWith(suit)).length;
    const suit = [..."SHDC"].reduce((a, b) => (count[b] > count[a] ? b : a));
    if (legal.includes(suit)) return suit; // 3-5-8: the first strain named is trump
    const bids = legal.filter((a) => /^\d+[SHDC]$/.test(a) && a.endsWith(suit));
    if (bids.length && count[suit] >= 4) return bids.sort((a, b) => parseInt(a) - parseInt(b))[0];
    return legal.includes("pass") ? "pass" : legal[0];
  }
  if (offer.kind === "declare") return { declare: offer.best };
  const weakest = legal.reduce((a, b) => (strength(b, view) < strength(a, view) ? b : a));
  const strongest = legal.reduce((a, b) => (strength(b, view) > strength(a, view) ? b : a));
  return offer.kind === "give" || offer.kind === "discard" ? weakest : strongest;
}

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    send({ type: "hello", protocol: 1, name: "rule (JavaScript)", author: "blot examples",
           games: ["bazar-blot", "3-5-8"] });
  } else if (message.type === "act") {
    send({ type: "action", id: message.id, action: choose(message.view, message.legal) });
  } else if (message.type === "bye") {
    input.close();
  }
});
