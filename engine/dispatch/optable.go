package dispatch

import (
	_ "embed"
	"fmt"
	"strings"
)

//go:embed ops.tsv
var opsTSV string

// opRow is one row of ops.tsv: a tensor method that lowers to one
// dispatch op.
type opRow struct {
	method string
	kinds  string   // subset of "FIB"
	args   []string // argument type codes
	shape  string   // output shape rule
	out    string   // same, Float, Int, Bool
	ops    map[Kind]string
	route  string   // unary, binary, any, multi
	names  []string // multi_op! parameter names, receiver first
	check  string   // "", "matmul", or the ew operation name
	ew     bool
	source string
}

// opTable is parsed once from the embedded table and only read after.
var opTable = parseOpTable(opsTSV)

func parseOpTable(text string) map[string]opRow {
	table := map[string]opRow{}
	header := true
	for _, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if header {
			header = false
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 9 {
			panic(fmt.Sprintf("ops.tsv: %d fields in %q", len(f), line))
		}
		r := opRow{method: f[0], kinds: f[1], shape: f[3], out: f[4], route: f[6], source: f[8], ops: map[Kind]string{}}
		if f[2] != "-" {
			r.args = strings.Split(f[2], ",")
		}
		for _, k := range []Kind{KindFloat, KindInt, KindBool} {
			r.ops[k] = strings.ReplaceAll(f[5], "{k}", k.opPrefix())
		}
		if strings.Contains(f[5], ":") {
			for _, part := range strings.Fields(f[5]) {
				code, op, _ := strings.Cut(part, ":")
				r.ops[kindOfCode(code)] = op
			}
		}
		// A quantized tensor takes the q_ op of the float one.
		r.ops[KindQFloat] = "q_" + strings.TrimPrefix(r.ops[KindFloat], "float_")
		if names, ok := strings.CutPrefix(r.route, "multi:"); ok {
			r.route, r.names = "multi", strings.Split(names, ",")
		}
		switch {
		case strings.HasPrefix(f[7], "ew:"):
			r.check, r.ew = strings.TrimPrefix(f[7], "ew:"), true
		case f[7] != "-":
			r.check = f[7]
		}
		table[r.method] = r
	}
	return table
}

func kindOfCode(code string) Kind {
	switch code {
	case "I":
		return KindInt
	case "B":
		return KindBool
	}
	return KindFloat
}

func (r opRow) has(k Kind) bool {
	code := map[Kind]string{KindFloat: "F", KindInt: "I", KindBool: "B", KindQFloat: "F"}[k]
	return strings.Contains(r.kinds, code)
}
