package dispatch

// Value is a value of the snippet language that Burn's API takes or returns.
// The interpreter owns variables, control flow and closures; everything that
// carries Burn meaning is one of these types.
type Value interface {
	// TypeName is the Rust type as a user would write it, for diagnostics:
	// "Tensor<2>", "Tensor<2, Int>", "Device", "i32", "f64", "&str".
	TypeName() string
}

// Unit is ().
type Unit struct{}

// Int is an integer. Suffix is the literal's type suffix ("u64", "usize"),
// empty when inferred.
type Int struct {
	V      int64
	Suffix string
}

// Float is a floating-point number.
type Float struct {
	V      float64
	Suffix string
}

// Bool is true or false.
type Bool bool

// Str is a string (a literal, or built by format!).
type Str string

// Array is a fixed array, a slice or a Vec: `[2, 3]`, `vec![a, b]`, `&[..]`.
type Array struct {
	Elems []Value
	Vec   bool // built with vec! or collected
	// Elem is the element type a declaration gives an empty one
	// (`let v: Vec<Tensor<2>> = vec![];`), "" when none did.
	Elem string
}

// Tuple is `(a, b)`.
type Tuple []Value

// Range is `lo..hi` / `lo..=hi`; nil bounds are open. Suffix is the
// integer type of its bounds ("usize" for `0..v.len()`), empty when no
// bound names one.
type Range struct {
	Lo, Hi    *int64
	Inclusive bool
	Suffix    string
}

// Enum is a value of a Rust enum or a struct-like constructor the playground
// knows: DType::F16, DeviceKind::DiscreteGpu(0), Channel::WebSocket { port },
// Some(x), None, Ok(x), Distribution::Default.
type Enum struct {
	Type    string // "DType", "Channel", "Option", "Result", ...
	Variant string
	Fields  []Value          // tuple fields
	Named   map[string]Value // struct fields
	// ErrorRow is the row of Burn's panic table that an error Burn's API
	// returns stands for (its kind is "error"): unwrapping or expecting
	// the Err is how a program fails with it.
	ErrorRow string
}

// Opaque is a value the playground tracks only by type, such as an Iroh
// Endpoint or a RemoteSecret.
type Opaque struct {
	Type string
	Note string
}

// Unknown stands for a value that could not be computed because an earlier
// step failed (in check mode) or is not modelled. Operations on Unknown yield
// Unknown and report nothing, so one error does not cascade.
type Unknown struct{}

// Ref is a shared or mutable borrow of a value (`&x`, `&mut grads`). Most
// calls see through it; it matters where Burn's API takes a reference.
type Ref struct {
	V   Value
	Mut bool
	// In, when set, is the array whose element At the borrow points at
	// (`v.get_mut(i)`, `v.last_mut()`): a write through the borrow lands
	// in the array too, since its elements are values, not slots.
	In *Array
	At int
}

// Store writes v through the borrow.
func (r *Ref) Store(v Value) {
	r.V = v
	if r.In != nil && r.At < len(r.In.Elems) {
		r.In.Elems[r.At] = v
	}
}

func (Unit) TypeName() string { return "()" }
func (i Int) TypeName() string {
	if i.Suffix != "" {
		return i.Suffix
	}
	return "i32"
}
func (f Float) TypeName() string {
	if f.Suffix != "" {
		return f.Suffix
	}
	return "f64"
}
func (Bool) TypeName() string { return "bool" }
func (Str) TypeName() string  { return "&str" }
func (a *Array) TypeName() string {
	if a.Vec {
		return "Vec<_>"
	}
	return "[_; _]"
}
func (Tuple) TypeName() string { return "(..)" }
func (r *Range) TypeName() string {
	// std::ops' range types, by which ends are written.
	switch {
	case r.Lo == nil && r.Hi == nil:
		return "RangeFull"
	case r.Hi == nil:
		return "RangeFrom<_>"
	case r.Lo == nil && r.Inclusive:
		return "RangeToInclusive<_>"
	case r.Lo == nil:
		return "RangeTo<_>"
	case r.Inclusive:
		return "RangeInclusive<_>"
	}
	return "Range<_>"
}
func (e *Enum) TypeName() string   { return e.Type }
func (o *Opaque) TypeName() string { return o.Type }
func (Unknown) TypeName() string   { return "_" }
func (r *Ref) TypeName() string {
	if r.Mut {
		return "&mut " + r.V.TypeName()
	}
	return "&" + r.V.TypeName()
}

// Deref strips any number of borrows.
func Deref(v Value) Value {
	for {
		r, ok := v.(*Ref)
		if !ok {
			return v
		}
		v = r.V
	}
}
