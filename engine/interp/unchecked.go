package interp

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
)

// CodeUnchecked is the warning of a verdict the engine cannot back: an
// assertion, a branch or a print whose values it does not know (contract
// version 2, "playground-unchecked"). It never lets such a thing pass in
// silence.
const CodeUnchecked = "playground-unchecked"

// unchecked reports, at r, that what (an assertion, a branch, a print) was
// not checked because the playground does not know unknownWhat.
//
// Only a run reports it. A run follows the one path the program takes,
// with every value the engine computed; a value is unknown there only for
// a cause other than an error (a tensor past the value budget, an
// operation whose values are not computed, a Burn item not modelled, a
// boundary such as a file): an error of the program stops the run or
// rejects it before it starts. The check is not the place: it turns the
// value of every failing step into Unknown (the error is already
// reported), visits both arms of a condition it cannot decide, and
// evaluates the functions nobody calls with unknown parameters (whole.go),
// so its unknowns say nothing about the program as it runs. Once a run has
// reported an error of its own that rustc would reject (a type error, not
// a panic), what follows is not warned about either: the run is rejected.
// A panic is no such error: it ends only its own test, and the next test
// still warns.
func (in *interp) unchecked(r source.Range, what, unknownWhat string, help ...string) {
	if in.opts.Mode != Run || in.uncalled || in.compileErrorReported() {
		return
	}
	in.report(diag.Diagnostic{Code: CodeUnchecked, Severity: diag.Warning, Phase: diag.Run, File: diag.MainRS, Range: r,
		Message: fmt.Sprintf("%s was not checked: the playground does not know %s", what, unknownWhat), Help: help})
}

// compileErrorReported reports an error of this evaluation that is not a
// panic (every panic, Burn's or the program's, carries its PanicID).
func (in *interp) compileErrorReported() bool {
	for _, d := range in.diags {
		if d.Severity == diag.Error && d.PanicID == "" {
			return true
		}
	}
	return false
}

// maxQuoted bounds the source text a warning quotes.
const maxQuoted = 60

// quote is the source text of r as a warning quotes it: on one line, cut
// to maxQuoted characters.
func (in *interp) quote(r source.Range) string {
	// A method chain written over several lines reads as one line.
	text := strings.ReplaceAll(strings.Join(strings.Fields(in.src.Slice(r)), " "), " .", ".")
	if runes := []rune(text); len(runes) > maxQuoted {
		text = string(runes[:maxQuoted-2]) + ".."
	}
	return "`" + text + "`"
}

// valueOf names the value of the expression at r.
func (in *interp) valueOf(r source.Range) string { return "the value of " + in.quote(r) }

// assertMethods are the methods of Burn's API that assert: a call of one
// that cannot compare is unchecked, never a pass.
var assertMethods = map[string]bool{
	"assert_eq": true, "assert_approx_eq": true, "assert_eq_elem": true, "assert_within_range": true,
}

// uncheckedCall reports a call of an assertion method whose receiver or
// arguments are unknown: inputs are the receiver's range, then each
// argument's.
func (in *interp) uncheckedCall(call dispatch.Call, site source.Range, inputs []source.Range) {
	if !assertMethods[call.Method] {
		return
	}
	operands := append([]value{call.Recv}, call.Args...)
	for i, v := range operands {
		if isUnknown(v) && i < len(inputs) {
			in.unchecked(site, "`"+call.Method+"`", in.valueOf(inputs[i]))
			return
		}
	}
	in.unchecked(site, "`"+call.Method+"`", "the values it compares")
}

// uncheckedValues reports an assertion of Burn's API that ran without the
// values of the operands it names (dispatch.Unchecked).
func (in *interp) uncheckedValues(call dispatch.Call, u dispatch.Unchecked, site source.Range, inputs []source.Range) {
	var names []string
	for _, i := range u.Missing {
		if i >= 0 && i < len(inputs) {
			names = append(names, in.quote(inputs[i]))
		}
	}
	what := "the values it compares"
	if len(names) > 0 {
		what = "the values of " + strings.Join(names, " and ")
	}
	in.unchecked(site, "`"+call.Method+"`", what, "the playground knows the shape of a tensor whose values it does not compute (an operation it does not evaluate, or a tensor past its value budget)")
}
