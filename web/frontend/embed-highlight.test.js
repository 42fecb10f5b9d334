import { test } from "node:test";
import assert from "node:assert/strict";
import { highlight } from "./embed-highlight.js";

const tagged = (text, language) =>
  highlight(text, language)
    .filter((t) => t.tag !== "plain")
    .map((t) => `${t.tag}:${t.text}`);

test("tokens cover the text exactly", () => {
  for (const [text, language] of [
    ['use burn::tensor::{Device, Tensor};\nlet s = r#"a "b" c"#; /* x */ let c = \'\\n\';\n', "rust"],
    ["unterminated \"string\n/* comment", "rust"],
    ['[dependencies]\nburn = { version = "0.22" } # note\n', "toml"],
    ["𝑥 é ∇", "rust"],
  ]) {
    assert.equal(highlight(text, language).map((t) => t.text).join(""), text);
  }
});

test("Rust: keywords, types, calls, macros, literals and comments", () => {
  assert.deepEqual(tagged('let a = Tensor::<2>::ones([2, 3], &device); // on the device\nprintln!("{:?}", a != b);', "rust"), [
    "keyword:let",
    "punctuation:=",
    "type:Tensor",
    "punctuation:::<",
    "number:2",
    "punctuation:>::",
    "function:ones",
    "punctuation:([",
    "number:2",
    "punctuation:,",
    "number:3",
    "punctuation:],",
    "punctuation:&",
    "punctuation:);",
    "comment:// on the device",
    "macro:println!",
    "punctuation:(",
    'string:"{:?}"',
    "punctuation:,",
    "punctuation:!=",
    "punctuation:);",
  ]);
});

test("Rust: attributes, lifetimes, chars and suffixed numbers", () => {
  assert.deepEqual(tagged("#[backend_extension(NdArray, Flex)]\nfn f<'a>(x: &'a str) -> char { 'x' } 2.0f32 0x1F", "rust"), [
    "meta:#[backend_extension(NdArray, Flex)]",
    "keyword:fn",
    "punctuation:<",
    "lifetime:'a",
    "punctuation:>(",
    "punctuation::",
    "punctuation:&",
    "lifetime:'a",
    "punctuation:)",
    "punctuation:->",
    "punctuation:{",
    "string:'x'",
    "punctuation:}",
    "number:2.0f32",
    "number:0x1F",
  ]);
});

test("TOML: tables, keys, strings, booleans and comments", () => {
  assert.deepEqual(tagged('[dependencies]\nburn = { default-features = false }\n  [[package.metadata.playground.servers]]\naddress = "ws://x" # remote\n', "toml"), [
    "property:[dependencies]",
    "property:burn",
    "punctuation:=",
    "punctuation:{",
    "property:default-features",
    "punctuation:=",
    "number:false",
    "punctuation:}",
    "property:  [[package.metadata.playground.servers]]",
    "property:address",
    "punctuation:=",
    'string:"ws://x"',
    "comment:# remote",
  ]);
});
