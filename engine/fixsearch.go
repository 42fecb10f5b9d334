package engine

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/dispatch-playground/playground/engine/burnapi"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/expand"
	"github.com/dispatch-playground/playground/engine/interp"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// A panic whose diagnostic knows no edit of its own, and a run stopped by
// the playground's budget, get one by search: the engine changes one
// token of the program near where it stopped (a number, a `true`, a unit
// variant of one of Burn's enums) to each of a few values, runs the
// changed program, and offers the first change after which it runs clean.
// The fix is backed by the engine's own run of it, like every verdict.
//
// The search is bounded by counts, never by a clock, so the Result stays
// the same on every host: it tries at most maxSearchRuns programs, and
// their steps together stay within a budget that grows with the program's
// own run and never passes half the step limit, so a run and its search
// end well within the sandbox's time.
const (
	maxSearchSites = 12
	maxSearchRuns  = 64
	maxSiteValues  = 5
	// A search is not tried after a run this large: no changed program
	// would finish within the budget.
	maxSearchedSteps = interp.DefaultStepLimit / 8
)

// searchFix looks for a one-edit fix of a snippet whose run panicked with
// no fix offered, or was stopped by the time, memory or size budget.
func searchFix(req Request, res Result, detail Detail) (Fix, bool) {
	// An incomplete Result has parts the engine did not check: that a
	// changed program runs clean there would not be backed.
	if isCrate(req) || req.Entry == EntryTests || !res.Complete || detail.Steps > maxSearchedSteps && detail.Limited == "" {
		return Fix{}, false
	}
	anchor, ok := searchAnchor(res)
	if !ok {
		return Fix{}, false
	}
	message := ""
	if res.Panic != nil {
		message = res.Panic.Message
	}
	tensors := map[int]string{}
	for _, h := range res.Hints {
		if h.File == diag.MainRS && strings.HasPrefix(h.Label, "Tensor") {
			tensors[h.Span.Start.Offset] = h.Label
		}
	}
	edits := searchEdits(syntax.Lex(req.Snippet, 0), req.Snippet, anchor, tensors, res.Panic != nil, message)
	// A run stopped by its budget used all of it: a fixed program is one
	// that ends well within it.
	base := detail.Steps
	if detail.Limited != "" {
		base = 0
	}
	budget := min(16*base+50_000, interp.DefaultStepLimit/2)
	perRun := max(4*base, 20_000)
	if detail.Limited != "" {
		perRun = 10_000
	}
	file := source.NewFile(diag.MainRS, req.Snippet)
	for _, e := range edits {
		if budget < base {
			break
		}
		try := req
		try.Snippet = req.Snippet[:e.r.Start] + e.text + req.Snippet[e.r.End:]
		watch := shifted(anchor, e)
		got, d := runTarget(try, false, runLimits{steps: min(perRun, budget), watch: &watch})
		budget -= d.Steps
		// The changed program must run the code that panicked: one that
		// steps around it is not mended.
		if got.Status != StatusOK || !d.Reached && !e.removesAnchor || !got.Complete {
			continue
		}
		return Fix{
			Title: fmt.Sprintf("%s on line %d", e.title, file.Position(e.r.Start).Line),
			Edits: []Edit{{File: diag.MainRS, Span: file.Span(e.r), NewText: e.text}},
		}, true
	}
	return Fix{}, false
}

// packageFeatureFix offers, for the program's own compile_error! that
// names a feature its package declares ("needs the `gpu` feature"), the
// edit that turns that feature on by default, when the program then
// compiles.
func packageFeatureFix(res *Result, req Request) {
	if res.Status != StatusRejected || isCrate(req) {
		return
	}
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		if d.Code != expand.CodeCompileError || len(d.Fixes) > 0 {
			continue
		}
		cfg, _ := configs.parse(req.Config)
		for _, f := range cfg.DeclaredFeatures() {
			edit, ok := cfg.EnablePackageFeatureEdit(f)
			if !ok || !strings.Contains(d.Message, "`"+f+"`") {
				continue
			}
			fix := Fix{Title: fmt.Sprintf("Turn on the package's `%s` feature by default", f),
				Edits: []Edit{{File: diag.CargoToml, Span: source.NewFile(diag.CargoToml, req.Config).Span(edit.Range), NewText: edit.NewText}}}
			if got, _ := runTarget(ApplyFix(req, fix), false, runLimits{}); got.Status != StatusRejected {
				d.Fixes = append(d.Fixes, fix)
				break
			}
		}
	}
}

// shifted is r in the text after e: moved by an edit before it, grown or
// shrunk by one inside it.
func shifted(r source.Range, e edit) source.Range {
	delta := len(e.text) - e.r.Len()
	switch {
	case e.r.End <= r.Start:
		return source.Range{Start: r.Start + delta, End: r.End + delta}
	case e.r.Start >= r.Start && e.r.End <= r.End:
		return source.Range{Start: r.Start, End: r.End + delta}
	}
	return r
}

// searchAnchor is where the run stopped: its panic, when no diagnostic at
// the panic offers a fix already, or the limit that stopped it.
func searchAnchor(res Result) (source.Range, bool) {
	if p := res.Panic; p != nil {
		for _, d := range res.Diagnostics {
			if d.Code == p.Code && d.Span == p.Span && len(d.Fixes) > 0 {
				return source.Range{}, false
			}
		}
		return source.Range{Start: p.Span.Start.Offset, End: p.Span.End.Offset}, true
	}
	if res.Status != StatusRejected {
		return source.Range{}, false
	}
	for _, d := range res.Diagnostics {
		if d.Severity == string(diag.Error) && d.Phase != string(diag.Run) {
			return source.Range{}, false
		}
	}
	for _, d := range res.Diagnostics {
		switch d.Code {
		case "playground-time-limit", "playground-memory-limit", "playground-limit":
			if d.File == diag.MainRS {
				return source.Range{Start: d.Span.Start.Offset, End: d.Span.End.Offset}, true
			}
		}
	}
	return source.Range{}, false
}

// offerFix puts fix on the diagnostics of the run's panic, or of the limit
// that stopped it.
func offerFix(res *Result, req Request, fix Fix) {
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		switch {
		case res.Panic != nil && d.Code == res.Panic.Code && d.Span == res.Panic.Span,
			res.Panic == nil && d.Severity == string(diag.Error) && d.Phase == string(diag.Run):
			d.Fixes = append(d.Fixes, fix)
		}
	}
}

// site is a token the search may change, and the texts it tries for it.
type site struct {
	r      source.Range
	values []string
}

// edit is one change the search tries: r's text becomes text.
type edit struct {
	r     source.Range
	text  string
	title string
	// removesAnchor marks the edit that leaves out the statement that
	// panicked: the changed program cannot run it.
	removesAnchor bool
}

// Kinds of edits, in the order the search tries them unless the panic's
// message names what it is about.
const (
	kindValue  = iota // a number, a bool, a unit variant, an array's length
	kindDevice        // another device for a tensor, or autodiff on a device
	kindMethod        // a conversion of a tensor (`.dequantize()`, `.int()`)
	kindData          // an element of a tensor's data
	kindDrop          // a setting left out (`.with_eps(0.0)`, `Some(0.0)`)
	numKinds
)

// kindOrder puts first the edits a panic's message is about: a device's
// or a backend's, a dtype's or a tensor kind's, else a value's.
func kindOrder(message string) [numKinds]int {
	m := strings.ToLower(message)
	switch {
	case strings.Contains(m, "device") || strings.Contains(m, "backend") || strings.Contains(m, "autodiff") ||
		strings.Contains(m, "capture") || strings.Contains(m, "variant"):
		return [numKinds]int{kindDevice: 0, kindValue: 1, kindMethod: 2, kindData: 3, kindDrop: 4}
	case strings.Contains(m, "quantiz") || strings.Contains(m, "dtype") || strings.Contains(m, "kind") ||
		strings.Contains(m, "scalar") || strings.Contains(m, "float") || strings.Contains(m, "bool"):
		return [numKinds]int{kindMethod: 0, kindValue: 1, kindDevice: 2, kindData: 3, kindDrop: 4}
	}
	return [numKinds]int{kindValue: 0, kindMethod: 1, kindDevice: 2, kindData: 3, kindDrop: 4}
}

// tensorMethods are the conversions tried on a tensor variable, each for
// a panic whose message speaks of what it converts.
var tensorMethods = []struct {
	method string
	about  []string
}{
	{".dequantize()", []string{"quant"}},
	{".int()", []string{"int", "kind", "dtype"}},
	{".float()", []string{"float", "kind", "dtype"}},
	{".inner()", []string{"autodiff"}},
	{".require_grad()", []string{"grad"}},
	// A tensor of several elements read as a scalar: their mean.
	{".mean()", []string{"into_scalar", "invalidshape { expected: 1", "1 element can be converted into scalar"}},
}

// speaksOf reports whether a lowercased message has one of the words.
func speaksOf(message string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(message, w) })
}

// searchEdits are the edits worth trying: in the anchor, then before it
// (what made its inputs), then after it; in each, those the message is
// about first, and nearest the anchor first. Past a panic, the numbers of an
// `if` or `while` condition are left alone: changing them would step
// around the panicking call rather than mend it.
//
// tensors are the labels of the program's tensor variables by the offset
// where the check labels them (Result.Hints): only they are moved,
// converted or swapped.
func searchEdits(toks []syntax.Token, src string, anchor source.Range, tensors map[int]string, panicked bool, message string) []edit {
	type cand struct {
		edit
		zone, kind, dist, order int
	}
	var cands []cand
	said := mentions(message)
	// The statement the anchor is in is as near as the anchor: a panic
	// pointing at one argument is often mended in another.
	anchor = statementAround(toks, anchor)
	inCond := false
	add := func(kind int, at source.Range, e edit) {
		// Zones: what the message names (`got 50`, `mode NearestExact`),
		// a loop's condition when the budget stopped the run, then the
		// anchor, before it, after it.
		zone, dist := 2, 0
		switch {
		case at.Start >= anchor.Start && at.End <= anchor.End:
		case at.End <= anchor.Start:
			zone, dist = 3, anchor.Start-at.End
		default:
			zone, dist = 4, max(at.Start-anchor.End, 0)
		}
		switch {
		case (kind == kindValue || kind == kindData) && said.has(src[at.Start:at.End]):
			zone = 0
		case inCond && !panicked:
			zone = 1
		}
		cands = append(cands, cand{e, zone, kind, dist, len(cands)})
	}
	addSite := func(s site) {
		old := src[s.r.Start:s.r.End]
		for _, v := range s.values {
			add(kindValue, s.r, edit{r: s.r, text: v, title: fmt.Sprintf("Change `%s` to `%s`", old, v)})
		}
	}

	lower := strings.ToLower(message)
	aboutDevices := kindOrder(message)[kindDevice] == 0
	lets := letBindings(toks)
	var devices []string
	for _, b := range lets {
		if b.device {
			devices = append(devices, b.name)
		}
	}
	isDevice := func(name string) bool { return slices.Contains(devices, name) }
	autodiffDevice := map[string]bool{}
	for _, b := range lets {
		if b.device && b.autodiff {
			autodiffDevice[b.name] = true
		}
	}
	bound := map[string]bool{}
	for _, b := range lets {
		bound[b.name] = true
		if b.device && !b.autodiff && b.end < len(src) {
			at := source.Range{Start: b.end, End: b.end}
			add(kindDevice, source.Range{Start: b.start, End: b.end},
				edit{r: at, text: ".autodiff()", title: fmt.Sprintf("Call `.autodiff()` on the device `%s`", b.name)})
		}
	}

	var ints []int64
	var floats []float64
	for _, t := range toks {
		switch t.Kind {
		case syntax.Int:
			if n, err := strconv.ParseInt(t.Value, 10, 64); err == nil {
				ints = append(ints, n)
			}
		case syntax.Float:
			if f, err := strconv.ParseFloat(t.Value, 64); err == nil {
				floats = append(floats, f)
			}
		}
	}
	depth, condDepth := 0, 0
	for i, t := range toks {
		switch {
		case t.Kind == syntax.Keyword && (t.Text == "if" || t.Text == "while"):
			inCond, condDepth = true, depth
		case t.Kind == syntax.Punct && (t.Text == "(" || t.Text == "[" || t.Text == "{"):
			if t.Text == "{" && inCond && depth == condDepth {
				inCond = false
			}
			depth++
		case t.Kind == syntax.Punct && (t.Text == ")" || t.Text == "]" || t.Text == "}"):
			depth--
		}
		if inCond && panicked || panicked && inAssertion(toks, i) {
			continue
		}
		switch {
		case t.Kind == syntax.Int && i >= 1 && (toks[i-1].Text == "(" || toks[i-1].Text == ",") && i+3 < len(toks) &&
			toks[i+1].Text == "," && toks[i+2].Kind == syntax.Int && (toks[i+3].Text == ")" || toks[i+3].Text == ",") &&
			t.Text != toks[i+2].Text && opener(toks, i) == "(" && said.has(t.Text) && said.has(toks[i+2].Text):
			// Two arguments in the wrong order, both of which the message
			// names (`flatten(2, 1)`: "start dim (2) ... end dim (1)").
			a, b := t, toks[i+2]
			r := source.Range{Start: a.Range.Start, End: b.Range.End}
			e := edit{r: r, text: b.Text + src[a.Range.End:b.Range.Start] + a.Text, title: fmt.Sprintf("Swap `%s` and `%s`", a.Text, b.Text)}
			cands = append(cands, cand{e, 0, kindValue, 0, len(cands)})
			addSite(intSite(toks, i, ints))
		case t.Kind == syntax.Int || t.Kind == syntax.Float:
			s := intSite(toks, i, ints)
			if t.Kind == syntax.Float {
				s = floatSite(toks, i, floats)
			}
			if inData(toks, i) {
				// An element of a tensor's data is tried after the rest.
				old := src[s.r.Start:s.r.End]
				for _, v := range s.values {
					add(kindData, s.r, edit{r: s.r, text: v, title: fmt.Sprintf("Change `%s` to `%s`", old, v)})
				}
				continue
			}
			addSite(s)
		case t.Kind == syntax.Keyword && (t.Text == "true" || t.Text == "false"):
			addSite(site{r: t.Range, values: []string{strconv.FormatBool(t.Text != "true")}})
		case t.Kind == syntax.Ident && i >= 2 && toks[i-1].Text == "::" && toks[i-2].Text == "Device" &&
			i+1 < len(toks) && toks[i+1].Text == "(":
			if toks[i+2].Text == ")" && aboutDevices {
				for _, c := range plainDeviceConstructors() {
					if c != t.Text {
						add(kindDevice, t.Range, edit{r: t.Range, text: c, title: fmt.Sprintf("Change `Device::%s()` to `Device::%s()`", t.Text, c)})
					}
				}
			}
			if toks[i+2].Text == ")" && speaksOf(lower, []string{"distributed", "not supported"}) {
				r := source.Range{Start: t.Range.Start, End: toks[i+2].Range.End}
				for _, c := range []string{"cuda(0)", "rocm(0)"} {
					add(kindDevice, t.Range, edit{r: r, text: c, title: fmt.Sprintf("Change `Device::%s()` to `Device::%s`", t.Text, c)})
				}
			}
			if end := closing(toks, i+1); end > 0 && !(end+2 < len(toks) && toks[end+1].Text == "." && toks[end+2].Text == "autodiff") {
				at := source.Range{Start: toks[end].Range.End, End: toks[end].Range.End}
				call := source.Range{Start: toks[i-2].Range.Start, End: toks[end].Range.End}
				add(kindDevice, call, edit{r: at, text: ".autodiff()", title: fmt.Sprintf("Call `.autodiff()` on `%s`", titleText(src[call.Start:call.End]))})
			}
		case t.Text == "autodiff" && i >= 1 && toks[i-1].Text == "." && i+2 < len(toks) && toks[i+1].Text == "(" && toks[i+2].Text == ")":
			r := source.Range{Start: toks[i-1].Range.Start, End: toks[i+2].Range.End}
			add(kindDevice, r, edit{r: r, text: "", title: "Remove `.autodiff()`"})
		case t.Kind == syntax.Ident && i >= 1 && toks[i-1].Text == "." && i+1 < len(toks) && toks[i+1].Text == "(" &&
			(strings.HasPrefix(t.Text, "with_") || strings.HasPrefix(t.Text, "per_")):
			if end := closing(toks, i+1); end > 0 {
				r := source.Range{Start: toks[i-1].Range.Start, End: toks[end].Range.End}
				add(kindDrop, r, edit{r: r, text: "", title: fmt.Sprintf("Remove `%s`", titleText(src[r.Start:r.End]))})
			}
		case t.Text == "Some" && i+1 < len(toks) && toks[i+1].Text == "(" && (i == 0 || toks[i-1].Text != "::"):
			// A setting written as a literal (`Some(0.0)`), never a
			// value of the program's (`Some(bias)`), which None would drop.
			if end := closing(toks, i+1); end > 0 && literalsOnly(toks[i+2:end]) {
				r := source.Range{Start: t.Range.Start, End: toks[end].Range.End}
				add(kindDrop, r, edit{r: r, text: "None", title: fmt.Sprintf("Change `%s` to `None`", titleText(src[r.Start:r.End]))})
			}
		case t.Kind == syntax.String && strings.HasPrefix(t.Value, "http://") && speaksOf(lower, []string{"http:"}):
			// A WebSocket server's address written with the page's scheme.
			r := source.Range{Start: t.Range.Start + 1, End: t.Range.Start + 1 + len("http")}
			if src[r.Start:r.End] == "http" {
				add(kindValue, t.Range, edit{r: r, text: "ws", title: "Change `http://` to `ws://`"})
			}
		case (t.Text == ";" || t.Text == "{") && i+1 < len(toks) && toks[i+1].Range.Start == anchor.Start &&
			speaksOf(lower, []string{"not supported", "already"}):
			// A call Burn does not take here, as a statement of its own:
			// it is left out (`capture.seed(42);` inside a capture).
			if stmtEnd := statementEnd(toks, i+1); stmtEnd > 0 && toks[stmtEnd].Range.Start >= anchor.End {
				r := source.Range{Start: toks[i+1].Range.Start, End: toks[stmtEnd].Range.End}
				add(kindDrop, anchor, edit{r: r, text: "", title: fmt.Sprintf("Remove `%s`", titleText(src[r.Start:r.End])), removesAnchor: true})
			}
		case t.Kind == syntax.Ident && strings.HasSuffix(t.Text, "Config") && i+3 < len(toks) && toks[i+1].Text == "::" && toks[i+2].Text == "new" && toks[i+3].Text == "(":
			// A setting of the config the message names and the program
			// leaves at its default ("Either output_size or scale_factor
			// must be provided").
			if end := closing(toks, i+3); end > 0 {
				at := source.Range{Start: toks[end].Range.End, End: toks[end].Range.End}
				for _, w := range said.order {
					if v, ok := settingValue(t.Text, w); ok && !strings.Contains(src, ".with_"+w+"(") {
						text := fmt.Sprintf(".with_%s(%s)", w, v)
						add(kindValue, t.Range, edit{r: at, text: text, title: fmt.Sprintf("Set `%s`: `%s`", w, text)})
					}
				}
			}
		case t.Text == "..=" && speaksOf(lower, []string{"index", "out of bounds", "out of range"}):
			add(kindValue, t.Range, edit{r: t.Range, text: "..", title: "Change `..=` to `..`"})
		case t.Text == "len" && i >= 1 && toks[i-1].Text == "." && i+2 < len(toks) && toks[i+1].Text == "(" && toks[i+2].Text == ")" &&
			speaksOf(lower, []string{"index", "out of bounds", "out of range"}):
			at := source.Range{Start: toks[i+2].Range.End, End: toks[i+2].Range.End}
			add(kindValue, t.Range, edit{r: at, text: " - 1", title: "Subtract 1 from `.len()`"})
		case t.Text == "Tensor" && i+4 < len(toks) && toks[i+1].Text == "::" && toks[i+2].Text == "<" && toks[i+3].Kind == syntax.Int &&
			speaksOf(lower, []string{"rank", "dimension", "dims"}):
			for _, e := range rankEdits(toks, i, src) {
				add(kindMethod, e.r, e)
			}
		case t.Text == "[" && i >= 1 && opensArray(toks[i-1]):
			// A tensor's data changes length only for a panic about how
			// many elements it has.
			kind := kindValue
			if isData(toks, i) {
				if !speaksOf(lower, []string{"element", "size", "number of", "length"}) {
					continue
				}
				kind = kindData
			}
			for _, e := range arrayEdits(toks, i, src) {
				add(kind, e.r, e)
			}
		case t.Kind == syntax.Ident && i >= 2 && toks[i-1].Text == "::" && toks[i-2].Kind == syntax.Ident:
			addSite(variantSite(toks[i-2].Text, t))
		case t.Kind == syntax.Ident && bound[t.Text] && isUse(toks, i):
			if isDevice(t.Text) {
				for _, d := range devices {
					if d != t.Text {
						add(kindDevice, t.Range, edit{r: t.Range, text: d, title: fmt.Sprintf("Use the device `%s` instead of `%s`", d, t.Text)})
					}
				}
				if t.Range.Start >= anchor.Start && t.Range.End <= anchor.End && !(i+1 < len(toks) && toks[i+1].Text == ".") {
					// The default device as the argument a device variable
					// is (`start(upstream, ..)`), not as a receiver.
					add(kindDevice, t.Range, edit{r: t.Range, text: "Device::default()", title: fmt.Sprintf("Use `Device::default()` instead of `%s`", t.Text)})
				}
				if !autodiffDevice[t.Text] && !(i+2 < len(toks) && toks[i+1].Text == "." && toks[i+2].Text == "autodiff") {
					at := source.Range{Start: t.Range.End, End: t.Range.End}
					add(kindDevice, t.Range, edit{r: at, text: ".autodiff()", title: fmt.Sprintf("Use `%s.autodiff()` here", t.Text)})
				}
				continue
			}
			label, isTensor := tensors[t.Range.Start]
			if !isTensor {
				continue
			}
			at := source.Range{Start: t.Range.End, End: t.Range.End}
			if rank, ok := labelRank(label); ok && speaksOf(lower, []string{"rank", "dimension", "dims"}) {
				add(kindMethod, t.Range, edit{r: at, text: fmt.Sprintf(".unsqueeze::<%d>()", rank+1),
					title: fmt.Sprintf("Call `.unsqueeze::<%d>()` on `%s`", rank+1, t.Text)})
				if rank > 1 {
					add(kindMethod, t.Range, edit{r: at, text: fmt.Sprintf(".squeeze_dim::<%d>(0)", rank-1),
						title: fmt.Sprintf("Call `.squeeze_dim::<%d>(0)` on `%s`", rank-1, t.Text)})
				}
			}
			if shape, ok := labelShape(label); ok && t.Range.Start >= anchor.Start && t.Range.End <= anchor.End {
				// The shape the message says it should have, with as many
				// elements (`targets ([1, 3]) ... logits ([3, 1])`).
				for _, want := range said.shapes {
					if elements(want) == elements(shape) && !slices.Equal(want, shape) && len(want) == len(shape) {
						text := fmt.Sprintf(".reshape(%s)", shapeText(want))
						add(kindMethod, t.Range, edit{r: at, text: text, title: fmt.Sprintf("Call `%s` on `%s`", text, t.Text)})
					}
				}
			}
			if t.Range.Start >= anchor.Start && t.Range.End <= anchor.End && speaksOf(lower, []string{"autodiff", "grad"}) &&
				!strings.Contains(label, "autodiff") && i+2 < len(toks) && toks[i+1].Text == "." && strings.HasPrefix(toks[i+2].Text, "grad") {
				// The tracked tensor in place of a plain copy of it whose
				// gradient is asked for: `w.grad(..)` for `w_eval.grad(..)`.
				for _, o := range trackedTensors(tensors, toks, t) {
					add(kindMethod, t.Range, edit{r: t.Range, text: o, title: fmt.Sprintf("Use `%s` instead of `%s`", o, t.Text)})
				}
			}
			for _, d := range devices {
				add(kindDevice, t.Range, edit{r: at, text: ".to_device(&" + d + ")", title: fmt.Sprintf("Move `%s` to the device `%s`", t.Text, d)})
			}
			for _, m := range tensorMethods {
				if speaksOf(lower, m.about) {
					add(kindMethod, t.Range, edit{r: at, text: m.method, title: fmt.Sprintf("Call `%s` on `%s`", m.method, t.Text)})
				}
			}
		}
	}
	rank := kindOrder(message)
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.zone != b.zone {
			return a.zone - b.zone
		}
		if a.kind != b.kind {
			return rank[a.kind] - rank[b.kind]
		}
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return a.order - b.order
	})
	out := make([]edit, 0, min(len(cands), maxSearchRuns))
	seen := map[edit]bool{}
	for _, c := range cands {
		key := edit{r: c.r, text: c.text, removesAnchor: c.removesAnchor}
		if seen[key] {
			continue
		}
		seen[key] = true
		if out = append(out, c.edit); len(out) == maxSearchRuns {
			break
		}
	}
	return out
}

// settingValue is a value for a config's `with_` setting of a name, by its
// type in Burn's API table: a scale of 2 for an optional factor, 1 for a
// count or a float. Settings of other types have no value to guess.
func settingValue(config, name string) (string, bool) {
	for _, it := range burnapi.Default().Items {
		if it.Kind != "method" || it.Name != "with_"+name || !strings.HasSuffix(it.Path, "::"+config) {
			continue
		}
		_, typ, _ := strings.Cut(it.Params, ": ")
		switch typ {
		case "Option<f32>", "Option<f64>":
			return "Some(2.0)", true
		case "Option<[f32; 2]>", "Option<[f64; 2]>":
			return "Some([2.0, 2.0])", true
		case "f32", "f64":
			return "1.0", true
		case "usize":
			return "1", true
		}
	}
	return "", false
}

// labelRank is the rank a hint's label gives (`Tensor<2> · ...`).
func labelRank(label string) (int, bool) {
	rest, ok := strings.CutPrefix(label, "Tensor<")
	if !ok {
		return 0, false
	}
	end := strings.IndexAny(rest, ",>")
	if end < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(rest[:end])
	return n, err == nil
}

// labelShape is the shape a hint's label gives (`... · [2, 3] · ...`).
func labelShape(label string) ([]int64, bool) {
	for _, part := range strings.Split(label, " · ") {
		if strings.HasPrefix(part, "[") && strings.HasSuffix(part, "]") {
			var shape []int64
			for _, f := range strings.Split(part[1:len(part)-1], ", ") {
				n, err := strconv.ParseInt(f, 10, 64)
				if err != nil {
					return nil, false
				}
				shape = append(shape, n)
			}
			return shape, true
		}
	}
	return nil, false
}

func elements(shape []int64) int64 {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	return n
}

func shapeText(shape []int64) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// trackedTensors are up to three autodiff tensors the program binds
// before t, in the order it binds them.
func trackedTensors(tensors map[int]string, toks []syntax.Token, t syntax.Token) []string {
	var out []string
	for k := 1; k < len(toks) && toks[k].Range.Start < t.Range.Start && len(out) < 3; k++ {
		l, ok := tensors[toks[k].Range.Start]
		name := toks[k].Text
		if ok && (toks[k-1].Text == "let" || toks[k-1].Text == "mut") && name != t.Text && strings.Contains(l, "autodiff") && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// literalsOnly reports whether tokens are numbers, bools and punctuation
// (`0.0`, `[1, 2]`, `(0, 0)`, `0..4`): a setting, not data of the program.
func literalsOnly(toks []syntax.Token) bool {
	for _, t := range toks {
		switch {
		case t.Kind == syntax.Int || t.Kind == syntax.Float || t.Kind == syntax.Punct:
		case t.Kind == syntax.Keyword && (t.Text == "true" || t.Text == "false"):
		default:
			return false
		}
	}
	return len(toks) > 0
}

// mentioned are the words and numbers of a panic's message.
type mentioned struct {
	words   map[string]bool
	order   []string // the words with an underscore, in the message's order
	numbers []float64
	shapes  [][]int64 // `[3, 1]`
}

func mentions(message string) mentioned {
	m := mentioned{words: map[string]bool{}}
	for rest := message; ; {
		open := strings.IndexByte(rest, '[')
		if open < 0 {
			break
		}
		end := strings.IndexByte(rest[open:], ']')
		if end < 0 {
			break
		}
		var shape []int64
		for _, f := range strings.Split(rest[open+1:open+end], ",") {
			n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil || n < 0 {
				shape = nil
				break
			}
			shape = append(shape, n)
		}
		if len(shape) > 0 {
			m.shapes = append(m.shapes, shape)
		}
		rest = rest[open+end:]
	}
	for _, w := range strings.FieldsFunc(message, func(r rune) bool {
		return !(r == '_' || r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		w = strings.Trim(w, ".")
		if strings.Contains(w, "_") && !m.words[w] {
			m.order = append(m.order, w)
		}
		m.words[w] = true
		if f, err := strconv.ParseFloat(w, 64); err == nil {
			m.numbers = append(m.numbers, f)
		}
	}
	return m
}

// has reports whether the message names a token's text: the same word, or
// the same number however it is written (`50.0` for "got 50").
func (m mentioned) has(text string) bool {
	if m.words[text] {
		return true
	}
	digits := strings.TrimRightFunc(strings.ReplaceAll(text, "_", ""), func(r rune) bool { return r >= 'a' && r <= 'z' })
	if f, err := strconv.ParseFloat(digits, 64); err == nil {
		return slices.Contains(m.numbers, f)
	}
	return false
}

// binding is a `let` of the program: its name, the range of its
// statement up to the `;`, and whether it binds a device (its value is
// made by `Device::` or `.device()`), with autodiff on.
type binding struct {
	name             string
	start, end       int
	device, autodiff bool
}

// letBindings are the program's `let NAME = ...;` statements.
func letBindings(toks []syntax.Token) []binding {
	var out []binding
	for i := 0; i < len(toks); i++ {
		if toks[i].Text != "let" || toks[i].Kind != syntax.Keyword {
			continue
		}
		j := i + 1
		if j < len(toks) && toks[j].Text == "mut" {
			j++
		}
		if j+1 >= len(toks) || toks[j].Kind != syntax.Ident || toks[j+1].Text != "=" {
			continue
		}
		b := binding{name: toks[j].Text, start: toks[i].Range.Start}
		depth := 0
		k := j + 2
		for ; k < len(toks); k++ {
			t := toks[k]
			switch t.Text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
			if depth < 0 || depth == 0 && t.Text == ";" {
				break
			}
			switch {
			case t.Text == "Device" && k+1 < len(toks) && toks[k+1].Text == "::":
				b.device = true
			case t.Text == "device" && k >= 1 && toks[k-1].Text == "." && depth == 0:
				b.device = true
			case t.Text == "autodiff" && k >= 1 && toks[k-1].Text == ".":
				b.autodiff = true
			}
		}
		if k == len(toks) || toks[k].Text != ";" {
			continue
		}
		b.end = toks[k].Range.Start
		// `Device::default().autodiff()` is a device, `Tensor::ones(.., &Device::..)` is not.
		if b.device && !startsDevice(toks[j+2:k]) {
			b.device = false
		}
		// `device.clone().autodiff()` of a device is one.
		if init := toks[j+2 : k]; len(init) > 0 && slices.ContainsFunc(out, func(o binding) bool { return o.device && o.name == init[0].Text }) &&
			(len(init) == 1 || init[1].Text == ".") && !slices.ContainsFunc(init, func(t syntax.Token) bool { return t.Text == "Tensor" }) {
			b.device = true
		}
		out = append(out, b)
	}
	return out
}

// startsDevice reports whether an initializer's tokens make a device: a
// `Device::` call or a `.device()` of something, with methods after it.
func startsDevice(toks []syntax.Token) bool {
	if len(toks) >= 2 && toks[0].Text == "Device" && toks[1].Text == "::" {
		return !slices.ContainsFunc(toks, func(t syntax.Token) bool { return t.Text == "Tensor" })
	}
	for k := 1; k+2 < len(toks); k++ {
		if toks[k].Text == "device" && toks[k-1].Text == "." && toks[k+1].Text == "(" && toks[k+2].Text == ")" {
			return true
		}
	}
	return false
}

// isUse reports whether toks[i], an identifier, reads a variable: it is
// neither bound here, a field or method name, a path segment, a call, nor
// a macro.
func isUse(toks []syntax.Token, i int) bool {
	if i > 0 {
		switch toks[i-1].Text {
		case ".", "::", "let", "mut", "fn", "struct", "enum", "type", "for", "|":
			return false
		}
	}
	if i+1 < len(toks) {
		switch toks[i+1].Text {
		case "(", "::", "!", ":", "=", "{":
			return false
		}
	}
	return true
}

// statementAround widens r to the statement it lies in: from after the
// `;`, `{` or `}` before it to the `;` after it, at its depth.
func statementAround(toks []syntax.Token, r source.Range) source.Range {
	first := sort.Search(len(toks), func(k int) bool { return toks[k].Range.Start >= r.Start })
	out := r
	depth := 0
	for k := first - 1; k >= 0; k-- {
		t := toks[k].Text
		if depth == 0 && (t == ";" || t == "{" || t == "}") {
			break
		}
		switch t {
		case ")", "]", "}":
			depth++
		case "(", "[", "{":
			depth--
		}
		if depth < 0 {
			break
		}
		out.Start = toks[k].Range.Start
	}
	depth = 0
	for k := first; k < len(toks); k++ {
		t := toks[k].Text
		if toks[k].Range.Start < r.End {
			continue
		}
		if depth == 0 && (t == ";" || t == "}") {
			break
		}
		switch t {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		}
		if depth < 0 {
			break
		}
		out.End = toks[k].Range.End
	}
	return out
}

// statementEnd is the index of the `;` that ends the expression statement
// starting at toks[start], or -1 when it is not one (a `let`, an item).
func statementEnd(toks []syntax.Token, start int) int {
	if toks[start].Kind == syntax.Keyword {
		return -1
	}
	depth := 0
	for k := start; k < len(toks); k++ {
		switch toks[k].Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth--; depth < 0 {
				return -1
			}
		case ";":
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// closing is the index of the token that closes the one at open, or -1.
func closing(toks []syntax.Token, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		switch toks[k].Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// opensArray reports whether a `[` after prev starts an array expression
// (`f([2, 3])`, `vec![a, b]`, `= [1]`), not an index (`x[0]`) or a type.
func opensArray(prev syntax.Token) bool {
	switch prev.Text {
	case "(", ",", "=", "&", "[", "!", "{", ";", "return":
		return true
	}
	return false
}

// inAssertion reports whether toks[i] is in the arguments of one of
// Burn's assertions of values or of a tolerance (`assert_approx_eq(..,
// Tolerance::absolute(1e-6))`): loosening what a program checks would hide
// the mistake the check found, not mend it.
func inAssertion(toks []syntax.Token, i int) bool {
	depth := 0
	for k := i - 1; k >= 1; k-- {
		switch toks[k].Text {
		case ")", "]", "}":
			depth++
		case "[", "{":
			depth--
		case "(":
			if depth > 0 {
				depth--
				continue
			}
			name := toks[k-1].Text
			if strings.HasPrefix(name, "assert") || k >= 3 && toks[k-3].Text == "Tolerance" {
				return true
			}
		case ";":
			return false
		}
	}
	return false
}

// opener is the bracket toks[i] is directly inside: "(", "[", "{" or "".
func opener(toks []syntax.Token, i int) string {
	depth := 0
	for k := i - 1; k >= 0; k-- {
		switch toks[k].Text {
		case ")", "]", "}":
			depth++
		case "(", "[", "{":
			if depth == 0 {
				return toks[k].Text
			}
			depth--
		}
	}
	return ""
}

// inData reports whether toks[i] is inside an array that is a tensor's
// data (isData).
func inData(toks []syntax.Token, i int) bool {
	depth := 0
	for k := i - 1; k >= 0; k-- {
		switch toks[k].Text {
		case ")", "]", "}":
			depth++
		case "(", "{":
			if depth == 0 {
				return false
			}
			depth--
		case "[":
			if depth == 0 {
				return k >= 1 && opensArray(toks[k-1]) && isData(toks, k) || inData(toks, k)
			}
			depth--
		}
	}
	return false
}

// isData reports whether the array at toks[open] is a tensor's data: an
// argument of a data constructor (`from_floats([..])`), or of floats or
// bytes. Leaving one of its elements out would drop the program's data.
func isData(toks []syntax.Token, open int) bool {
	if open >= 2 && toks[open-1].Text == "(" {
		switch toks[open-2].Text {
		case "from_data", "from_floats", "from_ints", "from_bool", "new", "quantized", "from":
			return true
		}
	}
	end := closing(toks, open)
	for k := open + 1; k < end; k++ {
		if t := toks[k]; t.Kind == syntax.Float || t.Kind == syntax.Int && (t.Suffix == "u8" || t.Suffix == "i8") {
			return !slices.ContainsFunc(toks[open+1:end], func(t syntax.Token) bool { return t.Text == "(" })
		}
	}
	return false
}

// arrayEdits are the changes of an array's length: each element left
// out, and a last element repeated or a 1 added. A shape or a list of
// dimensions that has one too many or too few is a common mistake.
func arrayEdits(toks []syntax.Token, open int, src string) []edit {
	end := closing(toks, open)
	if end < 0 {
		return nil
	}
	var elems []source.Range
	depth, start := 0, open+1
	for k := open + 1; k <= end; k++ {
		switch t := toks[k]; {
		case t.Text == "(" || t.Text == "[" || t.Text == "{":
			depth++
		case (t.Text == ")" || t.Text == "]" || t.Text == "}") && k < end:
			depth--
		case t.Text == ";" && depth == 0:
			return nil // [x; n]
		case (t.Text == "," && depth == 0 || k == end) && start < k:
			elems = append(elems, source.Range{Start: toks[start].Range.Start, End: toks[k-1].Range.End})
			start = k + 1
		}
	}
	if len(elems) == 0 || len(elems) > 6 || !literalsOnly(toks[open+1:end]) {
		return nil
	}
	whole := source.Range{Start: toks[open].Range.Start, End: toks[end].Range.End}
	text := func(es []string) string { return "[" + strings.Join(es, ", ") + "]" }
	var parts []string
	for _, e := range elems {
		parts = append(parts, src[e.Start:e.End])
	}
	var out []edit
	change := func(es []string) {
		t := text(es)
		out = append(out, edit{r: whole, text: t, title: fmt.Sprintf("Change `%s` to `%s`", titleText(src[whole.Start:whole.End]), titleText(t))})
	}
	if len(parts) > 1 {
		for i := len(parts) - 1; i >= 0; i-- {
			change(append(slices.Clone(parts[:i]), parts[i+1:]...))
		}
	}
	change(append(slices.Clone(parts), parts[len(parts)-1]))
	if last := parts[len(parts)-1]; last != "1" && !strings.ContainsAny(last, "[(") {
		change(append(slices.Clone(parts), "1"))
	}
	// An array of one number repeated (`[0, 0]`, a stride of both
	// dimensions) changes as one.
	if k := open + 1; len(parts) > 1 && toks[k].Kind == syntax.Int && !slices.ContainsFunc(parts, func(p string) bool { return p != parts[0] }) {
		for _, v := range intSite(toks, k, nil).values {
			change(slices.Repeat([]string{v}, len(parts)))
		}
	}
	return out
}

// rankEdits change the rank of a tensor the program makes from a shape
// (`Tensor::<1>::ones([8], ..)`): one more, with a leading dimension of 1
// (`Tensor::<2>::ones([1, 8], ..)`), or one less, without a leading 1.
func rankEdits(toks []syntax.Token, at int, src string) []edit {
	rankTok := toks[at+3]
	rank, err := strconv.Atoi(rankTok.Value)
	gt := at + 4
	for gt < len(toks) && toks[gt].Text != ">" {
		gt++
	}
	if err != nil || gt+4 >= len(toks) || toks[gt+1].Text != "::" || toks[gt+2].Kind != syntax.Ident || toks[gt+3].Text != "(" || toks[gt+4].Text != "[" {
		return nil
	}
	open := gt + 4
	end := closing(toks, open)
	if end < 0 || end > open+1 && !literalsOnly(toks[open+1:end]) {
		return nil
	}
	inner := strings.TrimSpace(src[toks[open].Range.End:toks[end].Range.Start])
	whole := source.Range{Start: toks[at].Range.Start, End: toks[end].Range.End}
	head := src[toks[at].Range.Start:rankTok.Range.Start]
	mid := src[rankTok.Range.End:toks[open].Range.Start]
	title := func(rank int, shape string) string {
		return fmt.Sprintf("Make it a `Tensor::<%d>` of shape `%s`", rank, titleText(shape))
	}
	var out []edit
	more := "[1]"
	if inner != "" {
		more = "[1, " + inner + "]"
	}
	out = append(out, edit{r: whole, text: head + strconv.Itoa(rank+1) + mid + more, title: title(rank+1, more)})
	if first, rest, ok := strings.Cut(inner, ","); ok && rank > 1 && strings.TrimSpace(first) == "1" {
		less := "[" + strings.TrimSpace(rest) + "]"
		out = append(out, edit{r: whole, text: head + strconv.Itoa(rank-1) + mid + less, title: title(rank-1, less)})
	}
	return out
}

// titleText is source text as a title shows it: on one line, and cut
// after 40 characters.
func titleText(src string) string {
	s := strings.Join(strings.Fields(src), " ")
	if r := []rune(s); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return s
}

// plainDeviceConstructors are Device's associated functions that take no
// argument (`Device::flex()`), from Burn's API table, and `default`.
var plainDeviceConstructors = sync.OnceValue(func() []string {
	out := []string{"default"}
	for _, it := range burnapi.Default().Items {
		if it.Kind == "assoc" && it.Path == "burn_tensor::Device" && it.Params == "" && it.Return == "Self" && !slices.Contains(out, it.Name) {
			out = append(out, it.Name)
		}
	}
	return out
})

// negated reports whether the token before toks[i] is a unary minus, and
// returns the range of the literal with it.
func negated(toks []syntax.Token, i int) (source.Range, bool) {
	r := toks[i].Range
	if i == 0 || toks[i-1].Text != "-" || toks[i-1].Kind != syntax.Punct {
		return r, false
	}
	if i >= 2 {
		prev := toks[i-2]
		binary := prev.Kind == syntax.Ident || prev.Kind == syntax.Int || prev.Kind == syntax.Float ||
			prev.Kind == syntax.Punct && (prev.Text == ")" || prev.Text == "]")
		if binary {
			return r, false
		}
	}
	return source.Range{Start: toks[i-1].Range.Start, End: r.End}, true
}

// intSite tries for an integer its neighbours, the next power of two, the
// program's other integers, the small numbers a size takes, its double and
// half, and last, for a 1, 0 (a first device's or element's index; as a
// size it would empty the tensor). A number the program writes without a minus gets no
// negative value: whether its type is signed is rustc's to say, and the
// engine's search does not guess it.
func intSite(toks []syntax.Token, i int, others []int64) site {
	t := toks[i]
	n, err := strconv.ParseInt(t.Value, 10, 64)
	if err != nil {
		return site{}
	}
	r, neg := negated(toks, i)
	if neg {
		n = -n
	}
	var vals []int64
	if neg {
		vals = append(vals, -n)
	}
	if n-1 != 0 {
		vals = append(vals, n-1)
	}
	vals = append(vals, n+1)
	if p := nextPowerOfTwo(n); p > 0 {
		vals = append(vals, p)
	}
	vals = append(vals, nearest(others, n)...)
	vals = append(vals, 1, 2, 2*n, n/2, 0)
	lo, hi := intRange(t.Suffix, n)
	var out []string
	for _, v := range vals {
		if v == n || v == 0 && n != 1 || v < 0 && !neg || v < lo || v > hi {
			continue
		}
		s := strconv.FormatInt(v, 10) + t.Suffix
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return site{r: r, values: out[:min(len(out), maxSiteValues)]}
}

// intRange are the values a literal of the suffix's type holds; rustc
// rejects one out of range (overflowing_literals). An unsuffixed literal
// is kept within i32, the type Rust falls back to, unless it is past it
// already.
func intRange(suffix string, n int64) (int64, int64) {
	switch suffix {
	case "i8":
		return math.MinInt8, math.MaxInt8
	case "u8":
		return 0, math.MaxUint8
	case "i16":
		return math.MinInt16, math.MaxInt16
	case "u16":
		return 0, math.MaxUint16
	case "i32":
		return math.MinInt32, math.MaxInt32
	case "u32":
		return 0, math.MaxUint32
	case "":
		if n < math.MinInt32 || n > math.MaxInt32 {
			return math.MinInt64, math.MaxInt64
		}
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// nextPowerOfTwo is the least power of two above n, for an n past 2 that
// is not one; 0 otherwise.
func nextPowerOfTwo(n int64) int64 {
	if n <= 2 || n > 1<<40 || n&(n-1) == 0 {
		return 0
	}
	p := int64(1)
	for p < n {
		p <<= 1
	}
	return p
}

// nearest are up to four of the program's other values, in the order the
// program has them, without v.
func nearest[T comparable](others []T, v T) []T {
	var out []T
	for _, o := range others {
		if o != v && !slices.Contains(out, o) {
			out = append(out, o)
			if len(out) == 4 {
				break
			}
		}
	}
	return out
}

// floatSite tries for a float its absolute value, a percentage as a
// fraction, the values a rate or a factor takes, the program's other
// floats, and its double and half.
func floatSite(toks []syntax.Token, i int, others []float64) site {
	t := toks[i]
	f, err := strconv.ParseFloat(t.Value, 64)
	if err != nil || math.IsInf(f, 0) {
		return site{}
	}
	r, neg := negated(toks, i)
	if neg {
		f = -f
	}
	var vals []float64
	if neg {
		vals = append(vals, -f)
	}
	switch a := math.Abs(f); {
	case a >= 10:
		// A percentage where a fraction is wanted.
		vals = append(vals, a/100, 1, 0.5, 0.1, 2)
	case a > 1:
		vals = append(vals, 1, 0.5, 0.1, 2)
	default:
		vals = append(vals, 0.5, 0.1, 1, 2)
	}
	vals = append(vals, nearest(others, f)...)
	vals = append(vals, 2*f, f/2, 1e-5)
	var out []string
	for _, v := range vals {
		if v == f || v == 0 || math.IsInf(v, 0) {
			continue
		}
		s := rustFloatLiteral(v) + t.Suffix
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return site{r: r, values: out[:min(len(out), maxSiteValues)]}
}

// rustFloatLiteral writes v as a float literal: with a `.` (`1.0`, not
// `1`, which would be an integer).
func rustFloatLiteral(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// variantSite tries the other unit variants of a Burn enum named `Enum::`.
func variantSite(enum string, t syntax.Token) site {
	variants := unitVariants()[enum]
	if !slices.Contains(variants, t.Text) {
		return site{}
	}
	var out []string
	for _, v := range variants {
		if v != t.Text {
			out = append(out, v)
		}
	}
	return site{r: t.Range, values: out[:min(len(out), maxSiteValues)]}
}

// unitVariants are the variants without fields of Burn's enums, by the
// enum's name, in the order Burn declares them; and those of the enums of
// Burn's dependencies the engine models (cubecl's ScaleDtype).
var unitVariants = sync.OnceValue(func() map[string][]string {
	type variant struct {
		name string
		line int
	}
	byEnum := map[string][]variant{}
	for _, it := range burnapi.Default().Items {
		if it.Kind != "variant" || it.Params != "" {
			continue
		}
		enum := it.Path[strings.LastIndex(it.Path, ":")+1:]
		line, _ := strconv.Atoi(it.Source[strings.LastIndex(it.Source, ":")+1:])
		if !slices.ContainsFunc(byEnum[enum], func(v variant) bool { return v.name == it.Name }) {
			byEnum[enum] = append(byEnum[enum], variant{it.Name, line})
		}
	}
	out := map[string][]string{"ScaleDtype": tensor.ScaleDtypeNames()}
	for enum, vs := range byEnum {
		slices.SortStableFunc(vs, func(a, b variant) int { return a.line - b.line })
		for _, v := range vs {
			out[enum] = append(out[enum], v.name)
		}
	}
	return out
})
