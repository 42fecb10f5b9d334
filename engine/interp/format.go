package interp

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// display formats v as Rust's `{}` would.
func display(v value) string {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Int:
		return strconv.FormatInt(x.V, 10)
	case dispatch.Float:
		return formatFloat(x, false)
	case dispatch.Bool:
		return strconv.FormatBool(bool(x))
	case dispatch.Str:
		return string(x)
	case dispatch.Unknown:
		return "_"
	case dispatch.Unit, *dispatch.Array, dispatch.Tuple, *dispatch.Range, *dispatch.Enum, *dispatch.Opaque, *closure, *fnValue:
		return debug(x)
	}
	if s, ok := dispatch.Display(v); ok {
		return s
	}
	return dispatch.Debug(v)
}

// hasDisplay reports whether Rust implements Display for v's type.
func hasDisplay(v value) bool {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Int, dispatch.Float, dispatch.Bool, dispatch.Str, dispatch.Unknown:
		return true
	case dispatch.Unit, *dispatch.Array, dispatch.Tuple, *dispatch.Range, *dispatch.Enum, *dispatch.Opaque, *closure, *fnValue:
		return false
	default:
		_, ok := dispatch.Display(x)
		return ok
	}
}

// debug formats v as Rust's `{:?}` would.
func debug(v value) string {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Int:
		return strconv.FormatInt(x.V, 10)
	case dispatch.Float:
		return formatFloat(x, true)
	case dispatch.Bool:
		return strconv.FormatBool(bool(x))
	case dispatch.Str:
		return quoteRust(string(x))
	case dispatch.Unit:
		return "()"
	case dispatch.Unknown:
		return "_"
	case *dispatch.Array:
		parts := make([]string, len(x.Elems))
		for i, el := range x.Elems {
			parts[i] = debug(el)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case dispatch.Tuple:
		parts := make([]string, len(x))
		for i, el := range x {
			parts[i] = debug(el)
		}
		if len(parts) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case *dispatch.Range:
		s := ""
		if x.Lo != nil {
			s = strconv.FormatInt(*x.Lo, 10)
		}
		s += ".."
		if x.Inclusive {
			s += "="
		}
		if x.Hi != nil {
			s += strconv.FormatInt(*x.Hi, 10)
		}
		return s
	case *dispatch.Enum:
		s := x.Variant
		if len(x.Fields) > 0 {
			parts := make([]string, len(x.Fields))
			for i, f := range x.Fields {
				parts[i] = debug(f)
			}
			s += "(" + strings.Join(parts, ", ") + ")"
		}
		if len(x.Named) > 0 {
			keys := make([]string, 0, len(x.Named))
			for k := range x.Named {
				keys = append(keys, k)
			}
			sortStrings(keys)
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = k + ": " + debug(x.Named[k])
			}
			s += " { " + strings.Join(parts, ", ") + " }"
		}
		return s
	case *dispatch.Opaque:
		return x.Type
	case *closure:
		return "{closure}"
	case *fnValue:
		return x.TypeName()
	}
	return dispatch.Debug(v)
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// formatFloat prints a float the way Rust's Display (debug=false) or Debug
// does: the shortest text that reads back to the same value, integral
// values without a fraction in Display and with ".0" in Debug, and Debug
// switching to exponent form for very large or small magnitudes.
func formatFloat(f dispatch.Float, debugForm bool) string {
	bits := 64
	if f.Suffix == "f32" {
		bits = 32
	}
	v := f.V
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	abs := math.Abs(v)
	if debugForm && abs != 0 && (abs >= 1e16 || abs < 1e-4) {
		s := strconv.FormatFloat(v, 'e', -1, bits)
		mant, exp, _ := strings.Cut(s, "e")
		exp = strings.TrimPrefix(exp, "+")
		if strings.HasPrefix(exp, "-") {
			exp = "-" + strings.TrimLeft(exp[1:], "0")
		} else {
			exp = strings.TrimLeft(exp, "0")
		}
		return mant + "e" + exp
	}
	s := strconv.FormatFloat(v, 'f', -1, bits)
	if debugForm && !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// quoteRust quotes a string as Rust's Debug does.
func quoteRust(s string) string {
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
		case 0:
			b.WriteString(`\0`)
		default:
			if r < 0x20 || r == 0x7f {
				b.WriteString(`\u{` + strconv.FormatInt(int64(r), 16) + `}`)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// fmtSpec is one `{...}` placeholder.
type fmtSpec struct {
	arg       string // "" (next), a position, or a name
	debug     bool
	pretty    bool
	fill      rune
	align     byte // '<', '>', '^' or 0
	width     int
	precision int // -1 if unset
	plus      bool
}

// formatError is a malformed format string; Rust rejects it at compile
// time.
type formatError struct{ msg string }

// formatArgs formats like Rust's format!: positional `{}`/`{0}`, named
// `{name}` (from named args or captured variables), `{:?}`, `{:#?}`,
// width, fill, alignment and precision.
func (in *interp) formatArgs(format string, args []value, named map[string]value) (string, *formatError) {
	var out strings.Builder
	next := 0
	for i := 0; i < len(format); {
		c := format[i]
		if c == '{' {
			if i+1 < len(format) && format[i+1] == '{' {
				out.WriteByte('{')
				i += 2
				continue
			}
			end := strings.IndexByte(format[i:], '}')
			if end < 0 {
				return "", &formatError{"invalid format string: expected `}` but string was terminated"}
			}
			spec, err := parseSpec(format[i+1 : i+end])
			if err != nil {
				return "", err
			}
			i += end + 1
			var v value
			switch {
			case spec.arg == "":
				if next >= len(args) {
					return "", &formatError{"format string has more placeholders than arguments"}
				}
				v = args[next]
				next++
			case spec.arg[0] >= '0' && spec.arg[0] <= '9':
				n, _ := strconv.Atoi(spec.arg)
				if n >= len(args) {
					return "", &formatError{"invalid reference to positional argument " + spec.arg}
				}
				v = args[n]
			default:
				if nv, ok := named[spec.arg]; ok {
					v = nv
				} else if b := in.scope.lookup(spec.arg); b != nil {
					v = b.v
				} else {
					return "", &formatError{"cannot find value `" + spec.arg + "` in this scope"}
				}
			}
			out.WriteString(applySpec(spec, v))
			continue
		}
		if c == '}' {
			if i+1 < len(format) && format[i+1] == '}' {
				out.WriteByte('}')
				i += 2
				continue
			}
			return "", &formatError{"invalid format string: unmatched `}` found"}
		}
		out.WriteByte(c)
		i++
	}
	return out.String(), nil
}

func parseSpec(s string) (fmtSpec, *formatError) {
	spec := fmtSpec{precision: -1, fill: ' '}
	arg, rest, hasColon := strings.Cut(s, ":")
	spec.arg = strings.TrimSpace(arg)
	if !hasColon {
		return spec, nil
	}
	// [[fill]align][sign]['#']['0'][width]['.' precision][type]
	if r, size := utf8.DecodeRuneInString(rest); size > 0 && len(rest) > size && strings.ContainsRune("<>^", rune(rest[size])) {
		spec.fill, spec.align = r, rest[size]
		rest = rest[size+1:]
	} else if len(rest) > 0 && strings.ContainsRune("<>^", rune(rest[0])) {
		spec.align = rest[0]
		rest = rest[1:]
	}
	if strings.HasPrefix(rest, "+") {
		spec.plus = true
		rest = rest[1:]
	}
	if strings.HasPrefix(rest, "#") {
		spec.pretty = true
		rest = rest[1:]
	}
	if strings.HasPrefix(rest, "0") && len(rest) > 1 {
		spec.fill, spec.align = '0', '>'
		rest = rest[1:]
	}
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	spec.width, _ = strconv.Atoi(rest[:j])
	rest = rest[j:]
	if strings.HasPrefix(rest, ".") {
		rest = rest[1:]
		j = 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		spec.precision, _ = strconv.Atoi(rest[:j])
		rest = rest[j:]
	}
	switch rest {
	case "":
	case "?":
		spec.debug = true
	default:
		return spec, &formatError{"unknown format trait `" + rest + "`"}
	}
	return spec, nil
}

func applySpec(spec fmtSpec, v value) string {
	var s string
	if f, ok := dispatch.Deref(v).(dispatch.Float); ok && spec.precision >= 0 {
		s = strconv.FormatFloat(f.V, 'f', spec.precision, 64)
	} else if spec.debug {
		s = debug(v)
	} else {
		s = display(v)
	}
	if spec.plus {
		if n, ok := asFloat(v); ok && n >= 0 {
			s = "+" + s
		}
	}
	pad := spec.width - utf8.RuneCountInString(s)
	if pad <= 0 {
		return s
	}
	fill := strings.Repeat(string(spec.fill), pad)
	align := spec.align
	if align == 0 {
		align = '<'
		if _, isNum := dispatch.Deref(v).(dispatch.Int); isNum {
			align = '>'
		}
		if _, isNum := dispatch.Deref(v).(dispatch.Float); isNum {
			align = '>'
		}
	}
	switch align {
	case '>':
		return fill + s
	case '^':
		left := pad / 2
		return strings.Repeat(string(spec.fill), left) + s + strings.Repeat(string(spec.fill), pad-left)
	}
	return s + fill
}
