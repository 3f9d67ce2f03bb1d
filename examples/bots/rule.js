// A bot of the blot bot protocol (docs/bot-protocol.md) in JavaScript for node, with one simple
// rule per decision: a call names the suit it holds most of (Bazar Blot: the lowest bid in it,
// with four cards or more; else pass); Bazar Blot's declarations: the best set; a card to give or
// discard (3-5-8): the lowest; a card to play: the highest.
//
//   blot arena --game 3-5-8 --a "cmd:node examples/bots/rule.js" --b random --deals 20

const readline = require("readline");

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const rank = (card) => RANKS.indexOf(card.slice(0, -1));

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
  const lowest = legal.reduce((a, b) => (rank(b) < rank(a) ? b : a));
  const highest = legal.reduce((a, b) => (rank(b) > rank(a) ? b : a));
  return offer.kind === "give" || offer.kind === "discard" ? lowest : highest;
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
