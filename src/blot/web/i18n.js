// The page's words in Armenian, Bulgarian, Russian and English: one file per language
// (web/i18n/<lang>.js) and, for what only one game says, one beside its presenter
// (web/games/<package>.<lang>.js). A page downloads the file of its reader's language only;
// switching language loads the other (issue 39 item 2). A test checks that the four have the same
// keys and that every key the page uses is there. Default: the browser's language.
export const LANGS = ["hy", "bg", "ru", "en"];

let current = "en";
let words = {}; // the current language's catalogue, with the words of each game loaded so far
const gameWords = new Set(); // the bases of the games' word files (web/games/<package>), loaded per language
const listeners = [];

function fromBrowser() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

async function load(code) {
  const [shared, ...games] = await Promise.all([
    import(`/static/i18n/${code}.js`),
    ...[...gameWords].map((base) => import(`${base}.${code}.js`)),
  ]);
  return Object.assign({}, shared.default, ...games.map((m) => m.default));
}

// Switch to the language ``code`` (the browser's when it is none of ours): its words are loaded
// before the promise resolves, so that the page is drawn again in one language only.
export async function setLang(code) {
  const next = LANGS.includes(code) ? code : fromBrowser();
  let games;
  let loaded;
  do { // a game's words asked for meanwhile are loaded in this language too
    games = gameWords.size;
    loaded = await load(next);
  } while (games !== gameWords.size);
  words = loaded;
  current = next;
  for (const fn of listeners) await fn(next);
}

// ``fn(lang)`` is called (and awaited) after every switch of language, e.g. by a module that keeps
// words of its own per language (the refusals' sentences).
export function onLang(fn) {
  listeners.push(fn);
}

// The words of a game (its presenter asks once): ``base`` is the path of its files without
// ".<lang>.js", e.g. "/static/games/bazar"; they are loaded now and again at each switch.
export async function addGameWords(base) {
  if (gameWords.has(base)) return;
  gameWords.add(base);
  const code = current;
  const m = await import(`${base}.${code}.js`);
  if (code === current) Object.assign(words, m.default); // else a switch meanwhile loaded them
}

export function lang() {
  return current;
}

// The string for ``key`` in the current language, with {name} replaced from ``params``; "" when
// there is no such key (callers fall back to the raw value, e.g. a bot spec).
export function t(key, params) {
  const s = words[key];
  return s === undefined ? "" : fill(s, params);
}

// ``template`` with {name} replaced from ``params`` (a pure function: tests/js checks it).
export function fill(template, params) {
  let s = template;
  if (params) for (const [k, v] of Object.entries(params)) s = s.replaceAll(`{${k}}`, String(v));
  return s;
}
