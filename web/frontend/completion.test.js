import assert from "node:assert/strict";
import { test } from "node:test";

import { ownNames, rustCompletions, tomlCompletions } from "./completion.js";

const data = {
  types: {
    Tensor: { path: "burn::tensor::Tensor", assoc: [{ name: "ones", detail: "fn ones()" }], methods: [{ name: "matmul", detail: "fn matmul(self, other: Self) -> Self" }] },
    Device: { path: "burn::tensor::Device", assoc: [{ name: "cuda", detail: "fn cuda(index: usize) -> Self" }], methods: [] },
  },
  modules: { "burn::tensor::activation": [{ name: "relu", detail: "fn relu()" }] },
  features: [{ name: "cuda", detail: "burn-core/cuda" }],
};

test("a type's associated functions after Type:: and Type::<..>::", () => {
  let r = rustCompletions("let x = Tensor::<2>::on", { data, text: "" });
  assert.equal(r.from, "let x = Tensor::<2>::".length);
  assert.deepEqual(r.options.map((o) => o.label), ["ones"]);
  r = rustCompletions("let d = Device::", { data, text: "" });
  assert.deepEqual(r.options.map((o) => o.label), ["cuda"]);
  assert.equal(rustCompletions("let d = Nothing::", { data, text: "" }), null);
});

test("a module's functions after module::", () => {
  const r = rustCompletions("let y = activation::re", { data, text: "" });
  assert.deepEqual(r.options.map((o) => o.label), ["relu"]);
});

test("a tensor's methods after a name the check says holds one", () => {
  const labelOf = (n) => (n === "x" ? "Tensor<2> · Flex(Cpu) · [2, 3]" : undefined);
  let r = rustCompletions("let y = x.clone().mat", { data, text: "", labelOf });
  assert.deepEqual(r.options.map((o) => o.label), ["matmul"]);
  r = rustCompletions("let y = device.", { data, text: "", labelOf });
  assert.equal(r, null);
});

test("a word offers the program's own names and Burn's types", () => {
  const text = "fn helper() {}\nstruct Model;\nlet mut count = 0;\n";
  assert.deepEqual(ownNames(text).map((o) => o.label), ["helper", "Model", "count"]);
  const r = rustCompletions("let y = Te", { data, text });
  assert.ok(r.options.some((o) => o.label === "Tensor"));
  assert.ok(r.options.some((o) => o.label === "helper"));
});

test("burn's features inside a features array", () => {
  const r = tomlCompletions('[dependencies]\nburn = { version = "0.22", features = ["wgpu", "cu', { data });
  assert.deepEqual(r.options.map((o) => o.label), ["cuda"]);
  assert.equal(tomlCompletions("[dependencies]\nburn = ", { data }), null);
});
