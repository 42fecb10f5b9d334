package ui

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine"
)

// The trace picture's geometry, in SVG user units. The page's script draws
// the same picture with the same numbers (web/frontend/trace.js).
const (
	traceLabelWidth = 160
	traceStep       = 84
	traceLaneHeight = 48
	traceTop        = 20
	traceOpChars    = 12
	traceLaneChars  = 21
)

// traceLayout places a trace on a grid: one lane per device, one column per
// operation, in program order.
type traceLayout struct {
	Lanes  []traceLane
	Nodes  []traceNode
	Width  int
	Height int
	// Panic marks where the run stopped, nil when it did not panic.
	Panic *tracePoint
	// Groups are the nodes cut into runs of consecutive operations of
	// one module (and of none), in order, for the table.
	Groups []traceGroup
}

// traceGroup is a run of consecutive operations run inside one module's
// method (Module is the trace's "module"), or outside any (Module "").
type traceGroup struct {
	Module string
	Nodes  []traceNode
}

// groupTrace cuts nodes into runs of one module. The page's script cuts
// them the same way (web/frontend/trace.js).
func groupTrace(nodes []traceNode) []traceGroup {
	var groups []traceGroup
	for _, n := range nodes {
		if k := len(groups); k > 0 && groups[k-1].Module == n.Entry.Module {
			groups[k-1].Nodes = append(groups[k-1].Nodes, n)
			continue
		}
		groups = append(groups, traceGroup{Module: n.Entry.Module, Nodes: []traceNode{n}})
	}
	return groups
}

// operations counts a group's operations in words.
func (g traceGroup) operations() string {
	if len(g.Nodes) == 1 {
		return "1 operation"
	}
	return fmt.Sprintf("%d operations", len(g.Nodes))
}

// nodeTitle is the tooltip of a node of the picture.
func nodeTitle(n traceNode) string {
	t := fmt.Sprintf("%d. %s on %s (%s %s)", n.Step, n.Entry.Op, n.Entry.Device, n.Entry.Kind, shapeText(n.Entry.Shape))
	if n.Entry.Module != "" {
		t += " in " + n.Entry.Module
	}
	return t
}

type traceLane struct {
	Device  string
	Backend string
	Y       int
}

type tracePoint struct{ X, Y int }

type traceNode struct {
	tracePoint
	Entry engine.TraceEntry
	// Step is the 1-based position in the trace.
	Step int
	// From is where a transfer came from; nil for other operations and for
	// transfers whose source device the trace does not name.
	From *tracePoint
}

// isTransfer reports whether an operation moves a tensor between devices.
func isTransfer(op string) bool { return strings.HasSuffix(op, "to_device") }

// transferSource reads the source device of a transfer from the note the
// engine writes on it: "cross-backend: <src> -> host memory -> <dst>", or
// "read from <src> and recorded on the capture device". Moves within one
// backend do not name their source, and get no arrow.
func transferSource(e engine.TraceEntry) string {
	if !isTransfer(e.Op) {
		return ""
	}
	if _, rest, ok := strings.Cut(e.Note, "cross-backend: "); ok {
		src, _, _ := strings.Cut(rest, " -> ")
		return src
	}
	if _, rest, ok := strings.Cut(e.Note, "read from "); ok {
		src, _, _ := strings.Cut(rest, " and recorded")
		return src
	}
	return ""
}

func layoutTrace(trace []engine.TraceEntry, p *engine.Panic) traceLayout {
	var l traceLayout
	laneOf := map[string]int{}
	lane := func(device, backend string) int {
		if i, ok := laneOf[device]; ok {
			return i
		}
		i := len(l.Lanes)
		laneOf[device] = i
		l.Lanes = append(l.Lanes, traceLane{Device: device, Backend: backend, Y: traceTop + i*traceLaneHeight + traceLaneHeight/2})
		return i
	}
	for i, e := range trace {
		if src := transferSource(e); src != "" {
			lane(src, "")
		}
		y := l.Lanes[lane(e.Device, e.Backend)].Y
		n := traceNode{tracePoint: tracePoint{X: columnX(i), Y: y}, Entry: e, Step: i + 1}
		if src := transferSource(e); src != "" {
			n.From = &tracePoint{X: columnX(i) - traceStep + 14, Y: l.Lanes[laneOf[src]].Y}
		}
		l.Nodes = append(l.Nodes, n)
	}
	columns := len(trace)
	if p != nil {
		if len(l.Lanes) == 0 {
			lane("program", "")
		}
		l.Panic = &tracePoint{X: columnX(columns), Y: l.Lanes[panicLane(trace, p, laneOf)].Y}
		columns++
	}
	l.Groups = groupTrace(l.Nodes)
	l.Width = traceLabelWidth + max(columns, 1)*traceStep
	l.Height = traceTop*2 + max(len(l.Lanes), 1)*traceLaneHeight
	return l
}

func columnX(i int) int { return traceLabelWidth + i*traceStep + traceStep/2 }

// panicLane is the lane of the last operation at or before the panicking
// call: where the program was when it stopped.
func panicLane(trace []engine.TraceEntry, p *engine.Panic, laneOf map[string]int) int {
	for i := len(trace) - 1; i >= 0; i-- {
		if trace[i].Span.Start.Offset <= p.Span.Start.Offset {
			return laneOf[trace[i].Device]
		}
	}
	return 0
}

// panicked reports the operation that panicked, which the trace records
// with a note that starts "panic".
func panicked(n traceNode) bool { return strings.HasPrefix(n.Entry.Note, "panic") }

// panicRowID marks the table's row of the operation that panicked.
func panicRowID(n traceNode) string {
	if panicked(n) {
		return "trace-panic-row"
	}
	return "trace-row"
}

// shortOp fits an operation name above its node: without the kind's
// prefix, which the node's title and the table keep (`float_from_data`
// reads `from_data`), cut to traceOpChars. Mirrors shortOp in
// web/frontend/trace.js.
func shortOp(op string) string {
	for _, kind := range []string{"float_", "int_", "bool_", "q_"} {
		if rest, ok := strings.CutPrefix(op, kind); ok && rest != "" {
			op = rest
			break
		}
	}
	return cut(op, traceOpChars)
}

// shortDevice fits a device's Debug form into the lane's label.
func shortDevice(device string) string { return cut(device, traceLaneChars) }

func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func shapeText(shape []int64) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = fmt.Sprint(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
