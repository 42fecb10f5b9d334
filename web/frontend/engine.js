// Runs requests on the engine: in a Web Worker when the browser has
// WebAssembly, on the server's sandbox (POST /api/run) when it does not.
// A watchdog terminates a worker whose run exceeds the time limit and
// starts a fresh one from the already compiled module, so a runaway
// snippet never freezes the page.

import { spanOfText } from "./positions.js";

export class Engine {
  // timeLimitResult is the Result to report for a run the watchdog
  // stopped; its diagnostic is given the snippet's span. newWorker makes
  // the worker (a test gives its own). runURL is the server's run API: an
  // embedded snippet's server is on another origin than its page.
  // tierUp asks the worker to spend idle time after a slow run getting V8
  // to optimize the engine (worker.js): the playground's page, where every
  // edit is re-checked, wants it; a page of embedded snippets does not.
  constructor({ workerURL, wasmURL, timeLimitMs, timeLimitResult, onStatus, newWorker = (url) => new Worker(url, { type: "module" }), runURL = "/api/run", tierUp = false }) {
    this.tierUp = tierUp;
    this.newWorker = newWorker;
    this.runURL = runURL;
    this.workerURL = workerURL;
    this.wasmURL = wasmURL;
    this.timeLimitMs = timeLimitMs;
    this.timeLimitResult = timeLimitResult;
    this.onStatus = onStatus;
    this.module = null;
    this.worker = null;
    this.state = "idle"; // idle | loading | ready | server
    this.inFlight = null; // {id, request, resolve, timer}
    this.queued = null; // {request, resolve}: only the latest waits
    this.nextId = 1;
    this.restarts = 0;
  }

  start() {
    if (typeof WebAssembly !== "object") {
      this.useServer("WebAssembly is not available in this browser");
      return;
    }
    this.spawn();
  }

  spawn() {
    this.state = "loading";
    this.onStatus({ state: "loading", loaded: 0, total: 0 });
    let worker;
    try {
      worker = this.newWorker(this.workerURL);
    } catch (e) {
      this.useServer(`the engine worker could not start: ${e.message}`);
      return;
    }
    this.worker = worker;
    worker.onmessage = (event) => this.receive(worker, event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      if (this.state === "loading") this.useServer("the engine worker failed to load");
    };
    worker.postMessage({ type: "load", url: this.wasmURL, module: this.module, ...(this.tierUp ? { tierUp: true } : {}) });
  }

  useServer(reason) {
    this.state = "server";
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.onStatus({ state: "server", reason });
    if (this.inFlight) {
      const f = this.inFlight;
      clearTimeout(f.timer);
      this.inFlight = null;
      this.runOnServer(f.request).then(f.resolve);
    }
    this.pump();
  }

  receive(worker, msg) {
    if (worker !== this.worker) return; // a terminated worker's last words
    switch (msg.type) {
      case "progress":
        this.onStatus({ state: "loading", loaded: msg.loaded, total: msg.total });
        break;
      case "ready":
        this.module = msg.module;
        this.state = "ready";
        this.onStatus({ state: "ready" });
        break;
      case "unavailable":
        this.useServer(msg.error);
        break;
      case "started":
        if (this.inFlight && this.inFlight.id === msg.id) {
          this.inFlight.timer = setTimeout(() => this.timeout(), this.timeLimitMs);
          this.inFlight.started = performance.now();
        }
        break;
      case "result":
      case "crashed":
        if (this.inFlight && this.inFlight.id === msg.id) {
          const f = this.inFlight;
          clearTimeout(f.timer);
          this.inFlight = null;
          const ms = performance.now() - (f.started ?? performance.now());
          if (msg.type === "result") f.resolve({ result: JSON.parse(msg.json), via: "browser", ms });
          else f.resolve({ result: null, via: "browser", failure: `The engine failed: ${msg.error}` });
          this.pump();
        }
        break;
    }
  }

  timeout() {
    const f = this.inFlight;
    this.inFlight = null;
    this.worker.terminate();
    this.worker = null;
    this.restarts++;
    const result = structuredClone(this.timeLimitResult);
    for (const d of result.diagnostics) d.span = spanOfText(f.request.snippet);
    f.resolve({ result, via: "browser", ms: this.timeLimitMs, stopped: true });
    this.spawn();
    this.pump();
  }

  // run resolves with {result, via, ms} or {result: null, failure}; a run
  // superseded by a newer one before it started resolves with null.
  run(request) {
    return new Promise((resolve) => {
      if (this.queued) this.queued.resolve(null);
      this.queued = { request, resolve };
      this.pump();
    });
  }

  pump() {
    if (this.inFlight || !this.queued) return;
    if (this.state === "server") {
      const q = this.queued;
      this.queued = null;
      this.inFlight = { id: this.nextId++, request: q.request, resolve: q.resolve };
      this.runOnServer(q.request).then((r) => {
        this.inFlight = null;
        q.resolve(r);
        this.pump();
      });
      return;
    }
    if (!this.worker) return;
    const q = this.queued;
    this.queued = null;
    this.inFlight = { id: this.nextId++, request: q.request, resolve: q.resolve, timer: null };
    this.worker.postMessage({ type: "run", id: this.inFlight.id, request: q.request });
  }

  async runOnServer(request) {
    const started = performance.now();
    try {
      const response = await fetch(this.runURL, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(request),
      });
      const body = await response.json().catch(() => null);
      if (!response.ok || !body || !body.status) {
        const why = body && body.error ? body.error : `HTTP ${response.status}`;
        return { result: null, via: "server", failure: `The server sandbox could not run the program: ${why}` };
      }
      return { result: body, via: "server", ms: performance.now() - started };
    } catch (e) {
      return { result: null, via: "server", failure: `The server sandbox could not be reached: ${e.message}` };
    }
  }
}
