// The style sheet of a <dispatch-snippet>'s shadow root. The host page's
// styles cannot reach in and these cannot leak out; it is adopted as a
// constructed style sheet, which a page's content security policy does not
// need to allow. Colours are the playground's (web/static/css).

const LIGHT = `
  --surface: #ffffff; --surface-2: #f6f6f3; --text: #1d1f21; --muted: #5c6166; --border: #d9d9d4;
  --accent: #b8430f; --accent-text: #ffffff; --focus: #1a66d2;
  --error: #b3261e; --error-bg: #fdecea; --warning: #8a5a00; --warning-bg: #fff4d6; --note: #1f5fa8;
  --ok: #1e7a3b; --ok-bg: #e6f4ea; --badge: #eef0f3; --badge-text: #38414a;
  --syn-keyword: #8f2f8b; --syn-string: #2f6f1f; --syn-number: #a04c00; --syn-comment: #6e7378;
  --syn-type: #185f8c; --syn-function: #2b4fb0; --syn-property: #8a3b12; --syn-punctuation: #4c5156;
  color-scheme: light;`;

const DARK = `
  --surface: #1c1d20; --surface-2: #25272b; --text: #e6e6e3; --muted: #a0a4a8; --border: #34373c;
  --accent: #f0753a; --accent-text: #141517; --focus: #7ab2ff;
  --error: #ff8a80; --error-bg: #3a1d1b; --warning: #f2c66d; --warning-bg: #3a3018; --note: #8ab4f8;
  --ok: #7fd39a; --ok-bg: #18301f; --badge: #2c3036; --badge-text: #c9d1d9;
  --syn-keyword: #d6a0ff; --syn-string: #a5d98b; --syn-number: #f5b56b; --syn-comment: #8b9096;
  --syn-type: #7cc7f0; --syn-function: #8fb4ff; --syn-property: #f0a27a; --syn-punctuation: #b8bcc0;
  color-scheme: dark;`;

export const STYLE = `
:host {
  display: block; margin: 1em 0; ${LIGHT}
  --mono: ui-monospace, "SF Mono", "Cascadia Code", "JetBrains Mono", Menlo, Consolas, monospace;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font: 14px/1.5 var(--sans); color: var(--text); text-align: left;
}
:host([theme="dark"]) { ${DARK} }
@media (prefers-color-scheme: dark) { :host(:not([theme="light"])) { ${DARK} } }
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
.frame { border: 1px solid var(--border); border-radius: 8px; background: var(--surface); overflow: hidden; }
.editor { display: grid; grid-template-columns: minmax(100%, max-content); overflow-x: auto; }
.editor > pre, .editor > textarea {
  grid-area: 1 / 1; margin: 0; padding: 10px 14px; border: 0; min-width: 100%;
  font: 13px/20px var(--mono); tab-size: 4; white-space: pre; overflow-wrap: normal; letter-spacing: normal;
}
.editor > textarea {
  color: transparent; caret-color: var(--text); background: transparent; resize: none; overflow: hidden; outline: none;
}
.editor:focus-within { box-shadow: inset 0 0 0 2px var(--focus); }
.editor > textarea::selection { background: color-mix(in srgb, var(--focus) 30%, transparent); color: transparent; }
.t-keyword { color: var(--syn-keyword); } .t-string { color: var(--syn-string); } .t-number { color: var(--syn-number); }
.t-comment { color: var(--syn-comment); font-style: italic; } .t-type { color: var(--syn-type); }
.t-function, .t-macro { color: var(--syn-function); } .t-property, .t-meta { color: var(--syn-property); }
.t-punctuation { color: var(--syn-punctuation); } .t-lifetime { color: var(--syn-keyword); }
.mark-error { text-decoration: wavy underline var(--error); text-decoration-skip-ink: none; text-underline-offset: 3px; background: var(--error-bg); }
.mark-label { text-decoration: underline dotted var(--note); text-underline-offset: 3px; }
.inlay-hint { color: var(--muted); font-style: italic; font-size: 0.9em; }
.device-badge {
  display: inline-block; margin-left: 14px; padding: 0 7px; border-radius: 8px; vertical-align: 1px;
  font: 11px/16px var(--sans); background: var(--badge); color: var(--badge-text); white-space: nowrap; user-select: none;
}
.device-badge + .device-badge { margin-left: 4px; }
details.config { border-top: 1px solid var(--border); }
details.config > summary { padding: 4px 14px; font-size: 12px; color: var(--muted); cursor: pointer; }
.bar { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; padding: 6px 10px; border-top: 1px solid var(--border); background: var(--surface-2); font-size: 13px; }
.button { font: inherit; font-size: 13px; padding: 2px 12px; border: 1px solid var(--border); border-radius: 6px; background: var(--surface); color: var(--text); cursor: pointer; }
.button:hover { border-color: var(--muted); }
.button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-text); }
.button:disabled { opacity: 0.6; cursor: default; }
:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
.status { color: var(--muted); }
.via { margin-left: auto; color: var(--muted); font-size: 12px; }
.via[data-via="server"] { text-decoration: underline dotted; cursor: help; }
.open { color: var(--accent); font-size: 12px; }
.result { padding: 8px 14px 10px; border-top: 1px solid var(--border); }
.result[aria-busy="true"] { opacity: 0.55; }
.summary { margin: 0; font-weight: 600; }
.summary::before { content: "● "; }
.status-ok { color: var(--ok); }
.status-panicked, .status-rejected, .status-failed { color: var(--error); }
.status-ok.incomplete { color: var(--warning); }
.incomplete { margin: 4px 0 0; font-size: 12.5px; }
.card { margin-top: 6px; padding: 8px 10px; border-left: 3px solid var(--error); background: var(--error-bg); border-radius: 0 6px 6px 0; }
.card.severity-warning { border-color: var(--warning); background: var(--warning-bg); }
.card.severity-note { border-color: var(--note); background: var(--surface-2); }
.card-title { margin: 0; font-size: 14px; }
.message, .output { margin: 4px 0; font: 12.5px/1.45 var(--mono); white-space: pre-wrap; overflow-wrap: anywhere; }
.output { padding: 6px 8px; background: var(--surface-2); border-radius: 6px; }
.where, .solution, .more, .failure { margin: 4px 0; font-size: 13px; }
.where { color: var(--muted); }
.where a { color: inherit; }
.fix { margin-top: 4px; }
.tests-summary { margin: 8px 0 0; font: 600 12.5px var(--mono); }
.test-list { margin: 4px 0 0; padding: 0; list-style: none; font-size: 13px; }
.test { margin: 2px 0; }
.test-status { display: inline-block; min-width: 4.5em; font: 600 12px var(--mono); }
.test-ok .test-status { color: var(--ok); }
.test-failed .test-status { color: var(--error); }
.test-ignored .test-status { color: var(--muted); }
.test-panic { display: block; margin-left: 4.5em; font: 12px/1.4 var(--mono); color: var(--muted); white-space: pre-wrap; overflow-wrap: anywhere; }
`;
