package nn

import (
	"fmt"
	"math"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Config is a value of one of burn-nn's configs, as #[derive(Config)]
// builds it (crates/burn-derive/src/config/analyzer_struct.rs): Fields in
// declaration order, Values by name.
type Config struct {
	Type   string
	Fields []string
	Values map[string]dispatch.Value
	desc   *configDesc
}

func (c *Config) TypeName() string { return c.Type }

func (c *Config) with(name string, v dispatch.Value) *Config {
	out := &Config{Type: c.Type, Fields: c.Fields, Values: make(map[string]dispatch.Value, len(c.Values)), desc: c.desc}
	for k, x := range c.Values {
		out.Values[k] = x
	}
	out.Values[name] = v
	return out
}

// field is one field of a Burn config: its Rust type, and its default
// (nil: a required field, an argument of new).
type field struct {
	name string
	typ  string
	def  func() dispatch.Value
	// from names the required field whose value is the default
	// (`#[config(default = "kernel_size")]`).
	from string
}

// defaulted reports whether the field has a #[config(default)].
func (f field) defaulted() bool { return f.def != nil || f.from != "" }

type configDesc struct {
	name   string
	fields []field
	// init is the config's init; nil when it has none. device is whether
	// it takes `&device`.
	init   func(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error)
	device bool
}

func (d *configDesc) optionField(f field) bool { return len(f.typ) > 7 && f.typ[:7] == "Option<" }

// Serialized is the order serde writes a config's fields in: the required
// fields, then the Option fields, then the defaulted ones
// (ConfigStructAnalyzer::names, analyzer_struct.rs:37).
func (c *Config) Serialized() []string {
	if c.desc == nil {
		return c.Fields
	}
	var req, opt, def []string
	for _, f := range c.desc.fields {
		switch {
		case f.defaulted():
			def = append(def, f.name)
		case c.desc.optionField(f):
			opt = append(opt, f.name)
		default:
			req = append(req, f.name)
		}
	}
	return append(append(req, opt...), def...)
}

func f64(v float64) func() dispatch.Value {
	return func() dispatch.Value { return dispatch.Float{V: v, Suffix: "f64"} }
}
func usize(v int64) func() dispatch.Value {
	return func() dispatch.Value { return dispatch.Int{V: v, Suffix: "usize"} }
}
func boolean(v bool) func() dispatch.Value { return func() dispatch.Value { return dispatch.Bool(v) } }
func unit(typ, variant string) func() dispatch.Value {
	return func() dispatch.Value { return &dispatch.Enum{Type: typ, Variant: variant} }
}
func pair(a, b int64) func() dispatch.Value {
	return func() dispatch.Value {
		return &dispatch.Array{Elems: []dispatch.Value{dispatch.Int{V: a, Suffix: "usize"}, dispatch.Int{V: b, Suffix: "usize"}}}
	}
}
func none() dispatch.Value { return &dispatch.Enum{Type: "Option", Variant: "None"} }

// kaimingDefault is burn-nn's default initializer,
// Initializer::KaimingUniform{gain: 1/sqrt(3), fan_out_only: false}.
func kaimingDefault() dispatch.Value {
	return &dispatch.Enum{Type: "Initializer", Variant: "KaimingUniform", Named: map[string]dispatch.Value{
		"gain": dispatch.Float{V: 1 / math.Sqrt(3), Suffix: "f64"}, "fan_out_only": dispatch.Bool(false)}}
}

// configs are burn-nn's configs the engine models, with their fields as
// crates/burn-nn/src/modules declares them at 2c06be35.
var configs = map[string]*configDesc{}

func register(d *configDesc) { configs[d.name] = d }

// newConfig is Name::new(required...) as the derive generates it.
func newConfig(d *configDesc, args []dispatch.Value) (*Config, *dispatch.UsageError) {
	c := &Config{Type: d.name, Values: map[string]dispatch.Value{}, desc: d}
	var required []field
	for _, f := range d.fields {
		c.Fields = append(c.Fields, f.name)
		switch {
		case f.from != "":
		case f.def != nil:
			c.Values[f.name] = f.def()
		case d.optionField(f):
			c.Values[f.name] = none()
		default:
			required = append(required, f)
		}
	}
	if len(args) != len(required) {
		return nil, wrongArity(len(required), len(args))
	}
	for i, f := range required {
		v, ue := typed(args[i], f.typ, i)
		if ue != nil {
			return nil, ue
		}
		c.Values[f.name] = v
	}
	for _, f := range d.fields {
		if f.from != "" {
			c.Values[f.name] = c.Values[f.from]
		}
	}
	return c, nil
}

func wrongArity(want, got int) *dispatch.UsageError {
	return &dispatch.UsageError{Code: "wrong-arguments", Arg: -1, Message: fmt.Sprintf(
		"this function takes %d argument%s but %d argument%s supplied", want, plural(want), got, wasWere(got))}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func wasWere(n int) string {
	if n == 1 {
		return " was"
	}
	return "s were"
}

// typed checks an argument against a field's Rust type as rustc would and
// gives it that type (an integer literal for a usize field is a usize).
func typed(v dispatch.Value, typ string, i int) (dispatch.Value, *dispatch.UsageError) {
	v = dispatch.Deref(v)
	mismatch := func() *dispatch.UsageError {
		return &dispatch.UsageError{Code: "wrong-arguments", Arg: i + 1, Message: fmt.Sprintf(
			"mismatched types: expected `%s`, found `%s`", typ, v.TypeName())}
	}
	// An integer of another width is taken for the field's: the engine
	// does not follow every conversion a program makes (`n.into()` of a
	// u8 is the usize the parameter names), and a false rejection is worse
	// than a missed one. A float for an integer, or the reverse, is rustc's
	// error.
	switch typ {
	case "usize", "u64", "u32", "i64", "i32":
		x, ok := v.(dispatch.Int)
		if !ok {
			return nil, mismatch()
		}
		if x.V < 0 && typ[0] == 'u' {
			return nil, mismatch()
		}
		x.Suffix = typ
		return x, nil
	case "f64", "f32":
		x, ok := v.(dispatch.Float)
		if !ok {
			return nil, mismatch()
		}
		if typ == "f32" {
			x.V = float64(float32(x.V))
		}
		x.Suffix = typ
		return x, nil
	case "bool":
		if _, ok := v.(dispatch.Bool); !ok {
			return nil, mismatch()
		}
		return v, nil
	case "[usize; 1]", "[usize; 2]", "[usize; 3]":
		a, ok := v.(*dispatch.Array)
		n := int(typ[8] - '0')
		if !ok || len(a.Elems) != n {
			return nil, mismatch()
		}
		out := &dispatch.Array{Elems: make([]dispatch.Value, n)}
		for j, e := range a.Elems {
			x, ok := dispatch.Deref(e).(dispatch.Int)
			if !ok || x.V < 0 {
				return nil, mismatch()
			}
			x.Suffix = "usize"
			out.Elems[j] = x
		}
		return out, nil
	}
	if n := len(typ); n > 2 && typ[0] == '(' && typ[n-1] == ')' {
		// A tuple field ((f32, f32, f32), MuonConfig's ns_coefficients):
		// each element of its type.
		tup, ok := v.(dispatch.Tuple)
		var elems []string
		for _, e := range strings.Split(typ[1:n-1], ",") {
			elems = append(elems, strings.TrimSpace(e))
		}
		if !ok || len(tup) != len(elems) {
			return nil, mismatch()
		}
		out := make(dispatch.Tuple, len(tup))
		for j, e := range tup {
			x, ue := typed(e, elems[j], i)
			if ue != nil {
				return nil, mismatch()
			}
			out[j] = x
		}
		return out, nil
	}
	if n := len(typ); n > 5 && typ[:4] == "Vec<" && typ[n-1] == '>' {
		// A Vec field: each element of the element type. An element of
		// a Burn enum the engine cannot check (a config given through
		// `.into()`) is kept as it is; a primitive is checked.
		a, ok := v.(*dispatch.Array)
		if !ok {
			return nil, mismatch()
		}
		elem := typ[4 : n-1]
		out := &dispatch.Array{Vec: true, Elems: make([]dispatch.Value, len(a.Elems))}
		for j, e := range a.Elems {
			x, ue := typed(e, elem, i)
			if ue != nil {
				if !enums[elem] {
					return nil, mismatch()
				}
				x = dispatch.Deref(e)
			}
			out.Elems[j] = x
		}
		return out, nil
	}
	if en, ok := v.(*dispatch.Enum); ok {
		want := typ
		if len(want) > 7 && want[:7] == "Option<" {
			if en.Type == "Option" {
				return v, nil
			}
		}
		if en.Type == want {
			return v, nil
		}
		return nil, mismatch()
	}
	if c, ok := v.(*Config); ok && c.Type == typ {
		return v, nil
	}
	return nil, mismatch()
}

// intField is a usize field's value.
func (c *Config) intField(name string) int64 {
	if x, ok := dispatch.Deref(c.Values[name]).(dispatch.Int); ok {
		return x.V
	}
	return 0
}

func (c *Config) floatField(name string) float64 {
	if x, ok := dispatch.Deref(c.Values[name]).(dispatch.Float); ok {
		return x.V
	}
	return 0
}

func (c *Config) boolField(name string) bool {
	b, _ := dispatch.Deref(c.Values[name]).(dispatch.Bool)
	return bool(b)
}

func (c *Config) pairField(name string) []int64 {
	a, ok := dispatch.Deref(c.Values[name]).(*dispatch.Array)
	if !ok {
		return nil
	}
	out := make([]int64, len(a.Elems))
	for i, e := range a.Elems {
		if x, ok := dispatch.Deref(e).(dispatch.Int); ok {
			out[i] = x.V
		}
	}
	return out
}

// FieldSpec is a field of a Burn config another crate's package
// declares: its Rust type and its #[config(default)] (nil: none; an
// Option type without a default starts as None).
type FieldSpec struct {
	Name, Type string
	Default    func() dispatch.Value
}

// RegisterConfig declares a config of another Burn crate (burn-optim's,
// burn-train's) so that it is built, changed and printed as the derive
// does. init is its `init`; device is whether init takes `&device`.
func RegisterConfig(name string, fields []FieldSpec, device bool, init func(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error)) {
	d := &configDesc{name: name, device: device, init: init}
	for _, f := range fields {
		d.fields = append(d.fields, field{name: f.Name, typ: f.Type, def: f.Default})
	}
	register(d)
}

// Unmodelled is what a call returns for a Burn item the engine does not
// model past this point: the interpreter warns (playground-unmodelled)
// and goes on with an unknown value.
type Unmodelled struct {
	Item, Why string
}

func (u *Unmodelled) Error() string { return u.Item + ": " + u.Why }

// F32 is an f32 default: the f64 nearest the f32, so that it prints as
// an f32.
func F32(v float64) func() dispatch.Value {
	return func() dispatch.Value { return dispatch.Float{V: float64(float32(v)), Suffix: "f32"} }
}

// F64, Usize and Boolean are f64, usize and bool defaults.
func F64(v float64) func() dispatch.Value  { return f64(v) }
func Usize(v int64) func() dispatch.Value  { return usize(v) }
func Boolean(v bool) func() dispatch.Value { return boolean(v) }

// variants are the tuple variants of Burn's config enums, with their
// field types.
var variants = map[string][]string{}

// RegisterVariant declares a tuple variant of a Burn config enum
// (GradientClippingConfig::Value(f32)): calling it checks its arguments
// as rustc does and builds the variant.
func RegisterVariant(typ, variant string, fieldTypes ...string) {
	variants[typ+"::"+variant] = fieldTypes
	enums[typ] = true
}

// enums are the Burn enums with a registered variant.
var enums = map[string]bool{}

// ConfigLiteral is `LinearConfig { d_input: 2, .. }`: a struct literal of
// one of burn-nn's configs, whose fields are pub. ok is false when typ is
// not one; unknown names the first field the config does not have, and
// missing the fields the literal leaves out (rustc's E0560 and E0063).
func ConfigLiteral(typ string, values map[string]dispatch.Value) (cfg *Config, ok bool, unknown string, missing []string) {
	d, isConfig := configs[typ]
	if !isConfig {
		return nil, false, "", nil
	}
	c := &Config{Type: d.name, Values: map[string]dispatch.Value{}, desc: d}
	declared := map[string]field{}
	for _, f := range d.fields {
		c.Fields = append(c.Fields, f.name)
		declared[f.name] = f
	}
	for name, v := range values {
		f, has := declared[name]
		if !has {
			if unknown == "" || name < unknown {
				unknown = name
			}
			continue
		}
		if tv, ue := typed(v, f.typ, 0); ue == nil {
			v = tv
		}
		c.Values[name] = v
	}
	for _, f := range d.fields {
		if _, set := c.Values[f.name]; !set {
			missing = append(missing, f.name)
		}
	}
	return c, true, unknown, missing
}
