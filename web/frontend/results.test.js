import { test } from "node:test";
import assert from "node:assert/strict";
import { shown, visibleDiagnostics } from "./results.js";

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
