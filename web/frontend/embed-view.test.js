import { test } from "node:test";
import assert from "node:assert/strict";
import { summaryText, testsSummary } from "./embed-view.js";

test("the embed's summary of an incomplete run is not the summary of an ok one", () => {
  const unchecked = { code: "playground-unchecked", phase: "run", severity: "warning" };
  assert.equal(summaryText({ status: "ok", complete: false, diagnostics: [unchecked, unchecked, unchecked] }, "panic"), "Ran; 3 things were not checked");
  assert.equal(summaryText({ status: "ok", complete: true, diagnostics: [] }, "panic"), "Runs without a panic");
  assert.equal(summaryText({ status: "panicked", complete: false, diagnostics: [unchecked] }, "panic"), "Burn would panic");
});

test("a run a limit stopped is summarised as a run, with the limit", () => {
  const limited = (code, message) => ({ status: "rejected", complete: true, diagnostics: [{ code, phase: "run", severity: "error", message }] });
  const steps = limited("playground-time-limit", "the program did not finish within the playground's budget of 2000000 evaluation steps; does a loop never end?");
  assert.equal(summaryText(steps, "panic"), "Ran until the playground stopped it: its step budget");
  assert.equal(summaryText(limited("playground-time-limit", "the run did not finish within the playground's time limit of 2s"), "panic"), "Ran until the playground stopped it: its time limit");
  assert.equal(summaryText(limited("playground-memory-limit", "the run used more memory than the sandbox allows"), "validation"), "Ran until the playground stopped it: its memory limit");
  assert.equal(summaryText(limited("playground-output-limit", "the program printed more than the playground's limit"), "panic"), "Ran until the playground stopped it: its output limit");
  const parse = { status: "rejected", complete: true, diagnostics: [{ code: "syntax", phase: "parse", severity: "error", message: "expected `;`" }] };
  assert.equal(summaryText(parse, "panic"), "Rejected before running");
});

test("the tests' summary is libtest's, beside the summary of main", () => {
  const tests = [{ status: "ok" }, { status: "failed" }, { status: "ignored" }];
  assert.equal(testsSummary(tests), "cargo test: FAILED. 1 passed; 1 failed; 1 ignored");
  assert.equal(testsSummary([{ status: "ok" }]), "cargo test: ok. 1 passed; 0 failed; 0 ignored");
});
