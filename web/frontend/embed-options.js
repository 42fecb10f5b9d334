// What a <dispatch-snippet> is asked to do, read from its attributes (or
// from a marked code block's data attributes and classes), and the small
// text operations the element needs: the snippet's text out of indented
// HTML, the Cargo.toml the `features` shorthand stands for, a fix applied
// to the texts, and the playground link that carries them.

import { setBurnDefaultFeatures, setBurnFeature } from "./cargo.js";
import { encodeHash, makeState } from "./state.js";

// EMBED_VERSION is the version of the public surface docs/embedding.md
// describes: the attributes, the frame URL and POST /api/run.
export const EMBED_VERSION = "1";

// The attributes of version 1; a code block's data-* attributes and
// key=value classes use the same names.
export const ATTRIBUTES = ["config", "features", "files", "mode", "theme", "engine", "server", "editable", "readonly"];

const CHOICES = {
  mode: ["panic", "validate"],
  theme: ["auto", "light", "dark"],
  engine: ["browser", "server"],
};

// The burn version a `features` shorthand depends on, as the engine's
// default request does.
const BURN_VERSION = "0.22";

// readOptions normalises attribute values (a map of name to string, or
// null when absent): unknown choices fall back to the first, as HTML's
// enumerated attributes do.
export function readOptions(get) {
  const choice = (name) => {
    const v = (get(name) ?? "").trim().toLowerCase();
    return CHOICES[name].includes(v) ? v : CHOICES[name][0];
  };
  const flag = (name) => {
    const v = get(name);
    return v !== null && v !== undefined && !["false", "0", "no", "off"].includes(v.trim().toLowerCase());
  };
  const readonly = flag("readonly");
  return {
    mode: choice("mode"),
    theme: choice("theme"),
    engine: choice("engine"),
    server: (get("server") ?? "").trim(),
    config: get("config"),
    features: get("features"),
    readonly,
    // readonly wins: a page can lock a snippet another attribute unlocked.
    editable: flag("editable") && !readonly,
  };
}

// dedent turns the text of an indented HTML element into the snippet: no
// blank first or last lines, no indentation every line shares, no
// trailing spaces.
export function dedent(text) {
  const lines = text.replaceAll("\r\n", "\n").split("\n").map((l) => l.replace(/[ \t]+$/, ""));
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  let indent = null;
  for (const l of lines) {
    if (l === "") continue;
    const lead = /^[ \t]*/.exec(l)[0];
    let shared = 0;
    while (indent !== null && shared < indent.length && shared < lead.length && indent[shared] === lead[shared]) shared++;
    indent = indent === null ? lead : indent.slice(0, shared);
  }
  const cut = indent ? indent.length : 0;
  return lines.map((l) => l.slice(cut)).join("\n") + (lines.length > 0 ? "\n" : "");
}

// featuresConfig is the Cargo.toml the `features` shorthand stands for:
// burn with its default features plus these. A "-default" entry turns the
// default features off, as `default-features = false` does.
export function featuresConfig(features) {
  let text = `[dependencies]\nburn = "${BURN_VERSION}"\n`;
  for (const f of features.split(/[\s,+]+/).filter(Boolean)) {
    text = f === "-default" ? setBurnDefaultFeatures(text, false) : setBurnFeature(text, f, true);
  }
  return text;
}

// looksLikeId tells the id of a <script type="text/toml"> from inline
// Cargo.toml text, which always has a table header or a key.
const looksLikeId = (v) => /^[A-Za-z][\w:.-]*$/.test(v.trim());

// resolveConfig returns the Cargo.toml text of the options, reading a
// referenced script element through byId; or {error} when the reference
// names nothing.
export function resolveConfig(options, byId) {
  if (options.config !== null && options.config !== undefined) {
    const v = options.config;
    if (looksLikeId(v)) {
      const node = byId(v.trim());
      if (!node) return { error: `config="${v.trim()}" names no <script type="text/toml" id="${v.trim()}"> on this page.` };
      return { config: dedent(node.textContent) };
    }
    return { config: dedent(v) };
  }
  if (options.features !== null && options.features !== undefined) return { config: featuresConfig(options.features) };
  return { config: "" };
}

// blockAttributes reads a marked code block (<pre><code data-dispatch>):
// its data-* attributes, and the classes a Markdown fence's info string
// becomes (mdBook turns ```rust,dispatch,editable,features=tch+flex into
// the classes "language-rust dispatch editable features=tch+flex").
export function blockAttributes(dataset, classes) {
  const out = {};
  for (const c of classes) {
    const eq = c.indexOf("=");
    if (eq > 0) {
      const name = c.slice(0, eq);
      if (ATTRIBUTES.includes(name)) out[name] = c.slice(eq + 1);
    } else if (c === "editable" || c === "readonly") out[c] = "";
    else if (c === "validate") out.mode = "validate";
  }
  for (const name of ATTRIBUTES) {
    if (dataset[name] !== undefined) out[name] = dataset[name];
  }
  return out;
}

// applyEdits applies a fix's edits to the texts ({"Cargo.toml", "main.rs"})
// they were computed for. Edits are byte ranges; the later ones go first
// so the earlier offsets still hold.
export function applyEdits(texts, edits) {
  const out = { ...texts };
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  for (const e of [...edits].sort((a, b) => b.span.start.offset - a.span.start.offset)) {
    const bytes = encoder.encode(out[e.file] ?? "");
    out[e.file] = decoder.decode(bytes.slice(0, e.span.start.offset)) + e.newText + decoder.decode(bytes.slice(e.span.end.offset));
  }
  return out;
}

// playgroundLink opens the playground at origin with these texts, in the
// playground's own URL-hash format.
export function playgroundLink(origin, config, snippet, mode, files) {
  return `${origin}/${encodeHash(makeState(config, snippet, mode === "validate" ? "validation" : "panic", files))}`;
}
