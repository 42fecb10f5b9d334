package interp

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// Hints are what the check learned of the program's tensors, shown where
// the program names them: after the pattern of each `let` that binds a
// tensor (the editor's inlay hints) and at each use of a variable that
// holds one (its hover), as `Tensor<2> · Cuda(0) · [64, 10] · autodiff`.
// A let or a use run more than once (in a loop) shows what its last run
// saw. Only the check records them, and only up to MaxHints places.

// MaxHints bounds the places a check records hints for.
const MaxHints = 2000

// Hint is a label at a range of the program.
type Hint struct {
	Range source.Range
	Label string
}

// hintAt records v at r when it is a tensor and the check is running.
func (in *interp) hintAt(r source.Range, v value) {
	if in.opts.Mode != Check {
		return
	}
	t, ok := tensorOf(v)
	if !ok {
		return
	}
	if in.hints == nil {
		in.hints = map[source.Range]*dispatch.Tensor{}
	}
	if _, seen := in.hints[r]; seen || len(in.hints) < MaxHints {
		in.hints[r] = t
	}
}

// hintLet records the tensor a `let` binds to a name.
func (in *interp) hintLet(p syntax.Pattern, v value) {
	if id, ok := p.(*syntax.IdentPat); ok && id.Sub == nil {
		in.hintAt(id.Range, v)
	}
}

// hintList is the recorded hints in the order of the text. A tensor named
// at several places is labelled once.
func (in *interp) hintList() []Hint {
	if len(in.hints) == 0 {
		return nil
	}
	out := make([]Hint, 0, len(in.hints))
	labels := make(map[*dispatch.Tensor]string, len(in.hints))
	for r, t := range in.hints {
		label, ok := labels[t]
		if !ok {
			label = tensorLabel(t)
			labels[t] = label
		}
		out = append(out, Hint{Range: r, Label: label})
	}
	slices.SortFunc(out, func(a, b Hint) int {
		return cmp.Or(cmp.Compare(a.Range.Start, b.Range.Start), cmp.Compare(a.Range.End, b.Range.End))
	})
	return out
}

// tensorLabel is a tensor as a hint shows it: its type, its device as
// Burn's Debug prints it, its shape, and `autodiff` on an autodiff device.
func tensorLabel(t *dispatch.Tensor) string {
	var b strings.Builder
	b.WriteString(t.TypeName())
	d := t.Device()
	if d != nil {
		b.WriteString(" · ")
		b.WriteString(d.Inner().Debug())
	}
	b.WriteString(" · [")
	for i, n := range t.Shape() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(n, 10))
	}
	b.WriteByte(']')
	if d != nil && d.IsAutodiff() {
		b.WriteString(" · autodiff")
	}
	return b.String()
}
