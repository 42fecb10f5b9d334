// The embed script (/embed.js): defines <dispatch-snippet>, upgrades the
// code blocks a docs page marks for it, and, inside the /embed/{id} frame
// page, reports the frame's height to the page around it. Built on its own
// as a classic script, so a docs page needs one <script src> and nothing
// else. The public surface is version 1 (docs/embedding.md).

import { el } from "./dom.js";
import { EngineHub } from "./embed-engine.js";
import { EMBED_VERSION, applyEdits, blockAttributes, dedent, playgroundLink, readOptions, resolveConfig } from "./embed-options.js";
import { STYLE } from "./embed-style.js";
import { badgesByLine, codeView, mainDiagnostic, resultView } from "./embed-view.js";
import { rangeOf } from "./positions.js";

// The playground server this script came from: it serves the engine, runs
// snippets when the browser cannot, and opens them in the playground.
const scriptOrigin = (() => {
  try {
    return new URL(document.currentScript.src).origin;
  } catch {
    return location.origin;
  }
})();

const MARKED_BLOCKS = "pre > code[data-dispatch], pre > code.dispatch";
const RESULT_EVENT = "dispatch-snippet:result";

// shownFile is the text a Result's file name is in: a crate's entry,
// src/main.rs, is the snippet the element shows.
function shownFile(file) {
  return file === "src/main.rs" ? "main.rs" : file;
}

// readFiles reads the files attribute: null when absent or not an object
// of strings.
function readFiles(text) {
  if (!text) return null;
  try {
    const files = JSON.parse(text);
    const ok = files && typeof files === "object" && !Array.isArray(files) && Object.values(files).every((t) => typeof t === "string");
    return ok && Object.keys(files).length > 0 ? files : null;
  } catch {
    return null;
  }
}
const RESIZE_MESSAGE = "dispatch-snippet:resize";

// Marks for the measurement in BENCHMARKS.md: when the page's engine was
// ready, and when the first snippet showed its result.
const READY_MARK = "dispatch-snippet:engine-ready";
const FIRST_RESULT_MARK = "dispatch-snippet:first-result";
const markOnce = (name) => {
  if (performance.getEntriesByName(name).length === 0) performance.mark(name);
};

// Snippets waiting for a run hear the engine's progress.
const waiting = new Set();
const hub = new EngineHub({
  onStatus: (origin, status) => {
    if (status.state === "ready") markOnce(READY_MARK);
    // A lane's status is this very object once it has changed.
    for (const snippet of waiting) if (snippet.lane?.status === status) snippet.engineStatus(status);
  },
});

// Snippets run when they come into view, not before.
const visibility =
  typeof IntersectionObserver === "function"
    ? new IntersectionObserver(
        (entries) => {
          for (const e of entries) {
            if (!e.isIntersecting) continue;
            visibility.unobserve(e.target);
            e.target.run();
          }
        },
        { rootMargin: "100px" },
      )
    : null;

let sheet = null;
function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
  }
  return sheet;
}

class DispatchSnippet extends HTMLElement {
  static version = EMBED_VERSION;
  static observedAttributes = ["mode"];

  constructor() {
    super();
    this.started = false;
    this.ran = false;
    this.last = null; // the latest outcome: {result, via, ms, failure, request}
    this.generation = 0;
  }

  // The texts the snippet runs now, and its latest Result.
  get snippet() {
    return this.texts?.["main.rs"] ?? null;
  }
  get config() {
    return this.texts?.["Cargo.toml"] ?? null;
  }
  get result() {
    return this.last?.result ?? null;
  }

  connectedCallback() {
    if (this.started) {
      if (!this.ran) visibility?.observe(this);
      return;
    }
    if (document.readyState === "loading") {
      // The element's text is not parsed yet.
      document.addEventListener("DOMContentLoaded", () => this.isConnected && this.connectedCallback(), { once: true });
      return;
    }
    this.started = true;
    this.setup();
    if (visibility) visibility.observe(this);
    else this.run();
  }

  disconnectedCallback() {
    visibility?.unobserve(this);
  }

  attributeChangedCallback() {
    if (this.last) this.show();
  }

  setup() {
    this.options = readOptions((name) => this.getAttribute(name));
    this.origin = this.options.server ? new URL(this.options.server, location.href).origin : scriptOrigin;
    if (this.hasAttribute("config") && this.hasAttribute("features")) {
      console.warn("<dispatch-snippet>: both config and features are set; config is used.");
    }
    const config = resolveConfig(this.options, (id) => document.getElementById(id));
    this.configError = config.error ?? null;
    this.texts = { "Cargo.toml": config.config ?? "", "main.rs": dedent(this.textContent) };
    // A crate's other files, from the files attribute (a JSON object of
    // path to text): they run with the snippet, which is then src/main.rs.
    this.files = readFiles(this.getAttribute("files"));

    const root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
    root.adoptedStyleSheets = [styleSheet()];
    const { editable, readonly } = this.options;
    this.codeView = el("pre");
    this.configView = el("pre");
    this.codeBox = el("div", { class: "editor" }, this.codeView);
    this.configBox = el("div", { class: "editor" }, this.configView);
    this.configDetails = el("details", { class: "config", "data-testid": "config" }, el("summary", {}, "Cargo.toml"), this.configBox);
    this.status = el("span", { class: "status", "data-testid": "status", role: "status", "aria-live": "polite" });
    this.via = el("span", { class: "via", "data-testid": "via" });
    this.open = el("a", { class: "open", "data-testid": "open", target: "_blank", rel: "noopener" }, "Open in playground");
    this.resultBox = el("div", { class: "result", "data-testid": "result", hidden: true });
    this.runButton = readonly ? null : el("button", { type: "button", class: "button primary", "data-testid": "run" }, "Run");
    if (editable) {
      this.editor = el("textarea", {
        "data-testid": "editor",
        "aria-label": "main.rs",
        spellcheck: "false",
        autocapitalize: "off",
        autocomplete: "off",
        rows: 1,
      });
      this.editor.value = this.snippet;
      this.codeBox.append(this.editor);
      this.editor.addEventListener("input", () => this.edited());
      this.editor.addEventListener("keydown", (e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          this.run();
        }
      });
    }
    this.runButton?.addEventListener("click", () => this.run());
    root.replaceChildren(
      el(
        "div",
        { class: "frame", part: "frame" },
        this.codeBox,
        this.config ? this.configDetails : null,
        el("div", { class: "bar" }, this.runButton, this.status, this.via, this.open),
        this.resultBox,
      ),
    );
    root.addEventListener("click", (e) => {
      const fix = e.target.closest?.("[data-fix]");
      if (!fix) return;
      const [d, f] = fix.dataset.fix.split(":").map(Number);
      this.applyFix(d, f);
    });
    this.renderCode();
  }

  // viewMode is the playground's name of the element's mode.
  get viewMode() {
    return readOptions((name) => this.getAttribute(name)).mode === "validate" ? "validation" : "panic";
  }

  renderCode(result = null, diagnostic = null) {
    const marks = { "main.rs": [], "Cargo.toml": [] };
    if (diagnostic) {
      marks[shownFile(diagnostic.file)]?.push({ span: diagnostic.span, kind: "error" });
      for (const l of diagnostic.labels ?? []) marks[shownFile(l.file)]?.push({ span: l.span, kind: "label" });
    }
    // Hints need the highlighted text to be what the reader sees: an
    // editable snippet types into a textarea laid over it.
    if (result && !this.editor) {
      for (const h of result.hints ?? []) {
        const r = rangeOf(this.snippet, h.span);
        const line = this.snippet.lastIndexOf("\n", r.from - 1) + 1;
        marks[shownFile(h.file)]?.push({ span: h.span, kind: "hint", label: h.label, inlay: /\blet\s+(?:mut\s+)?$/.test(this.snippet.slice(line, r.from)) });
      }
    }
    // The badges are of the shown file's lines: a crate's trace has others.
    const badges = result ? badgesByLine((result.trace ?? []).filter((t) => shownFile(t.file ?? "main.rs") === "main.rs")) : new Map();
    // Only the highlighted text is replaced: the editor over it keeps its
    // focus and caret.
    this.codeView = replace(this.codeView, codeView(this.snippet, "rust", marks["main.rs"], badges));
    this.configView = replace(this.configView, codeView(this.config, "toml", marks["Cargo.toml"]));
    if (marks["Cargo.toml"].length > 0) this.configDetails.open = true;
    this.open.href = playgroundLink(this.origin, this.config, this.snippet, this.viewMode === "validation" ? "validate" : "panic", this.files);
  }

  edited() {
    this.texts = { ...this.texts, "main.rs": this.editor.value };
    this.resultBox.setAttribute("aria-busy", "true");
    this.dataset.status = "stale";
    this.renderCode();
  }

  async run() {
    visibility?.unobserve(this);
    this.ran = true;
    const generation = ++this.generation;
    this.dataset.status = "running";
    this.resultBox.setAttribute("aria-busy", "true");
    if (this.runButton) this.runButton.disabled = true;
    let outcome;
    const request = { config: this.config, snippet: this.snippet, ...(this.files ? { files: this.files } : {}) };
    if (this.configError) {
      outcome = { result: null, via: "none", failure: this.configError };
    } else {
      const lane = hub.lane(this.origin, this.options.engine);
      this.lane = lane;
      waiting.add(this);
      this.engineStatus(lane.status);
      try {
        outcome = await lane.run(request);
        // A snippet with #[test] functions is also run as `cargo test`
        // runs it, for its test list.
        if (outcome.result && /#\s*\[\s*test\s*\]/.test(this.snippet) && generation === this.generation) {
          const t = await lane.run({ ...request, entry: "tests" });
          outcome = { ...outcome, tests: t.result?.tests ?? [] };
        }
      } finally {
        waiting.delete(this);
      }
    }
    if (generation !== this.generation) return;
    if (this.runButton) this.runButton.disabled = false;
    this.last = { ...outcome, request };
    this.show();
    markOnce(FIRST_RESULT_MARK);
    this.dispatchEvent(
      new CustomEvent(RESULT_EVENT, { bubbles: true, detail: { result: outcome.result, via: outcome.via, ms: outcome.ms ?? null, failure: outcome.failure ?? null } }),
    );
  }

  engineStatus(s) {
    if (s.state === "loading") this.status.textContent = s.loaded > 0 ? `Loading the engine… ${Math.round(s.loaded / 1024)} KB` : "Loading the engine…";
    else this.status.textContent = "Running…";
  }

  // show renders the latest outcome in the current mode.
  show() {
    const o = this.last;
    const mode = this.viewMode;
    const d = o.result ? mainDiagnostic(o.result, mode) : null;
    this.renderCode(o.result, d);
    this.resultBox.removeAttribute("aria-busy");
    this.resultBox.hidden = false;
    this.resultBox.replaceChildren(...resultView(o, mode, { editable: this.options.editable }).flat().filter(Boolean));
    this.status.textContent = "";
    this.dataset.status = o.result ? o.result.status : "failed";
    this.dataset.via = o.via;
    this.via.dataset.via = o.via;
    if (o.via === "browser") {
      this.via.textContent = "ran in your browser";
      this.via.title = `The playground's engine ran in this page${o.ms !== undefined ? ` in ${o.ms < 1 ? "<1" : Math.round(o.ms)} ms` : ""}.`;
    } else if (o.via === "server") {
      this.via.textContent = "ran on the server";
      const reason = (this.lane?.status.reason ?? "").replace(/\.+$/, "");
      this.via.title = `Ran by ${this.origin}/api/run${reason ? `: ${reason}` : ""}.`;
    } else {
      this.via.textContent = "";
      this.via.title = "";
    }
  }

  // applyFix edits the texts as a fix of the latest run says, then runs
  // them. If the texts changed since that run, its offsets are stale: it
  // runs the new texts instead, whose fixes the next click applies.
  applyFix(diagnosticIndex, fixIndex) {
    const o = this.last;
    const fix = o?.result?.diagnostics[diagnosticIndex]?.fixes?.[fixIndex];
    if (!fix || !this.options.editable) return;
    if (o.request.config !== this.config || o.request.snippet !== this.snippet) {
      this.run();
      return;
    }
    this.texts = applyEdits(this.texts, fix.edits.map((e) => ({ ...e, file: shownFile(e.file) })));
    if (this.editor) this.editor.value = this.snippet;
    if (this.config && !this.configDetails.isConnected) this.codeBox.after(this.configDetails);
    this.renderCode();
    this.run();
  }
}

function replace(old, node) {
  old.replaceWith(node);
  return node;
}

// upgradeBlock replaces a marked <pre><code> with a snippet element.
function upgradeBlock(code) {
  const pre = code.parentElement;
  if (!pre || !pre.isConnected) return;
  const snippet = document.createElement("dispatch-snippet");
  for (const [name, value] of Object.entries(blockAttributes(code.dataset, [...code.classList]))) snippet.setAttribute(name, value);
  snippet.textContent = code.textContent;
  pre.replaceWith(snippet);
}

function upgradeBlocks(root) {
  for (const code of root.querySelectorAll(MARKED_BLOCKS)) upgradeBlock(code);
}

// watchBlocks upgrades blocks added later too: single-page docs sites
// (Docusaurus among them) render a new page without loading one.
function watchBlocks() {
  upgradeBlocks(document);
  new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) {
        if (node.nodeType !== Node.ELEMENT_NODE) continue;
        if (node.matches("pre") && node.querySelector(":scope > code[data-dispatch], :scope > code.dispatch")) upgradeBlock(node.firstElementChild);
        else upgradeBlocks(node);
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
}

// reportHeight runs in the /embed/{id} frame page: the page around the
// frame sizes the iframe from these messages (docs/embedding.md).
function reportHeight() {
  document.documentElement.style.margin = "0";
  document.body.style.margin = "0";
  let last = -1;
  new ResizeObserver(() => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    parent.postMessage({ type: RESIZE_MESSAGE, version: EMBED_VERSION, height }, "*");
  }).observe(document.body);
}

function start() {
  watchBlocks();
  if (document.documentElement.hasAttribute("data-dispatch-frame") && parent !== window) reportHeight();
}

if (!customElements.get("dispatch-snippet")) {
  customElements.define("dispatch-snippet", DispatchSnippet);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
  else start();
}

