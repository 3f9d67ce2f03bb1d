// The smallest bot of the blot bot protocol (docs/bot-protocol.md), in JavaScript for node: it
// needs no rules at all. It answers every decision with any element of "legal", chosen at random
// (seeded by the game's "seed", so that a blot arena run with the same --seed plays the same).
//
//   blot arena --a "cmd:node examples/bots/random.js" --b heuristic --deals 20

const readline = require("readline");

let state = 1;
function random() {
  // mulberry32: a small seeded generator (Math.random cannot be seeded)
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    send({ type: "hello", protocol: 1, name: "random (JavaScript)", author: "blot examples",
           games: ["bazar-blot", "3-5-8"] });
  } else if (message.type === "new_game") {
    state = message.seed | 0;
  } else if (message.type === "act") {
    const legal = message.legal;
    send({ type: "action", id: message.id, action: legal[Math.floor(random() * legal.length)] });
  } else if (message.type === "bye") {
    input.close();
  }
});
