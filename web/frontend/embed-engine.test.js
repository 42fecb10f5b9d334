import { test } from "node:test";
import assert from "node:assert/strict";
import { EngineHub, MANIFEST_PATH } from "./embed-engine.js";

const manifest = {
  version: "1",
  engine: "/static/engine.abc.wasm",
  worker: "/static/dist/worker.def.js",
  timeLimitMs: 50,
  timeLimitResult: { status: "rejected", diagnostics: [] },
};

// FakeWorker answers like worker.js, after a load it only acknowledges
// once the test says so.
class FakeWorker {
  constructor(url) {
    this.url = url;
    this.posted = [];
    this.terminated = false;
  }
  postMessage(msg) {
    this.posted.push(msg);
    if (msg.type === "run") {
      queueMicrotask(() => {
        this.onmessage({ data: { type: "started", id: msg.id } });
        this.onmessage({ data: { type: "result", id: msg.id, json: JSON.stringify({ status: "ok", echo: msg.request.snippet }) } });
      });
    }
  }
  ready() {
    this.onmessage({ data: { type: "ready", module: "compiled" } });
  }
  fail(error) {
    this.onmessage({ data: { type: "unavailable", error } });
  }
  terminate() {
    this.terminated = true;
  }
}

function hub({ fetchJSON = async () => manifest, hasWebAssembly = () => true } = {}) {
  const workers = [];
  const fetched = [];
  const statuses = [];
  const h = new EngineHub({
    fetchJSON: (url) => {
      fetched.push(url);
      return fetchJSON(url);
    },
    newWorker: (url) => {
      const w = new FakeWorker(url);
      workers.push(w);
      return w;
    },
    hasWebAssembly,
    onStatus: (origin, s) => statuses.push(`${origin} ${s.state}`),
  });
  return { h, workers, fetched, statuses };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test("every browser snippet of a page shares one worker, and runs wait for it to be ready", async () => {
  const { h, workers, fetched } = hub();
  const lane = h.lane("https://play.example", "browser");
  assert.equal(h.lane("https://play.example", "browser"), lane);
  // A second server's snippet still runs on the page's one engine.
  assert.equal(h.lane("https://other.example", "browser"), lane);
  const order = [];
  const runs = ["a", "b", "c"].map((s) => lane.run({ config: "", snippet: s }).then((o) => (order.push(o.result.echo), o)));
  await tick();
  assert.deepEqual(fetched, ["https://play.example" + MANIFEST_PATH]);
  assert.equal(workers.length, 1);
  assert.equal(workers[0].url, "https://play.example/static/dist/worker.def.js");
  assert.deepEqual(workers[0].posted, [{ type: "load", url: "https://play.example/static/engine.abc.wasm", module: null }], "no run before the engine is ready");
  workers[0].ready();
  const outcomes = await Promise.all(runs);
  assert.deepEqual(order, ["a", "b", "c"], "runs go in the order they were asked for");
  assert.ok(outcomes.every((o) => o.via === "browser"));
  assert.equal(workers.length, 1);
});

test("when the worker cannot compile the engine, runs go to the first snippet's server", async (t) => {
  const posts = [];
  t.mock.method(globalThis, "fetch", async (url, init) => {
    posts.push([url, JSON.parse(init.body)]);
    return new Response(JSON.stringify({ status: "ok", from: "server" }), { status: 200 });
  });
  const { h, workers, statuses } = hub();
  const lane = h.lane("https://play.example", "browser");
  const run = lane.run({ config: "", snippet: "a" });
  await tick();
  workers[0].fail("Refused to compile or instantiate WebAssembly module");
  const outcome = await run;
  assert.equal(outcome.via, "server");
  assert.deepEqual(outcome.result, { status: "ok", from: "server" });
  assert.deepEqual(posts, [["https://play.example/api/run", { config: "", snippet: "a" }]]);
  assert.equal(lane.status.reason, "Refused to compile or instantiate WebAssembly module");
  assert.ok(workers[0].terminated);
  assert.deepEqual(statuses, ["https://play.example loading", "https://play.example loading", "https://play.example server"]);
});

test("without WebAssembly nothing is fetched for the browser engine", async (t) => {
  t.mock.method(globalThis, "fetch", async () => new Response(JSON.stringify({ status: "panicked" }), { status: 200 }));
  const { h, workers, fetched } = hub({ hasWebAssembly: () => false });
  const lane = h.lane("https://play.example", "browser");
  const outcome = await lane.run({ config: "", snippet: "a" });
  assert.equal(outcome.via, "server");
  assert.equal(lane.status.reason, "WebAssembly is not available in this page");
  assert.deepEqual(fetched, []);
  assert.equal(workers.length, 0);
});

test("a manifest that cannot be read sends runs to the server and says why", async (t) => {
  t.mock.method(globalThis, "fetch", async () => new Response(JSON.stringify({ status: "ok" }), { status: 200 }));
  const { h, workers } = hub({ fetchJSON: async (url) => Promise.reject(new Error(`${url}: HTTP 404`)) });
  const lane = h.lane("https://play.example", "browser");
  const outcome = await lane.run({ config: "", snippet: "a" });
  assert.equal(outcome.via, "server");
  assert.equal(lane.status.reason, `the engine could not be located (https://play.example${MANIFEST_PATH}: HTTP 404)`);
  assert.equal(workers.length, 0);
});

test("server snippets use their own server and never start a worker", async (t) => {
  const urls = [];
  t.mock.method(globalThis, "fetch", async (url) => {
    urls.push(url);
    return new Response(JSON.stringify({ status: "ok" }), { status: 200 });
  });
  const { h, workers, fetched } = hub();
  const a = h.lane("https://one.example", "server");
  const b = h.lane("https://two.example", "server");
  assert.notEqual(a, b);
  assert.equal(h.lane("https://one.example", "server"), a);
  await Promise.all([a.run({ config: "", snippet: "x" }), b.run({ config: "", snippet: "y" })]);
  assert.deepEqual(urls.sort(), ["https://one.example/api/run", "https://two.example/api/run"]);
  assert.deepEqual(fetched, []);
  assert.equal(workers.length, 0);
});
