package report

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dispatch-playground/playground/engine"
)

// TraceListing lists the trace one operation a line, in program order:
// its number, the operation, the device, the kind and shape, "autodiff"
// for a tracked one, where the program called it (file:line:column) and
// the engine's note.
// Consecutive operations of one module (contract version 2: inside a
// module's method) are indented under a heading naming the module and how
// many they are; operations outside any module are not indented. The
// columns line up across the whole listing.
//
//	1  float_ones     Flex(Cpu)  Float [2, 4]  main.rs:55:13
//	model.input: 2 operations
//	  2  float_matmul  Flex(Cpu)  Float [2, 3]  main.rs:36:17
//	  3  float_add     Flex(Cpu)  Float [2, 3]  main.rs:36:17
func TraceListing(trace []engine.TraceEntry) string {
	if len(trace) == 0 {
		return ""
	}
	numW := len(strconv.Itoa(len(trace)))
	opW, devW, shapeW, atW := 0, 0, 0, 0
	shapes := make([]string, len(trace))
	ats := make([]string, len(trace))
	for i, e := range trace {
		opW = max(opW, utf8.RuneCountInString(e.Op))
		devW = max(devW, utf8.RuneCountInString(e.Device))
		shapes[i] = e.Kind + " " + shapeList(e.Shape)
		shapeW = max(shapeW, utf8.RuneCountInString(shapes[i]))
		ats[i] = traceAt(e)
		atW = max(atW, utf8.RuneCountInString(ats[i]))
	}
	var b strings.Builder
	for i := 0; i < len(trace); {
		indent := "  "
		end := i + 1
		if m := trace[i].Module; m != "" {
			for end < len(trace) && trace[end].Module == m {
				end++
			}
			fmt.Fprintf(&b, "  %s: %s\n", m, plural(end-i, "operation"))
			indent = "    "
		}
		for ; i < end; i++ {
			e := trace[i]
			line := fmt.Sprintf("%s%*d  %s  %s  %s  %s", indent, numW, i+1, pad(e.Op, opW), pad(e.Device, devW), pad(shapes[i], shapeW), pad(ats[i], atW))
			if e.Autodiff {
				line += "  autodiff"
			}
			if e.Note != "" {
				line += "  (" + e.Note + ")"
			}
			b.WriteString(strings.TrimRight(line, " "))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TextWithTrace is Text with the trace listed (TraceListing) under its
// summary line.
func TextWithTrace(res engine.Result, files map[string]string) string {
	return text(res, files, true)
}

func traceAt(e engine.TraceEntry) string {
	file := e.File
	if file == "" {
		file = "main.rs"
	}
	return fmt.Sprintf("%s:%d:%d", file, e.Span.Start.Line, e.Span.Start.Column)
}

func shapeList(shape []int64) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func pad(s string, w int) string {
	if n := utf8.RuneCountInString(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
