package main

import (
	"sort"
	"strings"
)

// Tensor kinds. burn-tensor's kind traits (crates/burn-tensor/src/tensor/
// kind.rs) are sealed: Basic is BasicOps, Numeric is Basic + ops::Numeric,
// and so on, and the ops traits are implemented for Float, Int and Bool in
// crates/burn-tensor/src/bridge/ops. The kinds a Tensor impl exists for
// are the kinds implementing every ops trait its bounds require; both
// sides are read from the source.

type kindInfo struct {
	all      []string            // the kinds: Bool, Float, Int
	requires map[string][]string // kind trait -> ops traits it requires
	impls    map[string][]string // ops trait -> kinds implementing it
	dflt     string              // Tensor's default kind (K = Float)
}

func kindTraits(w *world, c *crate) *kindInfo {
	k := &kindInfo{requires: map[string][]string{}, impls: map[string][]string{}}
	kindSet := map[string]bool{}
	supers := map[string]string{}
	for _, m := range c.mods {
		inBridge := strings.Contains(m.file, "/src/bridge/")
		for _, it := range m.items {
			switch {
			case it.kind == "trait" && len(m.path) > 0 && m.path[len(m.path)-1] == "kind" && it.pub:
				supers[it.name] = it.supertraits
			case it.kind == "struct" && len(m.path) > 0 && m.path[len(m.path)-1] == "kind" && it.pub:
				kindSet[it.name] = true
			case it.kind == "impl" && inBridge && it.implTrait != "":
				tr, _ := typeHead(it.implTrait)
				ty, _ := typeHead(it.implType)
				k.impls[tr] = append(k.impls[tr], ty)
			case it.kind == "struct" && it.name == "Tensor" && it.pub:
				for _, g := range splitTop(it.generics, ',') {
					if eq := strings.Index(g, "="); eq >= 0 {
						k.dflt = strings.TrimSpace(g[eq+1:])
					}
				}
			}
		}
	}
	for n := range kindSet {
		k.all = append(k.all, n)
	}
	sort.Strings(k.all)
	var need func(name string, depth int) []string
	need = func(name string, depth int) []string {
		if depth > 8 {
			return nil
		}
		var out []string
		for _, s := range splitTop(supers[name], '+') {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			if strings.Contains(s, "::") {
				h, _ := typeHead(s)
				out = append(out, h)
			} else {
				out = append(out, need(s, depth+1)...)
			}
		}
		return out
	}
	for n := range supers {
		k.requires[n] = need(n, 0)
	}
	return k
}

// kindsOf is the kinds satisfying every bound in bounds (kind trait names).
func (k *kindInfo) kindsOf(bounds []string) []string {
	var out []string
	for _, kind := range k.all {
		ok := true
		for _, b := range bounds {
			req, known := k.requires[b]
			if !known {
				continue
			}
			for _, r := range req {
				if !contains(k.impls[r], kind) {
					ok = false
				}
			}
		}
		if ok {
			out = append(out, kind)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tensorKinds are the kinds and rank of an `impl .. Tensor<D, K>` block.
func tensorKinds(k *kindInfo, typ *item, im *item, args []string) (string, string) {
	rank := "D"
	if len(args) > 0 && isNumber(args[0]) {
		rank = args[0]
	}
	kindArg := k.dflt
	if len(args) > 1 {
		kindArg = args[1]
	}
	if contains(k.all, kindArg) {
		return kindArg, rank
	}
	bounds := boundsOf(kindArg, im.generics, im.where)
	return strings.Join(k.kindsOf(bounds), ","), rank
}

// narrowKinds applies a method's own bounds on the impl's kind parameter
// (`where K: Numeric` on one method of a Basic impl).
func narrowKinds(k *kindInfo, kinds string, fn *item) string {
	bounds := boundsOf("K", "", fn.where)
	if len(bounds) == 0 {
		return kinds
	}
	var out []string
	allowed := k.kindsOf(bounds)
	for _, x := range strings.Split(kinds, ",") {
		if contains(allowed, x) {
			out = append(out, x)
		}
	}
	return strings.Join(out, ",")
}

// boundsOf collects the trait bounds on a generic parameter from a generics
// list and a where clause.
func boundsOf(param, generics, where string) []string {
	var out []string
	for _, part := range append(splitTop(generics, ','), splitTop(where, ',')...) {
		part = strings.TrimSpace(part)
		colon := strings.Index(part, ":")
		if colon < 0 || strings.TrimSpace(part[:colon]) != param {
			continue
		}
		for _, b := range splitTop(part[colon+1:], '+') {
			h, _ := typeHead(strings.TrimSpace(b))
			out = append(out, h)
		}
	}
	return out
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
