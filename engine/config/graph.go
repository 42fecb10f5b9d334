package config

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
)

// featuresTSV is Burn's Cargo feature graph at commit 2c06be35: one row per
// feature of burn, burn-core, burn-tensor and burn-dispatch, with the tokens
// the feature enables, as written in each crate's [features] table.
//
//go:embed features.tsv
var featuresTSV string

// burnGraph is parsed once; it is never written after.
var burnGraph = mustParseGraph(featuresTSV)

// tokenKind is the form of one entry of a Cargo feature list.
type tokenKind uint8

const (
	// tokenFeature is "feat": a feature of the same crate, or the implicit
	// feature of an optional dependency with that name.
	tokenFeature tokenKind = iota
	// tokenDep is "dep:x": enables the optional dependency x, no feature.
	tokenDep
	// tokenDepFeature is "x/feat": enables feat of dependency x, and x.
	tokenDepFeature
	// tokenWeak is "x?/feat": enables feat of x only if x is otherwise on.
	tokenWeak
)

type token struct {
	kind    tokenKind
	crate   string // the dependency named by dep:, x/ or x?/
	feature string
}

func parseToken(s string) token {
	switch {
	case strings.HasPrefix(s, "dep:"):
		return token{kind: tokenDep, crate: s[len("dep:"):]}
	case strings.Contains(s, "?/"):
		crate, feature, _ := strings.Cut(s, "?/")
		return token{kind: tokenWeak, crate: crate, feature: feature}
	case strings.Contains(s, "/"):
		crate, feature, _ := strings.Cut(s, "/")
		return token{kind: tokenDepFeature, crate: crate, feature: feature}
	}
	return token{kind: tokenFeature, feature: s}
}

// graph is the feature table of a set of crates.
type graph struct {
	// rows maps crate, then feature, to what the feature enables.
	rows map[string]map[string][]token
	// implicit maps crate, then name, to true for every optional dependency
	// that is reachable as a feature of the same name: a bare token that is
	// not a feature row, in a crate that never names it with dep:.
	implicit map[string]map[string]bool
	// order lists each crate's features in table order, for messages.
	order map[string][]string
}

func mustParseGraph(tsv string) *graph {
	g, err := parseGraph(tsv)
	if err != nil {
		panic("config: embedded features.tsv: " + err.Error())
	}
	return g
}

func parseGraph(tsv string) (*graph, error) {
	g := &graph{
		rows:     map[string]map[string][]token{},
		implicit: map[string]map[string]bool{},
		order:    map[string][]string{},
	}
	lines := strings.Split(strings.TrimRight(tsv, "\n"), "\n")
	if len(lines) == 0 || lines[0] != "crate\tfeature\tenables" {
		return nil, fmt.Errorf("missing header crate\\tfeature\\tenables")
	}
	for i, line := range lines[1:] {
		cols := strings.Split(line, "\t")
		if len(cols) != 3 || cols[0] == "" || cols[1] == "" {
			return nil, fmt.Errorf("line %d: want 3 columns crate, feature, enables", i+2)
		}
		crate, feature := cols[0], cols[1]
		if g.rows[crate] == nil {
			g.rows[crate] = map[string][]token{}
		}
		if _, dup := g.rows[crate][feature]; dup {
			return nil, fmt.Errorf("line %d: feature %s/%s listed twice", i+2, crate, feature)
		}
		var tokens []token
		for _, s := range strings.Fields(cols[2]) {
			tokens = append(tokens, parseToken(s))
		}
		g.rows[crate][feature] = tokens
		g.order[crate] = append(g.order[crate], feature)
	}
	for crate, features := range g.rows {
		explicitDeps := map[string]bool{}
		for _, tokens := range features {
			for _, t := range tokens {
				if t.kind == tokenDep {
					explicitDeps[t.crate] = true
				}
			}
		}
		for _, tokens := range features {
			for _, t := range tokens {
				if t.kind != tokenFeature || explicitDeps[t.feature] {
					continue
				}
				if _, isRow := features[t.feature]; isRow {
					continue
				}
				if g.implicit[crate] == nil {
					g.implicit[crate] = map[string]bool{}
				}
				g.implicit[crate][t.feature] = true
			}
		}
	}
	return g, nil
}

// known reports whether the graph describes crate's features.
func (g *graph) known(crate string) bool { return g.rows[crate] != nil }

// hasFeature reports whether crate has a feature with that name, counting
// the implicit features of its optional dependencies.
func (g *graph) hasFeature(crate, feature string) bool {
	if _, ok := g.rows[crate][feature]; ok {
		return true
	}
	return g.implicit[crate][feature]
}

// features lists crate's features: the table's rows in order, then the
// implicit features of optional dependencies in name order.
func (g *graph) features(crate string) []string {
	out := append([]string(nil), g.order[crate]...)
	var implicit []string
	for name := range g.implicit[crate] {
		implicit = append(implicit, name)
	}
	sort.Strings(implicit)
	return append(out, implicit...)
}
