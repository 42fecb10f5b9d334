// The engines of a page that embeds snippets. Every snippet that runs in
// the browser shares one Engine (engine.js): one worker, one download and
// one compilation of engine.wasm however many snippets the page has. Runs
// wait for that engine to be ready and then go one at a time, in the
// order they were asked for. Snippets that ask for the server engine go
// straight to POST {server}/api/run.
//
// The engine's files come from the playground's server, usually another
// origin than the page: the manifest says where they are, and the worker
// is started from a same-origin blob that imports the server's worker
// script (a page may only start workers from its own origin).

import { Engine } from "./engine.js";

// MANIFEST_PATH is the server's route for the engine's current URLs
// (web/ui/embed.go).
export const MANIFEST_PATH = "/embed/v1/engine.json";

// crossOriginWorker starts a module worker from url, which may be on
// another origin than the page.
export function crossOriginWorker(url, pageOrigin = globalThis.location?.origin) {
  if (new URL(url).origin === pageOrigin) return new Worker(url, { type: "module" });
  const source = `import ${JSON.stringify(url)};`;
  return new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), { type: "module" });
}

// A Lane runs requests on one Engine, one at a time, once it is ready
// (in the browser) or has fallen back to the server.
class Lane {
  constructor(onStatus) {
    this.onStatus = onStatus;
    this.status = { state: "loading", loaded: 0, total: 0 };
    this.tail = new Promise((resolve) => (this.resolveReady = resolve));
    this.engine = null;
  }

  setStatus(s) {
    this.status = s;
    if (s.state === "ready" || s.state === "server") this.resolveReady();
    this.onStatus(s);
  }

  // run resolves like Engine.run: {result, via, ms} or {result: null,
  // failure}; never null, since nothing here supersedes a run.
  run(request) {
    const outcome = this.tail.then(() => this.engine.run(request));
    this.tail = outcome.then(
      () => {},
      () => {},
    );
    return outcome;
  }
}

export class EngineHub {
  // fetchJSON(url) resolves with a parsed body or rejects; newWorker(url)
  // starts a worker; hasWebAssembly() says whether this page may use it.
  // onStatus(origin, status) hears every change of every engine.
  constructor({
    fetchJSON = defaultFetchJSON,
    newWorker = (url) => crossOriginWorker(url),
    hasWebAssembly = () => typeof WebAssembly === "object" && WebAssembly !== null,
    onStatus = () => {},
  } = {}) {
    this.fetchJSON = fetchJSON;
    this.newWorker = newWorker;
    this.hasWebAssembly = hasWebAssembly;
    this.onStatus = onStatus;
    this.page = null; // the page's browser lane, made by the first snippet that runs
    this.servers = new Map(); // origin -> lane of snippets asking for the server engine
  }

  // lane returns the lane a snippet runs on: the page's browser engine
  // (started from the first such snippet's server, which also takes its
  // runs if the browser cannot), or the named server.
  lane(origin, engine) {
    if (engine === "server") {
      if (!this.servers.has(origin)) {
        const lane = new Lane((s) => this.onStatus(origin, s));
        lane.engine = this.newEngine(lane, origin, {});
        lane.engine.useServer("this snippet asks for the server engine");
        this.servers.set(origin, lane);
      }
      return this.servers.get(origin);
    }
    if (!this.page) this.page = this.startBrowser(origin);
    return this.page;
  }

  newEngine(lane, origin, manifest) {
    return new Engine({
      workerURL: manifest.worker ? new URL(manifest.worker, origin).href : "",
      wasmURL: manifest.engine ? new URL(manifest.engine, origin).href : "",
      timeLimitMs: manifest.timeLimitMs ?? 0,
      timeLimitResult: manifest.timeLimitResult ?? null,
      onStatus: (s) => lane.setStatus(s),
      newWorker: this.newWorker,
      runURL: `${origin}/api/run`,
    });
  }

  startBrowser(origin) {
    const lane = new Lane((s) => this.onStatus(origin, s));
    lane.setStatus({ state: "loading", loaded: 0, total: 0 });
    if (!this.hasWebAssembly()) {
      lane.engine = this.newEngine(lane, origin, {});
      lane.engine.useServer("WebAssembly is not available in this page");
      return lane;
    }
    this.fetchJSON(origin + MANIFEST_PATH).then(
      (manifest) => {
        lane.engine = this.newEngine(lane, origin, manifest);
        lane.engine.start();
      },
      (e) => {
        lane.engine = this.newEngine(lane, origin, {});
        lane.engine.useServer(`the engine could not be located (${e.message})`);
      },
    );
    return lane;
  }
}

async function defaultFetchJSON(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}
