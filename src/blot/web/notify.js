// Notifications that reach a closed app (issue 41 item 4): Web Push. After a game the page offers
// them once ("Tell me when it is my turn …"); yes asks the browser, subscribes this browser with
// the server's key (GET /api/push/key) and gives the subscription to the server, which then tells
// the player of their turn at a table they left, an invitation, an event's table, a rematch. Each
// kind is switched in ⚙. The messages are shown by the service worker (sw.js), with words and a
// link only.
import { h, api, toast, refusalText, store } from "/static/util.js";
import { t, lang } from "/static/i18n.js";

const ENDPOINT = "blot.push.endpoint";
const DECLINED = "blot.push.declined";
const KINDS = ["turn", "invitation", "event_table", "rematch"];

export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

export function subscribed() {
  return !!store.getItem(ENDPOINT);
}

function keyBytes(key) {
  const b64 = (key + "=".repeat((4 - (key.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

// Ask the browser, subscribe this browser and tell the server; true once it is done.
export async function turnOn() {
  try {
    if ((await Notification.requestPermission()) !== "granted") {
      toast(t("notify_refused"));
      return false;
    }
    const reg = await navigator.serviceWorker.ready;
    const { key } = await api("GET", "/api/push/key");
    const sub = (await reg.pushManager.getSubscription())
      || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
    await api("POST", "/api/push/subscriptions", { ...sub.toJSON(), lang: lang() });
    store.setItem(ENDPOINT, sub.endpoint);
    toast(t("push_on"));
    return true;
  } catch (e) {
    toast(e && e.code ? await refusalText(e) : t("push_failed"));
    return false;
  }
}

export async function turnOff() {
  const endpoint = store.getItem(ENDPOINT);
  store.removeItem(ENDPOINT);
  try {
    const reg = await navigator.serviceWorker.ready;
    const sub = await reg.pushManager.getSubscription();
    if (sub) await sub.unsubscribe();
    if (endpoint) await api("DELETE", "/api/push/subscriptions", { endpoint });
  } catch { /* gone already */ }
}

// The offer on the game-over screen: shown once a game is over, until the player answers it.
export function pushOffer(redraw) {
  if (!pushSupported() || subscribed() || store.getItem(DECLINED) || Notification.permission === "denied") return null;
  return h("div", { class: "push-offer", "data-testid": "push-offer", role: "group", "aria-label": t("push_offer_title") },
    h("p", {}, h("strong", {}, t("push_offer_title")), " ", t("push_offer")),
    h("div", { class: "row" },
      h("button", { class: "primary", "data-testid": "push-yes", onclick: async () => { await turnOn(); redraw(); } }, t("push_yes")),
      h("button", { "data-testid": "push-no", onclick: () => { store.setItem(DECLINED, "1"); redraw(); } }, t("push_no"))));
}

// The ⚙ menu's part: notifications with the app closed on or off, and each kind.
export class PushSettings {
  constructor(redraw) {
    this.redraw = redraw;
    this.kinds = null;
  }

  load() {
    if (this.kinds || this.loading || !subscribed()) return;
    this.loading = true;
    api("GET", "/api/push/settings").then((s) => { this.kinds = s.kinds; this.redraw(); }).catch(() => {});
  }

  async flip(kind, on) {
    try {
      this.kinds = (await api("PUT", "/api/push/settings", { kinds: { [kind]: on } })).kinds;
    } catch (e) {
      toast(await refusalText(e));
    }
    this.redraw();
  }

  view() {
    if (!pushSupported()) return null;
    const on = subscribed();
    this.load();
    const main = h("label", { class: "check" },
      h("input", { type: "checkbox", checked: on, "data-testid": "push-on", onchange: async (e) => {
        if (e.target.checked) e.target.checked = await turnOn();
        else await turnOff();
        this.kinds = null;
        this.loading = false;
        this.redraw();
      } }),
      h("span", {}, t("push_closed_app")));
    const kinds = on && this.kinds ? KINDS.map((k) => h("label", { class: "check sub" },
      h("input", { type: "checkbox", checked: this.kinds[k], "data-testid": `push-kind-${k}`, onchange: (e) => this.flip(k, e.target.checked) }),
      h("span", {}, t(`push_kind_${k}`)))) : [];
    return h("div", { class: "push-settings" }, main, kinds);
  }
}
