import { test } from "node:test";
import assert from "node:assert/strict";
import { layoutTrace, nodeTitle, operations, shortDevice, shortOp } from "./trace.js";

const at = (offset) => ({ start: { line: 1, column: 1, offset }, end: { line: 1, column: 1, offset } });

// The same trace as TestTraceLayout in web/ui/view_test.go: both must
// place it identically.
const trace = [
  { op: "float_ones", device: "Cuda(0)", backend: "Cuda", span: at(10) },
  { op: "float_add", device: "Cuda(0)", backend: "Cuda", autodiff: true, span: at(20) },
  { op: "float_to_device", device: "Flex", backend: "Flex", note: "cross-backend: Cuda(0) -> host memory -> Flex", span: at(30) },
  { op: "float_to_device", device: "Cuda(1)", backend: "Cuda", note: "within Cuda", span: at(40) },
];

test("lanes, transfers and the panic mark match the server's layout", () => {
  const l = layoutTrace(trace, { span: at(35) });
  assert.deepEqual(l.lanes.map((x) => x.device), ["Cuda(0)", "Flex", "Cuda(1)"]);
  assert.deepEqual(l.nodes[2].from, { x: 160 + 2 * 84 + 42 - 84 + 14, y: l.lanes[0].y });
  assert.equal(l.nodes[2].y, l.lanes[1].y);
  assert.equal(l.nodes[3].from, null);
  assert.equal(l.panic.y, l.lanes[1].y);
  assert.equal(l.panic.x, 160 + 4 * 84 + 42);
  assert.equal(l.width, 160 + 5 * 84);
  assert.equal(l.height, 2 * 20 + 3 * 48);
});

test("a capture transfer names its source; a panic before any op gets a lane", () => {
  const l = layoutTrace([{ op: "int_to_device", device: "Capture", backend: "Capture", note: "read from Cpu and recorded on the capture device", span: at(0) }], null);
  assert.deepEqual(l.lanes.map((x) => x.device), ["Cpu", "Capture"]);
  const empty = layoutTrace([], { span: at(0) });
  assert.equal(empty.lanes.length, 1);
  assert.ok(empty.panic);
});

test("operation names lose their kind's prefix and are cut to twelve characters", () => {
  assert.equal(shortOp("float_mask_where_fill"), "mask_where_…");
  assert.equal(shortOp("float_from_data"), "from_data");
  assert.equal(shortOp("int_add"), "add");
  assert.equal(shortOp("to_device"), "to_device");
  assert.equal(shortDevice("Remote(RemoteDevice { endpoint: WebSocket })"), "Remote(RemoteDevice …");
});

// The same trace as moduleTrace in web/ui/trace_test.go: both must cut it
// identically.
const moduleTrace = [
  { op: "float_ones", device: "Cpu" },
  { op: "float_matmul", device: "Cpu", kind: "Float", shape: [2, 3], module: "model.input" },
  { op: "float_add", device: "Cpu", module: "model.input" },
  { op: "float_exp", device: "Cpu", module: "model" },
  { op: "float_matmul", device: "Cpu", module: "model.blocks.0" },
  { op: "float_sum", device: "Cpu" },
  { op: "float_sum", device: "Cpu" },
  { op: "float_add", device: "Cpu", module: "model.input" },
].map((e, i) => ({ ...e, span: at(i) }));

test("operations of one module are grouped, as the server groups them", () => {
  const l = layoutTrace(moduleTrace, null);
  const got = l.groups.map((g) => g.module + ":" + g.nodes.map((n) => n.entry.op).join(",")).join("|");
  assert.equal(
    got,
    ":float_ones|model.input:float_matmul,float_add|model:float_exp|model.blocks.0:float_matmul|:float_sum,float_sum|model.input:float_add",
  );
  assert.equal(operations(l.groups[1].nodes.length), "2 operations");
  assert.equal(operations(l.groups[2].nodes.length), "1 operation");
  assert.equal(nodeTitle(l.nodes[1]), "2. float_matmul on Cpu (Float [2, 3]) in model.input");
  assert.ok(!nodeTitle(l.nodes[0]).includes(" in "));
});
