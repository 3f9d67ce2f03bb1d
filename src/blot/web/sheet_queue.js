// The score sheet's changes kept while there is no network (issue 41 item 9; docs/players.md, "The
// score sheet offline"): pure functions over a queue, kept per sheet in the browser's storage, and
// sent in order when the network returns. A new deal carries an id made here (`cid`), so that a
// deal sent again after a lost answer is the one already in (the server answers it, adds nothing);
// deals of two devices are appended in the order they reach the server; of two edits of one deal
// the last to arrive stands, the other stays in the sheet's history.
//
// A change is one of
//   { kind: "add", cid, entry }        a new deal (its number is given by the server)
//   { kind: "replace", number, entry } an edit of a deal the server has
//   { kind: "delete", number }         taking back the last deal the server has

const KEY = "blot.sheet-queue.";
const COPY = "blot.sheet-copy.";

// An id for a new deal: random enough that two devices never make the same one.
export function newId(random = Math.random) {
  const part = () => Math.floor(random() * 36 ** 6).toString(36).padStart(6, "0");
  return `${Date.now().toString(36)}-${part()}${part()}`;
}

// The queue with `change` added. An edit or a take-back of a deal still waiting here changes (or
// drops) that waiting deal instead: the server never sees the draft.
export function enqueue(queue, change) {
  if (change.kind === "replace" && change.cid) {
    return queue.map((c) => (c.kind === "add" && c.cid === change.cid ? { ...c, entry: change.entry } : c));
  }
  if (change.kind === "delete" && change.cid) return queue.filter((c) => !(c.kind === "add" && c.cid === change.cid));
  return [...queue, change];
}

// What the request of a change is: [method, path, body].
export function request(sheetId, change) {
  const base = `/api/scoresheets/${sheetId}/deals`;
  if (change.kind === "add") return ["POST", base, { ...change.entry, client_id: change.cid }];
  if (change.kind === "replace") return ["PUT", `${base}/${change.number}`, change.entry];
  return ["DELETE", `${base}/${change.number}`, undefined];
}

// The queue without the new deals the server already has (their ids are in the sheet): a page
// that was closed before it heard the answer does not send them again.
export function settled(queue, sheet) {
  const known = new Set((sheet && sheet.deals ? sheet.deals : []).map((d) => d.client_id).filter(Boolean));
  return queue.filter((c) => c.kind !== "add" || !known.has(c.cid));
}

// The deals waiting to be sent, as rows after the sheet's own: their numbers are what they will be
// if nobody else adds a deal first (the server gives the real ones).
export function waitingRows(sheet, queue) {
  const start = sheet && sheet.deals ? sheet.deals.length : 0;
  const adds = queue.filter((c) => c.kind === "add");
  const taken = queue.filter((c) => c.kind === "delete").length;
  return adds.map((c, i) => ({ number: start - taken + i + 1, cid: c.cid, entry: c.entry, waiting: true }));
}

// Whether a failure is the network's (send again later) rather than the server's answer (a
// refusal: the change is set aside with its sentence).
export function isOffline(error) {
  return !error || error.status === undefined || error.status === 0 || error.status >= 502;
}

function read(store, key) {
  try {
    const value = JSON.parse(store.getItem(key) || "null");
    return value;
  } catch {
    return null;
  }
}

export function loadQueue(store, sheetId) {
  const q = read(store, KEY + sheetId);
  return q && Array.isArray(q.changes) ? q : { changes: [], refused: [] };
}

export function saveQueue(store, sheetId, queue) {
  if (!queue.changes.length && !queue.refused.length) store.removeItem(KEY + sheetId);
  else store.setItem(KEY + sheetId, JSON.stringify(queue));
}

// The last copy of a sheet read from the server: the page opens it with no network.
export function loadCopy(store, sheetId) {
  return read(store, COPY + sheetId);
}

export function saveCopy(store, sheetId, sheet) {
  try {
    store.setItem(COPY + sheetId, JSON.stringify(sheet));
  } catch {
    // a full storage keeps the older copy
  }
}
