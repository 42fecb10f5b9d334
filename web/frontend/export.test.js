import assert from "node:assert/strict";
import { test } from "node:test";
import { strFromU8, unzipSync } from "fflate";

import { cargoProject, projectZip, reportText } from "./export.js";

const link = "https://play.example/#1.abc";

test("a crate's own Cargo.toml and main are kept", () => {
  const config = '[package]\nname = "mix"\nversion = "0.1.0"\n\n[dependencies]\nburn = "0.22"\n';
  const p = cargoProject(config, "fn main() {}\n", link);
  assert.equal(p.folder, "mix");
  assert.equal(p.files["Cargo.toml"], config);
  assert.equal(p.files["src/main.rs"], "fn main() {}\n");
  assert.match(p.files["README.md"], /^# mix\n/);
  assert.ok(p.files["README.md"].includes(link));
});

test("a snippet of statements goes inside fn main, and a package table is added", () => {
  const p = cargoProject('[dependencies]\nburn = "0.22"\n', "use burn::tensor::Device;\nlet d = Device::default();", link);
  assert.equal(p.folder, "burn-playground");
  assert.match(p.files["Cargo.toml"], /^\[package\]\nname = "burn-playground"\n/);
  assert.ok(p.files["Cargo.toml"].endsWith('[dependencies]\nburn = "0.22"\n'));
  assert.equal(p.files["src/main.rs"], "fn main() {\n    use burn::tensor::Device;\n    let d = Device::default();\n}\n");
  assert.match(cargoProject("", "fn main() {}", link).files["Cargo.toml"], /\[dependencies\]\nburn = "0.22"\n$/);
});

test("the zip holds the project's files under its folder", () => {
  const { name, bytes } = projectZip('[package]\nname = "z"\n', "fn main() {}\n", link);
  assert.equal(name, "z.zip");
  const files = unzipSync(bytes);
  assert.deepEqual(Object.keys(files).sort(), ["z/Cargo.toml", "z/README.md", "z/src/main.rs"]);
  assert.equal(strFromU8(files["z/src/main.rs"]), "fn main() {}\n");
});

test("a report has the program, what was shown and the engine, without the records", () => {
  const result = {
    status: "panicked",
    complete: true,
    panic: { message: "boom" },
    diagnostics: [{ severity: "error", phase: "run", code: "c", message: "boom", record: { big: true } }],
    engine: { version: "0.2.0", burn: "2c06be35" },
  };
  const text = reportText({ config: "[dependencies]\n", snippet: "fn main() {}\n", result, link, mode: "panic" });
  assert.ok(text.includes("Result: panicked: boom\n- run c: boom"));
  assert.ok(text.includes("```rust\nfn main() {}\n```"));
  assert.ok(text.includes("engine 0.2.0, Burn 2c06be35."));
  assert.ok(text.includes(link));
  assert.ok(!text.includes('"record"'));
});
