// What every page of the client shares: building elements, the HTTP API, the player (a name and a
// token kept by the browser), messages, and the player's preferences for the table.
import { t } from "/static/i18n.js";

export const main = document.getElementById("main");
export const store = window.localStorage;
// Moving to another page of the client (app.js puts its router here).
export const nav = { go: (path) => location.assign(path) };

// An element: h("button", {class, text, onclick, "data-x": 1}, ...children). No inline styles
// (the page's Content-Security-Policy allows none): use classes, or el.style.setProperty.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// What a page shows until its data has come: a panel saying there is no such thing (the server
// answered "not found": the message's key and its test id), else "Loading…". True when it showed one.
export function showPending(data, notFound) {
  if (notFound) {
    main.replaceChildren(h("section", { class: "panel" }, h("p", { "data-testid": notFound.testid }, t(notFound.key))));
    return true;
  }
  if (!data) {
    main.replaceChildren(h("p", { class: "muted" }, t("loading")));
    return true;
  }
  return false;
}

let toastTimer = null;
export function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), 5000);
}

export function errorText(code, message) {
  const head = t("error_" + code) || t("error_generic");
  return message ? `${head} ${message}` : head;
}

// A refusal of the server (an HTTP error thrown by `api`, or a websocket error message) in the
// player's language: its stable `reason` with its `params` when the page knows it (the sentences
// are in reasons.js, loaded the first time one is needed), else the error's class and the server's
// own sentence.
export async function refusalText(e) {
  if (e && e.reason) {
    try {
      const { reasonText } = await import("/static/reasons.js");
      const text = reasonText(e.reason, e.params || {});
      if (text) return text;
    } catch { /* the sentence of the server, below */ }
  }
  return errorText(e && e.code, e && e.message);
}

// What every page the router shows shares, and the panels a page holds: once left (app.js calls
// ``leave`` when the player goes elsewhere, a page its panels') it draws nothing more and its timers
// stop; ``show`` keeps what it reads from the server (or the refusal that stands for it, which
// showPending says) and draws it (``render``); ``saved`` sends a change and says "saved", or the
// refusal in the page's language.
export class Page {
  leave() {
    this.left = true;
    clearTimeout(this.timer);
    clearInterval(this.poll);
  }

  // ``read``: an async function whose answer the page shows, kept in ``data``.
  async show(read) {
    try {
      this.data = await read();
    } catch (e) {
      this.error = e;
    }
    if (!this.left) this.render();
  }

  // ``request``: a change's api call; true once the server took it.
  async saved(request) {
    try {
      await request;
      toast(t("saved"));
      return true;
    } catch (e) {
      toast(await refusalText(e));
      return false;
    }
  }
}

export async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const token = store.getItem("blot.token");
  if (token) headers.Authorization = "Bearer " + token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.message) || res.statusText);
    err.code = (data && data.error) || "generic";
    err.reason = (data && data.reason) || null;
    err.params = (data && data.params) || {};
    err.status = res.status;
    err.field = (data && data.field) || null;
    throw err;
  }
  return data;
}

// --- the player -------------------------------------------------------------------------------------

let me = null;
const nameInput = () => document.getElementById("name");

// A player record is made on the first page that can act (the lobby, a table, the score sheets);
// read-only pages (replays, a shared score sheet) use one only when this browser already has it.
export async function ensurePlayer(create = true) {
  if (me) return me;
  const token = store.getItem("blot.token");
  if (token) {
    try {
      me = await api("GET", "/api/me");
    } catch (e) {
      if (e.status !== 403) throw e;
      store.removeItem("blot.token");
    }
  }
  if (!me && !create) return null;
  if (!me) {
    const typed = nameInput().value.trim();
    const someone = `${t("player")} ${Math.floor(100 + Math.random() * 900)}`;
    const name = typed || store.getItem("blot.name") || someone;
    let made;
    try {
      made = await api("POST", "/api/players", { name });
    } catch (e) {
      // a name an account holds (issue 38): the guest plays as "Player N" until it picks another
      if (e.status !== 409 || name === someone) throw e;
      made = await api("POST", "/api/players", { name: someone });
    }
    store.setItem("blot.token", made.token);
    me = { id: made.id, name: made.name };
  }
  store.setItem("blot.name", me.name);
  if (document.activeElement !== nameInput()) nameInput().value = me.name;
  renderMe();
  return me;
}

export function currentMe() {
  return me;
}

// The player again from the server (an account's bars and ratings change).
export async function refreshMe() {
  if (me && me.username) me = await api("GET", "/api/me");
  return me;
}

// The header: a guest edits their name; an account shows its username, linked to its page.
export function renderMe() {
  const link = document.getElementById("account-link");
  if (!link) return;
  const account = me && me.username;
  document.querySelector("header.top .me").hidden = Boolean(account);
  link.textContent = account ? me.username : t("log_in");
  link.setAttribute("href", account ? "/account" : "/login");
}

// What the account pages need of the player kept here.
export const session = {
  me: () => me,
  async signedIn(made) {
    store.setItem("blot.token", made.token);
    me = null;
    await ensurePlayer(false);
  },
  async signedOut() {
    store.removeItem("blot.token");
    store.removeItem("blot.name");
    nameInput().value = ""; // the account's name: a guest may not take it
    me = null;
    await ensurePlayer(true);
  },
};

// The name typed in the name box counts even when the player never pressed Enter: every action
// that seats the player (a new table, a seat, a game against bots) calls this first.
export async function syncName() {
  await ensurePlayer();
  const typed = nameInput().value.trim();
  if (typed && typed !== me.name) {
    me = await api("PUT", "/api/me", { name: typed });
    store.setItem("blot.name", me.name);
  }
  return me;
}

// --- preferences (this browser only) -------------------------------------------------------------

const PREFS = { fourColour: false, vibrate: true, analysis: false, notify: false };

export function pref(key) {
  const v = store.getItem("blot.pref." + key);
  return v === null ? PREFS[key] : v === "1";
}

export function setPref(key, on) {
  store.setItem("blot.pref." + key, on ? "1" : "0");
  applyPrefs();
}

export function applyPrefs() {
  document.body.classList.toggle("four-colour", pref("fourColour"));
}
