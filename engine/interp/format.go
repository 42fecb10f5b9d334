package interp

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// display formats v as Rust's `{}` would. The dispatch model owns the
// formatting of every value; the interpreter adds only its own closures and
// the placeholder for values it could not compute.
func display(v value) string {
	if s, ok := dispatch.Display(v); ok {
		return s
	}
	return debug(v)
}

// hasDisplay reports whether Rust implements Display for v's type.
func hasDisplay(v value) bool {
	if isUnknown(v) {
		return true
	}
	_, ok := dispatch.Display(v)
	return ok
}

// debug formats v as Rust's `{:?}` would.
func debug(v value) string {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Unknown:
		return "_"
	case *closure:
		return "{closure}"
	case *fnValue:
		return x.TypeName()
	}
	return dispatch.Debug(v)
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
	_, isFloat := dispatch.Deref(v).(dispatch.Float)
	switch {
	case spec.precision >= 0 && (isFloat || !spec.debug):
		var ok bool
		if s, ok = dispatch.DisplayPrecision(v, spec.precision); !ok {
			s = display(v)
		}
	case spec.debug:
		s = debug(v)
	default:
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
