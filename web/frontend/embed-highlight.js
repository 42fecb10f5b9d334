// Syntax highlighting for the embedded snippets: a small tokenizer for the
// Rust the engine reads and for Cargo.toml. The playground page uses
// CodeMirror; an embed must stay a few kilobytes, and a docs page only
// needs colours, not parsing. Tokens cover the text exactly, in order, so
// the view can lay spans, marks and badges over them by offset.

const RUST_KEYWORDS = new Set(
  ("as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut " +
    "pub ref return self Self static struct super trait true type unsafe use where while").split(" "),
);

// Each rule is tried in order at the current position; the first match
// wins. A rule's tag may depend on what follows the match.
const RUST_RULES = [
  [/\/\/[^\n]*/y, "comment"],
  [/\/\*[\s\S]*?(?:\*\/|$)/y, "comment"],
  [/#!?\[[^\]\n]*\]?/y, "meta"],
  [/b?r(#*)"[\s\S]*?(?:"\1|$)/y, "string"],
  [/b?"(?:[^"\\]|\\[\s\S])*(?:"|$)/y, "string"],
  [/b?'(?:[^'\\\n]|\\[^\n]{1,10})'/y, "string"],
  [/'[A-Za-z_]\w*/y, "lifetime"],
  [/(?:0x[\da-fA-F_]+|0o[0-7_]+|0b[01_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)(?:[iuf](?:8|16|32|64|128|size))?/y, "number"],
  [/[A-Za-z_]\w*!(?=\s*[([{])/y, "macro"],
  [/[A-Za-z_]\w*/y, (word, rest) => {
    if (RUST_KEYWORDS.has(word)) return "keyword";
    if (/^[A-Z]/.test(word)) return "type";
    if (/^\s*(?:::\s*<[^>]*>\s*)?\(/.test(rest)) return "function";
    return "plain";
  }],
  [/\s+/y, "plain"],
  [/[^\w\s]/y, "punctuation"],
];

const TOML_RULES = [
  [/#[^\n]*/y, "comment"],
  [/^[ \t]*\[\[?[^\]\n]*\]\]?/my, "property"],
  [/"""[\s\S]*?(?:"""|$)/y, "string"],
  [/"(?:[^"\\\n]|\\.)*"?/y, "string"],
  [/'[^'\n]*'?/y, "string"],
  [/(?:true|false)\b/y, "number"],
  [/[+-]?\d[\w.:+-]*/y, "number"],
  [/[A-Za-z_][\w-]*(?=\s*(?:\.[\w-]+\s*)*=)/y, "property"],
  // A line break alone, so that a table header's rule sees its line start.
  [/\n|[^\S\n]+/y, "plain"],
  [/[\w-]+/y, "plain"],
  [/[^\w\s]/y, "punctuation"],
];

function tokenize(text, rules) {
  const tokens = [];
  let at = 0;
  const push = (t, tag) => {
    const last = tokens[tokens.length - 1];
    if (last && last.tag === tag) last.text += t;
    else tokens.push({ text: t, tag });
  };
  while (at < text.length) {
    let matched = false;
    for (const [rx, tag] of rules) {
      rx.lastIndex = at;
      const m = rx.exec(text);
      if (!m || m[0].length === 0) continue;
      push(m[0], typeof tag === "function" ? tag(m[0], text.slice(at + m[0].length, at + m[0].length + 64)) : tag);
      at += m[0].length;
      matched = true;
      break;
    }
    if (!matched) {
      push(text[at], "plain");
      at++;
    }
  }
  return tokens;
}

// highlight returns the tokens of text ({text, tag}), in "rust" or "toml".
export function highlight(text, language) {
  return tokenize(text, language === "toml" ? TOML_RULES : RUST_RULES);
}
