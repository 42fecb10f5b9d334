package interp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// Burn's examples pick their backend with a feature of their own package
// (`cargo run --example mnist --features flex`): run without it, their main
// does nothing, or reaches an `unreachable!` past every `#[cfg]`'d return.
// When a run traces no tensor operation and code behind features of the
// package that are off was left out, a note says which features those are,
// with the fix that turns the first one on by default.

// CodeFeaturesOff is that note's code.
const CodeFeaturesOff = "playground-package-features-off"

// noteCfgOff records the package features a `#[cfg(feature = "..")]`
// among attrs names that are declared and off, for an item or statement
// the build leaves out.
func (in *interp) noteCfgOff(attrs []*syntax.Attr) {
	if in.opts.Mode != Run || len(in.opts.Declared) == 0 {
		return
	}
	for _, a := range attrs {
		if a.Path != "cfg" {
			continue
		}
		for i := 0; i+2 < len(a.Args); i++ {
			k, eq, v := a.Args[i], a.Args[i+1], a.Args[i+2]
			if k.Kind != syntax.Ident || k.Text != "feature" || eq.Kind != syntax.Punct || eq.Text != "=" || v.Kind != syntax.String {
				continue
			}
			f := v.Value
			if slices.Contains(in.opts.Declared, f) && !slices.Contains(in.opts.Features, f) && !slices.Contains(in.offFeatures, f) {
				in.offFeatures = append(in.offFeatures, f)
			}
		}
	}
}

// featuresOffNote is the note of a run that traced nothing while code
// behind features of the package that are off was left out.
func (in *interp) featuresOffNote() {
	if in.opts.Mode != Run || len(in.offFeatures) == 0 || len(in.world.Trace()) > 0 || in.limited != "" ||
		in.panic != nil && !in.panic.User {
		// A panic in Burn's API means the program did reach it.
		return
	}
	names := make([]string, len(in.offFeatures))
	for i, f := range in.offFeatures {
		names[i] = "`" + f + "`"
	}
	d := diag.Diagnostic{Code: CodeFeaturesOff, Severity: diag.Note, Phase: diag.Run, File: diag.MainRS,
		Range: in.mainName,
		Message: fmt.Sprintf("no tensor operation ran, and this build leaves out the code behind %s of this package, which %s off",
			featureWords(names), isAre(len(names))),
		Help: []string{fmt.Sprintf("Cargo builds a package's features only when asked: `cargo run --features %s` turns it on for one run", in.offFeatures[0])}}
	if in.opts.PackageFeatureEdit != nil {
		if edit, ok := in.opts.PackageFeatureEdit(in.offFeatures[0]); ok {
			d.Fixes = []diag.Fix{{Title: fmt.Sprintf("Turn on the package's `%s` feature by default", in.offFeatures[0]), Edits: []diag.Edit{edit}}}
		}
	}
	in.report(d)
}

func featureWords(names []string) string {
	if len(names) == 1 {
		return "the feature " + names[0]
	}
	return "the features " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
