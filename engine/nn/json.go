package nn

import (
	"math"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Structs tells the JSON writer the field order of a struct or struct
// variant that is not a *Config: the program's own types (their
// declaration) and Burn's enums (burnVariantFields).
type Structs interface {
	// StructFields is the declared order of en's named fields, ok false
	// when en is not a struct or struct variant the caller knows.
	StructFields(en *dispatch.Enum) (names []string, isStruct bool, ok bool)
}

// burnVariantFields is the field order of Burn's enums with struct
// variants that configs hold (module/initializer.rs:13).
var burnVariantFields = map[string][]string{
	"Initializer::Constant":       {"value"},
	"Initializer::Uniform":        {"min", "max"},
	"Initializer::Normal":         {"mean", "std"},
	"Initializer::KaimingUniform": {"gain", "fan_out_only"},
	"Initializer::KaimingNormal":  {"gain", "fan_out_only"},
	"Initializer::XavierUniform":  {"gain"},
	"Initializer::XavierNormal":   {"gain"},
	"Initializer::Orthogonal":     {"gain"},
}

// VariantFields is the declared field order of a struct variant of
// Burn's enums a config holds (Initializer::Normal { mean, std }), nil for
// any other value.
func VariantFields(en *dispatch.Enum) []string {
	return burnVariantFields[en.Type+"::"+en.Variant]
}

// JSON is serde_json::to_string_pretty of v as serde's derives serialize
// it: structs as objects in field order, unit variants as strings, other
// variants externally tagged, None as null, Some(x) as x. ok is false
// when v holds a value whose serialization is unknown.
func JSON(v dispatch.Value, s Structs) (string, bool) {
	var b strings.Builder
	ok := writeJSON(&b, v, s, 0, "")
	return b.String(), ok
}

func indent(b *strings.Builder, level int) {
	b.WriteByte('\n')
	for i := 0; i < level; i++ {
		b.WriteString("  ")
	}
}

func writeObject(b *strings.Builder, names []string, vals []dispatch.Value, s Structs, level int) bool {
	if len(names) == 0 {
		b.WriteString("{}")
		return true
	}
	ok := true
	b.WriteByte('{')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		indent(b, level+1)
		b.WriteString(strconv.Quote(n))
		b.WriteString(": ")
		ok = writeJSON(b, vals[i], s, level+1, "") && ok
	}
	indent(b, level)
	b.WriteByte('}')
	return ok
}

func writeArray(b *strings.Builder, vals []dispatch.Value, s Structs, level int) bool {
	if len(vals) == 0 {
		b.WriteString("[]")
		return true
	}
	ok := true
	b.WriteByte('[')
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(',')
		}
		indent(b, level+1)
		ok = writeJSON(b, v, s, level+1, "") && ok
	}
	indent(b, level)
	b.WriteByte(']')
	return ok
}

func writeJSON(b *strings.Builder, v dispatch.Value, s Structs, level int, _ string) bool {
	switch x := dispatch.Deref(v).(type) {
	case *Config:
		order := x.Serialized()
		vals := make([]dispatch.Value, len(order))
		for i, f := range order {
			vals[i] = x.Values[f]
		}
		return writeObject(b, order, vals, s, level)
	case dispatch.Int:
		b.WriteString(strconv.FormatInt(x.V, 10))
	case dispatch.Float:
		b.WriteString(JSONFloat(x.V, x.Suffix == "f32"))
	case dispatch.Bool:
		b.WriteString(strconv.FormatBool(bool(x)))
	case dispatch.Str:
		b.WriteString(jsonQuote(string(x)))
	case dispatch.Unit:
		b.WriteString("null")
	case *dispatch.Array:
		return writeArray(b, x.Elems, s, level)
	case dispatch.Tuple:
		return writeArray(b, x, s, level)
	case *dispatch.Enum:
		return writeEnum(b, x, s, level)
	default:
		b.WriteString("null")
		return false
	}
	return true
}

func writeEnum(b *strings.Builder, x *dispatch.Enum, s Structs, level int) bool {
	if x.Type == "Option" {
		if x.Variant == "None" || len(x.Fields) == 0 {
			b.WriteString("null")
			return true
		}
		return writeJSON(b, x.Fields[0], s, level, "")
	}
	var names []string
	isStruct, known := false, false
	if s != nil {
		names, isStruct, known = s.StructFields(x)
	}
	if !known {
		if f, ok := burnVariantFields[x.Type+"::"+x.Variant]; ok {
			names, known = f, true
		} else if len(x.Named) == 0 {
			known = true
		}
	}
	if !known {
		b.WriteString("null")
		return false
	}
	body := func(level int) bool {
		switch {
		case len(names) > 0 || len(x.Named) > 0:
			vals := make([]dispatch.Value, len(names))
			for i, n := range names {
				vals[i] = x.Named[n]
			}
			return writeObject(b, names, vals, s, level)
		case len(x.Fields) == 1:
			return writeJSON(b, x.Fields[0], s, level, "")
		default:
			return writeArray(b, x.Fields, s, level)
		}
	}
	if isStruct {
		return body(level)
	}
	if len(x.Fields) == 0 && len(names) == 0 && len(x.Named) == 0 {
		b.WriteString(jsonQuote(x.Variant))
		return true
	}
	// Externally tagged: {"Variant": content}.
	b.WriteByte('{')
	indent(b, level+1)
	b.WriteString(jsonQuote(x.Variant))
	b.WriteString(": ")
	ok := body(level + 1)
	indent(b, level)
	b.WriteByte('}')
	return ok
}

// jsonQuote is a JSON string as serde_json escapes it.
func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteString(strconv.FormatInt(int64(r)>>4, 16))
				b.WriteString(strconv.FormatInt(int64(r)&15, 16))
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// JSONFloat is a float as serde_json writes it: ryu's shortest digits
// laid out as ryu's format64/format32 does (1.0, 0.5, 1e-5, 1.5e20), and
// null for NaN and the infinities.
func JSONFloat(v float64, f32 bool) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "null"
	}
	bits, limit := 64, 16
	if f32 {
		bits, limit = 32, 13
	}
	if v == 0 {
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	s := strconv.FormatFloat(v, 'e', -1, bits)
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	length := len(digits)
	kk := exp + 1
	e10 := kk - length
	var out string
	switch {
	case e10 >= 0 && kk <= limit:
		out = digits + strings.Repeat("0", e10) + ".0"
	case kk > 0 && kk <= limit:
		out = digits[:kk] + "." + digits[kk:]
	case kk > -5 && kk <= 0:
		out = "0." + strings.Repeat("0", -kk) + digits
	case length == 1:
		out = digits + "e" + strconv.Itoa(kk-1)
	default:
		out = digits[:1] + "." + digits[1:] + "e" + strconv.Itoa(kk-1)
	}
	return sign + out
}
