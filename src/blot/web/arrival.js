// A name on arrival (issue 41 item 1): whoever opens a table's link without a session is asked
// for a name (or to log in) before taking a seat, instead of sitting as "Player 304". The table
// page shows this panel while the table waits with a free seat and this browser has no player;
// the lobby shows it when such a visitor first makes a table, plays bots or finds a game. The
// name becomes a guest (POST /api/players); then the page's named(seat) goes on: the table
// opens its socket again as that guest and seats him at the seat he chose (or the first free
// one), the lobby does what was clicked.
import { t } from "/static/i18n.js";
import { h, api, toast, refusalText, store, session, currentMe } from "/static/util.js";

// Whether the page must ask for a name before seating anybody from this browser.
export function needsName() {
  return !currentMe();
}

// The panel: the name the others will see, "Take a seat", and a log-in link that comes back here.
export function arrivalPanel(page, label = t("arrival_sit")) {
  if (page.arrivalName === undefined) page.arrivalName = store.getItem("blot.name") || "";
  const next = encodeURIComponent(location.pathname);
  const submit = (e) => {
    e.preventDefault();
    arrive(page, page.arrivalSeat ?? null);
  };
  return h("form", { class: "arrival", "data-testid": "arrival", onsubmit: submit },
    h("h2", {}, t("arrival_title")),
    h("label", { for: "arrival-name" }, t("arrival_help")),
    h("div", { class: "row" },
      h("input", {
        id: "arrival-name", "data-testid": "arrival-name", maxlength: 40, autocomplete: "nickname", required: true,
        value: page.arrivalName, oninput: (e) => (page.arrivalName = e.target.value),
      }),
      h("button", { class: "primary", type: "submit", "data-testid": "arrival-sit", disabled: page.arriving }, label)),
    h("p", { class: "muted" }, t("arrival_have_account"), " ",
      h("a", { href: `/login?next=${next}`, "data-link": true, "data-testid": "arrival-login" }, t("log_in"))));
}

// A seat was chosen before a name: the name box asks for one.
export function askName(page, seat) {
  page.arrivalSeat = seat;
  focusName();
  toast(t("arrival_name_needed"));
}

// The name box in view, ready to type in.
export function focusName() {
  const input = document.getElementById("arrival-name");
  if (input) {
    input.focus();
    input.scrollIntoView({ block: "center" });
  }
}

async function arrive(page, seat) {
  const name = (page.arrivalName || "").trim();
  if (!name) {
    toast(t("arrival_name_needed"));
    return;
  }
  page.arriving = true;
  try {
    const made = await api("POST", "/api/players", { name });
    await session.signedIn(made);
    store.setItem("blot.name", made.name);
    const input = document.getElementById("name");
    if (input) input.value = made.name;
    await page.named(seat);
  } catch (e) {
    toast(await refusalText(e)); // a name an account holds: one sentence, another name is asked
  } finally {
    page.arriving = false;
    page.render();
  }
}
