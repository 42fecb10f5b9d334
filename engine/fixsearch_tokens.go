package engine

// What the fix search reads of the program's tokens: its bindings, its
// statements, its brackets, its arrays of data.

import (
	"slices"
	"sort"
	"strings"

	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// literalsOnly reports whether tokens are numbers, bools and punctuation
// (`0.0`, `[1, 2]`, `(0, 0)`, `0..4`): a setting, not data of the program.
func literalsOnly(toks []syntax.Token) bool {
	for _, t := range toks {
		switch {
		case t.Kind == syntax.Int || t.Kind == syntax.Float || t.Kind == syntax.Punct:
		case t.Kind == syntax.Keyword && (t.Text == "true" || t.Text == "false"):
		default:
			return false
		}
	}
	return len(toks) > 0
}

// binding is a `let` of the program: its name, the range of its
// statement up to the `;`, and whether it binds a device (its value is
// made by `Device::` or `.device()`), with autodiff on.
type binding struct {
	name             string
	start, end       int
	device, autodiff bool
}

// letBindings are the program's `let NAME = ...;` statements.
func letBindings(toks []syntax.Token) []binding {
	var out []binding
	for i := 0; i < len(toks); i++ {
		if toks[i].Text != "let" || toks[i].Kind != syntax.Keyword {
			continue
		}
		j := i + 1
		if j < len(toks) && toks[j].Text == "mut" {
			j++
		}
		if j+1 >= len(toks) || toks[j].Kind != syntax.Ident || toks[j+1].Text != "=" {
			continue
		}
		b := binding{name: toks[j].Text, start: toks[i].Range.Start}
		depth := 0
		k := j + 2
		for ; k < len(toks); k++ {
			t := toks[k]
			switch t.Text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
			if depth < 0 || depth == 0 && t.Text == ";" {
				break
			}
			switch {
			case t.Text == "Device" && k+1 < len(toks) && toks[k+1].Text == "::":
				b.device = true
			case t.Text == "device" && k >= 1 && toks[k-1].Text == "." && depth == 0:
				b.device = true
			case t.Text == "autodiff" && k >= 1 && toks[k-1].Text == ".":
				b.autodiff = true
			}
		}
		if k == len(toks) || toks[k].Text != ";" {
			continue
		}
		b.end = toks[k].Range.Start
		// `Device::default().autodiff()` is a device, `Tensor::ones(.., &Device::..)` is not.
		if b.device && !startsDevice(toks[j+2:k]) {
			b.device = false
		}
		// `device.clone().autodiff()` of a device is one.
		if init := toks[j+2 : k]; len(init) > 0 && slices.ContainsFunc(out, func(o binding) bool { return o.device && o.name == init[0].Text }) &&
			(len(init) == 1 || init[1].Text == ".") && !slices.ContainsFunc(init, func(t syntax.Token) bool { return t.Text == "Tensor" }) {
			b.device = true
		}
		out = append(out, b)
	}
	return out
}

// startsDevice reports whether an initializer's tokens make a device: a
// `Device::` call or a `.device()` of something, with methods after it.
func startsDevice(toks []syntax.Token) bool {
	if len(toks) >= 2 && toks[0].Text == "Device" && toks[1].Text == "::" {
		return !slices.ContainsFunc(toks, func(t syntax.Token) bool { return t.Text == "Tensor" })
	}
	for k := 1; k+2 < len(toks); k++ {
		if toks[k].Text == "device" && toks[k-1].Text == "." && toks[k+1].Text == "(" && toks[k+2].Text == ")" {
			return true
		}
	}
	return false
}

// isUse reports whether toks[i], an identifier, reads a variable: it is
// neither bound here, a field or method name, a path segment, a call, nor
// a macro.
func isUse(toks []syntax.Token, i int) bool {
	if i > 0 {
		switch toks[i-1].Text {
		case ".", "::", "let", "mut", "fn", "struct", "enum", "type", "for", "|":
			return false
		}
	}
	if i+1 < len(toks) {
		switch toks[i+1].Text {
		case "(", "::", "!", ":", "=", "{":
			return false
		}
	}
	return true
}

// statementAround widens r to the statement it lies in: from after the
// `;`, `{` or `}` before it to the `;` after it, at its depth.
func statementAround(toks []syntax.Token, r source.Range) source.Range {
	first := sort.Search(len(toks), func(k int) bool { return toks[k].Range.Start >= r.Start })
	out := r
	depth := 0
	for k := first - 1; k >= 0; k-- {
		t := toks[k].Text
		if depth == 0 && (t == ";" || t == "{" || t == "}") {
			break
		}
		switch t {
		case ")", "]", "}":
			depth++
		case "(", "[", "{":
			depth--
		}
		if depth < 0 {
			break
		}
		out.Start = toks[k].Range.Start
	}
	depth = 0
	for k := first; k < len(toks); k++ {
		t := toks[k].Text
		if toks[k].Range.Start < r.End {
			continue
		}
		if depth == 0 && (t == ";" || t == "}") {
			break
		}
		switch t {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		}
		if depth < 0 {
			break
		}
		out.End = toks[k].Range.End
	}
	return out
}

// statementEnd is the index of the `;` that ends the expression statement
// starting at toks[start], or -1 when it is not one (a `let`, an item).
func statementEnd(toks []syntax.Token, start int) int {
	if toks[start].Kind == syntax.Keyword {
		return -1
	}
	depth := 0
	for k := start; k < len(toks); k++ {
		switch toks[k].Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth--; depth < 0 {
				return -1
			}
		case ";":
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// closing is the index of the token that closes the one at open, or -1.
func closing(toks []syntax.Token, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		switch toks[k].Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// opensArray reports whether a `[` after prev starts an array expression
// (`f([2, 3])`, `vec![a, b]`, `= [1]`), not an index (`x[0]`) or a type.
func opensArray(prev syntax.Token) bool {
	switch prev.Text {
	case "(", ",", "=", "&", "[", "!", "{", ";", "return":
		return true
	}
	return false
}

// inAssertion reports whether toks[i] is in the arguments of an assertion:
// Rust's (`assert!(n == 2)`), or one of Burn's of values or of a tolerance
// (`assert_approx_eq(.., Tolerance::absolute(1e-6))`). Loosening what a
// program checks would hide the mistake the check found, not mend it.
func inAssertion(toks []syntax.Token, i int) bool {
	depth := 0
	for k := i - 1; k >= 1; k-- {
		switch toks[k].Text {
		case ")", "]", "}":
			depth++
		case "[", "{":
			depth--
		case "(":
			if depth > 0 {
				depth--
				continue
			}
			name := toks[k-1].Text
			if name == "!" && k >= 2 {
				name = toks[k-2].Text // assert!(..), assert_eq!(..)
			}
			if strings.Contains(name, "assert") || k >= 3 && toks[k-3].Text == "Tolerance" {
				return true
			}
		case ";":
			return false
		}
	}
	return false
}

// opener is the bracket toks[i] is directly inside: "(", "[", "{" or "".
func opener(toks []syntax.Token, i int) string {
	depth := 0
	for k := i - 1; k >= 0; k-- {
		switch toks[k].Text {
		case ")", "]", "}":
			depth++
		case "(", "[", "{":
			if depth == 0 {
				return toks[k].Text
			}
			depth--
		}
	}
	return ""
}

// inData reports whether toks[i] is inside an array that is a tensor's
// data (isData).
func inData(toks []syntax.Token, i int) bool {
	depth := 0
	for k := i - 1; k >= 0; k-- {
		switch toks[k].Text {
		case ")", "]", "}":
			depth++
		case "(", "{":
			if depth == 0 {
				return false
			}
			depth--
		case "[":
			if depth == 0 {
				return k >= 1 && opensArray(toks[k-1]) && isData(toks, k) || inData(toks, k)
			}
			depth--
		}
	}
	return false
}

// isData reports whether the array at toks[open] is a tensor's data: an
// argument of a data constructor (`from_floats([..])`), or of floats or
// bytes. Leaving one of its elements out would drop the program's data.
func isData(toks []syntax.Token, open int) bool {
	if open >= 2 && toks[open-1].Text == "(" {
		switch toks[open-2].Text {
		case "from_data", "from_floats", "from_ints", "from_bool", "new", "quantized", "from":
			return true
		}
	}
	end := closing(toks, open)
	for k := open + 1; k < end; k++ {
		if t := toks[k]; t.Kind == syntax.Float || t.Kind == syntax.Int && (t.Suffix == "u8" || t.Suffix == "i8") {
			return !slices.ContainsFunc(toks[open+1:end], func(t syntax.Token) bool { return t.Text == "(" })
		}
	}
	return false
}
