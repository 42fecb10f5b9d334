package rstd

import (
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// format! and the Display and Debug of std's values. Burn's values (and
// the model's own errors) are formatted by engine/dispatch; this file owns
// numbers, strings, chars, collections, Option and Result, the program's
// derived Debug and every format spec.

// Spec is one `{...}` placeholder:
// {arg:[[fill]align][sign]['#']['0'][width]['.' precision][type]}.
type Spec struct {
	Arg       string // "" (next), a position, or a name
	Fill      rune
	Align     byte // '<', '>', '^' or 0
	Plus      bool
	Alt       bool // '#'
	Zero      bool
	Width     int
	WidthArg  string // `1$` or `w$`: the width is an argument
	Precision int    // -1 if unset
	PrecArg   string // `.1$`, `.w$`, or "*" (the next argument)
	Trait     string // "", "?", "x", "X", "o", "b", "e", "E"
}

// Debug reports whether the placeholder formats with Debug.
func (s Spec) Debug() bool { return strings.HasSuffix(s.Trait, "?") }

// FormatError is a malformed format string or a missing argument; rustc
// rejects it at compile time.
type FormatError struct{ Msg string }

func (e *FormatError) Error() string { return e.Msg }

// ParseSpec parses the text between a placeholder's braces.
func ParseSpec(s string) (Spec, *FormatError) {
	spec := Spec{Precision: -1, Fill: ' '}
	arg, rest, hasColon := strings.Cut(s, ":")
	spec.Arg = strings.TrimSpace(arg)
	if !hasColon {
		return spec, nil
	}
	if r, size := utf8.DecodeRuneInString(rest); size > 0 && len(rest) > size && strings.ContainsRune("<>^", rune(rest[size])) {
		spec.Fill, spec.Align = r, rest[size]
		rest = rest[size+1:]
	} else if len(rest) > 0 && strings.ContainsRune("<>^", rune(rest[0])) {
		spec.Align = rest[0]
		rest = rest[1:]
	}
	if strings.HasPrefix(rest, "+") {
		spec.Plus = true
		rest = rest[1:]
	} else if strings.HasPrefix(rest, "-") {
		rest = rest[1:]
	}
	if strings.HasPrefix(rest, "#") {
		spec.Alt = true
		rest = rest[1:]
	}
	if strings.HasPrefix(rest, "0") && len(rest) > 1 && rest[1] != '$' {
		spec.Zero = true
		rest = rest[1:]
	}
	count := func() (n int, arg string) {
		j := 0
		for j < len(rest) && (rest[j] == '_' || rest[j] >= '0' && rest[j] <= '9' || rest[j] >= 'a' && rest[j] <= 'z' || rest[j] >= 'A' && rest[j] <= 'Z') {
			j++
		}
		word := rest[:j]
		if j < len(rest) && rest[j] == '$' {
			rest = rest[j+1:]
			return 0, word
		}
		k := 0
		for k < len(word) && word[k] >= '0' && word[k] <= '9' && n < 1<<20 {
			n = n*10 + int(word[k]-'0')
			k++
		}
		rest = rest[k:]
		return n, ""
	}
	spec.Width, spec.WidthArg = count()
	if strings.HasPrefix(rest, ".") {
		rest = rest[1:]
		if strings.HasPrefix(rest, "*") {
			spec.PrecArg = "*"
			rest = rest[1:]
		} else {
			spec.Precision, spec.PrecArg = count()
		}
	}
	switch rest {
	case "", "?", "x", "X", "o", "b", "e", "E", "x?", "X?":
		spec.Trait = rest
	default:
		return spec, &FormatError{"unknown format trait `" + rest + "`"}
	}
	return spec, nil
}

// Text is text the evaluator already formatted (a program's own Display
// or Debug impl); it is padded and aligned as a string.
type Text string

func (Text) TypeName() string { return "String" }

// Format formats like Rust's format!: positional `{}`/`{0}`, named
// `{name}` (from named arguments, or a variable in scope through lookup),
// and every spec. user, when not nil, formats the values whose printing
// the program decides (its own impls): it returns a Text, or ok false.
func Format(format string, args []Value, named map[string]Value, lookup func(string) (Value, bool), user func(Spec, Value) (Value, bool)) (string, *FormatError) {
	var out strings.Builder
	next := 0
	resolve := func(ref string) (Value, *FormatError) {
		if ref == "" {
			if next >= len(args) {
				return nil, &FormatError{"format string has more placeholders than arguments"}
			}
			next++
			return args[next-1], nil
		}
		if ref[0] >= '0' && ref[0] <= '9' {
			n, _ := strconv.Atoi(ref)
			if n >= len(args) {
				return nil, &FormatError{"invalid reference to positional argument " + ref}
			}
			return args[n], nil
		}
		if v, ok := named[ref]; ok {
			return v, nil
		}
		if lookup != nil {
			if v, ok := lookup(ref); ok {
				return v, nil
			}
		}
		return nil, &FormatError{"cannot find value `" + ref + "` in this scope"}
	}
	count := func(ref string) (int, *FormatError) {
		v, err := resolve(ref)
		if err != nil {
			return 0, err
		}
		n, ok := dispatch.Deref(v).(dispatch.Int)
		if !ok {
			return 0, &FormatError{"expected `usize`, found `" + v.TypeName() + "`"}
		}
		return int(n.V), nil
	}
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
				return "", &FormatError{"invalid format string: expected `}` but string was terminated"}
			}
			spec, err := ParseSpec(format[i+1 : i+end])
			if err != nil {
				return "", err
			}
			i += end + 1
			if spec.WidthArg != "" {
				if spec.Width, err = count(spec.WidthArg); err != nil {
					return "", err
				}
			}
			if spec.PrecArg == "*" {
				if spec.Precision, err = count(""); err != nil {
					return "", err
				}
			} else if spec.PrecArg != "" {
				if spec.Precision, err = count(spec.PrecArg); err != nil {
					return "", err
				}
			}
			v, err := resolve(spec.Arg)
			if err != nil {
				return "", err
			}
			if user != nil {
				if u, ok := user(spec, v); ok {
					v = u
				}
			}
			out.WriteString(Apply(spec, v))
			continue
		}
		if c == '}' {
			if i+1 < len(format) && format[i+1] == '}' {
				out.WriteByte('}')
				i += 2
				continue
			}
			return "", &FormatError{"invalid format string: unmatched `}` found"}
		}
		out.WriteByte(c)
		i++
	}
	return out.String(), nil
}

// Apply formats one value with its spec.
func Apply(spec Spec, v Value) string {
	v = dispatch.Deref(v)
	if spec.Debug() {
		switch v.(type) {
		case dispatch.Int, *Big, dispatch.Float, dispatch.Str, Char, dispatch.Bool, Text:
		default:
			// A collection passes the spec on to every element, as
			// Rust's Debug does (`{:5?}` pads each number).
			w := &debugWriter{pretty: spec.Alt, spec: spec}
			w.value(v)
			return w.b.String()
		}
	}
	return leaf(spec, v)
}

// leaf formats a number, string, char or bool, or a value through its
// Display.
func leaf(spec Spec, v Value) string {
	var s, sign, prefix string
	numeric := false
	switch x := v.(type) {
	case dispatch.Int, *Big:
		numeric = true
		if i, small := x.(dispatch.Int); small && (spec.Trait == "" || spec.Trait == "?") {
			// The common case, without math/big.
			if t := intType(i.Suffix); !t.Signed || i.V >= 0 {
				s = IntText(i)
			} else {
				s, sign = strconv.FormatUint(uint64(-i.V), 10), "-"
			}
			break
		}
		n, t, _ := toBig(x)
		switch spec.Trait {
		case "x", "X", "o", "b", "x?", "X?":
			u := wrapBig(n, IntType{Bits: t.Bits})
			base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'b': 2}[spec.Trait[0]]
			s = u.Text(base)
			if spec.Trait[0] == 'X' {
				s = strings.ToUpper(s)
			}
			if spec.Alt {
				prefix = map[byte]string{'x': "0x", 'X': "0x", 'o': "0o", 'b': "0b"}[spec.Trait[0]]
			}
		case "e", "E":
			f, _ := new(big.Float).SetInt(n).Float64()
			s = expText(math.Abs(f), spec.Precision, 64, spec.Trait == "E")
			if n.Sign() < 0 {
				sign = "-"
			}
		default:
			s = new(big.Int).Abs(n).String()
			if n.Sign() < 0 {
				sign = "-"
			}
		}
	case dispatch.Float:
		numeric = true
		bitsz := 64
		if x.Suffix == "f32" {
			bitsz = 32
		}
		abs := dispatch.Float{V: math.Abs(x.V), Suffix: x.Suffix}
		switch {
		case math.IsNaN(x.V):
			s = "NaN"
		case spec.Trait == "e" || spec.Trait == "E":
			s = expText(abs.V, spec.Precision, bitsz, spec.Trait == "E")
		case spec.Precision >= 0:
			s = strconv.FormatFloat(abs.V, 'f', spec.Precision, 64)
			if math.IsInf(x.V, 0) {
				s = "inf"
			}
		case spec.Debug():
			s = FloatDebug(abs)
		default:
			s = Display(abs)
		}
		if math.Signbit(x.V) && !math.IsNaN(x.V) {
			sign = "-"
		}
	case dispatch.Str:
		if spec.Debug() {
			s = dispatch.Debug(x)
		} else {
			s = string(x)
			if spec.Precision >= 0 {
				if r := []rune(s); len(r) > spec.Precision {
					s = string(r[:spec.Precision])
				}
			}
		}
	case Text:
		s = string(x)
	case dispatch.Bool:
		s = strconv.FormatBool(bool(x))
	case Char:
		if spec.Debug() {
			s = charDebug(rune(x))
		} else {
			s = string(rune(x))
		}
	default:
		if spec.Debug() {
			s = Debug(v)
		} else if spec.Precision >= 0 {
			var ok bool
			if s, ok = dispatch.DisplayPrecision(v, spec.Precision); !ok {
				s = Display(v)
			}
		} else {
			s = Display(v)
		}
	}
	if numeric && spec.Plus && sign == "" {
		sign = "+"
	}
	body := sign + prefix + s
	pad := spec.Width - utf8.RuneCountInString(body)
	if pad <= 0 {
		return body
	}
	if numeric && spec.Zero {
		return sign + prefix + strings.Repeat("0", pad) + s
	}
	align := spec.Align
	if align == 0 {
		align = '<'
		if numeric {
			align = '>'
		}
	}
	fill := string(spec.Fill)
	switch align {
	case '>':
		return strings.Repeat(fill, pad) + body
	case '^':
		left := pad / 2
		return strings.Repeat(fill, left) + body + strings.Repeat(fill, pad-left)
	}
	return body + strings.Repeat(fill, pad)
}

// expText is LowerExp of a non-negative number: `1.5e3`, `1e0`, `1.50e3`
// with a precision.
func expText(f float64, precision, bitsz int, upper bool) string {
	if math.IsInf(f, 0) {
		return "inf"
	}
	s := strconv.FormatFloat(f, 'e', precision, bitsz)
	mant, exp, _ := strings.Cut(s, "e")
	n, _ := strconv.Atoi(exp)
	e := "e"
	if upper {
		e = "E"
	}
	return mant + e + strconv.Itoa(n)
}

// FloatDebug is `{:?}` of a float.
func FloatDebug(f dispatch.Float) string { return dispatch.Debug(f) }

func charDebug(r rune) string {
	switch r {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := dispatch.Debug(dispatch.Str(string(r)))
	return "'" + s[1:len(s)-1] + "'"
}

// Display is Rust's `{}`; ok is false for a type without Display.
func Display(v Value) string {
	s, _ := DisplayOK(v)
	return s
}

// DisplayOK is Display, with ok false for a type without Display (then s
// is its Debug, which the playground prints in its place).
func DisplayOK(v Value) (s string, ok bool) {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Int, *Big:
		return IntText(x), true
	case Char:
		return string(rune(x)), true
	case Text:
		return string(x), true
	case dispatch.Unknown:
		return "_", true
	case *dispatch.Enum:
		if s, ok := errorDisplay(x); ok {
			return s, true
		}
	}
	if s, ok := dispatch.Display(v); ok {
		return s, true
	}
	return Debug(v), false
}

// Debug is Rust's `{:?}`.
func Debug(v Value) string {
	w := &debugWriter{spec: Spec{Precision: -1, Fill: ' ', Trait: "?"}}
	w.value(v)
	return w.b.String()
}

// PrettyDebug is Rust's `{:#?}`.
func PrettyDebug(v Value) string {
	w := &debugWriter{pretty: true, spec: Spec{Precision: -1, Fill: ' ', Trait: "?", Alt: true}}
	w.value(v)
	return w.b.String()
}

// debugWriter writes derived Debug, one line or pretty (`{:#?}`) with
// rustc's layout: one field or element a line, four spaces a level, a
// trailing comma.
type debugWriter struct {
	b      strings.Builder
	pretty bool
	indent int
	spec   Spec
}

func (w *debugWriter) newline() {
	w.b.WriteByte('\n')
	for range w.indent {
		w.b.WriteString("    ")
	}
}

// list writes open, the items, close: `[1, 2]` or pretty one a line.
func (w *debugWriter) list(open, close string, n int, item func(i int)) {
	w.b.WriteString(open)
	if n == 0 {
		w.b.WriteString(close)
		return
	}
	if w.pretty {
		w.indent++
		for i := range n {
			w.newline()
			item(i)
			w.b.WriteByte(',')
		}
		w.indent--
		w.newline()
	} else {
		if open == "{" || strings.HasSuffix(open, " {") {
			w.b.WriteByte(' ')
		}
		for i := range n {
			if i > 0 {
				w.b.WriteString(", ")
			}
			item(i)
		}
		if close == "}" {
			w.b.WriteByte(' ')
		}
	}
	w.b.WriteString(close)
}

func (w *debugWriter) value(v Value) {
	switch x := dispatch.Deref(v).(type) {
	case nil:
		w.b.WriteString("()")
	case dispatch.Int, *Big, dispatch.Float, dispatch.Str, Char, dispatch.Bool, Text:
		w.b.WriteString(leaf(w.spec, x))
	case *dispatch.Array:
		w.list("[", "]", len(x.Elems), func(i int) { w.value(x.Elems[i]) })
	case dispatch.Tuple:
		if len(x) == 1 && !w.pretty {
			w.b.WriteString("(")
			w.value(x[0])
			w.b.WriteString(",)")
			return
		}
		w.list("(", ")", len(x), func(i int) { w.value(x[i]) })
	case *Map:
		if x.Keys == nil {
			w.b.WriteString("{}")
			return
		}
		w.b.WriteString("{")
		if w.pretty {
			w.indent++
			for i := range x.Keys {
				w.newline()
				w.value(x.Keys[i])
				w.b.WriteString(": ")
				w.value(x.Vals[i])
				w.b.WriteByte(',')
			}
			w.indent--
			w.newline()
		} else {
			for i := range x.Keys {
				if i > 0 {
					w.b.WriteString(", ")
				}
				w.value(x.Keys[i])
				w.b.WriteString(": ")
				w.value(x.Vals[i])
			}
		}
		w.b.WriteString("}")
	case *Set:
		w.b.WriteString("{")
		if w.pretty && len(x.Elems) > 0 {
			w.indent++
			for _, e := range x.Elems {
				w.newline()
				w.value(e)
				w.b.WriteByte(',')
			}
			w.indent--
			w.newline()
		} else {
			for i, e := range x.Elems {
				if i > 0 {
					w.b.WriteString(", ")
				}
				w.value(e)
			}
		}
		w.b.WriteString("}")
	case *dispatch.Enum:
		w.enum(x)
	case *Iter:
		w.b.WriteString(x.Kind + " { .. }")
	case *Cell:
		// std's Debug of the cell types.
		switch x.Kind {
		case "Mutex", "RwLock":
			w.b.WriteString(x.Kind + " { data: ")
			w.value(x.Slot.V)
			w.b.WriteString(", poisoned: false, .. }")
		default:
			w.b.WriteString(x.Kind + " { value: ")
			w.value(x.Slot.V)
			w.b.WriteString(" }")
		}
	case Duration:
		w.b.WriteString(durationDebug(x))
	case PathBuf:
		w.b.WriteString(dispatch.Debug(dispatch.Str(x.S)))
	case CharRange:
		w.b.WriteString(charDebug(rune(*x.R.Lo)) + "..")
		if x.R.Inclusive {
			w.b.WriteString("=")
		}
		w.b.WriteString(charDebug(rune(*x.R.Hi)))
	default:
		w.b.WriteString(dispatch.Debug(x))
	}
}

func (w *debugWriter) enum(e *dispatch.Enum) {
	if e.Type == "ExecutionError" {
		w.b.WriteString(dispatch.Debug(e))
		return
	}
	switch {
	case len(e.Fields) > 0:
		w.list(e.Variant+"(", ")", len(e.Fields), func(i int) { w.value(e.Fields[i]) })
	case len(e.Named) > 0:
		keys := FieldOrder(e)
		w.b.WriteString(e.Variant + " {")
		if w.pretty {
			w.indent++
			for _, k := range keys {
				w.newline()
				w.b.WriteString(k + ": ")
				w.value(e.Named[k])
				w.b.WriteByte(',')
			}
			w.indent--
			w.newline()
		} else {
			for i, k := range keys {
				if i > 0 {
					w.b.WriteByte(',')
				}
				w.b.WriteString(" " + k + ": ")
				w.value(e.Named[k])
			}
			w.b.WriteString(" ")
		}
		w.b.WriteString("}")
	default:
		w.b.WriteString(e.Variant)
	}
}

// FieldOrder is the order Debug prints a struct's fields in: the
// declaration order where the model knows it, else alphabetical.
func FieldOrder(e *dispatch.Enum) []string {
	if keys := dispatch.FieldOrder(e); keys != nil {
		return keys
	}
	keys := make([]string, 0, len(e.Named))
	for k := range e.Named {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
