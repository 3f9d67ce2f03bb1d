// Friends (issue 41 item 2): the Friends page (ask by username, accept, remove, block; who is
// online and at which table), the invitations a friend sent (a banner on every page while this
// page is open, and the list on the Friends page), inviting a friend from a waiting table, and the
// table link's Share button (the device's share sheet where it has one, else Copy). The server
// decides everything (GET /api/friends); only accounts have friends.
import { t } from "/static/i18n.js";
import { h, api, toast, refusalText, main, nav, currentMe } from "/static/util.js";

const POLL_MS = 20000; // the server counts a page as online for 60 s after it asked

const isAccount = () => Boolean(currentMe() && currentMe().username);
const gameName = (game) => t("game_" + game) || game;

async function act(method, path, body, done) {
  try {
    const answer = await api(method, path, body);
    if (done) done(answer);
    return answer;
  } catch (e) {
    toast(await refusalText(e));
    return null;
  }
}

// --- the table's link: shared or copied ----------------------------------------------------------------

export function shareButton(link, table) {
  if (navigator.share) {
    const share = () => navigator.share({ title: t("title"), text: t("share_text", { game: gameName(table.game) }), url: link }).catch(() => {});
    return h("button", { "data-testid": "share-link", onclick: share }, t("share"));
  }
  const copy = () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast(t("copied")));
  return h("button", { "data-testid": "copy-link", onclick: copy }, t("copy"));
}

// --- inviting a friend from a waiting table -------------------------------------------------------------

// The row under the table's link: a friend to invite (those online first) and "Invite"; shown to
// an account that sits at the table or hosts it while a seat is free.
export function invitePanel(page) {
  const tb = page.table;
  const me = currentMe();
  if (!isAccount() || !tb.seats.some((s) => !s.name && !s.bot)) return null;
  if (!tb.seats.some((s) => s.player === me.id) && tb.host !== me.id) return null;
  if (page.friendList === undefined) {
    page.friendList = null;
    api("GET", "/api/friends").then((r) => { page.friendList = r.friends; page.render(); }).catch(() => {});
  }
  const list = (page.friendList || []).filter((f) => !tb.seats.some((s) => !s.guest && s.name === f.username));
  if (!list.length) {
    return h("p", { class: "muted", "data-testid": "invite-none" }, t("invite_no_friends"), " ",
      h("a", { href: "/friends", "data-link": true }, t("nav_friends")));
  }
  list.sort((a, b) => Number(b.online) - Number(a.online));
  if (!list.some((f) => f.username === page.inviteChoice)) page.inviteChoice = list[0].username;
  const select = h("select", { id: "invite-friend", "data-testid": "invite-friend", onchange: (e) => (page.inviteChoice = e.target.value) },
    list.map((f) => h("option", { value: f.username }, `${f.online ? "● " : ""}${f.username}`)));
  select.value = page.inviteChoice;
  const send = () => act("POST", `/api/tables/${tb.id}/invitations`, { username: page.inviteChoice },
    (r) => toast(t("invite_sent", { name: r.to })));
  return h("div", { class: "row invite-friend" },
    h("label", { for: "invite-friend" }, t("invite_friend")), select,
    h("button", { "data-testid": "invite-send", onclick: send }, t("invite_button")));
}

// --- invitations reaching this page -----------------------------------------------------------------------

const shown = new Set(); // invitations this page already put up (or the player closed)
let timer = null;

// Asks for the account's invitations now and every POLL_MS (app.js calls it at each page): a new
// one is put up over the page, with Join and Dismiss.
export function watchInvitations() {
  if (!timer) timer = setInterval(checkInvitations, POLL_MS);
  checkInvitations();
}

async function checkInvitations() {
  if (!isAccount() || document.hidden) return;
  let answer;
  try {
    answer = await api("GET", "/api/friends");
  } catch {
    return;
  }
  const fresh = answer.invitations.filter((i) => !shown.has(i.id) && location.pathname !== `/table/${i.table}`);
  if (location.pathname === "/friends") { // the page lists them itself
    for (const i of fresh) shown.add(i.id);
    return;
  }
  let bar = document.getElementById("invitations");
  if (!fresh.length) return;
  if (!bar) {
    bar = h("div", { id: "invitations", class: "invite-banner", role: "status", "data-testid": "invitation-banner" });
    document.body.append(bar);
  }
  const close = (id) => {
    shown.add(id);
    const row = bar.querySelector(`[data-invitation="${id}"]`);
    if (row) row.remove();
    if (!bar.children.length) bar.remove();
  };
  for (const i of fresh) {
    shown.add(i.id);
    bar.append(h("div", { class: "invite-row", "data-invitation": i.id },
      h("span", {}, t("invitation_text", { name: i.from, game: gameName(i.game) })),
      h("span", { class: "invite-actions" },
        h("button", { class: "primary", "data-testid": "invitation-join", onclick: () => { close(i.id); nav.go(`/table/${i.table}`); } }, t("invitation_join")),
        h("button", { "data-testid": "invitation-dismiss", onclick: () => { close(i.id); act("DELETE", `/api/invitations/${i.id}`); } }, t("invitation_dismiss")))));
  }
}

// --- the Friends page -----------------------------------------------------------------------------------------

export class FriendsPage {
  constructor() {
    this.data = null;
    this.typed = "";
    this.load();
    this.poll = setInterval(() => this.load(), POLL_MS);
  }

  leave() {
    clearInterval(this.poll);
    this.left = true;
  }

  async load() {
    if (!isAccount()) {
      this.render();
      return;
    }
    try {
      this.data = await api("GET", "/api/friends");
    } catch (e) {
      toast(await refusalText(e));
    }
    if (!this.left) this.render();
  }

  async change(method, path, body, said) {
    const answer = await act(method, path, body);
    if (answer && said) toast(said(answer));
    await this.load();
  }

  render() {
    if (!isAccount()) {
      main.replaceChildren(h("section", { class: "panel", "data-testid": "friends-guest" },
        h("h2", {}, t("friends_title")), h("p", {}, t("friends_accounts_only")),
        h("a", { class: "button primary", href: "/login?next=/friends", "data-link": true }, t("log_in"))));
      return;
    }
    const d = this.data;
    const add = h("form", { class: "row", "data-testid": "friend-add", onsubmit: (e) => {
      e.preventDefault();
      const username = this.typed.trim();
      if (!username) return;
      this.typed = "";
      this.change("POST", "/api/friends", { username },
        (r) => t(r.status === "friend" ? "friend_now" : "friend_asked_sent", { name: r.username }));
    } },
    h("label", { for: "friend-username" }, t("friend_add_label")),
    h("input", { id: "friend-username", "data-testid": "friend-username", maxlength: 40, autocomplete: "off", value: this.typed, oninput: (e) => (this.typed = e.target.value) }),
    h("button", { class: "primary", type: "submit" }, t("friend_add")));
    const parts = [h("h2", {}, t("friends_title")), add];
    if (!d) {
      parts.push(h("p", { class: "muted" }, t("loading")));
    } else {
      parts.push(this.invitations(d.invitations), this.requests(d.asking), this.friends(d.friends),
        this.section("friends_waiting", d.asked, "asked", (p) => [this.button("friend_withdraw", "DELETE", p)]),
        this.section("friends_blocked", d.blocked, "blocked", (p) => [this.button("friend_unblock", "DELETE", p)]));
    }
    // the list is drawn again at each poll: a name being typed keeps its focus and caret
    const typing = document.activeElement?.id === "friend-username" ? document.activeElement : null;
    main.replaceChildren(h("section", { class: "panel friends", "data-testid": "friends-page" }, parts));
    if (typing) {
      const input = main.querySelector("#friend-username");
      input.focus();
      input.setSelectionRange(typing.selectionStart, typing.selectionEnd);
    }
  }

  button(label, method, p, path = "", cls = null) {
    const url = `/api/friends/${encodeURIComponent(p.username)}${path}`;
    return h("button", { class: cls, "data-testid": `${label}-${p.username}`, onclick: () => this.change(method, url) }, t(label));
  }

  section(title, people, kind, buttons) {
    if (!people.length) return null;
    return h("div", { class: "friend-group", "data-testid": `friends-${kind}` }, h("h3", {}, t(title)),
      h("ul", { class: "friend-list" }, people.map((p) => h("li", {}, h("span", { class: "friend-name" }, p.username),
        h("span", { class: "friend-actions" }, buttons(p))))));
  }

  invitations(list) {
    if (!list.length) return null;
    return h("div", { class: "friend-group", "data-testid": "friends-invitations" }, h("h3", {}, t("invitations_title")),
      h("ul", { class: "friend-list" }, list.map((i) => h("li", {},
        h("span", { class: "friend-name" }, t("invitation_text", { name: i.from, game: gameName(i.game) })),
        h("span", { class: "friend-actions" },
          h("a", { class: "button primary", href: `/table/${i.table}`, "data-link": true, "data-testid": `invitation-open-${i.table}` }, t("invitation_join")),
          h("button", { onclick: () => this.change("DELETE", `/api/invitations/${i.id}`) }, t("invitation_dismiss")))))));
  }

  requests(list) {
    return this.section("friends_requests", list, "asking", (p) => [
      h("button", { class: "primary", "data-testid": `friend_accept-${p.username}`, onclick: () => this.change("POST", "/api/friends", { username: p.username },
        (r) => t("friend_now", { name: r.username })) }, t("friend_accept")),
      this.button("friend_decline", "DELETE", p),
    ]);
  }

  friends(list) {
    if (!list.length) return h("p", { class: "muted", "data-testid": "friends-none" }, t("friends_none"));
    const sorted = [...list].sort((a, b) => Number(b.online) - Number(a.online));
    return h("div", { class: "friend-group", "data-testid": "friends-list" }, h("h3", {}, t("friends_title")),
      h("ul", { class: "friend-list" }, sorted.map((f) => h("li", { class: f.online ? "online" : "" },
        h("span", { class: "presence", "aria-hidden": "true" }),
        h("span", { class: "friend-name" }, h("a", { href: `/players/${encodeURIComponent(f.username)}`, "data-link": true }, f.username),
          h("small", { class: "muted" }, ` · ${t(f.online ? "friend_online" : "friend_offline")}${f.playing ? " · " + t("friend_playing") : ""}`)),
        h("span", { class: "friend-actions" },
          f.table ? h("a", { class: "button", href: `/table/${f.table}`, "data-link": true, "data-testid": `friend-table-${f.username}` },
            t("friend_at_table", { game: gameName(f.game) })) : null,
          this.button("friend_remove", "DELETE", f),
          this.button("friend_block", "POST", f, "/block"))))));
  }
}
