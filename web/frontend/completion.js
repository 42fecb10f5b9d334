// Completion in the editors: Burn's API (the associated functions and
// methods of its types, the functions of its modules, each with its
// signature, from the engine's table of Burn's public API), the program's
// own items and bindings, and burn's features in Cargo.toml. The table is
// fetched the first time something is completed (web/static/dist/
// completions.json, made by internal/tools/completions).
//
// Each function here takes the text before the cursor (and what else it
// needs) and returns {from, options} with from the offset in that text
// where the completed word starts, or null.

// The program's own names: its items and its bindings.
const OWN_ITEMS = /\b(?:fn|struct|enum|trait|type|const|static|mod)\s+([A-Za-z_]\w*)|\blet\s+(?:mut\s+)?([A-Za-z_]\w*)|\bfor\s+([A-Za-z_]\w*)\s+in\b/g;

const KIND_OF = { fn: "function", struct: "class", enum: "enum", trait: "interface", type: "type", const: "constant", static: "variable", mod: "namespace" };

// ownNames lists the program's own items and bindings in text, each once.
export function ownNames(text) {
  const out = new Map();
  for (const m of text.matchAll(OWN_ITEMS)) {
    const name = m[1] ?? m[2] ?? m[3];
    const keyword = m[0].split(/\s+/)[0];
    if (!out.has(name)) out.set(name, { label: name, type: m[1] ? KIND_OF[keyword] : "variable", detail: m[1] ? keyword : "binding" });
  }
  return [...out.values()];
}

function fromList(list, type) {
  return (list ?? []).map((c) => ({ label: c.name, type, detail: c.detail }));
}

// rustCompletions completes Rust before the cursor. data is the table
// (null until it is fetched); text the whole program, for its own names;
// labelOf(name) the hint label the check gave a binding of that name, or
// undefined.
export function rustCompletions(before, { data, text, labelOf }) {
  // Type::, Type::<..>::, path::Type::
  let m = /([A-Z]\w*)(?:::<[^<>]*(?:<[^<>]*>[^<>]*)*>)?::(\w*)$/.exec(before);
  if (m) {
    const t = data?.types?.[m[1]];
    if (!t) return null;
    return { from: before.length - m[2].length, options: fromList(t.assoc, "function") };
  }
  // module::function, for Burn's modules (activation::relu).
  m = /\b([a-z_]\w*)::(\w*)$/.exec(before);
  if (m && data?.modules) {
    const options = [];
    for (const [path, fns] of Object.entries(data.modules)) {
      if (path === m[1] || path.endsWith("::" + m[1])) options.push(...fromList(fns, "function"));
    }
    return options.length ? { from: before.length - m[2].length, options } : null;
  }
  // receiver.method, where the check says the receiver (the name a
  // chain of calls starts from) holds a tensor.
  m = /\b([a-z_]\w*)(?:\.\w+(?:\([^()]*\))?)*\.(\w*)$/.exec(before);
  if (m) {
    const label = labelOf?.(m[1]);
    if (!label?.startsWith("Tensor<")) return null;
    return { from: before.length - m[2].length, options: fromList(data?.types?.Tensor?.methods, "method") };
  }
  // A word: the program's own names, and Burn's types.
  m = /\b([A-Za-z_]\w*)$/.exec(before);
  if (!m) return null;
  const options = ownNames(text);
  if (/^[A-Z]/.test(m[1]) && data?.types) {
    for (const [name, t] of Object.entries(data.types)) options.push({ label: name, type: "class", detail: t.path });
  }
  return { from: before.length - m[1].length, options };
}

// tomlCompletions completes a feature of burn inside a features array of
// Cargo.toml.
export function tomlCompletions(before, { data }) {
  const m = /\bfeatures\s*=\s*\[[^\]]*?["']([\w-]*)$/.exec(before);
  if (!m || !data?.features) return null;
  return { from: before.length - m[1].length, options: fromList(data.features, "keyword") };
}

// loadCompletions fetches the table once; the promise is shared.
let loading = null;
export function loadCompletions(url) {
  if (!url) return Promise.resolve(null);
  if (!loading) {
    loading = fetch(url)
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null);
  }
  return loading;
}
