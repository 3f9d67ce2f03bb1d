// Accounts in the browser: log in, sign up (a guest who signs up keeps the games of this browser:
// the guest's token goes with the request), and the account page (log out, change the password,
// delete the account). The token lives in localStorage as a guest's does; no page ever shows it.
import { refusalText } from "/static/util.js";
import { t } from "/static/i18n.js";

export function accountPages({ h, api, toast, go, main, session }) {
  // A form whose fields are read by name; submit runs `action(values)` and shows what went wrong.
  function form(testid, fields, submitLabel, action) {
    const error = h("p", { class: "form-error", role: "alert", "data-testid": `${testid}-error`, hidden: true });
    const button = h("button", { class: "primary", type: "submit", "data-testid": `${testid}-submit` }, submitLabel);
    const el = h("form", { class: "form", "data-testid": testid, novalidate: true },
      fields.map((f) => h("label", {}, h("span", {}, f.label),
        h("input", { name: f.name, type: f.type || "text", autocomplete: f.autocomplete, maxlength: f.max || 128,
          required: true, "data-testid": `${testid}-${f.name}` }))),
      error, button);
    el.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const values = Object.fromEntries(new FormData(el).entries());
      error.hidden = true;
      button.disabled = true;
      try {
        await action(values, el);
      } catch (e) {
        error.textContent = e.code === "local" ? e.message : await refusalText(e);
        error.hidden = false;
      } finally {
        button.disabled = false;
      }
    });
    return el;
  }

  function mismatch() {
    const e = new Error(t("passwords_differ"));
    e.code = "local";
    return e;
  }

  // Where a login goes back to: the page's own path in ?next= (a table's link, issue 41), else home.
  function nextPath() {
    const next = new URLSearchParams(location.search).get("next") || "/";
    return /^\/(?![/\\])/.test(next) ? next : "/";
  }

  class LoginPage {
    render() {
      const login = form("login", [
        { name: "username", label: t("username"), autocomplete: "username", max: 40 },
        { name: "password", label: t("password"), type: "password", autocomplete: "current-password" },
      ], t("log_in"), async (v) => {
        const made = await api("POST", "/api/login", { username: v.username, password: v.password });
        await session.signedIn(made);
        toast(t("welcome", { name: made.username }));
        go(nextPath());
      });
      const signup = form("signup", [
        { name: "username", label: t("username"), autocomplete: "username", max: 40 },
        { name: "password", label: t("password"), type: "password", autocomplete: "new-password" },
        { name: "again", label: t("password_again"), type: "password", autocomplete: "new-password" },
      ], t("signup_button"), async (v) => {
        if (v.password !== v.again) throw mismatch();
        const made = await api("POST", "/api/accounts", { username: v.username, password: v.password });
        await session.signedIn(made);
        toast(t("welcome", { name: made.username }));
        go(nextPath());
      });
      main.replaceChildren(h("div", { class: "auth-grid" },
        h("section", { class: "panel", "data-testid": "login-panel" }, h("h2", {}, t("log_in")), login),
        h("section", { class: "panel", "data-testid": "signup-panel" }, h("h2", {}, t("signup_title")),
          h("p", { class: "muted" }, t("signup_help")), signup),
        h("section", { class: "panel help" }, h("p", {}, t("login_help_guest")))));
    }
  }

  class AccountPage {
    render() {
      const me = session.me();
      if (!me || !me.username) {
        main.replaceChildren(h("section", { class: "panel" }, h("p", {}, t("not_logged_in")),
          h("a", { href: "/login", "data-link": true, "data-testid": "go-login" }, t("log_in"))));
        return;
      }
      const change = form("password", [
        { name: "current", label: t("current_password"), type: "password", autocomplete: "current-password" },
        { name: "fresh", label: t("new_password"), type: "password", autocomplete: "new-password" },
        { name: "again", label: t("new_password_again"), type: "password", autocomplete: "new-password" },
      ], t("save"), async (v, el) => {
        if (v.fresh !== v.again) throw mismatch();
        await api("PUT", "/api/password", { password: v.current, new_password: v.fresh });
        el.reset();
        toast(t("password_changed"));
      });
      const remove = form("delete", [
        { name: "password", label: t("password"), type: "password", autocomplete: "current-password" },
      ], t("delete_account"), async (v) => {
        await api("DELETE", "/api/account", { password: v.password });
        await session.signedOut();
        toast(t("account_deleted"));
        go("/");
      });
      remove.querySelector("button").classList.replace("primary", "danger");
      const logout = h("button", { "data-testid": "logout", onclick: async () => {
        try {
          await api("POST", "/api/logout");
        } catch (e) {
          if (e.status !== 403) { refusalText(e).then(toast); return; }
        }
        await session.signedOut();
        toast(t("logged_out"));
        go("/");
      } }, t("log_out"));
      const avatars = h("div", { class: "avatar-choices", role: "group", "aria-label": t("avatar"), "data-testid": "avatar-choices" });
      api("GET", `/api/avatars?ids=${me.id}`).then((r) => {
        const chosen = r.avatars[String(me.id)] || null;
        const choose = async (avatar) => {
          try {
            await api("PUT", "/api/me/avatar", { avatar });
            this.render();
          } catch (e) {
            refusalText(e).then(toast);
          }
        };
        avatars.replaceChildren(
          h("button", { class: "small", "aria-pressed": chosen === null ? "true" : "false", onclick: () => choose(null) }, t("avatar_initials")),
          ...r.choices.map((a) => h("button", { "aria-pressed": chosen === a ? "true" : "false", "aria-label": a, "data-avatar": a, onclick: () => choose(a) }, a)));
      }).catch(() => {});
      main.replaceChildren(h("div", { class: "auth-grid" },
        h("section", { class: "panel", "data-testid": "account-panel" },
          h("h2", {}, t("account_title")),
          h("p", {}, h("strong", { "data-testid": "account-username" }, me.username)),
          h("div", { class: "row" },
            h("a", { href: `/players/${encodeURIComponent(me.username)}`, "data-link": true, "data-testid": "my-profile" }, t("your_profile")),
            logout)),
        h("section", { class: "panel" }, h("h2", {}, t("avatar")), avatars),
        h("section", { class: "panel" }, h("h2", {}, t("change_password")), change),
        h("section", { class: "panel danger-zone" }, h("h2", {}, t("delete_account")),
          h("p", { class: "muted" }, t("delete_help")), remove)));
    }
  }

  return { LoginPage, AccountPage };
}

// The bars that name this account, as sentences: a tars kapoot's keeps the pair from playing together
// as partners at public tables and in events (L-3); a dishonour's (the Court of Conduct, L-10, with a
// decision number) keeps the account from public tables and events.
export function barLines(bars, lang) {
  const day = (iso) => new Date(iso).toLocaleDateString(lang, { year: "numeric", month: "long", day: "numeric" });
  return (bars || []).map((b) => {
    if (b.decision !== undefined) {
      return b.until
        ? t("league_bar_dishonour", { a: b.players[0], until: day(b.until) })
        : t("league_bar_dishonour_life", { a: b.players[0] });
    }
    return b.until
      ? t("league_bar_until", { a: b.players[0], b: b.players[1], since: day(b.since), until: day(b.until) })
      : t("league_bar_never", { a: b.players[0], b: b.players[1] });
  });
}
