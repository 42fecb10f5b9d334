// The engine reports positions as 1-based lines and columns counted in
// Unicode code points (and byte offsets); CodeMirror addresses text in
// UTF-16 code units. This is the one place that converts between them.

// offsetOf returns the UTF-16 offset of a {line, column} position in text.
// Positions past the end of a line or of the text are clamped.
export function offsetOf(text, pos) {
  let line = 1;
  let i = 0;
  while (line < pos.line) {
    const nl = text.indexOf("\n", i);
    if (nl < 0) return text.length;
    i = nl + 1;
    line++;
  }
  let column = 1;
  while (column < pos.column && i < text.length && text[i] !== "\n") {
    const code = text.codePointAt(i);
    i += code > 0xffff ? 2 : 1;
    column++;
  }
  return i;
}

// rangeOf converts an engine span to a UTF-16 [from, to) range in text.
export function rangeOf(text, span) {
  const from = offsetOf(text, span.start);
  const to = Math.max(from, offsetOf(text, span.end));
  return { from, to };
}

// spanOfText is the engine span covering all of text.
export function spanOfText(text) {
  const lines = text.split("\n");
  const last = lines[lines.length - 1];
  return {
    start: { line: 1, column: 1, offset: 0 },
    end: {
      line: lines.length,
      column: [...last].length + 1,
      offset: new TextEncoder().encode(text).length,
    },
  };
}
