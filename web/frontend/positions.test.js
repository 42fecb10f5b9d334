import { test } from "node:test";
import assert from "node:assert/strict";
import { offsetOf, rangeOf, spanOfText } from "./positions.js";

test("columns count code points, offsets count UTF-16 units", () => {
  const text = "let a = 1;\nlet 𝑥 = é + b;\n";
  // 𝑥 is one code point but two UTF-16 units; é is one of each.
  assert.equal(offsetOf(text, { line: 2, column: 5 }), 15);
  assert.equal(text.slice(15, 17), "𝑥");
  assert.equal(offsetOf(text, { line: 2, column: 6 }), 17);
  assert.equal(offsetOf(text, { line: 2, column: 13 }), text.indexOf("b"));
});

test("positions past a line or the text are clamped", () => {
  const text = "ab\ncd";
  assert.equal(offsetOf(text, { line: 1, column: 10 }), 2);
  assert.equal(offsetOf(text, { line: 9, column: 1 }), 5);
});

test("rangeOf never returns an inverted range", () => {
  const r = rangeOf("abc", { start: { line: 1, column: 3 }, end: { line: 1, column: 1 } });
  assert.deepEqual(r, { from: 2, to: 2 });
});

test("spanOfText ends after the last code point, with a byte offset", () => {
  const span = spanOfText("fn main() {\n    é𝑥\n}");
  assert.deepEqual(span.end, { line: 3, column: 2, offset: 24 });
  assert.deepEqual(spanOfText("é𝑥").end, { line: 1, column: 3, offset: 6 });
});
