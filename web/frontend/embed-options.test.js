import { test } from "node:test";
import assert from "node:assert/strict";
import { applyEdits, blockAttributes, dedent, featuresConfig, playgroundLink, readOptions, resolveConfig } from "./embed-options.js";
import { decodeHash } from "./state.js";

const attrs = (map) => (name) => (name in map ? map[name] : null);

test("options fall back to the defaults for unknown values", () => {
  const o = readOptions(attrs({ mode: "Validate", theme: "purple", engine: "gpu" }));
  assert.equal(o.mode, "validate");
  assert.equal(o.theme, "auto");
  assert.equal(o.engine, "browser");
  assert.equal(o.editable, false);
});

test("readonly wins over editable, and a flag can be turned off by value", () => {
  assert.equal(readOptions(attrs({ editable: "" })).editable, true);
  assert.equal(readOptions(attrs({ editable: "false" })).editable, false);
  assert.equal(readOptions(attrs({ editable: "", readonly: "" })).editable, false);
  assert.equal(readOptions(attrs({ editable: "", readonly: "" })).readonly, true);
});

test("dedent removes shared indentation and blank edges, and keeps inner indentation", () => {
  assert.equal(dedent("\n    fn main() {\n        let a = 1;   \n\n    }\n  "), "fn main() {\n    let a = 1;\n\n}\n");
  assert.equal(dedent("\tlet a = 1;\r\n\tlet b = 2;"), "let a = 1;\nlet b = 2;\n");
  assert.equal(dedent("  \n \n"), "");
});

test("the features shorthand writes the dependency the playground's panel writes", () => {
  assert.equal(featuresConfig("tch remote-server, remote-websocket"), '[dependencies]\nburn = { version = "0.22", features = ["tch", "remote-server", "remote-websocket"] }\n');
  assert.equal(featuresConfig("wgpu+flex"), '[dependencies]\nburn = { version = "0.22", features = ["wgpu", "flex"] }\n');
  assert.equal(featuresConfig("-default std"), '[dependencies]\nburn = { version = "0.22", default-features = false, features = ["std"] }\n');
  assert.equal(featuresConfig(""), '[dependencies]\nburn = "0.22"\n');
});

test("config is inline text or the id of a script element", () => {
  const scripts = { "gpu-config": { textContent: '\n    [dependencies]\n    burn = { version = "0.22", features = ["cuda"] }\n  ' } };
  const byId = (id) => scripts[id] ?? null;
  assert.deepEqual(resolveConfig({ config: "gpu-config" }, byId), { config: '[dependencies]\nburn = { version = "0.22", features = ["cuda"] }\n' });
  assert.deepEqual(resolveConfig({ config: '[dependencies]\nburn = "0.22"' }, byId), { config: '[dependencies]\nburn = "0.22"\n' });
  assert.match(resolveConfig({ config: "missing" }, byId).error, /names no <script type="text\/toml" id="missing">/);
  // config wins over features; neither means the engine's default.
  assert.deepEqual(resolveConfig({ config: "gpu-config", features: "tch" }, byId), resolveConfig({ config: "gpu-config" }, byId));
  assert.deepEqual(resolveConfig({ config: null, features: "tch" }, byId), { config: featuresConfig("tch") });
  assert.deepEqual(resolveConfig({ config: null, features: null }, byId), { config: "" });
});

test("a marked block's data attributes win over its fence classes", () => {
  const classes = ["language-rust", "dispatch", "editable", "validate", "features=tch+flex", "theme=dark", "hljs", "x=1"];
  assert.deepEqual(blockAttributes({}, classes), { editable: "", mode: "validate", features: "tch+flex", theme: "dark" });
  assert.deepEqual(blockAttributes({ dispatch: "", features: "cuda", config: "cfg" }, classes), {
    editable: "",
    mode: "validate",
    features: "cuda",
    theme: "dark",
    config: "cfg",
  });
});

test("edits apply at byte offsets, later ones first", () => {
  const texts = { "Cargo.toml": 'burn = { features = ["tch"] }\n', "main.rs": "let é = Device::libtorch();\n" };
  const at = (start, end) => ({ start: { offset: start }, end: { offset: end } });
  // "é" is two bytes: Device starts at byte 9.
  const out = applyEdits(texts, [
    { file: "main.rs", span: at(9, 27), newText: "Device::flex()" },
    { file: "Cargo.toml", span: at(26, 26), newText: ', "flex"' },
  ]);
  assert.equal(out["main.rs"], "let é = Device::flex();\n");
  assert.equal(out["Cargo.toml"], 'burn = { features = ["tch", "flex"] }\n');
  assert.equal(texts["main.rs"], "let é = Device::libtorch();\n", "the input is not modified");
});

test("the playground link carries the texts and the mode in the page's hash format", () => {
  const link = playgroundLink("https://play.example", "[dependencies]\n", "let a = 1;\n", "validate");
  assert.ok(link.startsWith("https://play.example/#1."));
  assert.deepEqual(decodeHash(link.slice(link.indexOf("#"))), { v: 1, config: "[dependencies]\n", snippet: "let a = 1;\n", mode: "validation" });
});
