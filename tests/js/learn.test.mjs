// web/learn.js: each player's accuracy and a loss's mark, shared by every game; Bazar Blot's bidding
// review is its presenter's (web/games/bazar.js biddingReview, issue 39 item 2), and writes the par
// contract and each call with the game's own labels.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "/static/i18n.js";

const info = { game: "bazar-blot", seats: 4, teams: [[0, 2], [1, 3]], direction: "counterclockwise" };
const names = ["Ani", "Boris", "Carla", "Dan"];
const name = (s) => names[s];
let learn;
let bazar;

before(async () => {
  await setLang("en");
  learn = await import("/static/learn.js");
  bazar = (await import("/static/games/bazar.js")).createPresenter(info);
});

const analysed = {
  bidding: {
    par: { contract: "10H", multiplier: 2, team: 1, made: true, points: [0, 20], calls: ["10H", "contra", "pass"] },
    contract: null,
    calls: [
      { seat: 0, call: "10H", loss: 0, best: "10H" },
      { seat: 1, call: "pass", loss: 12, best: "11S", makes: false },
    ],
  },
};

test("the bidding review is Bazar Blot's: par, each call, its loss, in the game's labels", () => {
  const el = bazar.biddingReview(analysed, 1, name);
  const text = el.textContent;
  assert.match(text, /Par: 10♥ ×2 by Boris · Dan, made, 0\u00a0:\u00a020\./);
  assert.match(text, /10♥ · Contra · Pass/);
  assert.match(text, /best: 11♠/);
  assert.match(text, /12 points lost against par/);
  assert.match(text, /nothing lost/);
  assert.doesNotMatch(text, /10H|11S/);
  assert.equal(bazar.biddingReview({ dd_table: null }, 1, name), null); // a deal analysed without its bidding
});

test("the shared module has no bidding of its own; a loss's mark says its words", () => {
  assert.equal(learn.biddingReview, undefined);
  const mark = learn.lossMark("large", 12, "12 lost");
  assert.equal(mark.getAttribute("title"), "12 lost");
  assert.match(mark.textContent, /^\?\?\u2009−1212 lost$/);
  assert.equal(learn.lossMark(null, null, ""), "—");
});
