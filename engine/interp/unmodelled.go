package interp

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/dispatch-playground/playground/engine/burnapi"
	"github.com/dispatch-playground/playground/engine/config"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// CodeUnmodelled is a Burn item that exists at the modelled commit (it is
// in burnapi's table of Burn's public API) but that the engine does
// not model: the call's value is unknown, and what is computed from it is
// not checked.
const CodeUnmodelled = "playground-unmodelled"

// unknownNameCodes are the usage errors the engine answers a name with
// when it has no model of it: rustc's errors for a name that does not
// exist, and the engine's own "not modelled".
var unknownNameCodes = map[string]bool{"unknown-method": true, "unknown-function": true, "unsupported-api": true}

// burnItems are the rows of burnapi's table a call names, or nil when
// Burn has no such item (then rustc's error stands): a function of a
// module, an associated function or variant of a type by its name
// (`DataLoaderBuilder::new`, `TrainingStrategy::Custom`), a method of a
// Burn value by its type, and a method a value of the program's own type
// has from one of Burn's traits it derives or implements (`load_record`
// of a struct deriving Module, `iter` of its Dataset).
func (in *interp) burnItems(call dispatch.Call) []burnapi.Item {
	t := burnapi.Default()
	if len(call.Path) > 0 {
		p := call.Path
		if len(p) >= 2 && isTypeName(p[len(p)-2]) {
			return t.Member(p[len(p)-2], p[len(p)-1], "", false)
		}
		return t.Function(p)
	}
	switch r := dispatch.Deref(call.Recv).(type) {
	case *dispatch.Tensor:
		kind := r.KindName()
		if r.Kind() == dispatch.KindQFloat {
			kind = "Float" // a quantized tensor is a Tensor<D, Float>
		}
		// A method of a fixed-rank impl (dot of Tensor<1, K>) is not one
		// of a tensor of another rank.
		var out []burnapi.Item
		for _, it := range t.Member("Tensor", call.Method, kind, true) {
			if it.Rank == "" || it.Rank == "D" || it.Rank == strconv.Itoa(r.Rank()) {
				out = append(out, it)
			}
		}
		return out
	case *dispatch.Enum:
		if _, decl := in.userDecl(r); decl != nil {
			return t.TraitMember(in.burnTraitsOf(decl), call.Method, true)
		}
		return t.Member(r.Type, call.Method, "", true)
	case nil:
		return nil
	default:
		return t.Member(typeNameOf(r), call.Method, "", true)
	}
}

// typeNameOf is a Burn value's type by its name, without its path and
// generics (burn::nn::Linear<B> -> Linear).
func typeNameOf(v dispatch.Value) string {
	name := v.TypeName()
	if i := strings.IndexByte(name, '<'); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	return name
}

// burnTraitsOf are the traits of Burn's a type of the program derives
// (`#[derive(Module, Config)]`) or implements (`impl Dataset<Item> for
// Items`): the program's own traits of the same name are not Burn's.
func (in *interp) burnTraitsOf(decl *syntax.StructDecl) []string {
	t := burnapi.Default()
	var out []string
	for _, a := range decl.Attrs {
		if a.Path != "derive" {
			continue
		}
		for _, tok := range a.Args {
			if tok.Kind == syntax.Ident && t.IsTrait(tok.Text) && in.traits[tok.Text] == nil {
				out = append(out, tok.Text)
			}
		}
	}
	for _, im := range in.impls {
		if im.Trait == nil || im.For == nil || lastSeg(im.For) != decl.Name {
			continue
		}
		if name := lastSeg(im.Trait); t.IsTrait(name) && in.traits[name] == nil {
			out = append(out, name)
		}
	}
	return out
}

// ownerOf is what a call names the owner of its item: a type's name, a
// module's path.
func ownerOf(call dispatch.Call) []string {
	if n := len(call.Path); n > 0 {
		if n >= 2 && isTypeName(call.Path[n-2]) {
			return call.Path[n-2 : n-1]
		}
		return call.Path[:n-1]
	}
	switch r := dispatch.Deref(call.Recv).(type) {
	case *dispatch.Tensor:
		return []string{"Tensor"}
	case *dispatch.Enum:
		return []string{r.Type}
	case nil:
		return nil
	default:
		return []string{typeNameOf(r)}
	}
}

// missingFeature is the first feature of the items' gate that the
// program's Cargo.toml does not turn on, when no row of the item is
// compiled in; ok is false when one is. A gate is its own crate's feature
// (burn-tensor's autodiff, burn's train, burn-dataset's vision), on when
// Burn's feature graph propagates the program's features to it, or when
// one of Burn's crates in the build asks for it (burn-train asks burn-core
// for std and dataset), as Cargo unifies them.
func (in *interp) missingFeature(items []burnapi.Item) (burnapi.Gate, bool) {
	t := burnapi.Default()
	var closure map[string]bool
	on := func(g burnapi.Gate) bool {
		if in.opts.Config.Enabled(g.Crate, g.Feature) {
			return true
		}
		if closure == nil {
			closure = t.Closure(in.opts.Config.Features)
		}
		return closure[g.Crate+"/"+g.Feature]
	}
	var first burnapi.Gate
	found := false
	for _, it := range items {
		// A crate the program depends on itself (burn-store = ..) is
		// there without the gate of burn's facade.
		var skip []burnapi.Gate
		if gates, name, ok := t.CrateGate(it.Crate()); ok && slices.Contains(in.opts.Crates, name) {
			skip = gates
		}
		var missing *burnapi.Gate
		for _, g := range it.Gates() {
			if !slices.Contains(skip, g) && !on(g) {
				missing = &g
				break
			}
		}
		if missing == nil {
			return burnapi.Gate{}, false
		}
		if !found {
			first, found = *missing, true
		}
	}
	return first, found
}

// unmodelled answers a call the engine rejected with an unknown-name
// error when Burn has the item: a feature-gate error when the program's
// features leave it out (as rustc reports a gated item), otherwise a
// playground-unmodelled warning and an unknown value. ok is false when
// Burn has no such item, and the caller reports its error.
func (in *interp) unmodelled(call dispatch.Call, ue *dispatch.UsageError, r, site source.Range, inputs []source.Range) (value, *signal, bool) {
	if !unknownNameCodes[ue.Code] {
		return nil, nil, false
	}
	items := in.burnItems(call)
	if len(items) == 0 {
		if v, sig, ok := in.programTraitOnBurn(call, site); ok {
			return v, sig, true
		}
		if ue.Code == "unsupported-api" && burnapi.Default().Lists(ownerOf(call)) {
			// The engine took the name for Burn's, and Burn has no such
			// item: rustc's error. (Of an owner the table does not list,
			// such as a re-export of burn-dispatch, the engine's word
			// stands.)
			ue.Code, ue.Message = unknownName(call)
		}
		return nil, nil, false
	}
	it := items[0]
	if g, missing := in.missingFeature(items); missing {
		msg := ue.Message
		if ue.Code == "unsupported-api" {
			_, msg = unknownName(call)
		}
		v, sig := in.featureGate(call, it, g, msg, r, site, inputs)
		return v, sig, true
	}
	return in.unmodelledItemAt(displayName(call, it), fmt.Sprintf("Burn defines it at %s", it.Source), r), nil, true
}

// featureGate reports a Burn item the program's features leave out, as
// rustc reports a gated item (its "not found" message), with the feature
// of burn that compiles it in as the fix.
func (in *interp) featureGate(call dispatch.Call, it burnapi.Item, g burnapi.Gate, msg string, r, site source.Range, inputs []source.Range) (value, *signal) {
	name := displayName(call, it)
	var help string
	var hints []dispatch.FixHint
	if f, ok := in.burnFeatureFor(g); ok {
		help = fmt.Sprintf("`%s` is only compiled with the `%s` feature of burn", name, f)
		hints = []dispatch.FixHint{{Title: fmt.Sprintf("Enable the `%s` feature of burn", f), Arg: dispatch.NoArg, AddFeature: f}}
	} else if g.Crate == "burn-tensor" {
		// burn's feature of that name does not reach burn-tensor's
		// (burn's cubecl is only its cubecl dependency).
		help = fmt.Sprintf("`%s` is only compiled with burn-tensor's `%s` feature, which a backend feature of burn enables", name, g.Feature)
	} else if _, _, past := burnapi.Default().CrateGate(g.Crate); past {
		// burn-store's burnpack: no feature of burn asks for it, and a
		// dependency on the crate itself does.
		help = fmt.Sprintf("`%s` is only compiled with %s's `%s` feature, which no feature of burn turns on: depend on %s itself, `%s = { version = \"0.22\", features = [\"%s\"] }`", name, g.Crate, g.Feature, g.Crate, g.Crate, g.Feature)
	} else {
		help = fmt.Sprintf("`%s` is only compiled with %s's `%s` feature, which no feature of burn turns on", name, g.Crate, g.Feature)
	}
	in.report(diag.Diagnostic{Code: "feature-not-enabled", Severity: diag.Error, Phase: diag.Check, Message: msg,
		File: diag.MainRS, Range: r, Help: []string{help}, Fixes: in.fixes(hints, site, inputs)})
	if in.opts.Mode == Run {
		return nil, stop
	}
	return unknown, nil
}

// gatedOut checks, before any model answers a call, that the item of a
// crate past burn-tensor it names is compiled in with the program's
// features: burn-train's metrics only with burn's train, MnistDataset
// only with vision. gated is false when it is (or the table has no such
// item, or it is burn-tensor's, whose gates the dispatch model checks).
func (in *interp) gatedOut(call dispatch.Call, site, r source.Range, inputs []source.Range) (value, *signal, bool) {
	if _, ok := dispatch.Deref(call.Recv).(*dispatch.Tensor); ok {
		return nil, nil, false
	}
	var items []burnapi.Item
	gated := false
	for _, it := range in.burnItems(call) {
		if strings.HasPrefix(it.Path, "burn::") {
			items = append(items, it)
			gated = gated || it.Feature != ""
		}
	}
	if !gated {
		return nil, nil, false
	}
	g, missing := in.missingFeature(items)
	if !missing {
		return nil, nil, false
	}
	if len(in.opts.Unseen) > 0 {
		// A path or git dependency may turn the feature on, as Cargo
		// unifies features across the graph: the item is run as if it
		// did, and the warning says that is not known.
		if in.opts.Mode == Check && !in.uncalled {
			in.report(diag.Diagnostic{Code: CodeUnmodelled, Severity: diag.Warning, Phase: diag.Check, File: diag.MainRS, Range: r,
				Message: fmt.Sprintf("`%s` needs the `%s` feature of %s, which this Cargo.toml does not enable; %s may, through %s own Cargo.toml, which the playground does not have: it runs as if it did",
					displayName(call, items[0]), g.Feature, g.Crate, quoteList(in.opts.Unseen), itsOrTheir(len(in.opts.Unseen)))})
		}
		return nil, nil, false
	}
	_, msg := unknownName(call)
	v, sig := in.featureGate(call, items[0], g, msg, r, site, inputs)
	return v, sig, true
}

// programTraitOnBurn calls the program's own trait's function for one of
// Burn's types when Burn has no item of that name: `impl CIFAR10Loader for
// ImageFolderDataset { fn cifar10_train() -> Self .. }` makes
// `ImageFolderDataset::cifar10_train()` the program's function, and a
// method of such a trait on a Burn value the program's method. Burn's own
// items come first, as inherent functions do in rustc.
func (in *interp) programTraitOnBurn(call dispatch.Call, site source.Range) (value, *signal, bool) {
	if n := len(call.Path); n >= 2 && isTypeName(call.Path[n-2]) {
		if fn := in.assocFn(call.Path[n-2], call.Path[n-1]); fn != nil && in.structs[call.Path[n-2]] == nil {
			v, sig := in.callUser(fn, call.Args, site)
			return v, sig, true
		}
		return nil, nil, false
	}
	if call.Path != nil || call.Recv == nil {
		return nil, nil, false
	}
	if _, decl := in.userDecl(call.Recv); decl != nil {
		return nil, nil, false
	}
	typ := typeNameOf(dispatch.Deref(call.Recv))
	if en, ok := dispatch.Deref(call.Recv).(*dispatch.Enum); ok {
		typ = en.Type
	}
	if fn := in.assocFn(typ, call.Method); fn != nil && in.structs[typ] == nil {
		v, sig := in.callUserSelf(fn, call.Recv, call.Args, site)
		return v, sig, true
	}
	return nil, nil, false
}

// boundary is the warning of a call whose result the engine does not know
// (what says why: a Burn item it does not model, the outside world, a
// crate it does not model), given once, by the check of what the entry
// reaches.
func (in *interp) boundary(code string, r source.Range, what string, help ...string) {
	if in.opts.Mode != Check || in.uncalled {
		return
	}
	in.report(diag.Diagnostic{Code: code, Severity: diag.Warning, Phase: diag.Check, File: diag.MainRS, Range: r,
		Message: what + ": its result is unknown, and what is computed from it is not checked", Help: help})
}

// displayName is the item as the warning names it: a module function by
// its path (burn::tensor::linalg::trace), a method or associated function
// by its type (Tensor::cummax).
func displayName(call dispatch.Call, it burnapi.Item) string {
	if it.Kind == "fn" {
		return it.Display()
	}
	typ := it.Path[strings.LastIndex(it.Path, ":")+1:]
	return typ + "::" + it.Name
}

// burnEnabling memoises burnFeatureFor.
var burnEnabling sync.Map

// burnFeatureFor is the feature of burn that turns the gate on when the
// program enables it beside the burn features it has: the feature of the
// gate's name (burn's train for burn/train, burn's vision for
// burn-dataset's vision once the dataset is in, burn's autodiff for
// burn-tensor's), or else one of burn's features that names the gate
// (burn's metrics for burn-train's sys-metrics). ok is false when none
// does (burn's cubecl is only its cubecl dependency).
func (in *interp) burnFeatureFor(g burnapi.Gate) (string, bool) {
	var have []string
	for k, on := range in.opts.Config.Features {
		if f, ok := strings.CutPrefix(k, "burn/"); ok && on && !strings.HasPrefix(f, "burn-") {
			have = append(have, f)
		}
	}
	sort.Strings(have)
	for _, f := range append([]string{g.Feature}, burnapi.Default().Naming("burn", g.Crate, g.Feature)...) {
		if burnTurnsOn(have, f, g) {
			return f, true
		}
	}
	return "", false
}

// burnTurnsOn reports whether burn's feature f, beside the features have,
// turns the gate on.
func burnTurnsOn(have []string, f string, g burnapi.Gate) bool {
	key := g.Crate + "/" + g.Feature + "|" + f + "|" + strings.Join(have, ",")
	if v, ok := burnEnabling.Load(key); ok {
		return v.(bool)
	}
	feats := append(append([]string{}, have...), f)
	quoted := make([]string, len(feats))
	for i, x := range feats {
		quoted[i] = strconv.Quote(x)
	}
	c, _ := config.Parse(fmt.Sprintf("[dependencies]\nburn = { version = \"0.22\", default-features = false, features = [%s] }\n", strings.Join(quoted, ", ")))
	on := false
	if c != nil {
		on = burnapi.Default().Closure(c.Dispatch.Features)[g.Crate+"/"+g.Feature]
	}
	burnEnabling.Store(key, on)
	return on
}

// unknownName is rustc's error for a name that does not exist (or that a
// feature leaves out): its code and message.
func unknownName(call dispatch.Call) (string, string) {
	if n := len(call.Path); n > 0 {
		name := call.Path[n-1]
		if n >= 2 && isTypeName(call.Path[n-2]) {
			return "unknown-function", fmt.Sprintf("no function or associated item named `%s` found for struct `%s` in the current scope", name, call.Path[n-2])
		}
		if n >= 2 {
			return "unknown-function", fmt.Sprintf("cannot find function `%s` in module `%s`", name, strings.Join(call.Path[:n-1], "::"))
		}
		return "unknown-function", fmt.Sprintf("cannot find function `%s` in this scope", name)
	}
	typ := "`" + dispatch.Deref(call.Recv).TypeName() + "`"
	if _, ok := dispatch.Deref(call.Recv).(*dispatch.Tensor); ok {
		typ = "struct " + typ
	}
	return "unknown-method", fmt.Sprintf("no method named `%s` found for %s in the current scope", call.Method, typ)
}

// burnEnumMethod is a method call on a value of one of Burn's enums
// (DType, Distribution, ...), which the engine keeps as plain enum values,
// or on a value of the program's own type that has the method from one of
// Burn's traits (a Dataset's iter): Burn's methods of it are unmodelled,
// not unknown.
func (in *interp) burnEnumMethod(recv value, e *syntax.MethodCallExpr, args []value, ue *dispatch.UsageError) (value, *signal, bool) {
	if _, ok := dispatch.Deref(recv).(*dispatch.Enum); !ok {
		return nil, nil, false
	}
	if v, ok := in.backwardMethod(recv, e); ok {
		return v, nil, true
	}
	inputs := []source.Range{e.Recv.Span()}
	for _, a := range e.Args {
		inputs = append(inputs, a.Span())
	}
	return in.unmodelled(dispatch.Call{Recv: recv, Method: e.Name, Args: args}, ue, e.NameSpan, e.Range, inputs)
}

// holdsUnknown reports whether a Vec, array or tuple argument holds an
// unknown value: Burn's result is then unknown too (and the element's type
// unknown, which is no mismatch).
func holdsUnknown(v value, depth int) bool {
	if depth > 4 {
		return false
	}
	var elems []value
	switch x := dispatch.Deref(v).(type) {
	case *dispatch.Array:
		elems = x.Elems
	case dispatch.Tuple:
		elems = x
	default:
		return false
	}
	for _, e := range elems {
		if isUnknown(e) || holdsUnknown(e, depth+1) {
			return true
		}
	}
	return false
}

// forgetMutated makes unknown what a call whose value is unknown may have
// changed: its receiver when Burn's method takes `&mut self` (extract,
// inplace), and every place it was lent as `&mut`. Keeping their old
// values would check what follows against a guess.
func (in *interp) forgetMutated(call dispatch.Call, recv syntax.Expr, args []syntax.Expr, v value, sig *signal) {
	if sig != nil || !isUnknown(v) {
		return
	}
	if recv != nil && isPlace(recv) {
		for _, it := range in.burnItems(call) {
			if it.Receiver == "&mut self" {
				in.store(recv, unknown)
				break
			}
		}
	}
	for _, a := range args {
		if u, ok := a.(*syntax.UnaryExpr); ok && u.Op == "&mut" && isPlace(u.X) {
			in.store(u.X, unknown)
		}
	}
}

// globBurnCall is a function a glob import of one of burn-tensor's modules
// brings (`use burn::tensor::activation::*;` then `relu(x)`): the call of
// its full path, as if the program had written it.
func (in *interp) globBurnCall(name string, args []value, e *syntax.CallExpr) (value, *signal, bool) {
	if in.mod == nil {
		return nil, nil, false
	}
	for _, glob := range in.mod.globs {
		target := in.resolveIn(in.mod, glob, 0)
		if target.external == nil || target.item.module != nil {
			continue
		}
		full := append(append([]string{}, target.external...), name)
		if len(burnapi.Default().Function(full)) == 0 {
			continue
		}
		inputs := []source.Range{e.Fun.Span()}
		for _, a := range e.Args {
			inputs = append(inputs, a.Span())
		}
		bc := dispatch.Call{Path: full, Args: args}
		v, sig := in.burn(bc, e.Range, inputs)
		in.forgetMutated(bc, nil, e.Args, v, sig)
		return v, sig, true
	}
	return nil, nil, false
}

// quoteList is names as a sentence lists them: `a`, `a` or `b`, `a`, `b`
// or `c`.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

func itsOrTheir(n int) string {
	if n == 1 {
		return "its"
	}
	return "their"
}
