package rstd

import (
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// str and String (one value type: dispatch.Str), and char.

func strArg(args []Value, i int) (string, bool) {
	if i >= len(args) {
		return "", false
	}
	switch x := dispatch.Deref(args[i]).(type) {
	case dispatch.Str:
		return string(x), true
	case Char:
		return string(rune(x)), true
	}
	return "", false
}

func strIter(c Caller, parts []string) *Iter {
	vals := make([]Value, len(parts))
	for i, p := range parts {
		vals[i] = dispatch.Str(p)
	}
	return sliceIter(c, vals)
}

// pattern is a str method's pattern: a string, a char, or a closure over
// chars.
func pattern(c Caller, args []Value, i int) (func(rune) (bool, error), string, bool) {
	if s, isStr := strArg(args, i); isStr {
		return nil, s, true
	}
	if i < len(args) && isFn(args[i]) {
		f := args[i]
		return func(r rune) (bool, error) {
			v, err := call1(c, f, Char(r))
			return keep(v), err
		}, "", true
	}
	return nil, "", false
}

func strMethod(c Caller, x dispatch.Str, call Call) (Value, bool, error) {
	s, args := string(x), call.Args
	set := func(v string) (Value, bool, error) {
		if call.SetRecv == nil {
			return nil, false, nil
		}
		call.SetRecv(dispatch.Str(v))
		return dispatch.Unit{}, true, nil
	}
	switch call.Name {
	case "clone", "to_string", "to_owned", "into", "as_str", "as_ref", "borrow", "deref", "into_boxed_str", "as_mut_str":
		return x, true, nil
	case "len":
		return usize(len(s)), true, nil
	case "is_empty":
		return dispatch.Bool(s == ""), true, nil
	case "chars":
		runes := []rune(s)
		vals := make([]Value, len(runes))
		for i, r := range runes {
			vals[i] = Char(r)
		}
		return sliceIter(c, vals), true, nil
	case "char_indices":
		var vals []Value
		for i, r := range s {
			vals = append(vals, dispatch.Tuple{usize(i), Char(r)})
		}
		return sliceIter(c, vals), true, nil
	case "bytes", "as_bytes", "into_bytes":
		vals := make([]Value, len(s))
		for i := range len(s) {
			vals[i] = dispatch.Int{V: int64(s[i]), Suffix: "u8"}
		}
		if call.Name == "bytes" {
			return sliceIter(c, vals), true, nil
		}
		return &dispatch.Array{Elems: vals, Vec: call.Name == "into_bytes"}, true, nil
	case "split_whitespace", "split_ascii_whitespace":
		return strIter(c, strings.Fields(s)), true, nil
	case "lines":
		lines := strings.Split(s, "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		for i, l := range lines {
			lines[i] = strings.TrimSuffix(l, "\r")
		}
		return strIter(c, lines), true, nil
	case "split", "split_terminator", "rsplit", "splitn", "split_inclusive":
		pi := 0
		limit := -1
		if call.Name == "splitn" {
			n, isInt := intArg(args, 0)
			if !isInt {
				return nil, false, nil
			}
			limit, pi = int(n), 1
		}
		f, sep, isPat := pattern(c, args, pi)
		if !isPat {
			return nil, false, nil
		}
		var parts []string
		if f != nil {
			start := 0
			for i, r := range s {
				m, err := f(r)
				if err != nil {
					return nil, true, err
				}
				if m {
					parts = append(parts, s[start:i])
					start = i + utf8.RuneLen(r)
				}
			}
			parts = append(parts, s[start:])
		} else if call.Name == "split_inclusive" {
			parts = strings.SplitAfter(s, sep)
			if len(parts) > 0 && parts[len(parts)-1] == "" {
				parts = parts[:len(parts)-1]
			}
		} else {
			parts = strings.SplitN(s, sep, limit)
		}
		if call.Name == "split_terminator" && len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		if call.Name == "rsplit" {
			for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
				parts[i], parts[j] = parts[j], parts[i]
			}
		}
		return strIter(c, parts), true, nil
	case "split_once", "rsplit_once":
		sep, isStr := strArg(args, 0)
		if !isStr {
			return nil, false, nil
		}
		i := strings.Index(s, sep)
		if call.Name == "rsplit_once" {
			i = strings.LastIndex(s, sep)
		}
		if i < 0 {
			return none(), true, nil
		}
		return some(dispatch.Tuple{dispatch.Str(s[:i]), dispatch.Str(s[i+len(sep):])}), true, nil
	case "trim", "trim_start", "trim_end", "trim_left", "trim_right":
		switch call.Name {
		case "trim":
			return dispatch.Str(strings.TrimFunc(s, unicode.IsSpace)), true, nil
		case "trim_start", "trim_left":
			return dispatch.Str(strings.TrimLeftFunc(s, unicode.IsSpace)), true, nil
		}
		return dispatch.Str(strings.TrimRightFunc(s, unicode.IsSpace)), true, nil
	case "trim_matches", "trim_start_matches", "trim_end_matches", "strip_prefix", "strip_suffix":
		p, isStr := strArg(args, 0)
		if !isStr {
			return nil, false, nil
		}
		switch call.Name {
		case "strip_prefix":
			r, cut := strings.CutPrefix(s, p)
			return option(dispatch.Str(r), cut), true, nil
		case "strip_suffix":
			r, cut := strings.CutSuffix(s, p)
			return option(dispatch.Str(r), cut), true, nil
		}
		out := s
		if p != "" {
			if call.Name != "trim_end_matches" {
				for strings.HasPrefix(out, p) {
					out = out[len(p):]
				}
			}
			if call.Name != "trim_start_matches" {
				for strings.HasSuffix(out, p) {
					out = out[:len(out)-len(p)]
				}
			}
		}
		return dispatch.Str(out), true, nil
	case "starts_with", "ends_with", "contains", "find", "rfind", "matches":
		f, p, isPat := pattern(c, args, 0)
		if !isPat {
			return nil, false, nil
		}
		if f != nil {
			idx := -1
			for i, r := range s {
				m, err := f(r)
				if err != nil {
					return nil, true, err
				}
				if m && (idx < 0 || call.Name == "rfind") {
					idx = i
				}
			}
			switch call.Name {
			case "find", "rfind":
				return option(usize(idx), idx >= 0), true, nil
			case "contains":
				return dispatch.Bool(idx >= 0), true, nil
			}
			return nil, false, nil
		}
		switch call.Name {
		case "starts_with":
			return dispatch.Bool(strings.HasPrefix(s, p)), true, nil
		case "ends_with":
			return dispatch.Bool(strings.HasSuffix(s, p)), true, nil
		case "contains":
			return dispatch.Bool(strings.Contains(s, p)), true, nil
		case "find":
			i := strings.Index(s, p)
			return option(usize(i), i >= 0), true, nil
		case "rfind":
			i := strings.LastIndex(s, p)
			return option(usize(i), i >= 0), true, nil
		}
		return strIter(c, make([]string, strings.Count(s, p))), true, nil
	case "replace", "replacen":
		from, ok1 := strArg(args, 0)
		to, ok2 := strArg(args, 1)
		if !ok1 || !ok2 {
			return nil, false, nil
		}
		n := -1
		if call.Name == "replacen" {
			k, isInt := intArg(args, 2)
			if !isInt {
				return nil, false, nil
			}
			n = int(k)
		}
		return dispatch.Str(strings.Replace(s, from, to, n)), true, nil
	case "to_uppercase", "to_ascii_uppercase":
		return dispatch.Str(strings.ToUpper(s)), true, nil
	case "to_lowercase", "to_ascii_lowercase":
		return dispatch.Str(strings.ToLower(s)), true, nil
	case "repeat":
		n, isInt := intArg(args, 0)
		if !isInt || n < 0 {
			return nil, false, nil
		}
		if err := stepN(c, int(n)*len(s)/64); err != nil {
			return nil, true, err
		}
		if int64(len(s))*n > 1<<20 {
			return nil, true, panicf("capacity overflow")
		}
		return dispatch.Str(strings.Repeat(s, int(n))), true, nil
	case "parse":
		typ := ""
		if len(call.Generics) > 0 {
			typ = call.Generics[0]
		}
		return Parse(s, typ), true, nil
	case "push_str", "push":
		p, isStr := strArg(args, 0)
		if !isStr {
			return nil, false, nil
		}
		return set(s + p)
	case "clear":
		return set("")
	case "insert", "insert_str":
		i, isInt := intArg(args, 0)
		p, isStr := strArg(args, 1)
		if !isInt || !isStr || i < 0 || i > int64(len(s)) {
			return nil, false, nil
		}
		return set(s[:i] + p + s[i:])
	case "truncate":
		n, isInt := intArg(args, 0)
		if !isInt {
			return nil, false, nil
		}
		if n < 0 {
			return nil, false, nil
		}
		if n < int64(len(s)) {
			return set(s[:n])
		}
		return dispatch.Unit{}, true, nil
	case "pop":
		if s == "" {
			return none(), true, nil
		}
		r, size := utf8.DecodeLastRuneInString(s)
		if _, handled, _ := set(s[:len(s)-size]); !handled {
			return nil, false, nil
		}
		return some(Char(r)), true, nil
	case "get":
		if len(args) != 1 {
			return nil, false, nil
		}
		if r, isRange := dispatch.Deref(args[0]).(*dispatch.Range); isRange {
			lo, hi := bounds(r, len(s))
			if lo < 0 || lo > hi || hi > int64(len(s)) {
				return none(), true, nil
			}
			return some(dispatch.Str(s[lo:hi])), true, nil
		}
	case "eq_ignore_ascii_case":
		if p, isStr := strArg(args, 0); isStr {
			return dispatch.Bool(strings.EqualFold(s, p)), true, nil
		}
	case "is_char_boundary":
		if i, isInt := intArg(args, 0); isInt {
			return dispatch.Bool(i == int64(len(s)) || (i >= 0 && i < int64(len(s)) && utf8.RuneStart(s[i]))), true, nil
		}
	case "cmp", "partial_cmp":
		if p, isStr := strArg(args, 0); isStr {
			o := ordering(strings.Compare(s, p))
			if call.Name == "partial_cmp" {
				return some(o), true, nil
			}
			return o, true, nil
		}
	}
	return nil, false, nil
}

// Parse is str::parse::<typ>(): a Result with std's error values. An
// unnamed type is read from the text: a number parses as one, anything
// else stays the string Burn's types are built from.
func Parse(s, typ string) Value {
	typ = strings.TrimSpace(typ)
	if t, isInt := intTypes[typ]; isInt {
		return parseInt(s, t, 10)
	}
	switch typ {
	case "f32", "f64":
		return parseFloat(s, typ)
	case "bool":
		switch s {
		case "true":
			return ok(dispatch.Bool(true))
		case "false":
			return ok(dispatch.Bool(false))
		}
		return errv(&dispatch.Enum{Type: "ParseBoolError", Variant: "ParseBoolError"})
	case "char":
		if r := []rune(s); len(r) == 1 {
			return ok(Char(r[0]))
		}
		kind := "TooManyChars"
		if s == "" {
			kind = "EmptyString"
		}
		return errv(&dispatch.Enum{Type: "ParseCharError", Variant: "ParseCharError", Named: map[string]Value{"kind": &dispatch.Enum{Type: "CharErrorKind", Variant: kind}}})
	case "String":
		return ok(dispatch.Str(s))
	case "", "_":
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return ok(dispatch.Int{V: i})
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && validFloat(s) {
			return ok(dispatch.Float{V: f})
		}
	}
	return ok(dispatch.Str(s))
}

func intError(kind string) Value {
	return errv(&dispatch.Enum{Type: "ParseIntError", Variant: "ParseIntError", Named: map[string]Value{"kind": &dispatch.Enum{Type: "IntErrorKind", Variant: kind}}})
}

// parseInt is from_str_radix: an optional sign ('-' only for a signed
// type), then digits; no whitespace.
func parseInt(s string, t IntType, radix int) Value {
	if s == "" {
		return intError("Empty")
	}
	digits, neg := s, false
	switch s[0] {
	case '+':
		digits = s[1:]
	case '-':
		if t.Signed {
			digits, neg = s[1:], true
		}
	}
	if digits == "" {
		return intError("InvalidDigit")
	}
	for _, r := range digits {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return intError("InvalidDigit")
		}
	}
	n, parsed := new(big.Int).SetString(digits, radix)
	if !parsed {
		return intError("InvalidDigit")
	}
	if neg {
		n.Neg(n)
	}
	if n.Cmp(t.max()) > 0 {
		return intError("PosOverflow")
	}
	if n.Cmp(t.min()) < 0 {
		return intError("NegOverflow")
	}
	return ok(fromBig(n, t, t.Name))
}

// validFloat reports whether Rust's float grammar accepts s (Go's also
// takes hex floats and underscores).
func validFloat(s string) bool {
	return !strings.ContainsAny(s, "xX_pP") || strings.EqualFold(strings.TrimLeft(s, "+-"), "infinity")
}

func parseFloat(s, typ string) Value {
	if s == "" {
		return errv(&dispatch.Enum{Type: "ParseFloatError", Variant: "ParseFloatError", Named: map[string]Value{"kind": &dispatch.Enum{Type: "FloatErrorKind", Variant: "Empty"}}})
	}
	bitsz := 64
	if typ == "f32" {
		bitsz = 32
	}
	f, err := strconv.ParseFloat(s, bitsz)
	if ne, isNum := err.(*strconv.NumError); (err != nil && !(isNum && ne.Err == strconv.ErrRange)) || !validFloat(s) {
		return errv(&dispatch.Enum{Type: "ParseFloatError", Variant: "ParseFloatError", Named: map[string]Value{"kind": &dispatch.Enum{Type: "FloatErrorKind", Variant: "Invalid"}}})
	}
	return ok(dispatch.Float{V: f, Suffix: typ})
}

// errorDisplay is the Display of std's error types.
func errorDisplay(e *dispatch.Enum) (string, bool) {
	kind := ""
	if k, isEnum := e.Named["kind"].(*dispatch.Enum); isEnum {
		kind = k.Variant
	}
	switch e.Type {
	case "ParseIntError":
		return map[string]string{
			"Empty":        "cannot parse integer from empty string",
			"InvalidDigit": "invalid digit found in string",
			"PosOverflow":  "number too large to fit in target type",
			"NegOverflow":  "number too small to fit in target type",
			"Zero":         "number would be zero for non-zero type",
		}[kind], true
	case "ParseFloatError":
		if kind == "Empty" {
			return "cannot parse float from empty string", true
		}
		return "invalid float literal", true
	case "ParseBoolError":
		return "provided string was not `true` or `false`", true
	case "ParseCharError":
		if kind == "EmptyString" {
			return "cannot parse char from empty string", true
		}
		return "too many characters in string", true
	case "TryFromIntError":
		return "out of range integral type conversion attempted", true
	case "VarError":
		if e.Variant == "NotPresent" {
			return "environment variable not found", true
		}
	}
	return "", false
}

func charMethod(x Char, call Call) (Value, bool, error) {
	r := rune(x)
	preds := map[string]func(rune) bool{
		"is_alphabetic": unicode.IsLetter, "is_numeric": unicode.IsNumber, "is_whitespace": unicode.IsSpace,
		"is_uppercase": unicode.IsUpper, "is_lowercase": unicode.IsLower, "is_control": unicode.IsControl,
		"is_alphanumeric":       func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) },
		"is_ascii":              func(r rune) bool { return r < 128 },
		"is_ascii_digit":        func(r rune) bool { return r >= '0' && r <= '9' },
		"is_ascii_alphabetic":   func(r rune) bool { return r < 128 && unicode.IsLetter(r) },
		"is_ascii_alphanumeric": func(r rune) bool { return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) },
		"is_ascii_uppercase":    func(r rune) bool { return r >= 'A' && r <= 'Z' },
		"is_ascii_lowercase":    func(r rune) bool { return r >= 'a' && r <= 'z' },
		"is_ascii_whitespace":   func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' },
		"is_ascii_punctuation":  func(r rune) bool { return r < 128 && unicode.IsPunct(r) || r < 128 && unicode.IsSymbol(r) },
		"is_ascii_hexdigit":     func(r rune) bool { return strings.ContainsRune("0123456789abcdefABCDEF", r) },
	}
	if p, isPred := preds[call.Name]; isPred {
		return dispatch.Bool(p(r)), true, nil
	}
	switch call.Name {
	case "clone", "to_owned", "into":
		return x, true, nil
	case "to_string", "to_uppercase", "to_lowercase":
		switch call.Name {
		case "to_uppercase":
			return dispatch.Str(strings.ToUpper(string(r))), true, nil
		case "to_lowercase":
			return dispatch.Str(strings.ToLower(string(r))), true, nil
		}
		return dispatch.Str(string(r)), true, nil
	case "to_ascii_uppercase":
		if r >= 'a' && r <= 'z' {
			r -= 32
		}
		return Char(r), true, nil
	case "to_ascii_lowercase":
		if r >= 'A' && r <= 'Z' {
			r += 32
		}
		return Char(r), true, nil
	case "to_digit", "is_digit":
		radix, isInt := intArg(call.Args, 0)
		if !isInt {
			return nil, false, nil
		}
		d := int64(-1)
		switch {
		case r >= '0' && r <= '9':
			d = int64(r - '0')
		case r >= 'a' && r <= 'z':
			d = int64(r-'a') + 10
		case r >= 'A' && r <= 'Z':
			d = int64(r-'A') + 10
		}
		valid := d >= 0 && d < radix
		if call.Name == "is_digit" {
			return dispatch.Bool(valid), true, nil
		}
		return option(dispatch.Int{V: d, Suffix: "u32"}, valid), true, nil
	case "len_utf8":
		return usize(utf8.RuneLen(r)), true, nil
	case "eq_ignore_ascii_case":
		if len(call.Args) != 1 {
			return nil, false, nil
		}
		if o, isChar := dispatch.Deref(call.Args[0]).(Char); isChar {
			return dispatch.Bool(strings.EqualFold(string(r), string(rune(o)))), true, nil
		}
	}
	return nil, false, nil
}
