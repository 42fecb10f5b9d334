package engine

// The edits the fix search tries (fixsearch.go), and the order it tries
// them in.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/burnapi"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

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
