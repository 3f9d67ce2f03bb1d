// League events (docs/protocol.md, "Events"), one module a job: the list of events and the form
// that makes or changes one (events_form.js), an event's page (events_page.js) with its rounds
// (events_round.js) and the organizer's desk (events_desk.js), the referee's console and a court
// member's cases (events_console.js); what they share is events_kit.js.
import { eventKit } from "/static/events_kit.js";
import { eventsList } from "/static/events_form.js";
import { eventPage } from "/static/events_page.js";
import { consolePages } from "/static/events_console.js";

export function eventPages(ctx) {
  const kit = eventKit(ctx);
  return { EventsPage: eventsList(kit), EventPage: eventPage(kit), ...consolePages(kit) };
}

// The lobby's "your next game": the player's event tables being played.
export async function nextGames(api) {
  try {
    return (await api("GET", "/api/events/next")).games;
  } catch {
    return [];
  }
}
