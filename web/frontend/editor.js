// The two code editors: CodeMirror 6 over the form's textareas, which stay
// in the form (hidden) and in sync, so the form still posts the texts. If
// CodeMirror cannot start, the textareas themselves are the editors.

import { EditorState, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration,
  EditorView,
  WidgetType,
  drawSelection,
  hoverTooltip,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { autocompletion, completionKeymap } from "@codemirror/autocomplete";
import { HighlightStyle, StreamLanguage, bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { rust } from "@codemirror/lang-rust";
import { toml } from "@codemirror/legacy-modes/mode/toml";
import { tags } from "@lezer/highlight";
import { offsetOf, rangeOf } from "./positions.js";

// Colours come from the page's CSS variables, so the editors follow the
// light or dark scheme with the rest of the page.
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.moduleKeyword, tags.definitionKeyword], color: "var(--syn-keyword)" },
  { tag: [tags.string, tags.special(tags.string), tags.character], color: "var(--syn-string)" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--syn-number)" },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: "var(--syn-comment)", fontStyle: "italic" },
  { tag: [tags.typeName, tags.className, tags.namespace], color: "var(--syn-type)" },
  { tag: [tags.function(tags.variableName), tags.macroName], color: "var(--syn-function)" },
  { tag: [tags.propertyName, tags.heading], color: "var(--syn-property)" },
  { tag: [tags.operator, tags.punctuation, tags.bracket], color: "var(--syn-punctuation)" },
]);

const theme = EditorView.theme({
  "&": { backgroundColor: "var(--surface)", color: "var(--text)" },
  ".cm-content": { caretColor: "var(--text)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": { backgroundColor: "var(--selection)" },
  ".cm-tooltip": { backgroundColor: "var(--surface)", color: "var(--text)", border: "1px solid var(--border)" },
  ".cm-diagnostic": { fontFamily: "var(--sans)", whiteSpace: "pre-wrap" },
  ".cm-inlay-hint": { color: "var(--muted)", fontStyle: "italic", fontSize: "0.9em", paddingLeft: "0.2em" },
  ".cm-hint-tooltip": { fontFamily: "var(--mono)", padding: "0.2em 0.5em" },
});

// Hints are the check's labels of the program's tensors (the Result's
// hints): an inlay after the name each `let` binds, and a tooltip on
// hovering any hinted name. The field keeps them where they were as the
// text is edited, until the next result replaces them.
class HintWidget extends WidgetType {
  constructor(label) {
    super();
    this.label = label;
  }
  eq(other) {
    return other.label === this.label;
  }
  toDOM() {
    const span = document.createElement("span");
    span.className = "cm-inlay-hint";
    span.dataset.testid = "inlay-hint";
    span.textContent = ": " + this.label;
    return span;
  }
  ignoreEvent() {
    return false;
  }
}

const setHints = StateEffect.define();

// A hint is an inlay when its name is what a `let` binds.
const letBefore = /\blet\s+(?:mut\s+)?$/;

const hintField = StateField.define({
  create: () => ({ list: [], inlays: Decoration.none }),
  update(value, tr) {
    for (const e of tr.effects) {
      if (e.is(setHints)) return e.value;
    }
    if (!tr.docChanged) return value;
    return {
      list: value.list.map((h) => ({ ...h, from: tr.changes.mapPos(h.from), to: tr.changes.mapPos(h.to, 1) })),
      inlays: value.inlays.map(tr.changes),
    };
  },
  provide: (f) => EditorView.decorations.from(f, (v) => v.inlays),
});

function hintValue(doc, hints) {
  const text = doc.toString();
  const list = [];
  const inlays = [];
  for (const h of hints) {
    const { from, to } = rangeOf(text, h.span);
    if (to <= from || to > text.length) continue;
    list.push({ from, to, label: h.label });
    const line = doc.lineAt(from);
    if (letBefore.test(text.slice(line.from, from))) {
      inlays.push(Decoration.widget({ widget: new HintWidget(h.label), side: 1 }).range(to));
    }
  }
  return { list, inlays: Decoration.set(inlays, true) };
}

const hintHover = hoverTooltip((view, pos) => {
  const hit = view.state.field(hintField).list.find((h) => h.from <= pos && pos <= h.to);
  if (!hit) return null;
  return {
    pos: hit.from,
    end: hit.to,
    create() {
      const dom = document.createElement("div");
      dom.className = "cm-hint-tooltip";
      dom.dataset.testid = "hint-tooltip";
      dom.textContent = hit.label;
      return { dom };
    },
  };
});

// labelOf is the hint label of the last hinted name spelled name.
function labelOf(state, name) {
  let label;
  for (const h of state.field(hintField).list) {
    if (state.sliceDoc(h.from, h.to) === name) label = h.label;
  }
  return label;
}

// completionSource adapts complete({line, lineFrom, upTo, text, labelOf}),
// which returns {from, options} with from an offset in the document (or
// null), to CodeMirror's completion. Without an explicit request it
// completes only once a word, `.` or `::` has started.
function completionSource(complete) {
  return async (ctx) => {
    const line = ctx.state.doc.lineAt(ctx.pos);
    const before = ctx.state.sliceDoc(line.from, ctx.pos);
    if (!ctx.explicit && !/(?:\w|\.|::)$/.test(before)) return null;
    const r = await complete({
      line: before,
      lineFrom: line.from,
      upTo: ctx.state.sliceDoc(0, ctx.pos),
      text: ctx.state.doc.toString(),
      labelOf: (name) => labelOf(ctx.state, name),
    });
    if (!r || r.options.length === 0) return null;
    return { from: r.from, options: r.options, validFor: /^[\w-]*$/ };
  };
}

// rustfmt indents by four spaces. Code lines scroll rather than wrap;
// Cargo.toml's long feature lists wrap.
const languages = {
  rust: () => [rust(), indentUnit.of("    ")],
  toml: () => [StreamLanguage.define(toml), EditorView.lineWrapping],
};

// createEditor turns a textarea into a CodeMirror editor and returns the
// page's editor interface. onChange is called after every edit; onRun on
// Ctrl/Cmd-Enter; onFix(diagnosticIndex, fixIndex) from a marker's tooltip;
// complete, when given, completes (see completionSource).
export function createEditor(textarea, { nonce, onChange, onRun, onFix, complete }) {
  const label = document.querySelector(`label[for="${textarea.id}"]`);
  const view = new EditorView({
    parent: textarea.parentElement,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        lintGutter(),
        hintField,
        hintHover,
        complete ? autocompletion({ override: [completionSource(complete)], icons: false }) : [],
        syntaxHighlighting(highlight),
        languages[textarea.dataset.editor](),
        theme,
        EditorView.cspNonce.of(nonce),
        keymap.of([{ key: "Mod-Enter", run: () => (onRun(), true) }, ...completionKeymap, indentWithTab, ...defaultKeymap, ...historyKeymap]),
        EditorView.contentAttributes.of({
          "aria-labelledby": label ? label.id : "",
          "aria-describedby": "keyboard-hint",
          "aria-multiline": "true",
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) {
            textarea.value = u.state.doc.toString();
            onChange();
          }
        }),
      ],
    }),
  });
  view.dom.dataset.testid = `${textarea.dataset.testid}-editor`;
  textarea.after(view.dom);
  textarea.hidden = true;
  if (label) {
    label.removeAttribute("for");
    label.addEventListener("click", () => view.focus());
  }

  return {
    getText: () => view.state.doc.toString(),
    // setText replaces only the part of the text that changed, so the
    // cursor and the undo history stay meaningful.
    setText(text) {
      const old = view.state.doc.toString();
      if (old === text) return;
      let start = 0;
      while (start < old.length && start < text.length && old[start] === text[start]) start++;
      let end = 0;
      while (end < old.length - start && end < text.length - start && old[old.length - 1 - end] === text[text.length - 1 - end]) end++;
      view.dispatch({ changes: { from: start, to: old.length - end, insert: text.slice(start, text.length - end) } });
    },
    // showDiagnostics marks each diagnostic's span, and its labels, with
    // the message on hover and a button per fix.
    showDiagnostics(items) {
      const text = view.state.doc.toString();
      const marks = [];
      for (const item of items) {
        if (item.span) {
          const { from, to } = rangeOf(text, item.span);
          marks.push({
            from,
            to,
            severity: item.severity === "note" ? "info" : item.severity,
            source: item.code,
            message: item.message,
            markClass: item.markClass,
            actions: (item.fixes ?? []).map((f, i) => ({ name: f.title, apply: () => onFix(item.index, i) })),
          });
        }
      }
      view.dispatch(setDiagnostics(view.state, marks));
    },
    // showHints shows a result's hints of this file.
    showHints(hints) {
      view.dispatch({ effects: setHints.of(hintValue(view.state.doc, hints)) });
    },
    focusAt(line, column) {
      const at = offsetOf(view.state.doc.toString(), { line, column });
      view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
      view.focus();
    },
    focus: () => view.focus(),
    dom: view.dom,
  };
}

// textareaEditor is the same interface over a plain textarea.
export function textareaEditor(textarea, { onChange, onRun }) {
  textarea.addEventListener("input", onChange);
  textarea.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      onRun();
    }
  });
  return {
    getText: () => textarea.value.replaceAll("\r\n", "\n"),
    setText(text) {
      textarea.value = text;
    },
    showDiagnostics() {},
    showHints() {},
    focusAt(line, column) {
      const at = offsetOf(textarea.value, { line, column });
      textarea.focus();
      textarea.setSelectionRange(at, at);
    },
    dom: textarea,
  };
}
