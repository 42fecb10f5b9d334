import { test } from "node:test";
import assert from "node:assert/strict";
import {
  burnDependency,
  parseValue,
  playgroundSettings,
  scan,
  setBurnDefaultFeatures,
  setBurnFeature,
  setEnv,
  setHardware,
} from "./cargo.js";

const inline = `[package]
name = "server"

[dependencies]
burn = { version = "0.22", features = ["tch", "remote-server"] } # the server
serde = "1"
`;

test("scan finds tables and multi-line values", () => {
  const text = `[dependencies.burn]\nversion = "0.22"\nfeatures = [\n  "cuda", # GPU\n  "autodiff",\n]\n[x]\ny = 1\n`;
  const { headers, entries } = scan(text);
  assert.deepEqual(headers.map((h) => h.name), ["dependencies.burn", "x"]);
  const features = entries.find((e) => e.key === "features");
  assert.equal(features.table, "dependencies.burn");
  assert.deepEqual(parseValue(text.slice(features.valueStart, features.valueEnd)), ["cuda", "autodiff"]);
});

test("burnDependency reads the inline, string, table and absent forms", () => {
  assert.deepEqual(burnDependency(inline), { present: true, editable: true, features: ["tch", "remote-server"], defaultFeatures: true });
  assert.deepEqual(burnDependency('[dependencies]\nburn = "0.22"\n').features, []);
  const table = `[dependencies.burn]\nversion = "0.22"\ndefault-features = false\nfeatures = ["ndarray"]\n`;
  assert.deepEqual(burnDependency(table), { present: true, editable: true, features: ["ndarray"], defaultFeatures: false });
  assert.equal(burnDependency("").present, false);
  assert.equal(burnDependency("[dependencies]\nburn = 3.x\n").editable, false);
});

test("setBurnFeature splices the inline table and keeps the rest", () => {
  const on = setBurnFeature(inline, "autodiff", true);
  assert.equal(on, inline.replace('["tch", "remote-server"] }', '["tch", "remote-server", "autodiff"] }'));
  const off = setBurnFeature(inline, "tch", false);
  assert.match(off, /burn = \{ version = "0\.22", features = \["remote-server"\] \} # the server\nserde = "1"\n/);
  assert.equal(setBurnFeature(inline, "tch", true), inline, "already on: unchanged");
});

test("the last feature removed collapses burn back to its version string", () => {
  const text = '[dependencies]\nburn = { version = "0.22", features = ["cuda"] }\n';
  assert.equal(setBurnFeature(text, "cuda", false), '[dependencies]\nburn = "0.22"\n');
});

test("a feature on a string dependency turns it into a table", () => {
  assert.equal(setBurnFeature('[dependencies]\nburn = "0.22"\n', "cuda", true), '[dependencies]\nburn = { version = "0.22", features = ["cuda"] }\n');
});

test("without a burn dependency the panel adds one, and the table if needed", () => {
  assert.equal(setBurnFeature("", "wgpu", true), '[dependencies]\nburn = { version = "0.22", features = ["wgpu"] }\n');
  assert.equal(
    setBurnFeature('[package]\nname = "x"\n\n[dependencies]\nrand = "0.9"\n', "wgpu", true),
    '[package]\nname = "x"\n\n[dependencies]\nrand = "0.9"\nburn = { version = "0.22", features = ["wgpu"] }\n',
  );
});

test("the [dependencies.burn] table form is edited line by line", () => {
  const text = `[dependencies.burn]\nversion = "0.22"\nfeatures = [\n  "cuda",\n]\n`;
  assert.equal(setBurnFeature(text, "autodiff", true), `[dependencies.burn]\nversion = "0.22"\nfeatures = ["cuda", "autodiff"]\n`);
  assert.equal(setBurnDefaultFeatures(text, false), `[dependencies.burn]\nversion = "0.22"\nfeatures = [\n  "cuda",\n]\ndefault-features = false\n`);
});

test("default-features is written only when off", () => {
  const off = setBurnDefaultFeatures(inline, false);
  assert.match(off, /burn = \{ version = "0\.22", features = \["tch", "remote-server"\], default-features = false \}/);
  assert.equal(burnDependency(off).defaultFeatures, false);
  assert.equal(setBurnDefaultFeatures(off, true), inline);
});

test("hardware and env go under [package.metadata.playground]", () => {
  let text = inline;
  text = setHardware(text, "cuda", 2);
  assert.match(text, /\n\[package\.metadata\.playground\]\nhardware = \{ cuda = 2 \}\n$/);
  text = setHardware(text, "wgpu", ["DiscreteGpu"]);
  text = setEnv(text, "BURN_DEVICE", "cuda");
  assert.deepEqual(playgroundSettings(text), { hardware: { cuda: 2, wgpu: ["DiscreteGpu"] }, env: { BURN_DEVICE: "cuda" } });
  assert.match(text, /hardware = \{ cuda = 2, wgpu = \["DiscreteGpu"\] \}\nenv = \{ BURN_DEVICE = "cuda" \}\n$/);
  text = setEnv(text, "BURN_DEVICE", "");
  text = setHardware(text, "cuda", undefined);
  text = setHardware(text, "wgpu", undefined);
  assert.equal(text, inline + "\n[package.metadata.playground]\n");
});

test("a [package.metadata.playground.hardware] table is edited in place", () => {
  const text = `[package.metadata.playground.hardware]\ncuda = 1\nmetal = false\n`;
  assert.equal(setHardware(text, "cuda", 4), `[package.metadata.playground.hardware]\ncuda = 4\nmetal = false\n`);
  assert.equal(setHardware(text, "metal", undefined), `[package.metadata.playground.hardware]\ncuda = 1\n`);
  assert.deepEqual(playgroundSettings(text).hardware, { cuda: 1, metal: false });
});
