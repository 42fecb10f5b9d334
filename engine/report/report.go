package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/source"
)

// tabWidth is how many columns a tab takes in a rendered source line, as
// in rustc.
const tabWidth = 4

// Text renders res. files maps a diagnostic's file name ("main.rs",
// "Cargo.toml") to its text; a diagnostic whose file is missing is rendered
// without source lines.
func Text(res engine.Result, files map[string]string) string {
	return text(res, files, false)
}

func text(res engine.Result, files map[string]string, listTrace bool) string {
	var b strings.Builder
	shown := map[string]bool{}
	for _, d := range res.Diagnostics {
		// A run reproduces what the check already reported at the same
		// place: print it once.
		key := fmt.Sprintf("%s|%s|%d|%d|%s", d.File, d.Code, d.Span.Start.Offset, d.Span.End.Offset, d.Message)
		if shown[key] {
			continue
		}
		shown[key] = true
		writeDiagnostic(&b, d, files)
		b.WriteByte('\n')
	}
	if res.Output != "" {
		b.WriteString(res.Output)
		if !strings.HasSuffix(res.Output, "\n") {
			b.WriteByte('\n')
		}
	}
	if res.Panic != nil {
		b.WriteString(res.Panic.Rendered)
		if !strings.HasSuffix(res.Panic.Rendered, "\n") {
			b.WriteByte('\n')
		}
	}
	b.WriteString(TraceSummary(res.Trace))
	b.WriteByte('\n')
	if listTrace {
		b.WriteString(TraceListing(res.Trace))
	}
	fmt.Fprintf(&b, "status: %s\n", Status(res))
	return b.String()
}

// Unchecked renders the warnings that make res incomplete
// (playground-unmodelled, playground-unchecked), each as Text renders it;
// empty for a complete Result. `playground test` prints them before
// libtest's report, where cargo prints a build's warnings.
func Unchecked(res engine.Result, files map[string]string) string {
	var b strings.Builder
	for _, d := range res.Diagnostics {
		if engine.Incompleteness(d.Code) {
			writeDiagnostic(&b, d, files)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Status is the Result's status as the text says it: the status of a
// complete Result, and for an incomplete one what was not checked, so that
// "ran; 2 things were not checked" never reads as "ok".
func Status(res engine.Result) string {
	n := res.Unchecked()
	if res.Complete || n == 0 {
		return res.Status
	}
	things := strconv.Itoa(n) + " things were not checked"
	if n == 1 {
		things = "1 thing was not checked"
	}
	status := res.Status
	if status == engine.StatusOK {
		status = "ran"
	}
	return status + "; " + things + " (not complete)"
}

// mark is one underlined span: the diagnostic's own (primary, drawn with ^)
// or a label's (drawn with -).
type mark struct {
	span    source.Span
	primary bool
	message string
}

func writeDiagnostic(b *strings.Builder, d engine.Diagnostic, files map[string]string) {
	if d.Code != "" {
		fmt.Fprintf(b, "%s[%s]: %s\n", d.Severity, d.Code, d.Message)
	} else {
		fmt.Fprintf(b, "%s: %s\n", d.Severity, d.Message)
	}
	marks := map[string][]mark{d.File: {{span: d.Span, primary: true}}}
	order := []string{d.File}
	for _, l := range d.Labels {
		if _, seen := marks[l.File]; !seen {
			order = append(order, l.File)
		}
		marks[l.File] = append(marks[l.File], mark{span: l.Span, message: l.Message})
	}
	gutter := gutterWidth(marks)
	for i, file := range order {
		first := marks[file][0].span.Start
		arrow := "-->"
		if i > 0 {
			arrow = ":::"
		}
		fmt.Fprintf(b, "%s%s %s:%d:%d\n", strings.Repeat(" ", gutter-1), arrow, file, first.Line, first.Column)
		if text, ok := files[file]; ok {
			writeSnippet(b, gutter, strings.Split(text, "\n"), marks[file])
		}
	}
	for _, h := range d.Help {
		fmt.Fprintf(b, "%s= help: %s\n", strings.Repeat(" ", gutter), h)
	}
	for _, f := range d.Fixes {
		fmt.Fprintf(b, "%s= fix: %s\n", strings.Repeat(" ", gutter), f.Title)
	}
}

// gutterWidth fits the largest line number shown and the space after it;
// the arrow line starts one column to the left of the bars, as in rustc.
func gutterWidth(marks map[string][]mark) int {
	largest := 1
	for _, ms := range marks {
		for _, m := range ms {
			largest = max(largest, m.span.End.Line)
		}
	}
	return len(strconv.Itoa(largest)) + 1
}

// writeSnippet prints each line that holds the start or the end of a mark,
// in order, with "..." where lines are skipped.
func writeSnippet(b *strings.Builder, gutter int, lines []string, marks []mark) {
	type underline struct {
		from, to int // display columns, 0-based, half-open
		primary  bool
		message  string
	}
	rows := map[int][]underline{}
	for _, m := range marks {
		start, end := m.span.Start, m.span.End
		if start.Line < 1 || start.Line > len(lines) {
			continue
		}
		if end.Line <= start.Line {
			line := lines[start.Line-1]
			from := displayColumn(line, start.Column)
			to := max(displayColumn(line, end.Column), from+1)
			rows[start.Line] = append(rows[start.Line], underline{from, to, m.primary, m.message})
			continue
		}
		// A span over several lines: underline the rest of its first line,
		// and its last line up to the end, where the message goes.
		first := lines[start.Line-1]
		from := displayColumn(first, start.Column)
		rows[start.Line] = append(rows[start.Line], underline{from, max(displayWidth(first), from+1), m.primary, ""})
		if end.Line <= len(lines) {
			last := lines[end.Line-1]
			indent := displayWidth(last) - displayWidth(strings.TrimLeft(last, " \t"))
			to := max(displayColumn(last, end.Column), indent+1)
			rows[end.Line] = append(rows[end.Line], underline{indent, to, m.primary, m.message})
		}
	}
	numbers := make([]int, 0, len(rows))
	for n := range rows {
		numbers = append(numbers, n)
	}
	sort.Ints(numbers)
	pad := strings.Repeat(" ", gutter)
	fmt.Fprintf(b, "%s|\n", pad)
	for i, n := range numbers {
		if i > 0 && n > numbers[i-1]+1 {
			b.WriteString("...\n")
		}
		fmt.Fprintf(b, "%-*d| %s\n", gutter, n, expandTabs(strings.TrimSuffix(lines[n-1], "\r")))
		for _, u := range rows[n] {
			char := "-"
			if u.primary {
				char = "^"
			}
			row := strings.Repeat(" ", u.from) + strings.Repeat(char, u.to-u.from)
			if u.message != "" {
				row += " " + u.message
			}
			fmt.Fprintf(b, "%s| %s\n", pad, row)
		}
	}
	fmt.Fprintf(b, "%s|\n", pad)
}

// displayColumn turns a 1-based column in code points into a 0-based
// display column of the tab-expanded line. A column past the end of the
// line counts as one past it, so a bad span cannot draw a line of carets
// as long as its number.
func displayColumn(line string, column int) int {
	width, n := 0, 1
	for _, r := range line {
		if n >= column {
			break
		}
		if r == '\t' {
			width += tabWidth
		} else {
			width++
		}
		n++
	}
	return width + min(max(0, column-n), 1)
}

func displayWidth(line string) int {
	return utf8.RuneCountInString(line) + strings.Count(line, "\t")*(tabWidth-1)
}

func expandTabs(line string) string {
	return strings.ReplaceAll(line, "\t", strings.Repeat(" ", tabWidth))
}

// TraceSummary says in one line how many operations ran on which device and
// how many tensors moved between devices.
func TraceSummary(trace []engine.TraceEntry) string {
	if len(trace) == 0 {
		return "trace: no tensor operations"
	}
	var devices []string
	count := map[string]int{}
	transfers := 0
	for _, e := range trace {
		if _, seen := count[e.Device]; !seen {
			devices = append(devices, e.Device)
		}
		count[e.Device]++
		// Burn names its device moves float_to_device, int_to_device and
		// bool_to_device (burn-backend's tensor ops traits).
		if strings.HasSuffix(e.Op, "to_device") {
			transfers++
		}
	}
	parts := make([]string, len(devices))
	for i, d := range devices {
		parts[i] = fmt.Sprintf("%s: %d", d, count[d])
	}
	return fmt.Sprintf("trace: %s on %s (%s), %s",
		plural(len(trace), "operation"), plural(len(devices), "device"), strings.Join(parts, ", "), plural(transfers, "transfer"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
