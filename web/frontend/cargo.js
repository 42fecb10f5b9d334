// Reads and rewrites the parts of a Cargo.toml that the config panel edits:
// the features of the `burn` dependency and the playground's hardware and
// environment under [package.metadata.playground]. The text stays the
// source of truth: every change is a small splice into it, so the user's
// layout and comments elsewhere are kept.

// --- A small TOML scanner: tables, key/value entries and their ranges ---

// scan lists the table headers and key/value entries of text, with the
// character ranges of each entry's value.
export function scan(text) {
  const headers = [];
  const entries = [];
  let table = "";
  let i = 0;
  while (i < text.length) {
    const lineEnd = endOfLine(text, i);
    const line = text.slice(i, lineEnd);
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header) {
      table = normalizeKey(header[1]);
      headers.push({ name: table, start: i, end: lineEnd });
      i = lineEnd + 1;
      continue;
    }
    const kv = /^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=\s*/.exec(line);
    if (kv) {
      const valueStart = i + kv[0].length;
      const valueEnd = endOfValue(text, valueStart);
      const end = endOfLine(text, valueEnd);
      entries.push({ table, key: normalizeKey(kv[1]), start: i, valueStart, valueEnd, end });
      i = end + 1;
      continue;
    }
    i = lineEnd + 1;
  }
  return { headers, entries };
}

function endOfLine(text, i) {
  const nl = text.indexOf("\n", i);
  return nl < 0 ? text.length : nl;
}

function normalizeKey(key) {
  return key
    .split(".")
    .map((part) => part.trim().replace(/^["']|["']$/g, ""))
    .join(".");
}

// endOfValue finds where the value starting at i ends: brackets and braces
// balanced, strings skipped, stopping before a comment or the line's end.
function endOfValue(text, i) {
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const c = text[j];
    if (c === '"' || c === "'") {
      j = endOfString(text, j);
      continue;
    }
    if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (depth <= 0 && (c === "\n" || c === "#")) break;
    else if (depth > 0 && c === "#") {
      j = endOfLine(text, j);
      continue;
    }
    j++;
  }
  while (j > i && /\s/.test(text[j - 1])) j--;
  return j;
}

function endOfString(text, i) {
  const quote = text[i];
  const triple = text.startsWith(quote.repeat(3), i);
  if (triple) {
    const end = text.indexOf(quote.repeat(3), i + 3);
    return end < 0 ? text.length : end + 3;
  }
  let j = i + 1;
  while (j < text.length && text[j] !== quote && text[j] !== "\n") {
    if (quote === '"' && text[j] === "\\") j++;
    j++;
  }
  return j + 1;
}

// --- Values: parse the simple values the panel edits, and write them back ---

// parseValue reads a TOML value (string, number, boolean, array, inline
// table). It returns undefined for anything it does not understand, and the
// panel then leaves that entry alone.
export function parseValue(src) {
  const p = { s: src, i: 0 };
  try {
    const v = value(p);
    ws(p);
    return p.i === p.s.length ? v : undefined;
  } catch {
    return undefined;
  }
}

function ws(p) {
  for (;;) {
    while (p.i < p.s.length && /\s/.test(p.s[p.i])) p.i++;
    if (p.s[p.i] !== "#") return;
    p.i = endOfLine(p.s, p.i);
  }
}

function value(p) {
  ws(p);
  const c = p.s[p.i];
  if (c === '"' || c === "'") {
    const end = endOfString(p.s, p.i);
    const raw = p.s.slice(p.i, end);
    p.i = end;
    return c === '"' ? JSON.parse(raw.replace(/\\U([0-9a-fA-F]{8})/g, (_, h) => String.fromCodePoint(parseInt(h, 16)))) : raw.slice(1, -1);
  }
  if (c === "[") {
    p.i++;
    const out = [];
    for (;;) {
      ws(p);
      if (p.s[p.i] === "]") {
        p.i++;
        return out;
      }
      out.push(value(p));
      ws(p);
      if (p.s[p.i] === ",") p.i++;
      else if (p.s[p.i] !== "]") throw new Error("array");
    }
  }
  if (c === "{") {
    p.i++;
    const out = new Map();
    for (;;) {
      ws(p);
      if (p.s[p.i] === "}") {
        p.i++;
        return out;
      }
      const m = /^(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')/.exec(p.s.slice(p.i));
      if (!m) throw new Error("key");
      p.i += m[0].length;
      ws(p);
      if (p.s[p.i] !== "=") throw new Error("=");
      p.i++;
      out.set(normalizeKey(m[0]), value(p));
      ws(p);
      if (p.s[p.i] === ",") p.i++;
      else if (p.s[p.i] !== "}") throw new Error("table");
    }
  }
  const m = /^(true|false|[+-]?[0-9][0-9_]*(?:\.[0-9_]+)?)/.exec(p.s.slice(p.i));
  if (!m) throw new Error("value");
  p.i += m[0].length;
  if (m[0] === "true" || m[0] === "false") return m[0] === "true";
  return Number(m[0].replace(/_/g, ""));
}

// formatValue writes a value in the style Cargo.toml files use.
export function formatValue(v) {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return "[" + v.map(formatValue).join(", ") + "]";
  if (v instanceof Map) {
    if (v.size === 0) return "{}";
    return "{ " + [...v].map(([k, x]) => `${formatKey(k)} = ${formatValue(x)}`).join(", ") + " }";
  }
  throw new Error("cannot write " + typeof v);
}

function formatKey(k) {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k);
}

function splice(text, from, to, insert) {
  return text.slice(0, from) + insert + text.slice(to);
}

// removeEntry deletes an entry's whole line.
function removeEntry(text, e) {
  return splice(text, e.start, Math.min(e.end + 1, text.length), "");
}

// insertAfterHeader adds a line at the end of a table's entries.
function insertInTable(text, scanned, table, line) {
  const header = scanned.headers.find((h) => h.name === table);
  const inTable = scanned.entries.filter((e) => e.table === table);
  const at = inTable.length > 0 ? inTable[inTable.length - 1].end : header.end;
  return splice(text, at, at, "\n" + line);
}

function appendTable(text, table, line) {
  const sep = text === "" || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  return text + sep + `[${table}]\n${line}\n`;
}

// --- A "map" stored either as an inline table `key = { ... }` in a table,
//     or as its own table `[table.key]` ---

function findMap(text, table, key) {
  const scanned = scan(text);
  const sub = table + "." + key;
  if (scanned.headers.some((h) => h.name === sub)) {
    const values = new Map();
    for (const e of scanned.entries.filter((e) => e.table === sub)) {
      const v = parseValue(text.slice(e.valueStart, e.valueEnd));
      if (v !== undefined) values.set(e.key, v);
    }
    return { kind: "table", scanned, values, sub };
  }
  const entry = scanned.entries.find((e) => e.table === table && e.key === key);
  if (entry) {
    const v = parseValue(text.slice(entry.valueStart, entry.valueEnd));
    if (v instanceof Map) return { kind: "inline", scanned, values: v, entry };
    if (typeof v === "string") return { kind: "string", scanned, values: new Map([["version", v]]), entry };
    return { kind: "unknown", scanned, values: new Map(), entry };
  }
  return { kind: "absent", scanned, values: new Map() };
}

// setInMap sets (or, with undefined, removes) one key of such a map,
// creating the inline table, and its table, when needed.
function setInMap(text, table, key, name, v, { keepEmpty = false, first = null } = {}) {
  const m = findMap(text, table, key);
  if (m.kind === "unknown") return text;
  if (m.kind === "table") {
    const e = m.scanned.entries.find((x) => x.table === m.sub && x.key === name);
    if (v === undefined) return e ? removeEntry(text, e) : text;
    const line = `${formatKey(name)} = ${formatValue(v)}`;
    if (e) return splice(text, e.valueStart, e.valueEnd, formatValue(v));
    return insertInTable(text, m.scanned, m.sub, line);
  }
  const values = new Map(m.values);
  if (first && !values.has(first[0])) values.set(first[0], first[1]);
  if (v === undefined) values.delete(name);
  else values.set(name, v);
  if (m.kind === "absent") {
    if (values.size === 0) return text;
    const line = `${formatKey(key)} = ${formatValue(values)}`;
    if (m.scanned.headers.some((h) => h.name === table)) return insertInTable(text, m.scanned, table, line);
    return appendTable(text, table, line);
  }
  if (first && values.size === 1 && values.has(first[0])) {
    // `burn = { version = "0.22" }` says no more than `burn = "0.22"`.
    return splice(text, m.entry.valueStart, m.entry.valueEnd, formatValue(values.get(first[0])));
  }
  if (values.size === 0 && !keepEmpty) return removeEntry(text, m.entry);
  return splice(text, m.entry.valueStart, m.entry.valueEnd, formatValue(values));
}

// --- The burn dependency ---

const DEPENDENCIES = "dependencies";
const DEFAULT_VERSION = "0.22";

// burnDependency returns the features listed for burn and whether its
// default features are on. A Cargo.toml without burn gets Burn's defaults.
export function burnDependency(text) {
  const m = findMap(text, DEPENDENCIES, "burn");
  const features = m.values.get("features");
  const defaults = m.values.get("default-features");
  return {
    present: m.kind !== "absent",
    editable: m.kind !== "unknown",
    features: Array.isArray(features) ? features.filter((f) => typeof f === "string") : [],
    defaultFeatures: defaults !== false,
  };
}

// setBurnFeature turns one feature of the burn dependency on or off.
export function setBurnFeature(text, feature, on) {
  const dep = burnDependency(text);
  if (!dep.editable) return text;
  const has = dep.features.includes(feature);
  if (has === on) return text;
  const features = on ? [...dep.features, feature] : dep.features.filter((f) => f !== feature);
  return setInMap(text, DEPENDENCIES, "burn", "features", features.length > 0 ? features : undefined, {
    first: ["version", DEFAULT_VERSION],
  });
}

// setBurnDefaultFeatures writes `default-features = false`, or removes it.
export function setBurnDefaultFeatures(text, on) {
  if (!burnDependency(text).editable) return text;
  return setInMap(text, DEPENDENCIES, "burn", "default-features", on ? undefined : false, {
    first: ["version", DEFAULT_VERSION],
  });
}

// --- [package.metadata.playground] ---

const PLAYGROUND = "package.metadata.playground";

// playgroundSettings returns the hardware and env maps as plain objects.
export function playgroundSettings(text) {
  return {
    hardware: Object.fromEntries(findMap(text, PLAYGROUND, "hardware").values),
    env: Object.fromEntries(findMap(text, PLAYGROUND, "env").values),
  };
}

// setHardware sets one hardware key; undefined removes it (the default).
export function setHardware(text, key, v) {
  return setInMap(text, PLAYGROUND, "hardware", key, v);
}

// setEnv sets one environment variable; "" or undefined removes it.
export function setEnv(text, name, v) {
  return setInMap(text, PLAYGROUND, "env", name, v === "" ? undefined : v);
}
