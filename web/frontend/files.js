// The crate's files: a tab per file above the Rust editor. The first tab
// is the entry (src/main.rs, the snippet the form posts); "+ File" adds
// another file of the crate (src/model.rs, src/data/mod.rs, ...), each in
// an editor of its own, and × removes it. With files the page's Request is
// a crate (contract version 2: its files beside the snippet), and the
// state a share link or the URL hash carries holds them.

import { el } from "./dom.js";

// validPath says why a new file's path cannot be one of the crate's, or ""
// when it can.
export function validPath(path, existing) {
  if (!/^(src|examples|tests|benches)\/[\w\-/]+\.rs$/.test(path) || path.includes("//")) {
    return "a file of the crate under src/, examples/, tests/ or benches/, ending in .rs";
  }
  if (path === "src/main.rs") return "src/main.rs is the first tab";
  if (existing.includes(path)) return `${path} is already a tab`;
  return "";
}

export class FileTabs {
  // pane is the section of the Rust editor; entry its editor; makeEditor
  // (textarea) makes the editor of another file; onChange is called when
  // the files change.
  constructor(pane, { entry, makeEditor, onChange }) {
    this.pane = pane;
    this.entry = entry;
    this.makeEditor = makeEditor;
    this.onChange = onChange;
    this.files = new Map(); // path -> {editor, textarea, tab}
    this.active = "src/main.rs";
    this.label = pane.querySelector(".pane-title");
    this.bar = el("div", { class: "file-tabs", role: "tablist", "aria-label": "Files of the crate", "data-testid": "file-tabs" });
    this.entryTab = this.tab("src/main.rs", false);
    this.add = el("button", { type: "button", class: "file-add", "data-testid": "add-file", title: "Add a file to the crate" }, "+ File");
    this.add.addEventListener("click", () => this.ask());
    this.bar.append(this.entryTab, this.add);
    pane.querySelector(".pane-head").append(this.bar);
    this.refresh();
  }

  tab(path, removable) {
    const tab = el("span", { class: "file-tab", role: "tab", tabindex: "0", "data-file": path, "data-testid": "file-tab" }, el("span", { class: "file-name" }, path));
    tab.addEventListener("click", (e) => {
      if (!e.target.closest("[data-remove]")) this.show(path);
    });
    tab.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        this.show(path);
      }
    });
    if (removable) {
      const remove = el("button", { type: "button", class: "file-remove", "data-remove": "", "data-testid": "remove-file", "aria-label": `Remove ${path}` }, "×");
      remove.addEventListener("click", () => this.remove(path));
      tab.append(remove);
    }
    return tab;
  }

  // ask shows a field for the new file's path.
  ask() {
    if (this.bar.querySelector('[data-testid="new-file-name"]')) return;
    const input = el("input", { type: "text", class: "file-new", placeholder: "src/model.rs", "aria-label": "Path of the new file", "data-testid": "new-file-name", spellcheck: "false" });
    const finish = (create) => {
      const path = input.value.trim();
      const why = create ? validPath(path, [...this.files.keys()]) : "";
      if (create && why) {
        input.setCustomValidity(why);
        input.reportValidity();
        return;
      }
      input.remove();
      if (create) {
        this.addFile(path, "");
        this.show(path);
        this.onChange();
      }
    };
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        finish(true);
      } else if (e.key === "Escape") finish(false);
    });
    input.addEventListener("input", () => input.setCustomValidity(""));
    this.add.before(input);
    input.focus();
  }

  addFile(path, text) {
    const textarea = el("textarea", { class: "code", rows: "14", spellcheck: "false", autocapitalize: "off", "data-editor": "rust", "data-testid": `file-${path}` });
    textarea.value = text;
    this.pane.append(textarea);
    const editor = this.makeEditor(textarea);
    const tab = this.tab(path, true);
    this.add.before(tab);
    this.files.set(path, { editor, textarea, tab });
    this.refresh();
  }

  remove(path) {
    const f = this.files.get(path);
    if (!f) return;
    f.editor.dom.remove();
    f.textarea.remove();
    f.tab.remove();
    this.files.delete(path);
    if (this.active === path) this.active = "src/main.rs";
    this.refresh();
    this.onChange();
  }

  show(path) {
    this.active = this.files.has(path) ? path : "src/main.rs";
    this.refresh();
    this.editorFor(this.active)?.focus?.();
  }

  // refresh shows the active file's editor and names the tabs.
  refresh() {
    const crate = this.files.size > 0;
    // One file needs no tab: the pane's title names it.
    this.entryTab.hidden = !crate;
    this.entryTab.querySelector(".file-name").textContent = "src/main.rs";
    this.label.textContent = this.active === "src/main.rs" ? (crate ? "src/main.rs" : "main.rs") : this.active;
    this.entry.dom.hidden = this.active !== "src/main.rs";
    this.entryTab.setAttribute("aria-selected", String(this.active === "src/main.rs"));
    for (const [p, f] of this.files) {
      f.editor.dom.hidden = p !== this.active;
      f.tab.setAttribute("aria-selected", String(p === this.active));
    }
  }

  // texts are the files besides the entry, by path.
  texts() {
    const out = {};
    for (const [p, f] of this.files) out[p] = f.editor.getText();
    return out;
  }

  // set replaces the files with those of a state.
  set(files) {
    for (const p of [...this.files.keys()]) {
      const f = this.files.get(p);
      f.editor.dom.remove();
      f.textarea.remove();
      f.tab.remove();
      this.files.delete(p);
    }
    for (const [p, text] of Object.entries(files ?? {})) this.addFile(p, text);
    this.active = "src/main.rs";
    this.refresh();
  }

  // editorFor is the editor of a Result's file name: the entry is main.rs
  // for a one-file program and src/main.rs for a crate.
  editorFor(file) {
    if (file === "main.rs" || file === "src/main.rs") return this.entry;
    return this.files.get(file)?.editor;
  }

  // all are the Rust editors with the Result's file name of each.
  all() {
    const crate = this.files.size > 0;
    return [[crate ? "src/main.rs" : "main.rs", this.entry], ...[...this.files].map(([p, f]) => [p, f.editor])];
  }
}
