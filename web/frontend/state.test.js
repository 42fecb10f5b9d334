import { test } from "node:test";
import assert from "node:assert/strict";
import { Autosave, decodeHash, encodeHash, makeState } from "./state.js";

class MemoryStorage {
  constructor() {
    this.map = new Map();
  }
  get length() {
    return this.map.size;
  }
  key(i) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k) {
    return this.map.has(k) ? this.map.get(k) : null;
  }
  setItem(k, v) {
    this.map.set(k, String(v));
  }
  removeItem(k) {
    this.map.delete(k);
  }
}

test("a state survives the hash exactly, unicode and all", () => {
  const s = makeState('[dependencies]\nburn = "0.22"\n', "let 𝑥 = \"é\";\r\n\ttab", "validation");
  const hash = encodeHash(s);
  assert.match(hash, /^#1\.[A-Za-z0-9+\-$]+$/);
  assert.deepEqual(decodeHash(hash), s);
});

test("hashes that are not states decode to null", () => {
  assert.equal(decodeHash(""), null);
  assert.equal(decodeHash("#panel-trace"), null);
  assert.equal(decodeHash("#1.garbage!!"), null);
  assert.equal(decodeHash("#2." + encodeHash(makeState("", "", "panic")).slice(3)), null, "unknown version");
});

test("autosave is per tab and per origin", () => {
  const storage = new MemoryStorage();
  const tabA = new MemoryStorage();
  const tabB = new MemoryStorage();
  const a = new Autosave("/", storage, tabA);
  a.save(makeState("c", "s", "panic"));
  assert.deepEqual(new Autosave("/", storage, tabA).load(), makeState("c", "s", "panic"), "same tab after reload");
  assert.equal(new Autosave("/", storage, tabB).load(), null, "another tab");
  assert.equal(new Autosave("/examples/x", storage, tabA).load(), null, "another page");
});

test("autosave keeps only the most recent saves", () => {
  const storage = new MemoryStorage();
  for (let i = 0; i < 25; i++) {
    new Autosave("/", storage, new MemoryStorage()).save(makeState("", String(i), "panic"), 1000 + i);
  }
  assert.equal(storage.length, 20);
  const kept = [...storage.map.values()].map((v) => JSON.parse(v).state.snippet);
  assert.ok(kept.includes("24") && !kept.includes("4"));
});

test("a crate's files travel in the hash, and a state without files has none", () => {
  const files = { "src/model.rs": "pub fn two() -> usize { 2 }\n" };
  const s = makeState("[dependencies]\n", "mod model;\n", "panic", files);
  assert.deepEqual(decodeHash(encodeHash(s)).files, files);
  assert.equal("files" in makeState("", "", "panic", {}), false);
  assert.equal(decodeHash(encodeHash(makeState("", "", "panic"))).files, undefined);
});
