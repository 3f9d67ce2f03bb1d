// web/learn.js: Bazar Blot's bidding review writes each call with the game's presenter's labels
// (issue 39 item 2: the shared module knows no bid of its own).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "/static/i18n.js";

before(() => setLang("en"));

test("the bidding review labels the par contract and each call through the presenter", async () => {
  const { biddingReview } = await import("/static/learn.js");
  const { callLabel } = await import("/static/games/bazar.js");
  const analysed = {
    bidding: {
      par: { contract: "10H", multiplier: 2, team: 0, made: true, points: [20, 0], calls: ["10H", "contra", "pass"] },
      contract: null,
      calls: [
        { seat: 0, call: "10H", loss: 0, best: "10H" },
        { seat: 1, call: "pass", loss: 12, best: "11S", makes: false },
      ],
    },
  };
  const names = ["Ani", "Boris", "Carla", "Dan"];
  const text = biddingReview(analysed, 1, (s) => names[s], callLabel).textContent;
  assert.match(text, /10♥ ×2/);
  assert.match(text, /10♥ · Contra · Pass/);
  assert.match(text, /11♠/);
  assert.doesNotMatch(text, /10H|11S/);
});
