// Renders a Result into the results area, with the markup of the server's
// templates (web/ui/results.templ), so a run in the browser replaces the
// server's first paint without moving anything.

import { el } from "./dom.js";
import { layoutTrace, operations, shapeText, traceSVG } from "./trace.js";

// shown mirrors web/ui/view.go: the panic view leaves out the static
// check's findings, the validation view leaves out the run's panic (the
// check already reported it). A program the check rejected never ran, so
// the panic view shows the check's findings: they are why nothing ran.
export function shown(phase, mode, status) {
  if (phase === "check") return mode === "validation" || status === "rejected";
  if (phase === "run") return mode === "panic";
  return true;
}

export function visibleDiagnostics(result, mode) {
  return result.diagnostics
    .map((d, index) => ({ ...d, index, record: burnSource(d.record, result.panic, d.code) }))
    .filter((d) => shown(d.phase, mode, result.status));
}

// Placeholders of a Rust format string, as engine/catalog titles them.
const PLACEHOLDER = /\{[A-Za-z0-9_]*(?::[^{}]*)?\}/g;

// The titles the catalog writes for its records whose message has
// placeholders (engine/catalog/titles.tsv), by code; the playground's page
// gives them (setTitles), an embed has none and falls back on the message.
let writtenTitles = {};
export function setTitles(titles) {
  writtenTitles = titles && typeof titles === "object" ? titles : {};
}

// cardTitle is the catalog's title of a record: the title written for it,
// else its message on one line with placeholders shown as "…".
export function cardTitle(d) {
  if (typeof writtenTitles[d.code] === "string") return writtenTitles[d.code];
  const message = d.record && typeof d.record.errorMessage === "string" ? d.record.errorMessage : "";
  const title = message.split("\n")[0].replace(PLACEHOLDER, "…").trim();
  if (title.replace(/[… ]/g, "") === "") return message && d.record.slug ? d.record.slug.replaceAll("-", " ") : d.code;
  return title;
}

export const rustPanicText = (p) =>
  p.rendered + "\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace";

function summary(view) {
  if (view.failure) return "The run did not complete";
  const r = view.result;
  const errors = visibleDiagnostics(r, view.mode).filter((d) => d.severity === "error").length;
  if (r.status === "panicked" && view.mode === "panic") return "Burn would panic";
  if (r.status === "rejected") return stoppedSummary(r) || "Rejected before running";
  if (errors === 1) return "1 error found";
  if (errors > 1) return `${errors} errors found`;
  if (incompleteNote(r)) return `Ran; ${notChecked(r)}`;
  return "Runs without a panic";
}

// A Result rejected by a limit the program ran into (the engine's step
// budget, the sandbox's clock or memory): it ran, up to that limit. The
// phrases mirror stoppedSummary in web/ui/view.go.
export function stoppedSummary(result) {
  const d = (result.diagnostics ?? []).find((x) => x.severity === "error" && x.phase === "run" && LIMITS.has(x.code));
  if (!d) return "";
  let limit = LIMITS.get(d.code);
  if (d.code === "playground-time-limit" && d.message.includes("evaluation steps")) limit = "its step budget";
  else if (d.code === "playground-time-limit" && d.message.includes("nested function calls")) limit = "its call depth limit";
  return `Ran until the playground stopped it: ${limit}`;
}

const LIMITS = new Map([
  ["playground-time-limit", "its time limit"],
  ["playground-memory-limit", "its memory limit"],
  ["playground-output-limit", "its output limit"],
  ["playground-result-limit", "the result's size limit"],
]);

// The warnings that make a Result incomplete (engine.IncompleteCodes).
const INCOMPLETE = new Set(["playground-outside-world", "playground-unchecked", "playground-unmodelled"]);

// notChecked says how many things a run did not check (mirrors notChecked
// in web/ui/view.go).
const uncheckedCount = (result) => (result.diagnostics ?? []).filter((d) => INCOMPLETE.has(d.code)).length;

export function notChecked(result) {
  const n = uncheckedCount(result);
  return n === 1 ? "1 thing was not checked" : `${n} things were not checked`;
}

// incompleteNote is what the results say of an incomplete Result, "" for a
// complete one (mirrors incompleteNote in web/ui/view.go).
export function incompleteNote(result) {
  if (!result || result.complete !== false || uncheckedCount(result) === 0) return "";
  return `Not complete: ${notChecked(result)}. The playground ran what it models; where it did not know the values, Burn may still panic or an assertion may still fail.`;
}

const status = (view) => (view.failure ? "failed" : view.result.status);

const at = (file, pos) => `${file}:${pos.line}:${pos.column}`;

function gotoLink(file, pos, text, testid) {
  return el("a", { href: "#main", "data-goto": file, "data-line": pos.line, "data-column": pos.column, "data-testid": testid }, text);
}

// burnSource is where Burn raises the panic of this run: its own location
// at the modelled commit (mirrors panicSource in web/ui/view.go), which can
// differ from the line a record cites; otherwise the record's.
const BURN_SOURCE_URL = "https://github.com/tracel-ai/burn/blob/2c06be351006851d42fdb6df16b976f4a82d9747/";

export function burnSource(record, panic, code) {
  if (!record) return record;
  const m = panic && panic.code === code ? /^(crates\/[^:]+):(\d+)$/.exec(panic.location || "") : null;
  if (!m) return record;
  const line = Number(m[2]);
  return { ...record, filePath: m[1], lineNumber: line, githubUrl: `${BURN_SOURCE_URL}${m[1]}#L${line}` };
}

function recordDetails(r) {
  if (!r) return [];
  const details = (title, open, ...body) => el("details", { class: "section", open }, el("summary", {}, title), ...body);
  return [
    r.githubUrl &&
      el("p", { class: "source" }, "Raised by Burn at ", el("a", { href: r.githubUrl, rel: "noopener", "data-testid": "burn-source" }, `${r.filePath}:${r.lineNumber}`)),
    r.documentation && details("Why this happens", true, el("p", { "data-testid": "record-documentation" }, r.documentation)),
    r.solutions?.length > 0 &&
      details("How to fix it", true, el("ol", { "data-testid": "record-solutions" }, r.solutions.map((s) => el("li", {}, s)))),
    r.exampleFix && details("Example fix", false, el("pre", { class: "code-sample", "data-testid": "record-example-fix" }, r.exampleFix)),
    r.preventionTips?.length > 0 &&
      details("Prevention tips", false, el("ul", { "data-testid": "record-prevention" }, r.preventionTips.map((t) => el("li", {}, t)))),
  ];
}

function diagnosticCard(d) {
  const id = `diagnostic-${d.index}`;
  return el(
    "article",
    { class: `card severity-${d.severity}`, "data-testid": "diagnostic", "data-code": d.code, "data-phase": d.phase, "aria-labelledby": id },
    el(
      "header",
      { class: "card-head" },
      el("span", { class: "badge" }, d.severity),
      el("h3", { id, "data-testid": "diagnostic-title" }, cardTitle(d)),
    ),
    el("pre", { class: "message", "data-testid": "diagnostic-message" }, d.message),
    el(
      "p",
      { class: "where" },
      gotoLink(d.file, d.span.start, at(d.file, d.span.start), "diagnostic-location"),
      el("span", { class: "phase" }, d.phase),
      el("code", { class: "card-code" }, d.code),
    ),
    d.labels?.length > 0 && el("ul", { class: "labels" }, d.labels.map((l) => el("li", {}, gotoLink(l.file, l.span.start, at(l.file, l.span.start)), " ", l.message))),
    d.help?.length > 0 && el("ul", { class: "help" }, d.help.map((h) => el("li", {}, h))),
    d.fixes?.length > 0 &&
      el(
        "div",
        { class: "fixes" },
        d.fixes.map((f, i) =>
          el(
            "button",
            { type: "submit", class: "button fix", name: "fix", value: `${d.index}:${i}`, formaction: "/run", "data-fix": `${d.index}:${i}`, "data-testid": "fix" },
            f.title,
          ),
        ),
      ),
    recordDetails(d.record),
  );
}

function diagnosticsPanel(view) {
  const out = [];
  if (view.failure) out.push(el("div", { class: "notice", "data-testid": "failure" }, view.failure));
  if (!view.result) return out;
  const note = view.failure ? "" : incompleteNote(view.result);
  if (note) out.push(el("div", { class: "notice incomplete", "data-testid": "incomplete" }, note));
  const diagnostics = visibleDiagnostics(view.result, view.mode);
  const showsPanic = view.mode === "panic" && view.result.panic;
  if (showsPanic) {
    out.push(
      el(
        "div",
        { class: "panic-pair" },
        el(
          "div",
          { class: "panic-raw" },
          el("h3", { class: "panel-title" }, "What the program prints"),
          el("pre", { class: "terminal stderr", "data-testid": "panic-raw" }, rustPanicText(view.result.panic)),
        ),
        el("div", { class: "panic-cards" }, diagnostics.filter((d) => d.phase === "run").map(diagnosticCard)),
      ),
    );
  }
  out.push(diagnostics.filter((d) => !(showsPanic && d.phase === "run")).map(diagnosticCard));
  if (diagnostics.length === 0 && !view.failure) {
    out.push(el("p", { class: "empty ok", "data-testid": "no-diagnostics" }, "No diagnostics: Burn would run this program without a panic."));
  }
  return out;
}

function tracePanel(result) {
  if (!result || (result.trace.length === 0 && !result.panic)) return el("p", { class: "empty" }, "No tensor operation ran.");
  const l = layoutTrace(result.trace, result.panic);
  const legend = el(
    "p",
    { class: "legend" },
    el("span", { class: "legend-dot" }), " operation ",
    el("span", { class: "legend-ring" }), " autodiff-tracked ",
    el("span", { class: "legend-arrow" }), " transfer ",
    el("span", { class: "legend-panic" }), " panic",
  );
  const head = ["#", "Operation", "Device", "Backend", "Kind", "Shape", "Autodiff", "At", "Note"];
  // The operation that panicked is recorded with a note that starts "panic".
  const row = (n) =>
    el(
      "tr",
      (n.entry.note ?? "").startsWith("panic") ? { class: "trace-panic-row", "data-testid": "trace-panic-row" } : { "data-testid": "trace-row" },
      el("td", {}, n.step),
      el("td", {}, el("code", {}, n.entry.op)),
      el("td", {}, n.entry.device),
      el("td", {}, n.entry.backend),
      el("td", {}, n.entry.kind),
      el("td", {}, shapeText(n.entry.shape)),
      el("td", {}, n.entry.autodiff ? "tracked" : ""),
      el("td", {}, `${n.entry.span.start.line}:${n.entry.span.start.column}`),
      el("td", {}, n.entry.note ?? ""),
    );
  // The operations run inside one module's method, one after the other,
  // sit under a heading with the module's path that collapses them, as
  // the server renders them (web/ui/results.templ).
  const group = (g) =>
    g.module === ""
      ? el("tbody", {}, g.nodes.map(row))
      : el(
          "tbody",
          { class: "trace-group", "data-module": g.module, "data-testid": "trace-group" },
          el(
            "tr",
            { class: "trace-group-head" },
            el(
              "th",
              { colspan: head.length, scope: "rowgroup" },
              el(
                "button",
                { type: "button", class: "trace-toggle", "aria-expanded": "true", "data-trace-toggle": "", "data-testid": "trace-group-toggle" },
                el("code", {}, g.module),
              ),
              " ",
              el("span", { class: "trace-group-count" }, operations(g.nodes.length)),
            ),
          ),
          g.nodes.map(row),
        );
  const table = el(
    "table",
    { class: "trace-table", "data-testid": "trace-table" },
    el("caption", { class: "visually-hidden" }, "Dispatched operations in program order"),
    el("thead", {}, el("tr", {}, head.map((t) => el("th", { scope: "col" }, t)))),
    l.groups.map(group),
  );
  return el("div", { class: "trace" }, el("div", { class: "trace-picture" }, traceSVG(l), legend), el("div", { class: "trace-rows" }, table));
}

// toggleTraceGroup collapses or expands the operations under a module's
// heading in the trace's table; button is the heading's toggle.
export function toggleTraceGroup(button) {
  const expanded = button.getAttribute("aria-expanded") !== "false";
  button.setAttribute("aria-expanded", String(!expanded));
  button.closest(".trace-group")?.classList.toggle("collapsed", expanded);
}

// renderResults shows view = {result, mode, via, failure} in the results
// area root.
export function renderResults(root, view) {
  const st = status(view);
  root.dataset.status = st;
  const summaryNode = root.querySelector('[data-testid="summary"]');
  summaryNode.className = `summary status-${st}${!view.failure && incompleteNote(view.result) ? " incomplete" : ""}`;
  summaryNode.textContent = summary(view);
  root.querySelector('[data-testid="run-via"]').textContent = view.via ?? "";
  root.querySelector('[data-testid="diagnostic-count"]').textContent = view.result
    ? String(visibleDiagnostics(view.result, view.mode).length)
    : "0";
  const r = view.result;
  root.querySelector("#panel-diagnostics").replaceChildren(...diagnosticsPanel(view).flat());
  root.querySelector("#panel-trace").replaceChildren(tracePanel(r));
  root
    .querySelector("#panel-output")
    .replaceChildren(r && r.output ? el("pre", { class: "terminal", "data-testid": "output" }, r.output) : el("p", { class: "empty" }, "The program printed nothing."));
  root
    .querySelector("#panel-json")
    .replaceChildren(r ? el("pre", { class: "json", "data-testid": "raw-json" }, JSON.stringify(r, null, 2)) : el("p", { class: "empty" }, "No result yet."));
}
