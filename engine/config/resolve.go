package config

import "strings"

// selfCrate names the user's own package inside the resolver. It cannot
// collide with a crate name, and its features are not reported.
const selfCrate = "\x00package"

// DefaultBackend is the pseudo-feature that stands for burn-dispatch's
// cfg(default_backend): its build script sets it when no backend feature is
// on, and then the Flex backend is compiled in and is the default device
// (spec §2.4, crates/burn-dispatch/build.rs). It appears in
// dispatch.Config.Features like a feature so that the dispatch model can
// test `any(feature = "flex", default_backend)` the way Burn's cfg does.
const DefaultBackend = "burn-dispatch/default_backend"

// backendFeatures are the burn-dispatch features whose absence makes
// default_backend hold (burn-dispatch/build.rs:5-20).
var backendFeatures = []string{"cuda", "flex", "rocm", "ndarray", "tch", "cpu", "metal", "vulkan", "webgpu", "wgpu"}

// resolver computes the closure of enabled features the way Cargo unifies
// them: through Burn's feature graph, the user's own [features], and the
// user's optional dependencies once something enables them.
type resolver struct {
	g *graph
	// own is the user's [features] table, with dependency names left as
	// the user wrote them (they may be renamed).
	own map[string][]token
	// list holds the user's dependency declarations in document order;
	// deps holds them by the name they are declared under.
	list []*dependency
	deps map[string][]*dependency

	enabled map[string]bool // "crate/feature"
	// activeCrates are the optional crates of Burn's graph that something
	// turned on; crates the graph describes are always on.
	activeCrates map[string]bool
	activeDeps   map[string]bool // the user's optional dependencies that are on
	// waiting holds "crate/feature" keys of weak tokens (x?/f) until x is
	// on, under the crate, or "dep:"+name for the user's dependencies.
	waiting map[string][]string
	queue   []string
}

func newResolver(g *graph, own map[string][]token, deps []*dependency) *resolver {
	r := &resolver{
		g:            g,
		own:          own,
		list:         deps,
		deps:         map[string][]*dependency{},
		enabled:      map[string]bool{},
		activeCrates: map[string]bool{},
		activeDeps:   map[string]bool{},
		waiting:      map[string][]string{},
	}
	for _, d := range deps {
		r.deps[d.name] = append(r.deps[d.name], d)
	}
	return r
}

// run enables the default features of the user's package and every
// non-optional dependency as declared, and propagates.
func (r *resolver) run() {
	for _, d := range r.list {
		if !d.optional {
			r.seed(d)
		}
	}
	if _, ok := r.own["default"]; ok {
		r.enable(selfCrate + "/default")
	}
	r.drain()
}

// runAs resolves the package as a dependency whose dependent asks for
// features, and for its default features when withDefault: Cargo builds a
// path dependency with what every dependent asks of it.
func (r *resolver) runAs(withDefault bool, features []string) {
	for _, d := range r.list {
		if !d.optional {
			r.seed(d)
		}
	}
	if _, ok := r.own["default"]; ok && withDefault {
		r.enable(selfCrate + "/default")
	}
	for _, f := range features {
		if _, ok := r.own[f]; ok {
			r.enable(selfCrate + "/" + f)
		} else if r.isOptionalDep(f) {
			r.activateDep(f)
		}
	}
	r.drain()
}

// forceActivate turns on an optional dependency nothing enabled.
func (r *resolver) forceActivate(name string) {
	r.activateDep(name)
	r.drain()
}

func (r *resolver) drain() {
	for len(r.queue) > 0 {
		key := r.queue[0]
		r.queue = r.queue[1:]
		r.process(key)
	}
}

func (r *resolver) enable(key string) {
	if r.enabled[key] {
		return
	}
	r.enabled[key] = true
	r.queue = append(r.queue, key)
}

func (r *resolver) process(key string) {
	crate, feature, _ := strings.Cut(key, "/")
	if crate == selfCrate {
		if tokens, ok := r.own[feature]; ok {
			r.applyOwn(tokens)
		} else if r.isOptionalDep(feature) {
			r.activateDep(feature)
		}
		return
	}
	if !r.g.known(crate) {
		return
	}
	if tokens, ok := r.g.rows[crate][feature]; ok {
		r.applyGraph(crate, tokens)
	} else if r.g.implicit[crate][feature] {
		r.activateCrate(feature)
	}
}

func (r *resolver) applyGraph(crate string, tokens []token) {
	for _, t := range tokens {
		switch t.kind {
		case tokenFeature:
			r.enable(crate + "/" + t.feature)
		case tokenDep:
			r.activateCrate(t.crate)
		case tokenDepFeature:
			// Naming a feature of an optional dependency also turns on the
			// dependency's implicit feature, as Cargo does.
			if r.g.implicit[crate][t.crate] {
				r.enable(crate + "/" + t.crate)
			}
			r.activateCrate(t.crate)
			r.enable(t.crate + "/" + t.feature)
		case tokenWeak:
			if r.crateOn(t.crate) {
				r.enable(t.crate + "/" + t.feature)
			} else {
				r.waiting[t.crate] = append(r.waiting[t.crate], t.crate+"/"+t.feature)
			}
		}
	}
}

func (r *resolver) crateOn(crate string) bool {
	return r.g.known(crate) || r.activeCrates[crate]
}

func (r *resolver) activateCrate(crate string) {
	if r.activeCrates[crate] {
		return
	}
	r.activeCrates[crate] = true
	for _, key := range r.waiting[crate] {
		r.enable(key)
	}
	delete(r.waiting, crate)
}

func (r *resolver) applyOwn(tokens []token) {
	for _, t := range tokens {
		switch t.kind {
		case tokenFeature:
			if _, ok := r.own[t.feature]; ok {
				r.enable(selfCrate + "/" + t.feature)
			} else if r.isOptionalDep(t.feature) {
				r.activateDep(t.feature)
			}
		case tokenDep:
			r.activateDep(t.crate)
		case tokenDepFeature:
			if r.isOptionalDep(t.crate) {
				r.activateDep(t.crate)
			}
			r.enable(r.packageOf(t.crate) + "/" + t.feature)
		case tokenWeak:
			key := r.packageOf(t.crate) + "/" + t.feature
			if r.isOptionalDep(t.crate) && !r.activeDeps[t.crate] {
				r.waiting["dep:"+t.crate] = append(r.waiting["dep:"+t.crate], key)
			} else {
				r.enable(key)
			}
		}
	}
}

// isOptionalDep reports whether name is declared as a dependency and every
// declaration under that name is optional.
func (r *resolver) isOptionalDep(name string) bool {
	ds := r.deps[name]
	if len(ds) == 0 {
		return false
	}
	for _, d := range ds {
		if !d.optional {
			return false
		}
	}
	return true
}

func (r *resolver) packageOf(name string) string {
	if ds := r.deps[name]; len(ds) > 0 {
		return ds[0].pkg
	}
	return name
}

func (r *resolver) activateDep(name string) {
	if r.activeDeps[name] {
		return
	}
	r.activeDeps[name] = true
	for _, d := range r.deps[name] {
		r.seed(d)
	}
	for _, key := range r.waiting["dep:"+name] {
		r.enable(key)
	}
	delete(r.waiting, "dep:"+name)
}

// seed enables what one declaration asks of its package.
func (r *resolver) seed(d *dependency) {
	r.activateCrate(d.pkg)
	if d.defaultFeatures {
		r.enable(d.pkg + "/default")
	}
	for _, f := range d.features {
		if f.valid {
			r.enable(d.pkg + "/" + f.name)
		}
	}
	for _, f := range d.inherited {
		r.enable(d.pkg + "/" + f)
	}
}

// features returns the enabled "crate/feature" keys of every crate but the
// user's own, with DefaultBackend when it holds.
func (r *resolver) features() map[string]bool {
	out := map[string]bool{}
	for key := range r.enabled {
		if !strings.HasPrefix(key, selfCrate+"/") {
			out[key] = true
		}
	}
	defaultBackend := true
	for _, f := range backendFeatures {
		if out["burn-dispatch/"+f] {
			defaultBackend = false
		}
	}
	if defaultBackend {
		out[DefaultBackend] = true
	}
	return out
}
