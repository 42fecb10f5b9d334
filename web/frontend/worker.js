// The engine's Web Worker. It compiles engine.wasm once, keeps one instance
// of it, and answers runs by message; the page's watchdog terminates the
// whole worker if a run does not come back in time.
//
// Messages in:  {type: "load", url, module?, tierUp?}  {type: "run", id, request}
// Messages out: {type: "progress", loaded, total}  {type: "ready", module}
//               {type: "started", id}  {type: "result", id, json}
//               {type: "crashed", id, error}  {type: "unavailable", error}

import { ConsoleStdout, File, OpenFile, WASI } from "@bjorn3/browser_wasi_shim";

let compiled = null; // Promise<WebAssembly.Module>
// The current instance, as a promise so that a run that arrives while the
// first instance is still being made waits for it instead of making a
// second one; reset after any error.
let instance = null;
let stderr = [];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// fetchWithProgress streams the module while reporting how much arrived,
// so the page can show a progress bar during the first load.
async function fetchWithProgress(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  // With Content-Encoding the header counts compressed bytes while the
  // stream yields decompressed ones, so the total is only a hint.
  const total = response.headers.get("Content-Encoding") ? 0 : Number(response.headers.get("Content-Length")) || 0;
  let loaded = 0;
  const counted = response.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        postMessage({ type: "progress", loaded, total });
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { headers: { "Content-Type": "application/wasm" } });
}

async function instantiate(module) {
  stderr = [];
  const fds = [
    new OpenFile(new File([])),
    ConsoleStdout.lineBuffered((line) => stderr.push(line)),
    ConsoleStdout.lineBuffered((line) => stderr.push(line)),
  ];
  // Without {debug: false} the shim logs every call it handles.
  const wasi = new WASI([], [], fds, { debug: false });
  const inst = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.wasiImport });
  wasi.initialize(inst);
  return inst;
}

// call hands one request to the engine and returns the Result JSON text.
function call(inst, request) {
  const { memory, alloc, free, run } = inst.exports;
  const bytes = encoder.encode(JSON.stringify(request));
  const ptr = alloc(bytes.length);
  try {
    new Uint8Array(memory.buffer, ptr, bytes.length).set(bytes);
    const packed = BigInt.asUintN(64, run(ptr, bytes.length));
    if (packed === 0n) throw new Error("the engine rejected the request");
    const at = Number(packed >> 32n);
    const length = Number(packed & 0xffffffffn);
    // Copy out before the next call: the result lives until then.
    return decoder.decode(new Uint8Array(memory.buffer, at, length).slice());
  } finally {
    free(ptr);
  }
}

// currentInstance returns the instance, making it once from the compiled
// module.
function currentInstance() {
  if (!instance) instance = compiled.then(instantiate);
  return instance;
}

// Warm-up programs run before the worker says it is ready. V8 compiles a
// module's functions on first call, so the first real run would otherwise
// pay for compiling the parser, the config reader, the dispatch model, the
// catalog and the backend-extension routing; with these behind it, a
// snippet's result follows "ready" within a frame.
const WARM_UP = [
  {
    config: '[dependencies]\nburn = { version = "0.22", features = ["cuda", "wgpu", "flex"] }\n',
    snippet: `use burn::tensor::{Device, Int, Tensor};
let cuda = Device::cuda(0).autodiff();
let w = Tensor::<2>::ones([2, 3], &cuda).require_grad();
let x = Tensor::<2, Int>::arange(0..6, &Device::flex()).reshape([2, 3]).float();
let y = (w.clone() * Tensor::from_inner(x.to_device(&cuda))).sum();
let grads = y.backward();
println!("{:?} {}", w.grad(&grads).map(|g| g.dims()), y);
let gpu = Tensor::<2>::zeros([3, 2], &Device::wgpu(Default::default()));
let z = w.inner() + gpu.matmul(Tensor::<2>::ones([2, 3], &Device::flex()));`,
  },
  {
    config: '[dependencies]\nburn = { version = "0.22", features = ["extension", "flex", "ndarray"] }\n',
    snippet: `use burn::backend::{backend_extension, tensor::FloatTensor, Dispatch, Flex, NdArray};
use burn::tensor::{Device, Tensor};
#[backend_extension(Flex, NdArray)]
pub trait Scale: burn::backend::Backend {
    fn scale(x: FloatTensor<Self>, y: FloatTensor<Self>) -> FloatTensor<Self>;
}
impl Scale for Flex {}
impl Scale for NdArray {}
fn main() {
    let a = Tensor::<1>::ones([2], &Device::flex());
    let b = Tensor::<1>::ones([2], &Device::ndarray());
    let c = Tensor::<1>::from_dispatch(Dispatch::scale(a.clone().into_dispatch(), a.into_dispatch()));
    let d = Dispatch::scale(c.into_dispatch(), b.into_dispatch());
}`,
  },
];

async function load(url, module) {
  compiled = module ? Promise.resolve(module) : WebAssembly.compileStreaming(fetchWithProgress(url));
  try {
    const m = await compiled;
    for (const request of WARM_UP) {
      try {
        call(await currentInstance(), request);
      } catch {
        instance = null; // a failed warm-up must not cost the real runs
      }
    }
    await currentInstance();
    postMessage({ type: "ready", module: m });
  } catch (e) {
    instance = null;
    postMessage({ type: "unavailable", error: String(e && e.message ? e.message : e) });
  }
}

// V8 runs a function in its baseline tier until it has run hot for a
// while, and only then in its optimizing tier; a module the size of the
// engine needs a couple of dozen runs of a training step before a re-check
// costs what it will from then on (the guide's step: 60–180 ms at first,
// about 15 ms after, and the drop is sudden). The worker spends that time
// while the page is idle: after a run that took TIER_UP.slowMs or more
// (and under maxMs: a program that long is not re-checked in a frame
// anyway), it runs the same request again, one run per task so that a
// real run waits for one of them at most, until TIER_UP.fastRuns runs in a
// row took under a third of the first, or the worker's budget for this is
// spent. Results are dropped: the engine is a pure function of the
// request, so nothing a later run sees changes.
// Only a page that asks for it (the playground's, where every edit is
// re-checked) gets this; embedded snippets are run once and read.
const TIER_UP = { slowMs: 25, maxMs: 1000, budgetMs: 6000, fastRuns: 3 };
const tierUp = { on: false, spent: 0, timer: 0, request: null, target: 0, fast: 0 };

// tierUpAfter starts the tier-up runs after a real run, and reports
// whether it did.
function tierUpAfter(request, ms) {
  clearTimeout(tierUp.timer);
  if (!tierUp.on || ms < TIER_UP.slowMs || ms > TIER_UP.maxMs || tierUp.spent >= TIER_UP.budgetMs) return false;
  tierUp.request = request;
  tierUp.target = Math.max(ms / 3, TIER_UP.slowMs / 2);
  tierUp.fast = 0;
  tierUp.timer = setTimeout(tierUpStep, 0);
  return true;
}

// The engine's collector runs between runs, not during them: a task after
// the last run (a real one, or the last tier-up run), unless a run comes
// first, the worker asks the engine for a whole collection (its export
// collect). The next run then starts with no collection open and the
// heap's headroom ahead of it, which a re-check of a training step does
// not use up: the slow re-checks, those a collection fell in, are gone
// (BENCHMARKS.md, "The collector between runs").
let collectTimer = 0;

function collectSoon() {
  clearTimeout(collectTimer);
  collectTimer = setTimeout(async () => {
    try {
      const inst = await currentInstance();
      if (inst.exports.collect) inst.exports.collect();
    } catch {
      instance = null;
    }
  }, 0);
}

async function tierUpStep() {
  let inst;
  try {
    inst = await currentInstance();
  } catch {
    return;
  }
  const started = performance.now();
  try {
    call(inst, tierUp.request);
  } catch {
    instance = null; // a failed run must not cost the real runs
    return;
  }
  const ms = performance.now() - started;
  tierUp.spent += ms;
  tierUp.fast = ms < tierUp.target ? tierUp.fast + 1 : 0;
  if (tierUp.fast < TIER_UP.fastRuns && tierUp.spent < TIER_UP.budgetMs) {
    tierUp.timer = setTimeout(tierUpStep, 0);
  } else {
    collectSoon();
  }
}

async function runRequest(id, request) {
  clearTimeout(tierUp.timer);
  clearTimeout(collectTimer);
  try {
    const inst = await currentInstance();
    postMessage({ type: "started", id });
    const started = performance.now();
    const json = call(inst, request);
    const ms = performance.now() - started;
    postMessage({ type: "result", id, json });
    if (!tierUpAfter(request, ms)) collectSoon();
  } catch (e) {
    // A trap leaves the Go runtime inside in an unknown state: the next
    // run gets a fresh instance.
    instance = null;
    const detail = stderr.length ? "\n" + stderr.join("\n") : "";
    postMessage({ type: "crashed", id, error: String(e && e.message ? e.message : e) + detail });
  }
}

onmessage = (event) => {
  const msg = event.data;
  if (msg.type === "load") {
    tierUp.on = msg.tierUp === true;
    load(msg.url, msg.module);
  } else if (msg.type === "run") runRequest(msg.id, msg.request);
};
