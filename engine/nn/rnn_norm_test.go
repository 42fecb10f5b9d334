package nn_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const rnnPrelude = "use burn::prelude::*;\nuse burn::module::Param;\n" +
	"use burn::nn::{Lstm, LstmConfig, LstmState, BiLstmConfig, GruConfig, GroupNormConfig, InstanceNormConfig, RmsNormConfig, PReluConfig, HardSigmoidConfig, SwiGluConfig};\n"

// floatLines parses each output line `[a, b, ...]` (a Vec<f32>'s Debug).
func floatLines(t *testing.T, out string) [][]float64 {
	t.Helper()
	var rows [][]float64
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		line = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "["), "]")
		var row []float64
		for _, f := range strings.Split(line, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				t.Fatalf("output line %q: %v", line, err)
			}
			row = append(row, v)
		}
		rows = append(rows, row)
	}
	return rows
}

func closeTo(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values %v, want %d %v", what, len(got), got, len(want), want)
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol {
			t.Fatalf("%s[%d] = %v, want %v (all: %v, want %v)", what, i, got[i], want[i], got, want)
		}
	}
}

// mat is a dIn x dOut matrix of distinct values, seeded by k.
func rnnMat(k, rows, cols int) [][]float64 {
	m := make([][]float64, rows)
	for i := range m {
		m[i] = make([]float64, cols)
		for j := range m[i] {
			m[i][j] = float64(float32(0.13*float64(k%5) - 0.07*float64(i) + 0.11*float64(j) - 0.2 + 0.017*float64(k)))
		}
	}
	return m
}

func rnnVec(k, n int) []float64 { return rnnMat(k+31, 1, n)[0] }

func rustMat(m [][]float64) string {
	var rows []string
	for _, r := range m {
		rows = append(rows, rustVec(r))
	}
	return "[" + strings.Join(rows, ", ") + "]"
}

func rustVec(v []float64) string {
	var xs []string
	for _, x := range v {
		xs = append(xs, strconv.FormatFloat(x, 'f', -1, 32))
	}
	return "[" + strings.Join(xs, ", ") + "]"
}

// gateWeights are a gate's Linear params: x @ wx + bx and h @ wh + bh.
type gateWeights struct {
	wx, wh [][]float64
	bx, bh []float64
}

func newGateWeights(k, dIn, dH int) gateWeights {
	return gateWeights{wx: rnnMat(4*k, dIn, dH), wh: rnnMat(4*k+1, dH, dH), bx: rnnVec(4*k+2, dH), bh: rnnVec(4*k+3, dH)}
}

// assign writes the Rust statements giving module.gate its weights.
func (g gateWeights) assign(module, gate string) string {
	p := module + "." + gate
	return fmt.Sprintf("%[1]s.input_transform.weight = Param::from_data(%[2]s, &device);\n"+
		"%[1]s.input_transform.bias = Some(Param::from_data(%[3]s, &device));\n"+
		"%[1]s.hidden_transform.weight = Param::from_data(%[4]s, &device);\n"+
		"%[1]s.hidden_transform.bias = Some(Param::from_data(%[5]s, &device));\n",
		p, rustMat(g.wx), rustVec(g.bx), rustMat(g.wh), rustVec(g.bh))
}

func rnnAffine(x []float64, w [][]float64, b []float64) []float64 {
	out := append([]float64(nil), b...)
	for j := range out {
		for i := range x {
			out[j] += x[i] * w[i][j]
		}
	}
	return out
}

func (g gateWeights) product(x, h []float64) []float64 {
	a, b := rnnAffine(x, g.wx, g.bx), rnnAffine(h, g.wh, g.bh)
	for i := range a {
		a[i] += b[i]
	}
	return a
}

func rnnSigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func rnnMap(xs []float64, f func(float64) float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// naiveLstm is the LSTM recurrence on one sequence, in float64: the
// hidden state of every step in order of t, and the final cell and hidden.
func naiveLstm(gates [4]gateWeights, xs [][]float64, c, h []float64, reverse bool) ([][]float64, []float64, []float64) {
	out := make([][]float64, len(xs))
	for s := range xs {
		t := s
		if reverse {
			t = len(xs) - 1 - s
		}
		i := rnnMap(gates[0].product(xs[t], h), rnnSigmoid)
		f := rnnMap(gates[1].product(xs[t], h), rnnSigmoid)
		o := rnnMap(gates[2].product(xs[t], h), rnnSigmoid)
		g := rnnMap(gates[3].product(xs[t], h), math.Tanh)
		nc, nh := make([]float64, len(c)), make([]float64, len(c))
		for k := range c {
			nc[k] = f[k]*c[k] + i[k]*g[k]
			nh[k] = o[k] * math.Tanh(nc[k])
		}
		c, h = nc, nh
		out[t] = h
	}
	return out, c, h
}

func rnnFlat(rows [][]float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

var lstmInput = [][]float64{{0.1, 0.2}, {0.3, -0.4}, {0.5, 0.6}}

const toVec = ".into_data().to_vec::<f32>().unwrap()"

// TestLstmForwardReference: an Lstm of hidden 2 on a [1, 3, 2] input,
// its gates given known weights, against the recurrence computed here,
// without a state and from a given one, forward and reversed.
func TestLstmForwardReference(t *testing.T) {
	var gates [4]gateWeights
	var assign string
	for k, name := range []string{"input_gate", "forget_gate", "output_gate", "cell_gate"} {
		gates[k] = newGateWeights(k, 2, 2)
		assign += gates[k].assign("lstm", name)
	}
	for _, reverse := range []bool{false, true} {
		t.Run(fmt.Sprint("reverse=", reverse), func(t *testing.T) {
			src := rnnPrelude + "fn main() {\nlet device = Device::flex();\n" +
				fmt.Sprintf("let mut lstm = LstmConfig::new(2, 2, true).with_reverse(%v).init(&device);\n", reverse) + assign +
				"let x = Tensor::<3>::from_data([" + rustMat(lstmInput) + "], &device);\n" +
				"let (out, state) = lstm.forward(x.clone(), None);\n" +
				"println!(\"{:?}\", out.dims());\nprintln!(\"{:?}\", state.hidden.dims());\n" +
				"println!(\"{:?}\", out" + toVec + ");\nprintln!(\"{:?}\", state.cell.clone()" + toVec + ");\nprintln!(\"{:?}\", state.hidden.clone()" + toVec + ");\n" +
				"let init = LstmState::new(Tensor::<2>::from_data([[0.5, -0.25]], &device), Tensor::<2>::from_data([[-0.3, 0.7]], &device));\n" +
				"let (out2, state2) = lstm.forward(x, Some(init));\n" +
				"println!(\"{:?}\", out2" + toVec + ");\nprintln!(\"{:?}\", state2.cell" + toVec + ");\n}\n"
			res := run(t, src)
			rows := floatLines(t, res.Output)
			closeTo(t, "output dims", rows[0], []float64{1, 3, 2}, 0)
			closeTo(t, "state dims", rows[1], []float64{1, 2}, 0)
			out, c, h := naiveLstm(gates, lstmInput, []float64{0, 0}, []float64{0, 0}, reverse)
			closeTo(t, "output", rows[2], rnnFlat(out), 1e-5)
			closeTo(t, "cell", rows[3], c, 1e-5)
			closeTo(t, "hidden", rows[4], h, 1e-5)
			out2, c2, _ := naiveLstm(gates, lstmInput, []float64{0.5, -0.25}, []float64{-0.3, 0.7}, reverse)
			closeTo(t, "output from a state", rows[5], rnnFlat(out2), 1e-5)
			closeTo(t, "cell from a state", rows[6], c2, 1e-5)
		})
	}
}

// TestBiLstmForwardReference: the BiLstm's output is the forward
// Lstm's hidden states, then the reverse one's, on the last dim; the
// state stacks the two final states.
func TestBiLstmForwardReference(t *testing.T) {
	var fwd, rev [4]gateWeights
	var assign string
	for k, name := range []string{"input_gate", "forget_gate", "output_gate", "cell_gate"} {
		fwd[k], rev[k] = newGateWeights(k, 2, 2), newGateWeights(k+5, 2, 2)
		assign += fwd[k].assign("bi.forward", name) + rev[k].assign("bi.reverse", name)
	}
	src := rnnPrelude + "fn main() {\nlet device = Device::flex();\nlet mut bi = BiLstmConfig::new(2, 2, true).init(&device);\n" + assign +
		"let x = Tensor::<3>::from_data([" + rustMat(lstmInput) + "], &device);\n" +
		"let (out, state) = bi.forward(x, None);\nprintln!(\"{:?}\", out.dims());\nprintln!(\"{:?}\", state.hidden.dims());\n" +
		"println!(\"{:?}\", out" + toVec + ");\nprintln!(\"{:?}\", state.hidden" + toVec + ");\n}\n"
	rows := floatLines(t, run(t, src).Output)
	closeTo(t, "output dims", rows[0], []float64{1, 3, 4}, 0)
	closeTo(t, "state dims", rows[1], []float64{2, 1, 2}, 0)
	of, _, hf := naiveLstm(fwd, lstmInput, []float64{0, 0}, []float64{0, 0}, false)
	or, _, hr := naiveLstm(rev, lstmInput, []float64{0, 0}, []float64{0, 0}, true)
	var want []float64
	for t := range lstmInput {
		want = append(append(want, of[t]...), or[t]...)
	}
	closeTo(t, "output", rows[2], want, 1e-5)
	closeTo(t, "hidden", rows[3], append(append([]float64(nil), hf...), hr...), 1e-5)
}

// TestGruForwardReference: a Gru of hidden 2 against the recurrence, with
// the reset applied after the hidden product (the default) and before.
func TestGruForwardReference(t *testing.T) {
	var gates [3]gateWeights
	var assign string
	for k, name := range []string{"update_gate", "reset_gate", "new_gate"} {
		gates[k] = newGateWeights(k+2, 2, 2)
		assign += gates[k].assign("gru", name)
	}
	for _, after := range []bool{true, false} {
		t.Run(fmt.Sprint("reset_after=", after), func(t *testing.T) {
			src := rnnPrelude + "fn main() {\nlet device = Device::flex();\n" +
				fmt.Sprintf("let mut gru = GruConfig::new(2, 2, true).with_reset_after(%v).init(&device);\n", after) + assign +
				"let x = Tensor::<3>::from_data([" + rustMat(lstmInput) + "], &device);\n" +
				"let out = gru.forward(x.clone(), None);\nprintln!(\"{:?}\", out.dims());\nprintln!(\"{:?}\", out" + toVec + ");\n" +
				"let out = gru.forward(x, Some(Tensor::<2>::from_data([[0.4, -0.6]], &device)));\nprintln!(\"{:?}\", out" + toVec + ");\n}\n"
			rows := floatLines(t, run(t, src).Output)
			closeTo(t, "dims", rows[0], []float64{1, 3, 2}, 0)
			naive := func(h []float64) []float64 {
				var out []float64
				for _, x := range lstmInput {
					z := rnnMap(gates[0].product(x, h), rnnSigmoid)
					r := rnnMap(gates[1].product(x, h), rnnSigmoid)
					var n []float64
					if after {
						a, b := rnnAffine(x, gates[2].wx, gates[2].bx), rnnAffine(h, gates[2].wh, gates[2].bh)
						for i := range a {
							a[i] += r[i] * b[i]
						}
						n = rnnMap(a, math.Tanh)
					} else {
						rh := make([]float64, len(h))
						for i := range h {
							rh[i] = r[i] * h[i]
						}
						n = rnnMap(gates[2].product(x, rh), math.Tanh)
					}
					nh := make([]float64, len(h))
					for i := range h {
						nh[i] = n[i]*(1-z[i]) + z[i]*h[i]
					}
					h = nh
					out = append(out, h...)
				}
				return out
			}
			closeTo(t, "output", rows[1], naive([]float64{0, 0}), 1e-5)
			closeTo(t, "output from a state", rows[2], naive([]float64{0.4, -0.6}), 1e-5)
		})
	}
}

var normInput = [][][]float64{
	{{0.5, -1.2, 2.0}, {0.3, 0.9, -0.4}, {1.5, -0.7, 0.2}, {-2.0, 0.1, 0.8}},
	{{1.1, 0.4, -0.3}, {-0.6, 2.2, 0.0}, {0.7, 0.7, -1.9}, {0.25, -0.5, 1.3}},
}

func rust3(x [][][]float64) string {
	var bs []string
	for _, b := range x {
		bs = append(bs, rustMat(b))
	}
	return "[" + strings.Join(bs, ", ") + "]"
}

// naiveGroupNorm normalizes each group of channels of each batch over its
// elements (population variance), then gamma * x + beta per channel.
func naiveGroupNorm(x [][][]float64, groups int, gamma, beta []float64, eps float64) []float64 {
	var out []float64
	for _, b := range x {
		per := len(b) / groups
		for g := range groups {
			var sum, n float64
			for c := g * per; c < (g+1)*per; c++ {
				for _, v := range b[c] {
					sum += v
					n++
				}
			}
			mean := sum / n
			var sq float64
			for c := g * per; c < (g+1)*per; c++ {
				for _, v := range b[c] {
					sq += (v - mean) * (v - mean)
				}
			}
			std := math.Sqrt(sq/n + eps)
			for c := g * per; c < (g+1)*per; c++ {
				for _, v := range b[c] {
					out = append(out, (v-mean)/std*gamma[c]+beta[c])
				}
			}
		}
	}
	return out
}

// TestNormForwardReference: GroupNorm of 2 groups, InstanceNorm and
// RmsNorm against the formulas, with gamma and beta set.
func TestNormForwardReference(t *testing.T) {
	gamma, beta := []float64{1.5, -0.5, 2, 0.25}, []float64{0.1, 0.2, -0.3, 0.4}
	src := rnnPrelude + "fn main() {\nlet device = Device::flex();\n" +
		"let x = Tensor::<3>::from_data(" + rust3(normInput) + ", &device);\n" +
		"let mut gn = GroupNormConfig::new(2, 4).init(&device);\n" +
		"gn.gamma = Some(Param::from_data(" + rustVec(gamma) + ", &device));\ngn.beta = Some(Param::from_data(" + rustVec(beta) + ", &device));\n" +
		"let y = gn.forward(x.clone());\nprintln!(\"{:?}\", y.dims());\nprintln!(\"{:?}\", y" + toVec + ");\n" +
		"let plain = GroupNormConfig::new(2, 4).with_affine(false).init(&device);\nprintln!(\"{:?}\", plain.forward(x.clone())" + toVec + ");\n" +
		"let mut inn = InstanceNormConfig::new(4).with_epsilon(1e-3).init(&device);\n" +
		"inn.gamma = Some(Param::from_data(" + rustVec(gamma) + ", &device));\ninn.beta = Some(Param::from_data(" + rustVec(beta) + ", &device));\n" +
		"println!(\"{:?}\", inn.forward(x.clone())" + toVec + ");\n" +
		"let mut rms = RmsNormConfig::new(3).init(&device);\nrms.gamma = Param::from_data([2.0, 0.5, -1.0], &device);\n" +
		"println!(\"{:?}\", rms.forward(x)" + toVec + ");\n}\n"
	rows := floatLines(t, run(t, src).Output)
	closeTo(t, "dims", rows[0], []float64{2, 4, 3}, 0)
	closeTo(t, "group norm", rows[1], naiveGroupNorm(normInput, 2, gamma, beta, 1e-5), 1e-5)
	closeTo(t, "group norm without affine", rows[2], naiveGroupNorm(normInput, 2, []float64{1, 1, 1, 1}, []float64{0, 0, 0, 0}, 1e-5), 1e-5)
	closeTo(t, "instance norm", rows[3], naiveGroupNorm(normInput, 4, gamma, beta, 1e-3), 1e-5)
	var want []float64
	g := []float64{2, 0.5, -1}
	for _, b := range normInput {
		for _, r := range b {
			var sq float64
			for _, v := range r {
				sq += v * v
			}
			d := math.Sqrt(sq/float64(len(r)) + 1e-5)
			for i, v := range r {
				want = append(want, v/d*g[i])
			}
		}
	}
	closeTo(t, "rms norm", rows[4], want, 1e-5)
}

// TestActivationModulesReference: PRelu, HardSigmoid and SwiGlu.
func TestActivationModulesReference(t *testing.T) {
	src := rnnPrelude + "fn main() {\nlet device = Device::flex();\n" +
		"let x = Tensor::<2>::from_data([[-2.0, -0.5, 0.0], [0.5, 1.0, 3.0]], &device);\n" +
		"let p = PReluConfig::new().with_num_parameters(3).with_alpha(0.1).init(&device);\nprintln!(\"{:?}\", p.forward(x.clone())" + toVec + ");\n" +
		"let h = HardSigmoidConfig::new().init();\nprintln!(\"{:?}\", h.forward(x.clone())" + toVec + ");\n" +
		"let mut s = SwiGluConfig::new(3, 2).init(&device);\n" +
		"s.linear_inner.weight = Param::from_data([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], &device);\n" +
		"s.linear_outer.weight = Param::from_data([[0.7, 0.1], [-0.3, 0.2], [0.05, -0.4]], &device);\n" +
		"println!(\"{:?}\", s.forward(x)" + toVec + ");\n}\n"
	rows := floatLines(t, run(t, src).Output)
	x := [][]float64{{-2, -0.5, 0}, {0.5, 1, 3}}
	var prelu, hs, sw []float64
	wi := [][]float64{{0.1, -0.2}, {0.3, 0.4}, {-0.5, 0.6}}
	wo := [][]float64{{0.7, 0.1}, {-0.3, 0.2}, {0.05, -0.4}}
	for _, r := range x {
		for _, v := range r {
			prelu = append(prelu, math.Max(v, 0)+0.1*math.Min(v, 0))
			hs = append(hs, math.Min(1, math.Max(0, 0.2*v+0.5)))
		}
		a, b := rnnAffine(r, wi, []float64{0, 0}), rnnAffine(r, wo, []float64{0, 0})
		for i := range a {
			sw = append(sw, a[i]*rnnSigmoid(a[i])*b[i])
		}
	}
	closeTo(t, "prelu", rows[0], prelu, 1e-6)
	closeTo(t, "hard rnnSigmoid", rows[1], hs, 1e-6)
	closeTo(t, "swiglu", rows[2], sw, 1e-5)
}

// TestRnnNormDisplay: the modules print as Burn's display tests say, with
// Burn's num_params, and the configs as the derive's JSON.
func TestRnnNormDisplay(t *testing.T) {
	cases := []struct{ expr, want string }{
		{"LstmConfig::new(2, 3, true).init(&device)", "Lstm {d_input: 2, d_hidden: 3, bias: true, params: 84}"},
		{"LstmConfig::new(2, 3, false).init(&device)", "Lstm {d_input: 2, d_hidden: 3, bias: false, params: 60}"},
		{"BiLstmConfig::new(2, 3, true).init(&device)", "BiLstm {d_input: 2, d_hidden: 3, bias: true, params: 168}"},
		{"GruConfig::new(2, 8, true).init(&device)", "Gru {d_input: 2, d_hidden: 8, bias: true, reset_after: true, params: 288}"},
		{"GroupNormConfig::new(3, 6).init(&device)", "GroupNorm {num_groups: 3, num_channels: 6, epsilon: 0.00001, affine: true, params: 12}"},
		{"GroupNormConfig::new(3, 6).with_affine(false).init(&device)", "GroupNorm {num_groups: 3, num_channels: 6, epsilon: 0.00001, affine: false}"},
		{"InstanceNormConfig::new(6).init(&device)", "InstanceNorm {num_channels: 6, epsilon: 0.00001, affine: true, params: 12}"},
		{"RmsNormConfig::new(6).init(&device)", "RmsNorm {d_model: 6, epsilon: 0.00001, params: 6}"},
		{"PReluConfig::new().init(&device)", "PRelu {num_parameters: 1, alpha_value: 0.25, params: 1}"},
		{"HardSigmoidConfig::new().init()", "HardSigmoid {alpha: 0.2, beta: 0.5}"},
		{"SwiGluConfig::new(3, 4).init(&device)", "SwiGlu {d_input: 3, d_output: 4, bias: false, params: 24}"},
		{"SwiGluConfig::new(3, 4).with_bias(true).init(&device)", "SwiGlu {d_input: 3, d_output: 4, bias: true, params: 32}"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			res := run(t, rnnPrelude+"fn main() {\nlet device = Device::flex();\nlet m = "+c.expr+";\nprintln!(\"{m}\");\nprintln!(\"{}\", m.num_params());\n}\n")
			lines := strings.Split(strings.TrimSpace(res.Output), "\n")
			if lines[0] != c.want {
				t.Errorf("got %q, want %q", lines[0], c.want)
			}
			want := "0"
			if i := strings.Index(c.want, "params: "); i >= 0 {
				want = strings.TrimSuffix(c.want[i+len("params: "):], "}")
			}
			if lines[len(lines)-1] != want {
				t.Errorf("num_params %s, want %s", lines[len(lines)-1], want)
			}
		})
	}
	res := run(t, rnnPrelude+"fn main() {\nprintln!(\"{}\", GruConfig::new(2, 4, false).with_clip(Some(1.5)));\n}\n")
	want := "{\n  \"d_input\": 2,\n  \"d_hidden\": 4,\n  \"bias\": false,\n  \"clip\": 1.5,\n  \"reset_after\": true,\n" +
		"  \"initializer\": {\n    \"XavierNormal\": {\n      \"gain\": 1.0\n    }\n  },\n  \"gate_activation\": \"Sigmoid\",\n  \"hidden_activation\": \"Tanh\"\n}\n"
	if res.Output != want {
		t.Errorf("GruConfig:\n%s\nwant:\n%s", res.Output, want)
	}
}

// TestRnnNormPanics are Burn's panics on these paths, with their sites.
func TestRnnNormPanics(t *testing.T) {
	cases := []struct{ name, body, code, msg, loc string }{
		{"groups must divide channels", "let _ = GroupNormConfig::new(4, 6).init(&device);", "the-number-of-channels-must-be-divisible-by-the-nu",
			"assertion `left == right` failed: The number of channels must be divisible by the number of groups\n  left: 2\n right: 0", "crates/burn-nn/src/modules/norm/group.rs:79"},
		{"zero groups", "let _ = GroupNormConfig::new(0, 6).init(&device);", "attempt-to-calculate-the-remainder-with-a-divisor",
			"attempt to calculate the remainder with a divisor of zero", "crates/burn-nn/src/modules/norm/group.rs:80"},
		{"input channels", "let gn = GroupNormConfig::new(2, 4).init(&device);\nlet _ = gn.forward(Tensor::<3>::ones([1, 6, 2], &device));", "",
			"The number of channels in the input tensor should be equal to the number of channels in the GroupNorm module. Expected 4, got 6", "crates/burn-nn/src/modules/norm/group.rs:116"},
		{"elements, not rank", "let gn = GroupNormConfig::new(1, 2).init(&device);\nlet _ = gn.forward(Tensor::<2>::ones([1, 2], &device));", "",
			"input rank for GroupNorm should be at least 3, but got 2", "crates/burn-nn/src/modules/norm/group.rs:161"},
		{"affine without gamma", "let mut n = InstanceNormConfig::new(2).init(&device);\nn.gamma = None;\nlet _ = n.forward(Tensor::<3>::ones([1, 2, 2], &device));", "",
			"Affine is set to true, but gamma or beta is None", "crates/burn-nn/src/modules/norm/group.rs:156"},
		{"rms epsilon", "let _ = RmsNormConfig::new(4).with_epsilon(0.0).init(&device);", "", "epsilon must be positive.", "crates/burn-nn/src/modules/norm/rms.rs:30"},
		{"rank-1 input", "let gn = GroupNormConfig::new(1, 2).init(&device);\nlet _ = gn.forward(Tensor::<1>::ones([4], &device));", "index-out-of-bounds-the-len-is-len-but-the-index-i",
			"index out of bounds: the len is 1 but the index is 1", "crates/burn-nn/src/modules/norm/group.rs:115"},
		{"instance norm of no channel", "let n = InstanceNormConfig::new(0).init(&device);\nlet _ = n.forward(Tensor::<3>::ones([1, 3, 2], &device));", "attempt-to-divide-by-zero",
			"attempt to divide by zero", "crates/burn-nn/src/modules/norm/group.rs:170"},
		{"lstm state shapes", "let _ = LstmState::new(Tensor::<2>::zeros([2, 3], &device), Tensor::<2>::zeros([2, 4], &device));", "assertion-left-right-failed",
			"assertion `left == right` failed\n  left: Shape { dims: [2, 3] }\n right: Shape { dims: [2, 4] }", "crates/burn-nn/src/modules/rnn/lstm/lstm_state.rs:30"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := engine.Run(engine.Request{Config: cargo, Snippet: rnnPrelude + "fn main() {\nlet device = Device::flex();\n" + c.body + "\n}\n"})
			if res.Status != engine.StatusPanicked || res.Panic == nil {
				t.Fatalf("status %s, diagnostics %+v", res.Status, res.Diagnostics)
			}
			if res.Panic.Message != c.msg || res.Panic.Location != c.loc {
				t.Errorf("panic %q at %s, want %q at %s", res.Panic.Message, res.Panic.Location, c.msg, c.loc)
			}
			if res.Panic.Code == "" || (c.code != "" && res.Panic.Code != c.code) {
				t.Errorf("code %q, want %q", res.Panic.Code, c.code)
			}
		})
	}
}
