import { test } from "node:test";
import assert from "node:assert/strict";
import { summaryText } from "./embed-view.js";

test("the embed's summary of an incomplete run is not the summary of an ok one", () => {
  const unchecked = { code: "playground-unchecked", phase: "run", severity: "warning" };
  assert.equal(summaryText({ status: "ok", complete: false, diagnostics: [unchecked, unchecked, unchecked] }, "panic"), "Ran; 3 things were not checked");
  assert.equal(summaryText({ status: "ok", complete: true, diagnostics: [] }, "panic"), "Runs without a panic");
  assert.equal(summaryText({ status: "panicked", complete: false, diagnostics: [unchecked] }, "panic"), "Burn would panic");
});
