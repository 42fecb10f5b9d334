// The playground's state (config, snippet, mode) in the URL hash and in
// per-tab autosave. The hash holds the same JSON the server stores behind a
// /s/{id} link, compressed with lz-string and prefixed by its version, so
// that a link made today still opens after the format changes.

import LZString from "lz-string";

const { compressToEncodedURIComponent, decompressFromEncodedURIComponent } = LZString;

export const STATE_VERSION = 1;
const HASH_PREFIX = `#${STATE_VERSION}.`;

// makeState is a state; files (a crate's other files by path) are kept only
// when there are some.
export function makeState(config, snippet, mode, files) {
  const s = { v: STATE_VERSION, config, snippet, mode: mode === "validation" ? "validation" : "panic" };
  if (files && Object.keys(files).length > 0) s.files = { ...files };
  return s;
}

// isState checks a decoded value before the page trusts it.
function isState(s) {
  return (
    s !== null &&
    typeof s === "object" &&
    s.v === STATE_VERSION &&
    typeof s.config === "string" &&
    typeof s.snippet === "string" &&
    (s.mode === "panic" || s.mode === "validation") &&
    (s.files === undefined ||
      (s.files !== null && typeof s.files === "object" && !Array.isArray(s.files) && Object.values(s.files).every((t) => typeof t === "string")))
  );
}

export function encodeHash(state) {
  return HASH_PREFIX + compressToEncodedURIComponent(JSON.stringify(makeState(state.config, state.snippet, state.mode, state.files)));
}

// decodeHash returns the state in a URL hash, or null when the hash holds
// none (or one this page cannot read).
export function decodeHash(hash) {
  if (!hash.startsWith(HASH_PREFIX)) return null;
  try {
    const json = decompressFromEncodedURIComponent(hash.slice(HASH_PREFIX.length));
    const s = json ? JSON.parse(json) : null;
    return isState(s) ? s : null;
  } catch {
    return null;
  }
}

// Autosave: each tab keeps its own copy, so two tabs never overwrite each
// other's work. The tab's id lives in sessionStorage, which survives a
// reload of that tab but is not shared with other tabs; the texts live in
// localStorage, keyed by tab and by the page the texts came from.

const TAB_KEY = "playground.tab";
const SAVE_PREFIX = "playground.autosave.";
const MAX_SAVES = 20;

function tabId(session) {
  let id = session.getItem(TAB_KEY);
  if (!id) {
    id = Math.random().toString(36).slice(2, 10);
    session.setItem(TAB_KEY, id);
  }
  return id;
}

export class Autosave {
  // origin names the page the texts came from ("/examples/tour-hello").
  constructor(origin, storage = globalThis.localStorage, session = globalThis.sessionStorage) {
    this.storage = storage;
    this.key = SAVE_PREFIX + tabId(session) + ":" + origin;
  }

  load() {
    try {
      const saved = JSON.parse(this.storage.getItem(this.key) ?? "null");
      return saved && isState(saved.state) ? saved.state : null;
    } catch {
      return null;
    }
  }

  save(state, now = Date.now()) {
    try {
      this.storage.setItem(this.key, JSON.stringify({ at: now, state }));
      this.prune();
    } catch {
      // Storage full or disabled: the URL hash still holds the state.
    }
  }

  clear() {
    this.storage.removeItem(this.key);
  }

  // prune keeps the most recent saves so closed tabs do not pile up.
  prune() {
    const saves = [];
    for (let i = 0; i < this.storage.length; i++) {
      const key = this.storage.key(i);
      if (key && key.startsWith(SAVE_PREFIX)) {
        let at = 0;
        try {
          at = JSON.parse(this.storage.getItem(key)).at ?? 0;
        } catch {
          // An unreadable save is pruned first.
        }
        saves.push({ key, at });
      }
    }
    saves.sort((a, b) => b.at - a.at);
    for (const { key } of saves.slice(MAX_SAVES)) this.storage.removeItem(key);
  }
}
