// Answers of long computations (the isoefficiency map, Table 1) kept in
// the browser's IndexedDB, keyed by the calculator's build and the request,
// so that a reload shows them at once. A new build never reads an older
// build's answers. Where IndexedDB is refused (some private windows, some
// file pages) nothing is kept and nothing fails.
import { core } from './core.js';

const DB = 'dlt-calc';
const STORE = 'answers';
/** The most answers kept; the oldest go first. */
const KEEP = 24;

let opened = null;

function database() {
  opened ??= new Promise((resolve) => {
    try {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
      req.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return opened;
}

function done(req) {
  return new Promise((resolve) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => resolve(undefined);
  });
}

const keyOf = (request) => `${core.buildId()} ${JSON.stringify(request)}`;

/** The kept answer to `request` ({response, at, seconds}), or null. */
export async function recall(request) {
  const db = await database();
  if (!db) return null;
  try {
    return (await done(db.transaction(STORE).objectStore(STORE).get(keyOf(request)))) ?? null;
  } catch {
    return null;
  }
}

/** Keeps the answer to `request`, computed in `seconds`. */
export async function keep(request, response, seconds) {
  const db = await database();
  if (!db) return;
  try {
    const store = db.transaction(STORE, 'readwrite').objectStore(STORE);
    await done(store.put({ response, seconds, at: new Date().toISOString() }, keyOf(request)));
    // Only the newest few stay (a map is about a megabyte).
    const all = db.transaction(STORE, 'readwrite').objectStore(STORE);
    const keys = await done(all.getAllKeys());
    const values = await done(all.getAll());
    if (!keys || !values || keys.length <= KEEP) return;
    const order = keys.map((k, i) => [k, values[i].at]).sort((a, b) => a[1].localeCompare(b[1]));
    for (const [k] of order.slice(0, keys.length - KEEP)) all.delete(k);
  } catch {
    // Full or refused: the answer is simply not kept.
  }
}
