// Lays out and draws a trace: one lane per device, one column per
// operation. The geometry matches the server's (web/ui/trace.go), so the
// picture does not change when the browser's run replaces the server's.

import { svg } from "./dom.js";

const LABEL_WIDTH = 160;
const STEP = 84;
const LANE_HEIGHT = 48;
const TOP = 20;
const OP_CHARS = 12;
const LANE_CHARS = 21;

const isTransfer = (op) => op.endsWith("to_device");

// transferSource mirrors web/ui/trace.go: the source device named by the
// engine's note on a transfer, or "" when the note names none.
function transferSource(e) {
  if (!isTransfer(e.op) || !e.note) return "";
  let m = /cross-backend: (.*?) -> /.exec(e.note);
  if (m) return m[1];
  m = /read from (.*?) and recorded/.exec(e.note);
  return m ? m[1] : "";
}

const columnX = (i) => LABEL_WIDTH + i * STEP + STEP / 2;

export function layoutTrace(trace, panic) {
  const lanes = [];
  const laneOf = new Map();
  const lane = (device, backend) => {
    if (!laneOf.has(device)) {
      laneOf.set(device, lanes.length);
      lanes.push({ device, backend, y: TOP + lanes.length * LANE_HEIGHT + LANE_HEIGHT / 2 });
    }
    return laneOf.get(device);
  };
  const nodes = trace.map((e, i) => {
    const src = transferSource(e);
    if (src) lane(src, "");
    const y = lanes[lane(e.device, e.backend)].y;
    const node = { x: columnX(i), y, entry: e, step: i + 1, from: null };
    if (src) node.from = { x: columnX(i) - STEP + 14, y: lanes[laneOf.get(src)].y };
    return node;
  });
  let columns = trace.length;
  let panicPoint = null;
  if (panic) {
    if (lanes.length === 0) lane("program", "");
    let at = 0;
    for (let i = trace.length - 1; i >= 0; i--) {
      if (trace[i].span.start.offset <= panic.span.start.offset) {
        at = laneOf.get(trace[i].device);
        break;
      }
    }
    panicPoint = { x: columnX(columns), y: lanes[at].y };
    columns++;
  }
  return {
    lanes,
    nodes,
    groups: groupTrace(nodes),
    panic: panicPoint,
    width: LABEL_WIDTH + Math.max(columns, 1) * STEP,
    height: TOP * 2 + Math.max(lanes.length, 1) * LANE_HEIGHT,
  };
}

// groupTrace cuts the nodes into runs of consecutive operations of one
// module ("module" of the trace entry; "" for none), as web/ui/trace.go
// does, for the table.
export function groupTrace(nodes) {
  const groups = [];
  for (const n of nodes) {
    const module = n.entry.module ?? "";
    const last = groups[groups.length - 1];
    if (last && last.module === module) last.nodes.push(n);
    else groups.push({ module, nodes: [n] });
  }
  return groups;
}

export const operations = (k) => (k === 1 ? "1 operation" : `${k} operations`);

// nodeTitle is the tooltip of a node of the picture.
export function nodeTitle(n) {
  const t = `${n.step}. ${n.entry.op} on ${n.entry.device} (${n.entry.kind} ${shapeText(n.entry.shape)})`;
  return n.entry.module ? `${t} in ${n.entry.module}` : t;
}

function cut(s, n) {
  const chars = [...s];
  return chars.length <= n ? s : chars.slice(0, n - 1).join("") + "…";
}

// shortOp fits an operation name above its node: without the kind's
// prefix, which the node's title and the table keep (`float_from_data`
// reads `from_data`), cut to OP_CHARS. Mirrors shortOp in web/ui/trace.go.
export const shortOp = (op) => cut(op.replace(/^(float|int|bool|q)_(?=.)/, ""), OP_CHARS);
export const shortDevice = (device) => cut(device, LANE_CHARS);

export const shapeText = (shape) => "[" + (shape ?? []).join(", ") + "]";

export function traceSVG(l) {
  return svg(
    "svg",
    {
      class: "trace-svg",
      "data-testid": "trace-svg",
      role: "img",
      "aria-label": "Operations by device over time",
      width: l.width,
      height: l.height,
      viewBox: `0 0 ${l.width} ${l.height}`,
    },
    svg(
      "defs",
      {},
      svg(
        "marker",
        { id: "trace-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
        svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head" }),
      ),
    ),
    l.lanes.map((lane) =>
      svg(
        "g",
        { class: "lane", "data-device": lane.device },
        svg("line", { class: "lane-line", x1: LABEL_WIDTH - 8, y1: lane.y, x2: l.width - 8, y2: lane.y }),
        svg("text", { class: "lane-label", x: 8, y: lane.y + 4 }, svg("title", {}, lane.device), shortDevice(lane.device)),
      ),
    ),
    l.nodes.map((n) => [
      n.from &&
        svg("path", {
          class: "transfer",
          "data-testid": "trace-transfer",
          d: `M ${n.from.x} ${n.from.y} C ${n.from.x + 30} ${n.from.y}, ${n.x - 40} ${n.y}, ${n.x - 9} ${n.y}`,
          "marker-end": "url(#trace-arrow)",
        }),
      svg(
        "g",
        {
          class: ["op", n.entry.autodiff && "autodiff", isTransfer(n.entry.op) && "transfer-op"].filter(Boolean).join(" "),
          "data-testid": "trace-node",
          "data-step": n.step,
        },
        svg("title", {}, nodeTitle(n)),
        n.entry.autodiff && svg("circle", { class: "autodiff-ring", cx: n.x, cy: n.y, r: 11 }),
        svg("circle", { class: "op-dot", cx: n.x, cy: n.y, r: 7 }),
        svg("text", { class: "op-label", x: n.x, y: n.y - 15 }, shortOp(n.entry.op)),
      ),
    ]),
    l.panic &&
      svg(
        "g",
        { class: "panic-mark", "data-testid": "trace-panic" },
        svg("title", {}, "Burn panics here"),
        svg("line", { x1: l.panic.x, y1: 4, x2: l.panic.x, y2: l.height - 4 }),
        svg("circle", { cx: l.panic.x, cy: l.panic.y, r: 8 }),
        svg("text", { x: l.panic.x, y: l.panic.y - 15 }, "panic"),
      ),
  );
}
