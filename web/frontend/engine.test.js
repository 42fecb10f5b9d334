import { test } from "node:test";
import assert from "node:assert/strict";
import { Engine } from "./engine.js";

// FakeWorker answers like worker.js: ready after load, then each run with
// a result, except snippets containing "spin", which it never answers.
class FakeWorker {
  static made = [];
  constructor() {
    this.terminated = false;
    this.posted = [];
    FakeWorker.made.push(this);
  }
  postMessage(msg) {
    this.posted.push(msg);
    queueMicrotask(() => {
      if (this.terminated) return;
      if (msg.type === "load") this.onmessage({ data: { type: "ready", module: "compiled" } });
      if (msg.type === "run") {
        this.onmessage({ data: { type: "started", id: msg.id } });
        if (!msg.request.snippet.includes("spin")) {
          this.onmessage({ data: { type: "result", id: msg.id, json: JSON.stringify({ status: "ok", echo: msg.request.snippet }) } });
        }
      }
    });
  }
  terminate() {
    this.terminated = true;
  }
}

const limitResult = {
  status: "rejected",
  diagnostics: [{ code: "playground-time-limit", span: null }],
};

function engine(statuses = []) {
  FakeWorker.made = [];
  const e = new Engine({
    workerURL: "worker.js",
    wasmURL: "engine.wasm",
    timeLimitMs: 50,
    timeLimitResult: limitResult,
    onStatus: (s) => statuses.push(s.state),
    newWorker: () => new FakeWorker(),
  });
  e.start();
  return e;
}

test("a run comes back from the worker", async () => {
  const statuses = [];
  const e = engine(statuses);
  const out = await e.run({ config: "", snippet: "let a = 1;" });
  assert.equal(out.via, "browser");
  assert.deepEqual(out.result, { status: "ok", echo: "let a = 1;" });
  assert.deepEqual(statuses, ["loading", "ready"]);
});

test("the watchdog stops a runaway run and restarts from the compiled module", async () => {
  const e = engine();
  const started = Date.now();
  const out = await e.run({ config: "", snippet: "spin é" });
  assert.ok(Date.now() - started >= 45, "waited for the limit");
  assert.equal(out.stopped, true);
  assert.equal(out.result.diagnostics[0].code, "playground-time-limit");
  assert.deepEqual(out.result.diagnostics[0].span.end, { line: 1, column: 7, offset: 7 });
  assert.equal(limitResult.diagnostics[0].span, null, "the template is not changed");
  assert.equal(FakeWorker.made.length, 2);
  assert.equal(FakeWorker.made[0].terminated, true);
  assert.deepEqual(FakeWorker.made[1].posted[0], { type: "load", url: "engine.wasm", module: "compiled" });
  const next = await e.run({ config: "", snippet: "fine" });
  assert.equal(next.result.echo, "fine", "the new worker answers");
});

test("only the latest of several waiting runs is run", async () => {
  const e = engine();
  const first = e.run({ config: "", snippet: "a" });
  const second = e.run({ config: "", snippet: "b" });
  const third = e.run({ config: "", snippet: "c" });
  assert.equal((await first).result.echo, "a");
  assert.equal(await second, null);
  assert.equal((await third).result.echo, "c");
});

test("without a worker, runs go to the server's /api/run", async () => {
  const statuses = [];
  const calls = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url, init) => {
    calls.push({ url, body: JSON.parse(init.body) });
    if (JSON.parse(init.body).snippet === "busy") {
      return new Response(JSON.stringify({ error: "every instance is busy" }), { status: 429 });
    }
    return new Response(JSON.stringify({ status: "ok", diagnostics: [] }), { status: 200 });
  };
  try {
    const e = new Engine({
      workerURL: "worker.js",
      wasmURL: "engine.wasm",
      timeLimitMs: 50,
      timeLimitResult: limitResult,
      onStatus: (s) => statuses.push(s.state),
      newWorker: () => {
        throw new Error("workers are disabled");
      },
    });
    e.start();
    const out = await e.run({ config: "c", snippet: "s" });
    assert.deepEqual(statuses, ["loading", "server"]);
    assert.equal(out.via, "server");
    assert.equal(out.result.status, "ok");
    assert.deepEqual(calls[0], { url: "/api/run", body: { config: "c", snippet: "s" } });
    const busy = await e.run({ config: "c", snippet: "busy" });
    assert.equal(busy.result, null);
    assert.match(busy.failure, /every instance is busy/);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test("only an engine made with tierUp asks its worker to tier the engine up", async () => {
  FakeWorker.made = [];
  const options = { workerURL: "w.js", wasmURL: "engine.wasm", timeLimitMs: 1000, timeLimitResult: {}, onStatus: () => {}, newWorker: () => new FakeWorker() };
  new Engine({ ...options, tierUp: true }).start();
  new Engine(options).start();
  assert.equal(FakeWorker.made[0].posted[0].tierUp, true);
  assert.equal("tierUp" in FakeWorker.made[1].posted[0], false);
});
