// The page's few icons, drawn in SVG (an emoji or a rare symbol is missing from some systems'
// fonts); each is aria-hidden: the button that holds it has the words.
const NS = "http://www.w3.org/2000/svg";

const PATHS = {
  // a speech bubble
  chat: "M4 5h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H10l-5 4v-4H4a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2z",
  // a robot's head
  bot: "M11 2h2v3h4a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3V8a3 3 0 0 1 3-3h4zM8.5 10a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm7 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zM9 15.5h6v1.5H9zM1 10h2v5H1zm20 0h2v5h-2z",
  // two cards, the last trick
  trick: "M3 6.5 11 4l3 11-8 2.5zM13 4h7a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1h-7a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1z",
  // a speaker and its sound; the speaker muted (a cross)
  sound: "M3 9h4l5-4v14l-5-4H3zm11.5-.5a5 5 0 0 1 0 7l-1.4-1.4a3 3 0 0 0 0-4.2zM17 6a8.5 8.5 0 0 1 0 12l-1.4-1.4a6.5 6.5 0 0 0 0-9.2z",
  muted: "M3 9h4l5-4v14l-5-4H3zm12.3.3 1.4-1.4 2.3 2.3 2.3-2.3 1.4 1.4-2.3 2.3 2.3 2.3-1.4 1.4-2.3-2.3-2.3 2.3-1.4-1.4 2.3-2.3z",
};

// An SVG element with its attributes and children (the cards' faces are drawn with it too).
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

export function icon(name, size = 20) {
  const attrs = { viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true", focusable: "false" };
  return svg("svg", { ...attrs, class: `icon icon-${name}` }, svg("path", { d: PATHS[name], fill: "currentColor" }));
}
