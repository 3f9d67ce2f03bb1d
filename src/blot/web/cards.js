// Cards as the page draws them: faces drawn here in SVG (large rank and suit index in the top-left
// corner, so that an overlapped card still reads; a big pip, or a framed letter for the court
// cards), a card back, and the words for cards and suits (labels and spoken names). Two colours by
// default; the four-colour deck (spades black, hearts red, diamonds blue, clubs green) is a class
// on <body> (style.css). Nothing here knows a rule.
import { t } from "/static/i18n.js";
import { svg } from "/static/icons.js";

export const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_ORDER = ["S", "H", "D", "C"];
export const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
const COURT = new Set(["J", "Q", "K"]);

// The four suits, drawn in a 100 x 100 box.
const PIP = {
  H: "M50 92C22 68 2 50 2 29C2 13 14 3 28 3C38 3 46 9 50 18C54 9 62 3 72 3C86 3 98 13 98 29C98 50 78 68 50 92Z",
  D: "M50 2L88 50L50 98L12 50Z",
  S: "M50 2C62 24 98 40 98 64C98 80 86 90 73 90C65 90 58 86 54 81C55 90 59 95 68 99H32C41 95 45 90 46 81C42 86 35 90 27 90C14 90 2 80 2 64C2 40 38 24 50 2Z",
  C: "M50 4A22 22 0 1 1 49.9 4ZM27 38A22 22 0 1 1 26.9 38ZM73 38A22 22 0 1 1 72.9 38ZM46 58C46 78 40 90 30 99H70C60 90 54 78 54 58Z",
};

function pip(suit, x, y, size) {
  return svg("path", { d: PIP[suit], class: "ink", transform: `translate(${x} ${y}) scale(${size / 100})` });
}

export function splitCard(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

// The face of ``card`` (record notation: "10H"), 60 x 84 units; drawn once, then copied.
const FACES = new Map();
export function face(card) {
  let drawn = FACES.get(card);
  if (!drawn) FACES.set(card, (drawn = drawFace(card)));
  return drawn.cloneNode(true);
}

function drawFace(card) {
  const { rank, suit } = splitCard(card);
  const ten = rank === "10";
  const parts = [
    svg("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "paper" }),
    svg("text", { x: ten ? 2 : 4, y: 21, class: "ink index" + (ten ? " ten" : "") }, rank),
    pip(suit, 4, 25, 14),
  ];
  if (COURT.has(rank)) {
    parts.push(svg("rect", { x: 21, y: 7, width: 34, height: 70, rx: 3, class: "frame" }));
    parts.push(svg("text", { x: 38, y: 45, class: "ink court" }, rank));
    parts.push(pip(suit, 29, 52, 18));
  } else {
    const size = rank === "A" ? 34 : 28;
    parts.push(pip(suit, 38 - size / 2, 44 - size / 2, size));
  }
  return svg("svg", { viewBox: "0 0 60 84", class: "face", "aria-hidden": "true", focusable: "false" }, ...parts);
}

function attach(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className += " " + v;
    else if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  return el;
}

// A card to look at (tricks, the talon, replays): an image with its spoken name.
export function cardEl(card, attrs = {}) {
  const el = document.createElement("span");
  el.className = `card suit-${splitCard(card).suit}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(card));
  el.append(face(card));
  return attach(el, attrs);
}

// A card in the player's hand: a button named as it is spoken ("ace of spades").
export function cardButton(card, attrs = {}) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = `card suit-${splitCard(card).suit}`;
  el.setAttribute("aria-label", cardName(card));
  el.append(face(card));
  return attach(el, attrs);
}

export function backEl(extra = "") {
  const el = document.createElement("span");
  el.className = "card back" + (extra ? " " + extra : "");
  el.setAttribute("aria-hidden", "true");
  return el;
}

// --- words ------------------------------------------------------------------------------------------

// Whether an action's text is a card ("10H"), not a call.
export function isCard(text) {
  return /^(10|[2-9JQKA])[SHDC]$/.test(text);
}

export function cardLabel(card) {
  const { rank, suit } = splitCard(card);
  return rank + SUIT[suit];
}

export function cardName(card) {
  const { rank, suit } = splitCard(card);
  return t("card_name", { rank: t("rank_" + rank), suit: t("suit_" + suit) });
}

// What a screen reader says for a suit as a whole ("hearts"). A game's strains, no trump among
// them, and its calls are its presenter's words (web/games/<package>.js).
export function suitsName(suit) {
  return t("suits_" + suit);
}

export function rankName(rank) {
  return t("rank_" + rank);
}

export function signed(x) {
  return x > 0 ? `+${x}` : String(x);
}
