import { test } from "node:test";
import assert from "node:assert/strict";
import { burnSource, incompleteNote, notChecked, shown, visibleDiagnostics } from "./results.js";

test("the panic view hides the check's findings of a program that ran", () => {
  assert.equal(shown("check", "panic", "panicked"), false);
  assert.equal(shown("run", "panic", "panicked"), true);
  assert.equal(shown("run", "validation", "panicked"), false);
  assert.equal(shown("check", "validation", "panicked"), true);
});

test("the panic view shows why a rejected program never ran", () => {
  const result = {
    status: "rejected",
    diagnostics: [
      { phase: "check", code: "feature-not-enabled", severity: "error" },
      { phase: "config", code: "unknown-feature", severity: "error" },
    ],
  };
  assert.deepEqual(
    visibleDiagnostics(result, "panic").map((d) => d.code),
    ["feature-not-enabled", "unknown-feature"],
  );
});

test("the panic's card links Burn's source at the modelled commit", () => {
  const record = { filePath: "crates/burn-dispatch/src/remote_server.rs", lineNumber: 97, githubUrl: "seed" };
  const panic = { code: "x", location: "crates/burn-dispatch/src/remote_server.rs:115" };
  const got = burnSource(record, panic, "x");
  assert.equal(got.lineNumber, 115);
  assert.equal(
    got.githubUrl,
    "https://github.com/tracel-ai/burn/blob/2c06be351006851d42fdb6df16b976f4a82d9747/crates/burn-dispatch/src/remote_server.rs#L115",
  );
  assert.equal(burnSource(record, { code: "x", location: "src/main.rs:3:5" }, "x").lineNumber, 97);
  assert.equal(burnSource(record, panic, "other").lineNumber, 97);
});

test("an incomplete Result says what was not checked, a complete one says nothing", () => {
  const unchecked = { code: "playground-unchecked", phase: "run", severity: "warning" };
  const unmodelled = { code: "playground-unmodelled", phase: "check", severity: "warning" };
  const incomplete = { status: "ok", complete: false, diagnostics: [unchecked, unmodelled, { code: "x", phase: "run", severity: "note" }] };
  assert.equal(notChecked(incomplete), "2 things were not checked");
  assert.equal(notChecked({ ...incomplete, diagnostics: [unchecked] }), "1 thing was not checked");
  assert.match(incompleteNote(incomplete), /^Not complete: 2 things were not checked\. .*Burn may still panic/);
  assert.equal(incompleteNote({ status: "ok", complete: true, diagnostics: [] }), "");
});
