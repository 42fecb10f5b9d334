// The markup of an embedded snippet: its highlighted code with the marks
// of a diagnostic and a badge per line naming where that line's tensor
// operations ran, and the compact result under it (a summary, or the
// diagnostic's card with its top solution and fix).

import { el } from "./dom.js";
import { highlight } from "./embed-highlight.js";
import { rangeOf } from "./positions.js";
import { cardTitle, incompleteNote, notChecked, stoppedSummary, visibleDiagnostics } from "./results.js";
import { shapeText, shortDevice } from "./trace.js";

// badgesByLine groups a Result's trace by the snippet line each operation
// starts on: one badge per device, in the order the line used them.
export function badgesByLine(trace) {
  const lines = new Map();
  for (const t of trace ?? []) {
    const line = t.span.start.line;
    if (!lines.has(line)) lines.set(line, new Map());
    const devices = lines.get(line);
    const key = t.device + (t.autodiff ? " autodiff" : "");
    if (!devices.has(key)) devices.set(key, { device: t.device, backend: t.backend, autodiff: t.autodiff, ops: [] });
    devices.get(key).ops.push(t);
  }
  const out = new Map();
  for (const [line, devices] of lines) out.set(line, [...devices.values()]);
  return out;
}

// The text a badge shows: the device when it is short enough to read at a
// glance, else its backend (a remote device's name is a whole struct).
export function badgeText(b) {
  const text = [...b.device].length <= 24 ? b.device : b.backend;
  return b.autodiff ? `${text} ∇` : text;
}

function badge(b) {
  const ops = b.ops.map((t) => `${t.op} → ${t.kind} ${shapeText(t.shape)}${t.note ? ` (${t.note})` : ""}`);
  const title = `${b.device}${b.autodiff ? ", autodiff-tracked" : ""}\n${ops.join("\n")}`;
  return el("span", { class: "device-badge", title, "data-testid": "badge", "data-device": b.device, "data-backend": b.backend }, badgeText(b));
}

// codeView renders text as highlighted lines. marks are [{span, kind}]
// (kind "error" for the diagnostic's span, "label" for its labels, "hint"
// for a hint of the Result, with its label, shown on hover and, when
// inlay, after the name); badges maps a line number to the badges shown at
// its end.
export function codeView(text, language, marks = [], badges = new Map()) {
  const ranges = marks
    .map((m) => {
      const r = rangeOf(text, m.span);
      // A zero-width span (a missing token) still needs something to mark.
      return { ...r, to: Math.max(r.to, Math.min(r.from + 1, text.length)), kind: m.kind, label: m.label, inlay: m.inlay };
    })
    .filter((r) => r.to > r.from);
  const cuts = new Set([0, text.length]);
  for (const r of ranges) cuts.add(r.from).add(r.to);
  let at = 0;
  const pieces = [];
  for (const token of highlight(text, language)) {
    const end = at + token.text.length;
    let from = at;
    for (const cut of [...cuts].filter((c) => c > at && c < end).sort((a, b) => a - b).concat(end)) {
      const over = ranges.filter((r) => r.from <= from && r.to >= cut);
      const hint = over.find((r) => r.kind === "hint");
      const kinds = over.filter((r) => r.kind !== "hint").map((r) => r.kind);
      pieces.push({ text: text.slice(from, cut), tag: token.tag, kinds, hint, inlay: hint?.inlay && hint.to === cut });
      from = cut;
    }
    at = end;
  }
  const lines = [[]];
  for (const p of pieces) {
    const parts = p.text.split("\n");
    parts.forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part) lines[lines.length - 1].push({ ...p, text: part });
    });
  }
  if (lines.length > 1 && lines[lines.length - 1].length === 0) lines.pop(); // the text's final newline
  return el(
    "pre",
    { class: "code", "data-testid": "code" },
    lines.map((parts, i) => [
      el(
        "span",
        { class: "line", "data-line": i + 1 },
        parts.map((p) => {
          const cls = [`t-${p.tag}`, ...p.kinds.map((k) => `mark-${k}`)].join(" ");
          const attrs = p.hint ? { class: cls, title: p.hint.label, "data-testid": "hinted" } : { class: cls };
          const piece = p.tag === "plain" && p.kinds.length === 0 && !p.hint ? p.text : el("span", attrs, p.text);
          return p.inlay ? [piece, el("span", { class: "inlay-hint", "data-testid": "inlay-hint" }, `: ${p.hint.label}`)] : piece;
        }),
        (badges.get(i + 1) ?? []).map(badge),
      ),
      i < lines.length - 1 ? "\n" : "",
    ]),
  );
}

// mainDiagnostic is the diagnostic a compact result shows: the first error
// of the mode's view, or its first diagnostic of any severity. A program
// the check rejected has its reason in the check's findings, which the
// panic view otherwise leaves to the run.
export function mainDiagnostic(result, viewMode) {
  const shown = visibleDiagnostics(result, viewMode);
  const main = shown.find((d) => d.severity === "error") ?? shown[0];
  if (main) return main;
  if (result.status !== "rejected") return null;
  return visibleDiagnostics(result, "validation").find((d) => d.severity === "error") ?? null;
}

// summaryText mirrors the playground's summary line (results.js).
export function summaryText(result, viewMode) {
  const errors = visibleDiagnostics(result, viewMode).filter((d) => d.severity === "error").length;
  if (result.status === "panicked" && viewMode === "panic") return "Burn would panic";
  if (result.status === "rejected") return stoppedSummary(result) || "Rejected before running";
  if (errors === 1) return "1 error found";
  if (errors > 1) return `${errors} errors found`;
  if (incompleteNote(result)) return `Ran; ${notChecked(result)}`;
  return "Runs without a panic";
}

// card renders a diagnostic compactly: title, Burn's exact message, where,
// the record's first solution, and the first fix when the snippet is
// editable. others is how many more diagnostics the view has.
export function card(d, { editable, others }) {
  const r = d.record ?? null;
  const title = cardTitle(d);
  return el(
    "article",
    { class: `card severity-${d.severity}`, "data-testid": "card", "data-code": d.code, "data-phase": d.phase },
    // A message without placeholders is its own title: it is not repeated.
    title !== d.message.trim() && el("h3", { class: "card-title", "data-testid": "card-title" }, title),
    el("pre", { class: "message", "data-testid": "message" }, d.message),
    el(
      "p",
      { class: "where" },
      el("span", { "data-testid": "where" }, `${d.file}:${d.span.start.line}:${d.span.start.column}`),
      r && r.githubUrl && r.filePath
        ? [" · raised by Burn at ", el("a", { href: r.githubUrl, target: "_blank", rel: "noopener", "data-testid": "burn-source" }, `${r.filePath}:${r.lineNumber}`)]
        : "",
    ),
    r && r.solutions?.length > 0 && el("p", { class: "solution", "data-testid": "solution" }, el("strong", {}, "Fix: "), r.solutions[0]),
    editable &&
      d.fixes?.length > 0 &&
      el("button", { type: "button", class: "button fix", "data-fix": `${d.index}:0`, "data-testid": "fix" }, d.fixes[0].title),
    others > 0 && el("p", { class: "more" }, others === 1 ? "1 more diagnostic in the playground." : `${others} more diagnostics in the playground.`),
  );
}

// resultView renders one outcome of a run ({result, failure}) in the
// element's view mode ("panic" or "validation").
export function resultView(outcome, viewMode, { editable }) {
  if (!outcome.result) {
    return [el("p", { class: "summary status-failed", "data-testid": "summary" }, "The run did not complete"), el("p", { class: "failure", "data-testid": "failure" }, outcome.failure)];
  }
  const r = outcome.result;
  const d = mainDiagnostic(r, viewMode);
  return [
    el("p", { class: `summary status-${r.status}${incompleteNote(r) ? " incomplete" : ""}`, "data-testid": "summary" }, summaryText(r, viewMode)),
    incompleteNote(r) && el("p", { class: "incomplete", "data-testid": "incomplete" }, incompleteNote(r)),
    d && card(d, { editable, others: Math.max(visibleDiagnostics(r, viewMode).length - 1, 0) }),
    outcome.tests && testList(outcome.tests),
    r.output && el("pre", { class: "output", "data-testid": "output" }, r.output),
  ];
}

// testList is each #[test] of the snippet with its status, as `cargo test`
// reports them, and a failed test's panic.
export function testList(tests) {
  const word = { ok: "ok", failed: "FAILED", ignored: "ignored" };
  if (tests.length === 0) return el("p", { class: "tests-empty", "data-testid": "test-list" }, "The tests did not run: the program was rejected.");
  const item = (t) =>
    el(
      "li",
      { class: `test test-${t.status}`, "data-testid": "test", "data-status": t.status, "data-name": t.name },
      el("span", { class: "test-status" }, word[t.status] ?? t.status),
      " ",
      el("code", { class: "test-name" }, t.name),
      t.panic ? el("span", { class: "test-panic" }, t.panic.message) : null,
    );
  return [
    el("p", { class: "tests-summary", "data-testid": "tests-summary" }, testsSummary(tests)),
    el("ul", { class: "test-list", "data-testid": "test-list" }, tests.map(item)),
  ];
}

// testsSummary is libtest's last line for the tests, after `cargo test`:
// the summary above them is of the program's main.
export function testsSummary(tests) {
  const n = (status) => tests.filter((t) => t.status === status).length;
  return `cargo test: ${n("failed") > 0 ? "FAILED" : "ok"}. ${n("ok")} passed; ${n("failed")} failed; ${n("ignored")} ignored`;
}
