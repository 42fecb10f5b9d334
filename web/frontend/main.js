// The playground page. The server renders a working form (the texts, the
// results of a sandbox run); this script upgrades it: CodeMirror editors,
// the engine in a Web Worker, results rendered in place as you type,
// inline markers, one-click fixes, state in the URL hash and autosave.

import { createEditor, textareaEditor } from "./editor.js";
import { Engine } from "./engine.js";
import { renderResults, setTitles, toggleTraceGroup, visibleDiagnostics } from "./results.js";
import { Autosave, decodeHash, encodeHash, makeState } from "./state.js";
import { ConfigHelpers } from "./helpers.js";
import { setupMenus, showKeyboardHint } from "./menus.js";
import { el } from "./dom.js";
import { projectZip, reportText } from "./export.js";
import { loadCompletions, rustCompletions, tomlCompletions } from "./completion.js";
import { FileTabs } from "./files.js";

// How long typing must pause before the program is checked again.
const RECHECK_DELAY_MS = 400;

function readJSON(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

class Playground {
  constructor(form) {
    this.form = form;
    this.results = form.querySelector('[data-testid="results"]');
    this.origin = form.dataset.origin;
    this.reset = readJSON("reset-state");
    setTitles(readJSON("catalog-titles"));
    this.autosave = new Autosave(this.origin);
    this.last = null; // the latest run: {result, via, ms, failure}
    this.recheckTimer = null;
    this.generation = 0;

    const nonce = document.querySelector('meta[name="csp-nonce"]')?.content ?? "";
    const callbacks = {
      nonce,
      onChange: () => this.changed(),
      onRun: () => this.run(),
      onFix: (d, f) => this.applyFix(d, f),
    };
    this.editors = {};
    // Completion: Burn's API and the program's names in main.rs, burn's
    // features in Cargo.toml (completion.js).
    const table = () => loadCompletions(form.dataset.completions);
    const complete = {
      "main.rs": async (c) => {
        const r = rustCompletions(c.line, { data: await table(), text: c.text, labelOf: c.labelOf });
        return r && { from: c.lineFrom + r.from, options: r.options };
      },
      "Cargo.toml": async (c) => tomlCompletions(c.upTo, { data: await table() }),
    };
    for (const [file, id] of [["Cargo.toml", "config"], ["main.rs", "snippet"]]) {
      const textarea = form.querySelector(`#${id}`);
      try {
        this.editors[file] = createEditor(textarea, { ...callbacks, complete: complete[file] });
      } catch (e) {
        console.error("editor unavailable, using the plain text area:", e);
        this.editors[file] = textareaEditor(textarea, callbacks);
      }
    }
    // The crate's other files, in tabs above the Rust editor.
    this.fileTabs = null;
    if (!this.editors["main.rs"].dom.matches("textarea")) {
      this.fileTabs = new FileTabs(form.querySelector("#snippet").closest(".pane"), {
        entry: this.editors["main.rs"],
        makeEditor: (textarea) => createEditor(textarea, { ...callbacks, complete: complete["main.rs"] }),
        onChange: () => this.changed(),
      });
    }
    this.helpers = new ConfigHelpers(form.querySelector("[data-config-helpers]"), {
      read: () => this.editors["Cargo.toml"].getText(),
      write: (text) => this.editors["Cargo.toml"].setText(text),
    });

    this.setupTabs();
    this.setupToolbar();
    this.setupExport();
    setupMenus(form);
    showKeyboardHint(form.querySelector("#keyboard-hint"));
    this.results.addEventListener("click", (e) => this.resultsClick(e));

    this.engine = new Engine({
      workerURL: form.dataset.worker,
      wasmURL: form.dataset.engine,
      timeLimitMs: Number(form.dataset.timeLimitMs),
      timeLimitResult: readJSON("time-limit-result"),
      onStatus: (s) => this.engineStatus(s),
      tierUp: true,
    });

    // The page's texts: a state in the URL hash wins, then this tab's
    // autosave of this page, then what the server rendered.
    const restored = decodeHash(location.hash) ?? this.autosave.load();
    if (restored) this.setState(restored);
    else this.fileTabs?.set(readJSON("state-files"));
    this.helpers.sync();
    this.engine.start();
    this.run();
  }

  get mode() {
    return this.form.querySelector('input[name="mode"]:checked')?.value === "validation" ? "validation" : "panic";
  }

  state() {
    return makeState(this.editors["Cargo.toml"].getText(), this.editors["main.rs"].getText(), this.mode, this.fileTabs?.texts());
  }

  setState(s) {
    this.editors["Cargo.toml"].setText(s.config);
    this.editors["main.rs"].setText(s.snippet);
    this.fileTabs?.set(s.files);
    for (const input of this.form.querySelectorAll('input[name="mode"]')) input.checked = input.value === s.mode;
  }

  // changed runs after every edit: save, then check again after a pause.
  changed() {
    // The results are stale until the re-check comes back.
    this.results.setAttribute("aria-busy", "true");
    this.helpers.sync();
    this.remember();
    clearTimeout(this.recheckTimer);
    this.recheckTimer = setTimeout(() => this.run(), RECHECK_DELAY_MS);
  }

  remember() {
    const s = this.state();
    history.replaceState(null, "", encodeHash(s));
    this.autosave.save(s);
  }

  async run() {
    clearTimeout(this.recheckTimer);
    const s = this.state();
    const generation = ++this.generation;
    this.results.setAttribute("aria-busy", "true");
    const request = { config: s.config, snippet: s.snippet, ...(s.files ? { files: s.files } : {}) };
    const outcome = await this.engine.run(request);
    if (outcome === null || generation !== this.generation) return; // a newer run replaced it
    // A program with #[test] functions is also run as `cargo test` runs
    // it (the Request's entry "tests"), for the test list.
    let tests = null;
    if (/#\s*\[\s*test\s*\]/.test(s.snippet)) {
      const t = await this.engine.run({ ...request, entry: "tests" });
      if (t === null || generation !== this.generation) return;
      tests = t.result?.tests ?? [];
    }
    this.results.removeAttribute("aria-busy");
    this.last = { ...outcome, request, tests };
    this.show();
  }

  // show renders the latest run in the current mode, in the results area
  // and as markers in the editors.
  show() {
    const o = this.last;
    if (!o) return;
    const mode = this.mode;
    const via =
      o.via === "browser"
        ? `ran in your browser${o.ms !== undefined ? ` in ${o.ms < 1 ? "<1" : Math.round(o.ms)} ms` : ""}`
        : "ran in the server sandbox";
    renderResults(this.results, { result: o.result, mode, via, failure: o.failure });
    this.showTests(o.tests);
    this.markEditors(o.result, mode);
  }

  // showTests shows the test list in a Tests tab of its own while the
  // program has tests.
  showTests(tests) {
    let tab = this.results.querySelector('[data-testid="tab-tests"]');
    let panel = this.results.querySelector("#panel-tests");
    if (!tests) {
      tab?.remove();
      panel?.remove();
      if (tab && !this.results.querySelector('[role="tab"][aria-selected="true"]')) this.selectTab(this.results.querySelector('[role="tab"]'), false);
      return;
    }
    if (!tab) {
      tab = el("a", { href: "#panel-tests", role: "tab", id: "tab-tests", "aria-controls": "panel-tests", "aria-selected": "false", tabindex: "-1", "data-tab": "tests", "data-testid": "tab-tests" }, "Tests ", el("span", { class: "count" }));
      this.results.querySelector('[data-testid="tab-trace"]').before(tab);
      panel = el("section", { class: "panel", id: "panel-tests", role: "tabpanel", "aria-labelledby": "tab-tests", tabindex: "0", "data-testid": "panel-tests" });
      this.results.querySelector("#panel-trace").before(panel);
      this.wireTab(tab);
    }
    const failed = tests.filter((t) => t.status === "failed").length;
    tab.querySelector(".count").textContent = failed ? `${failed}/${tests.length}` : String(tests.length);
    const word = { ok: "ok", failed: "FAILED", ignored: "ignored" };
    panel.replaceChildren(
      tests.length === 0
        ? el("p", { class: "empty" }, "The tests did not run: the program was rejected.")
        : el(
            "ul",
            { class: "test-list", "data-testid": "test-list" },
            tests.map((t) =>
              el(
                "li",
                { class: `test test-${t.status}`, "data-testid": "test", "data-status": t.status, "data-name": t.name },
                el("span", { class: "test-status" }, word[t.status] ?? t.status),
                el("code", { class: "test-name" }, t.name),
                t.panic ? el("span", { class: "test-panic" }, t.panic.message) : null,
              ),
            ),
          ),
    );
  }

  markEditors(result, mode) {
    const editors = [["Cargo.toml", this.editors["Cargo.toml"]], ...(this.fileTabs?.all() ?? [["main.rs", this.editors["main.rs"]]])];
    const marks = Object.fromEntries(editors.map(([file]) => [file, []]));
    if (result) {
      for (const d of visibleDiagnostics(result, mode)) {
        marks[d.file]?.push(d);
        for (const l of d.labels ?? []) {
          marks[l.file]?.push({ span: l.span, severity: "info", code: d.code, message: l.message, markClass: "cm-label-mark" });
        }
      }
    }
    for (const [file, editor] of editors) {
      editor.showDiagnostics(marks[file]);
      editor.showHints((result?.hints ?? []).filter((h) => h.file === file));
    }
  }

  // applyFix edits the texts as a fix says, then runs the result.
  applyFix(diagnosticIndex, fixIndex) {
    const fix = this.last?.result?.diagnostics[diagnosticIndex]?.fixes?.[fixIndex];
    if (!fix) return;
    const editors = Object.fromEntries([["Cargo.toml", this.editors["Cargo.toml"]], ...(this.fileTabs?.all() ?? [["main.rs", this.editors["main.rs"]]])]);
    const texts = Object.fromEntries(Object.entries(editors).map(([f, ed]) => [f, ed.getText()]));
    const now = this.state();
    if (now.config !== this.last.request.config || now.snippet !== this.last.request.snippet || JSON.stringify(now.files ?? {}) !== JSON.stringify(this.last.request.files ?? {})) {
      // The texts changed since the run: its fixes point at old offsets.
      this.run();
      return;
    }
    // Edits are byte ranges of the texts the run saw; apply the later ones
    // first so the earlier offsets still hold.
    const edits = [...fix.edits].sort((a, b) => b.span.start.offset - a.span.start.offset);
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    for (const e of edits) {
      if (texts[e.file] === undefined) continue;
      const bytes = encoder.encode(texts[e.file]);
      texts[e.file] =
        decoder.decode(bytes.slice(0, e.span.start.offset)) + e.newText + decoder.decode(bytes.slice(e.span.end.offset));
    }
    for (const [f, ed] of Object.entries(editors)) ed.setText(texts[f]);
    this.helpers.sync();
    this.remember();
    this.run();
  }

  resultsClick(e) {
    const fix = e.target.closest("[data-fix]");
    if (fix) {
      e.preventDefault();
      const [d, f] = fix.dataset.fix.split(":").map(Number);
      this.applyFix(d, f);
      return;
    }
    const go = e.target.closest("[data-goto]");
    if (go) {
      e.preventDefault();
      const file = go.dataset.goto;
      if (this.fileTabs && file !== "Cargo.toml") this.fileTabs.show(file);
      (this.editors[file] ?? this.fileTabs?.editorFor(file))?.focusAt(Number(go.dataset.line), Number(go.dataset.column));
      return;
    }
    const toggle = e.target.closest("[data-trace-toggle]");
    if (toggle) toggleTraceGroup(toggle);
  }

  setupTabs() {
    this.results.classList.add("tabbed");
    const tabs = [...this.results.querySelectorAll('[role="tab"]')];
    for (const tab of tabs) this.wireTab(tab);
    this.selectTab(tabs[0], false);
  }

  // selectTab shows tab's panel; the tabs are read at each call, since the
  // Tests tab comes and goes.
  selectTab(tab, focus) {
    for (const t of this.results.querySelectorAll('[role="tab"]')) {
      const on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      this.results.querySelector(`#${t.getAttribute("aria-controls")}`)?.classList.toggle("active", on);
    }
    if (focus) tab.focus();
  }

  wireTab(tab) {
    tab.addEventListener("click", (e) => {
      e.preventDefault();
      this.selectTab(tab, false);
    });
    tab.addEventListener("keydown", (e) => {
      const tabs = [...this.results.querySelectorAll('[role="tab"]')];
      const i = tabs.indexOf(tab);
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      this.selectTab(tabs[(next + tabs.length) % tabs.length], true);
    });
  }

  setupToolbar() {
    this.form.addEventListener("submit", (e) => {
      // Every button of the form is handled here; the form posts only
      // when this script is not running.
      e.preventDefault();
      const action = e.submitter?.dataset.action ?? "run";
      if (action === "share") this.share();
      else if (action === "run") this.run();
    });
    this.form.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.run();
      }
    });
    for (const input of this.form.querySelectorAll('input[name="mode"]')) {
      input.addEventListener("change", () => {
        this.remember();
        this.show();
      });
    }
    this.form.querySelector('[data-action="reset"]').addEventListener("click", (e) => {
      e.preventDefault();
      this.setState(this.reset);
      this.autosave.clear();
      history.replaceState(null, "", location.pathname);
      this.helpers.sync();
      this.run();
    });
    this.form.querySelector('[data-action="copy-link"]')?.addEventListener("click", () => {
      const input = this.form.querySelector('[data-testid="share-link"]');
      input.select();
      navigator.clipboard?.writeText(input.value);
    });
  }

  // setupExport adds the buttons that take the program to real Burn, which
  // work only with this script: "Download" (the texts as a Cargo project)
  // and "Report a problem" (the text of an issue about this result).
  setupExport() {
    const share = this.form.querySelector('[data-action="share"]');
    if (!share) return;
    const download = el("button", { type: "button", class: "button", "data-testid": "download", title: "Download as a Cargo project (zip)" }, "Download");
    const report = el("button", { type: "button", class: "button", "data-testid": "report" }, "Report a problem");
    share.after(download, report);
    download.addEventListener("click", () => this.download());
    report.addEventListener("click", () => this.report());
  }

  // link is where this state opens again.
  link(s) {
    return location.origin + location.pathname + encodeHash(s);
  }

  download() {
    const s = this.state();
    const { name, bytes } = projectZip(s.config, s.snippet, this.link(s), s.files);
    const url = URL.createObjectURL(new Blob([bytes], { type: "application/zip" }));
    const a = el("a", { href: url, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  report() {
    if (!this.reportDialog) {
      const text = el("textarea", { readonly: true, rows: 16, "data-testid": "report-text", "aria-label": "The report" });
      const copy = el("button", { type: "button", class: "button primary", "data-testid": "report-copy" }, "Copy");
      const close = el("button", { type: "button", class: "button", "data-testid": "report-close" }, "Close");
      this.reportDialog = el(
        "dialog",
        { class: "report-dialog", "data-testid": "report-dialog", "aria-labelledby": "report-title" },
        el("h2", { id: "report-title" }, "Report a problem with this result"),
        el("p", {}, "Copy this text into an issue: it holds the program, what the playground showed, the engine's version and Burn's commit. Nothing is sent from here."),
        text,
        el("div", { class: "dialog-buttons" }, copy, close),
      );
      copy.addEventListener("click", () => {
        text.select();
        navigator.clipboard?.writeText(text.value);
        copy.textContent = "Copied";
      });
      close.addEventListener("click", () => this.reportDialog.close());
      document.body.append(this.reportDialog);
    }
    const s = this.state();
    const text = this.reportDialog.querySelector('[data-testid="report-text"]');
    text.value = reportText({ ...s, result: this.last?.result, link: this.link(s), mode: this.mode });
    this.reportDialog.querySelector('[data-testid="report-copy"]').textContent = "Copy";
    this.reportDialog.showModal();
    text.focus();
    text.setSelectionRange(0, 0);
    text.scrollTop = 0;
  }

  async share() {
    const s = this.state();
    history.replaceState(null, "", encodeHash(s));
    const box = this.form.querySelector('[data-testid="share-result"]');
    const input = this.form.querySelector('[data-testid="share-link"]');
    box.hidden = false;
    input.value = "Saving…";
    try {
      const response = await fetch("/api/share", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(s),
      });
      const body = await response.json().catch(() => null);
      if (!response.ok || !body?.id) throw new Error(body?.error ?? `HTTP ${response.status}`);
      input.value = new URL(`/s/${body.id}`, location.href).href;
      input.select();
    } catch (e) {
      // The hash link works without the server's store.
      input.value = location.href;
      this.engineStatus({ state: "note", text: `Short link unavailable (${e.message}); the address bar holds the program.` });
    }
  }

  engineStatus(s) {
    const box = this.form.querySelector('[data-testid="engine-status"]');
    const bar = box.querySelector("progress");
    const text = box.querySelector(".engine-status-text");
    box.dataset.state = s.state;
    bar.hidden = s.state !== "loading";
    if (s.state === "loading") {
      if (s.total > 0) bar.value = Math.min(s.loaded / s.total, 1);
      else bar.removeAttribute("value");
      text.textContent = s.loaded > 0 ? `Loading engine… ${Math.round(s.loaded / 1024)} KB` : "Loading engine…";
    } else if (s.state === "ready") {
      text.textContent = "Engine ready";
    } else if (s.state === "server") {
      text.textContent = "Running on the server";
      text.title = s.reason;
    } else {
      text.textContent = s.text;
    }
  }
}

const form = document.querySelector("[data-playground]");
if (form) new Playground(form);
