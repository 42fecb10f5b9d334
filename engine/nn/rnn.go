package nn

import (
	"errors"
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// The recurrent modules (crates/burn-nn/src/modules/rnn): GateController,
// Lstm with LstmState, BiLstm and Gru, with their configs.

func xavierNormal() dispatch.Value {
	// `Initializer::XavierNormal{gain:1.0}` (lstm_module.rs:22, gru.rs:37).
	return &dispatch.Enum{Type: "Initializer", Variant: "XavierNormal", Named: map[string]dispatch.Value{"gain": dispatch.Float{V: 1, Suffix: "f64"}}}
}

func init() {
	sigmoid := unit("ActivationConfig", "Sigmoid")
	tanh := unit("ActivationConfig", "Tanh")
	// LstmConfig (lstm_module.rs:14).
	register(&configDesc{name: "LstmConfig", device: true, fields: []field{
		{name: "d_input", typ: "usize"}, {name: "d_hidden", typ: "usize"}, {name: "bias", typ: "bool"},
		{name: "initializer", typ: "Initializer", def: xavierNormal},
		{name: "batch_first", typ: "bool", def: boolean(true)},
		{name: "reverse", typ: "bool", def: boolean(false)},
		{name: "clip", typ: "Option<f64>"},
		{name: "input_forget", typ: "bool", def: boolean(false)},
		{name: "gate_activation", typ: "ActivationConfig", def: sigmoid},
		{name: "cell_activation", typ: "ActivationConfig", def: tanh},
		{name: "hidden_activation", typ: "ActivationConfig", def: tanh},
	}, init: initLstm})
	// BiLstmConfig (bilstm_module.rs:14).
	register(&configDesc{name: "BiLstmConfig", device: true, fields: []field{
		{name: "d_input", typ: "usize"}, {name: "d_hidden", typ: "usize"}, {name: "bias", typ: "bool"},
		{name: "initializer", typ: "Initializer", def: xavierNormal},
		{name: "batch_first", typ: "bool", def: boolean(true)},
		{name: "clip", typ: "Option<f64>"},
		{name: "input_forget", typ: "bool", def: boolean(false)},
		{name: "gate_activation", typ: "ActivationConfig", def: sigmoid},
		{name: "cell_activation", typ: "ActivationConfig", def: tanh},
		{name: "hidden_activation", typ: "ActivationConfig", def: tanh},
	}, init: initBiLstm})
	// GruConfig (gru.rs:14).
	register(&configDesc{name: "GruConfig", device: true, fields: []field{
		{name: "d_input", typ: "usize"}, {name: "d_hidden", typ: "usize"}, {name: "bias", typ: "bool"},
		{name: "reset_after", typ: "bool", def: boolean(true)},
		{name: "initializer", typ: "Initializer", def: xavierNormal},
		{name: "gate_activation", typ: "ActivationConfig", def: sigmoid},
		{name: "hidden_activation", typ: "ActivationConfig", def: tanh},
		{name: "clip", typ: "Option<f64>"},
	}, init: initGru})
}

// ops runs tensor calls one after the other, stopping at the first error
// (a panic of dispatch's, a usage error): every later call is skipped.
type ops struct {
	w   *dispatch.World
	err error
}

// m is recv.name(args); g, when set, is the method's turbofish.
func (o *ops) m(recv dispatch.Value, name string, args ...dispatch.Value) dispatch.Value {
	return o.mg(recv, name, nil, args...)
}

func (o *ops) mg(recv dispatch.Value, name string, g []string, args ...dispatch.Value) dispatch.Value {
	if o.err != nil {
		return nil
	}
	c := dispatch.Call{Recv: recv, Method: name, Args: args}
	if g != nil {
		c.Generics = [][]string{g}
	}
	v, err := o.w.Call(c)
	o.err = err
	return v
}

// fn is the free function name(args) of burn::tensor.
func (o *ops) fn(name string, args ...dispatch.Value) dispatch.Value {
	if o.err != nil {
		return nil
	}
	v, err := o.w.Call(dispatch.Call{Path: []string{name}, Args: args})
	o.err = err
	return v
}

// in runs f with the operations tagged with the submodule's path.
func (o *ops) in(name string, f func() dispatch.Value) dispatch.Value {
	if o.err != nil {
		return nil
	}
	prev := o.w.EnterModule(name)
	defer o.w.SetModule(prev)
	return f()
}

func optionOf(v dispatch.Value) (dispatch.Value, bool) {
	en, ok := dispatch.Deref(v).(*dispatch.Enum)
	if ok && en.Type == "Option" && en.Variant == "Some" && len(en.Fields) == 1 {
		return en.Fields[0], true
	}
	return nil, false
}

func urange(lo, hi int64) *dispatch.Range {
	return &dispatch.Range{Lo: &lo, Hi: &hi, Suffix: "usize"}
}

// timestep is the slice DimIter::next gives (base.rs:3114): dim 1 narrowed
// to t..t+1.
func timestep(o *ops, x *dispatch.Tensor, t int64) dispatch.Value {
	s := x.Shape()
	return o.m(x, "slice", &dispatch.Array{Elems: []dispatch.Value{urange(0, s[0]), urange(t, t+1), urange(0, s[2])}})
}

// ---- GateController (gate_controller.rs) ----

// newGate is GateController::new (gate_controller.rs:25): a Linear from
// the input and one from the hidden state, each LinearConfig::init with
// the initializer and the bias, in that order.
func newGate(w *dispatch.World, dIn, dOut int64, bias, initializer dispatch.Value, d *dispatch.Device) (*Module, error) {
	linear := func(a, b int64) (dispatch.Value, error) {
		lc, ue := newConfig(configs["LinearConfig"], []dispatch.Value{usizeVal(a), usizeVal(b)})
		if ue != nil {
			return nil, ue
		}
		return initLinear(w, lc.with("bias", bias).with("initializer", initializer), d)
	}
	in, err := linear(dIn, dOut)
	if err != nil {
		return nil, err
	}
	hidden, err := linear(dOut, dOut)
	if err != nil {
		return nil, err
	}
	return &Module{Type: "GateController", Fields: []string{"input_transform", "hidden_transform"},
		Values: map[string]dispatch.Value{"input_transform": in, "hidden_transform": hidden}}, nil
}

// gateProduct is GateController::gate_product (gate_controller.rs:61):
// input_transform.forward(input) + hidden_transform.forward(hidden).
func gateProduct(o *ops, gateName string, gate *Module, input, hidden dispatch.Value) dispatch.Value {
	return o.in(gateName, func() dispatch.Value {
		lin := func(name string, x dispatch.Value) dispatch.Value {
			return o.in(name, func() dispatch.Value {
				v, err := forwardLinear(o.w, gate.Values[name].(*Module), dispatch.Call{Args: []dispatch.Value{x}})
				o.err = err
				return v
			})
		}
		a := lin("input_transform", input)
		b := lin("hidden_transform", hidden)
		return o.m(a, "add", b)
	})
}

func activate(o *ops, name string, act dispatch.Value, x dispatch.Value) dispatch.Value {
	if o.err != nil {
		return nil
	}
	m := act.(*Module)
	return o.in(name, func() dispatch.Value {
		v, err := m.forward(o.w, m, dispatch.Call{Args: []dispatch.Value{x}})
		o.err = err
		return v
	})
}

// ---- LstmState (lstm/lstm_state.rs) ----

// LstmState is lstm_state.rs's LstmState<D>: the cell and hidden states,
// its fields public.
type LstmState struct{ Cell, Hidden *dispatch.Tensor }

func (s *LstmState) TypeName() string { return fmt.Sprintf("LstmState<%d>", s.Cell.Rank()) }

// newLstmState is LstmState::new (lstm_state.rs:28): its
// assert_eq!(cell.shape(), hidden.shape()) is compiled in debug builds.
func newLstmState(w *dispatch.World, args []dispatch.Value) (dispatch.Value, error) {
	if len(args) != 2 {
		return nil, wrongArity(2, len(args))
	}
	cell, ok1 := dispatch.Deref(args[0]).(*dispatch.Tensor)
	hidden, ok2 := dispatch.Deref(args[1]).(*dispatch.Tensor)
	if !ok1 || cell.Kind() != dispatch.KindFloat {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Tensor<D>`, found `" + args[0].TypeName() + "`"}
	}
	if !ok2 || hidden.Kind() != dispatch.KindFloat || hidden.Rank() != cell.Rank() {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 2, Message: fmt.Sprintf("mismatched types: expected `Tensor<%d>`, found `%s`", cell.Rank(), args[1].TypeName())}
	}
	if !equalDims(cell.Shape(), hidden.Shape()) {
		return nil, burnPanic("nn-lstm-state-shape", fmt.Sprintf("assertion `left == right` failed\n  left: Shape { dims: %s }\n right: Shape { dims: %s }",
			dims(cell.Shape()), dims(hidden.Shape())), "crates/burn-nn/src/modules/rnn/lstm/lstm_state.rs:30")
	}
	return &LstmState{Cell: cell, Hidden: hidden}, nil
}

func equalDims(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// lstmStateCall is LstmState's associated functions: new, initial
// (lstm_state.rs:40: zeros, the hidden state a clone of the cell) and stack
// (lstm_state.rs:118).
func lstmStateCall(w *dispatch.World, name string, c dispatch.Call) (dispatch.Value, error) {
	switch name {
	case "new":
		return newLstmState(w, c.Args)
	case "initial":
		if len(c.Args) != 2 {
			return nil, wrongArity(2, len(c.Args))
		}
		rank := "2"
		if len(c.Generics) > 0 && len(c.Generics[0]) == 1 {
			rank = c.Generics[0][0]
		} else if a, ok := dispatch.Deref(c.Args[0]).(*dispatch.Array); ok {
			rank = fmt.Sprint(len(a.Elems))
		}
		v, err := w.Call(dispatch.Call{Path: []string{"Tensor", "zeros"}, Generics: [][]string{{rank}, nil}, Args: c.Args})
		if err != nil {
			return nil, err
		}
		t := v.(*dispatch.Tensor)
		return &LstmState{Cell: t, Hidden: t}, nil
	case "stack":
		if len(c.Args) != 2 {
			return nil, wrongArity(2, len(c.Args))
		}
		arr, ok := dispatch.Deref(c.Args[0]).(*dispatch.Array)
		if !ok {
			return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Vec<LstmState<D>>`, found `" + c.Args[0].TypeName() + "`"}
		}
		cells, hiddens := &dispatch.Array{Vec: true}, &dispatch.Array{Vec: true}
		for _, e := range arr.Elems {
			s, ok := dispatch.Deref(e).(*LstmState)
			if !ok {
				return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Vec<LstmState<D>>`, found `" + c.Args[0].TypeName() + "`"}
			}
			cells.Elems = append(cells.Elems, s.Cell)
			hiddens.Elems = append(hiddens.Elems, s.Hidden)
		}
		return stackStates(w, cells, hiddens, c.Args[1], c.Generics)
	}
	return nil, &dispatch.UsageError{Code: "unknown-function", Arg: -1, Message: fmt.Sprintf(
		"no function or associated item named `%s` found for struct `LstmState` in the current scope", name)}
}

func stackStates(w *dispatch.World, cells, hiddens *dispatch.Array, dim dispatch.Value, generics [][]string) (dispatch.Value, error) {
	o := &ops{w: w}
	stack := func(a *dispatch.Array) dispatch.Value {
		if o.err != nil {
			return nil
		}
		v, err := w.Call(dispatch.Call{Path: []string{"Tensor", "stack"}, Generics: generics, Args: []dispatch.Value{a, dim}})
		o.err = err
		return v
	}
	cell := stack(cells)
	hidden := stack(hiddens)
	if o.err != nil {
		return nil, o.err
	}
	return &LstmState{Cell: cell.(*dispatch.Tensor), Hidden: hidden.(*dispatch.Tensor)}, nil
}

// lstmStateMethod is a method of LstmState (lstm_state.rs:49-142).
func lstmStateMethod(w *dispatch.World, s *LstmState, c dispatch.Call, h Host) (dispatch.Value, error) {
	both := func(name string, args ...dispatch.Value) (dispatch.Value, error) {
		o := &ops{w: w}
		var g []string
		if len(c.Generics) > 0 {
			g = c.Generics[len(c.Generics)-1]
		}
		cell := o.mg(s.Cell, name, g, args...)
		hidden := o.mg(s.Hidden, name, g, args...)
		if o.err != nil {
			return nil, o.err
		}
		ct, ok1 := cell.(*dispatch.Tensor)
		ht, ok2 := hidden.(*dispatch.Tensor)
		if !ok1 || !ok2 {
			return dispatch.Unknown{}, nil
		}
		return &LstmState{Cell: ct, Hidden: ht}, nil
	}
	switch c.Method {
	case "clone":
		return s, nil
	case "shape", "device":
		return w.Call(dispatch.Call{Recv: s.Cell, Method: c.Method})
	case "unpack":
		if len(c.Args) != 0 {
			return nil, wrongArity(0, len(c.Args))
		}
		return dispatch.Tuple{s.Cell, s.Hidden}, nil
	case "slice", "squeeze_dim", "unsqueeze_dim":
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		return both(c.Method, c.Args[0])
	case "map_state":
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		cell, err := h.Call(c.Args[0], []dispatch.Value{s.Cell})
		if err != nil {
			return nil, err
		}
		hidden, err := h.Call(c.Args[0], []dispatch.Value{s.Hidden})
		if err != nil {
			return nil, err
		}
		ct, ok1 := dispatch.Deref(cell).(*dispatch.Tensor)
		ht, ok2 := dispatch.Deref(hidden).(*dispatch.Tensor)
		if !ok1 || !ok2 {
			return dispatch.Unknown{}, nil
		}
		return &LstmState{Cell: ct, Hidden: ht}, nil
	case "chunk":
		if len(c.Args) != 2 {
			return nil, wrongArity(2, len(c.Args))
		}
		o := &ops{w: w}
		cells := o.m(s.Cell, "chunk", c.Args...)
		hiddens := o.m(s.Hidden, "chunk", c.Args...)
		if o.err != nil {
			return nil, o.err
		}
		ca, ok1 := cells.(*dispatch.Array)
		ha, ok2 := hiddens.(*dispatch.Array)
		if !ok1 || !ok2 {
			return dispatch.Unknown{}, nil
		}
		out := &dispatch.Array{Vec: true}
		for i := range min(len(ca.Elems), len(ha.Elems)) {
			out.Elems = append(out.Elems, &LstmState{Cell: ca.Elems[i].(*dispatch.Tensor), Hidden: ha.Elems[i].(*dispatch.Tensor)})
		}
		return out, nil
	}
	return nil, &dispatch.UsageError{Code: "unknown-method", Arg: -1, Message: fmt.Sprintf(
		"no method named `%s` found for struct `LstmState` in the current scope", c.Method)}
}

// ---- Lstm (lstm/lstm_module.rs) ----

var lstmGates = []string{"input_gate", "forget_gate", "output_gate", "cell_gate"}

func initLstm(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	return newLstm(w, c, c.Values["batch_first"], c.Values["reverse"], d)
}

// newLstm is LstmConfig::init (lstm_module.rs:111): four gates, each a
// GateController of d_input to d_hidden, then the activations.
func newLstm(w *dispatch.World, c *Config, batchFirst, reverse dispatch.Value, d *dispatch.Device) (*Module, error) {
	dIn, dHidden := c.intField("d_input"), c.intField("d_hidden")
	m := &Module{Type: "Lstm", Values: map[string]dispatch.Value{}}
	for _, g := range lstmGates {
		gate, err := newGate(w, dIn, dHidden, c.Values["bias"], c.Values["initializer"], d)
		if err != nil {
			return nil, err
		}
		m.Values[g] = gate
	}
	m.Values["d_hidden"], m.Values["batch_first"], m.Values["reverse"] = usizeVal(dHidden), batchFirst, reverse
	m.Values["clip"], m.Values["input_forget"] = c.Values["clip"], c.Values["input_forget"]
	for _, a := range []string{"gate_activation", "cell_activation", "hidden_activation"} {
		act, err := activationModule(c.Values[a])
		if err != nil {
			return nil, err
		}
		m.Values[a] = act
	}
	m.Fields = append(append([]string(nil), lstmGates...), "d_hidden", "batch_first", "reverse", "clip", "input_forget",
		"gate_activation", "cell_activation", "hidden_activation")
	m.content = rnnContent("input_gate", false)
	m.forward, m.arity = forwardLstm, 2
	return m, nil
}

// rnnContent is the custom_content of Lstm (lstm_module.rs:97), BiLstm
// (bilstm_module.rs:70) and Gru (gru.rs:86): the first gate's input
// transform gives d_input (its shape, without initializing it) and bias.
func rnnContent(gate string, resetAfter bool) func(*dispatch.World, *Module) ([]attr, error) {
	return func(_ *dispatch.World, m *Module) ([]attr, error) {
		inner := m
		if f, ok := m.Values["forward"].(*Module); ok {
			inner = f
		}
		lin := inner.Values[gate].(*Module).Values["input_transform"].(*Module)
		out := []attr{{"d_input", fmt.Sprint(lin.param("weight").shape[0])},
			{"d_hidden", fmt.Sprint(int64(num(m.Values["d_hidden"])))},
			{"bias", fmt.Sprint(lin.param("bias") != nil)}}
		if resetAfter {
			out = append(out, attr{"reset_after", fmt.Sprint(bool(m.Values["reset_after"].(dispatch.Bool)))})
		}
		return out, nil
	}
}

// errUnknownArg is a state the engine does not know (Some of a value an
// earlier panic or a boundary left unknown): the forward's result is
// unknown too.
var errUnknownArg = errors.New("unknown state")

// stateArg reads forward's Option<LstmState<rank>>.
func stateArg(v dispatch.Value, rank int) (*LstmState, error) {
	en, ok := dispatch.Deref(v).(*dispatch.Enum)
	if ok && en.Type == "Option" && en.Variant == "None" {
		return nil, nil
	}
	if inner, ok := optionOf(v); ok {
		if s, ok := dispatch.Deref(inner).(*LstmState); ok && s.Cell.Rank() == rank {
			return s, nil
		}
		if _, ok := dispatch.Deref(inner).(dispatch.Unknown); ok {
			return nil, errUnknownArg
		}
	}
	return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 2, Message: fmt.Sprintf(
		"mismatched types: expected `Option<LstmState<%d>>`, found `%s`", rank, v.TypeName())}
}

// forwardLstm is Lstm::forward (lstm_module.rs:159): the input made
// batch-first, its timesteps in order (or reversed), forward_iter, and the
// output back to the input's layout; it returns (output, state).
func forwardLstm(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	x, err := tensorArg(c.Args[0], 3, 1, "Tensor<3>")
	if err != nil {
		return nil, err
	}
	state, err := stateArg(c.Args[1], 2)
	if err == errUnknownArg {
		return dispatch.Unknown{}, nil
	}
	if err != nil {
		return nil, err
	}
	o := &ops{w: w}
	batchFirst := bool(m.Values["batch_first"].(dispatch.Bool))
	var in dispatch.Value = x
	if !batchFirst {
		in = o.m(x, "swap_dims", usizeVal(0), usizeVal(1))
	}
	if o.err != nil {
		return nil, o.err
	}
	xt := in.(*dispatch.Tensor)
	seq := xt.Shape()[1]
	order := make([]int64, seq)
	for i := range order {
		order[i] = int64(i)
		if bool(m.Values["reverse"].(dispatch.Bool)) {
			order[i] = seq - 1 - int64(i)
		}
	}
	out, st, err := lstmIter(w, m, xt, order, state)
	if err != nil {
		return nil, err
	}
	if !batchFirst {
		if out, err = method(w, out, "swap_dims", usizeVal(0), usizeVal(1)); err != nil {
			return nil, err
		}
	}
	return dispatch.Tuple{out, st}, nil
}

// lstmIter is Lstm::forward_iter (lstm_module.rs:212) over the timesteps
// of x (batch-first) in the given order, each sliced when the loop takes
// it, as DimIter does.
func lstmIter(w *dispatch.World, m *Module, x *dispatch.Tensor, order []int64, state *LstmState) (dispatch.Value, *LstmState, error) {
	o := &ops{w: w}
	s := x.Shape()
	batch, seq := s[0], s[1]
	dHidden := int64(num(m.Values["d_hidden"]))
	dev := deviceRef(x.Device())
	outT, err := tensorFn(w, 3, "empty", ints(batch, seq, dHidden), dev)
	if err != nil {
		return nil, nil, err
	}
	var out dispatch.Value = outT
	var cell, hidden dispatch.Value
	if state != nil {
		cell, hidden = state.Cell, state.Hidden
	} else {
		// unwrap_or_initial: LstmState::initial (lstm_state.rs:44).
		z, err := tensorFn(w, 2, "zeros", ints(batch, dHidden), dev)
		if err != nil {
			return nil, nil, err
		}
		cell, hidden = z, z
	}
	gate := func(name string) *Module { return m.Values[name].(*Module) }
	inputForget := bool(m.Values["input_forget"].(dispatch.Bool))
	clip, hasClip := optionOf(m.Values["clip"])
	for _, t := range order {
		in := o.mg(timestep(o, x, t), "squeeze_dim", []string{"2"}, usizeVal(1))
		iv := activate(o, "gate_activation", m.Values["gate_activation"], gateProduct(o, "input_gate", gate("input_gate"), in, hidden))
		var fv dispatch.Value
		if inputForget {
			fv = o.m(o.m(iv, "neg"), "add_scalar", dispatch.Float{V: 1})
		} else {
			fv = activate(o, "gate_activation", m.Values["gate_activation"], gateProduct(o, "forget_gate", gate("forget_gate"), in, hidden))
		}
		ov := activate(o, "gate_activation", m.Values["gate_activation"], gateProduct(o, "output_gate", gate("output_gate"), in, hidden))
		cv := activate(o, "cell_activation", m.Values["cell_activation"], gateProduct(o, "cell_gate", gate("cell_gate"), in, hidden))
		a := o.m(fv, "mul", cell)
		b := o.m(iv, "mul", cv)
		cell = o.m(a, "add", b)
		if hasClip {
			cl := num(clip)
			cell = o.m(cell, "clamp", dispatch.Float{V: -cl}, dispatch.Float{V: cl})
		}
		hidden = o.m(ov, "mul", activate(o, "hidden_activation", m.Values["hidden_activation"], cell))
		// slice_assign(s![.., t, ..], hidden.unsqueeze_dim(1)).
		out = o.m(out, "slice_assign", &dispatch.Array{Elems: []dispatch.Value{urange(0, batch), urange(t, t+1), urange(0, dHidden)}},
			o.mg(hidden, "unsqueeze_dim", []string{"3"}, usizeVal(1)))
		if err := o.err; err != nil {
			return nil, nil, err
		}
	}
	st, err := newLstmState(w, []dispatch.Value{cell, hidden})
	if err != nil {
		return nil, nil, err
	}
	return out, st.(*LstmState), nil
}

// ---- BiLstm (lstm/bilstm_module.rs) ----

// initBiLstm is BiLstmConfig::init (bilstm_module.rs:90): two Lstms of
// one base config, batch-first, forward first.
func initBiLstm(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	fwd, err := newLstm(w, c, dispatch.Bool(true), dispatch.Bool(false), d)
	if err != nil {
		return nil, err
	}
	rev, err := newLstm(w, c, dispatch.Bool(true), dispatch.Bool(false), d)
	if err != nil {
		return nil, err
	}
	m := &Module{Type: "BiLstm", Fields: []string{"forward", "reverse", "d_hidden", "batch_first"},
		Values: map[string]dispatch.Value{"forward": fwd, "reverse": rev, "d_hidden": c.Values["d_hidden"], "batch_first": c.Values["batch_first"]}}
	m.content = rnnContent("input_gate", false)
	m.forward, m.arity = forwardBiLstm, 2
	return m, nil
}

// forwardBiLstm is BiLstm::forward (bilstm_module.rs:128): each
// direction's state sliced out of the [2, batch, hidden] state, the
// forward Lstm, the reverse one over the timesteps from the last, their
// outputs cat on dim 2 and the states stacked.
func forwardBiLstm(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	x, err := tensorArg(c.Args[0], 3, 1, "Tensor<3>")
	if err != nil {
		return nil, err
	}
	state, err := stateArg(c.Args[1], 3)
	if err == errUnknownArg {
		return dispatch.Unknown{}, nil
	}
	if err != nil {
		return nil, err
	}
	o := &ops{w: w}
	batchFirst := bool(m.Values["batch_first"].(dispatch.Bool))
	var in dispatch.Value = x
	if !batchFirst {
		in = o.m(x, "swap_dims", usizeVal(0), usizeVal(1))
	}
	var fwdState, revState *LstmState
	if state != nil {
		pick := func(i int64) *LstmState {
			v, err := lstmStateMethod(w, state, dispatch.Call{Method: "slice", Args: []dispatch.Value{&dispatch.Array{Elems: []dispatch.Value{urange(i, i+1)}}}}, nil)
			if err == nil {
				v, err = lstmStateMethod(w, v.(*LstmState), dispatch.Call{Method: "squeeze_dim", Generics: [][]string{{"2"}}, Args: []dispatch.Value{usizeVal(0)}}, nil)
			}
			if err != nil {
				o.err = err
				return nil
			}
			s, _ := v.(*LstmState)
			return s
		}
		if o.err == nil {
			fwdState = pick(0)
		}
		if o.err == nil {
			revState = pick(1)
		}
	}
	if o.err != nil {
		return nil, o.err
	}
	xt := in.(*dispatch.Tensor)
	seq := xt.Shape()[1]
	fwdOrder, revOrder := make([]int64, seq), make([]int64, seq)
	for i := range fwdOrder {
		fwdOrder[i], revOrder[i] = int64(i), seq-1-int64(i)
	}
	var hf, hr dispatch.Value
	var sf, sr *LstmState
	func() {
		prev := w.EnterModule("forward")
		defer w.SetModule(prev)
		hf, sf, err = lstmIter(w, m.Values["forward"].(*Module), xt, fwdOrder, fwdState)
	}()
	if err != nil {
		return nil, err
	}
	func() {
		prev := w.EnterModule("reverse")
		defer w.SetModule(prev)
		hr, sr, err = lstmIter(w, m.Values["reverse"].(*Module), xt, revOrder, revState)
	}()
	if err != nil {
		return nil, err
	}
	out, err := w.Call(dispatch.Call{Path: []string{"Tensor", "cat"}, Args: []dispatch.Value{&dispatch.Array{Vec: true, Elems: []dispatch.Value{hf, hr}}, usizeVal(2)}})
	if err != nil {
		return nil, err
	}
	if !batchFirst {
		if out, err = method(w, out, "swap_dims", usizeVal(0), usizeVal(1)); err != nil {
			return nil, err
		}
	}
	st, err := stackStates(w, &dispatch.Array{Vec: true, Elems: []dispatch.Value{sf.Cell, sr.Cell}},
		&dispatch.Array{Vec: true, Elems: []dispatch.Value{sf.Hidden, sr.Hidden}}, usizeVal(0), [][]string{nil, {"3"}})
	if err != nil {
		return nil, err
	}
	return dispatch.Tuple{out, st}, nil
}

// ---- Gru (gru.rs) ----

// initGru is GruConfig::init (gru.rs:101): the update, reset and new
// gates, each a GateController of d_input to d_hidden.
func initGru(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	dIn, dHidden := c.intField("d_input"), c.intField("d_hidden")
	m := &Module{Type: "Gru", Values: map[string]dispatch.Value{}}
	for _, g := range []string{"update_gate", "reset_gate", "new_gate"} {
		gate, err := newGate(w, dIn, dHidden, c.Values["bias"], c.Values["initializer"], d)
		if err != nil {
			return nil, err
		}
		m.Values[g] = gate
	}
	m.Values["d_hidden"], m.Values["reset_after"] = usizeVal(dHidden), c.Values["reset_after"]
	for _, a := range []string{"gate_activation", "hidden_activation"} {
		act, err := activationModule(c.Values[a])
		if err != nil {
			return nil, err
		}
		m.Values[a] = act
	}
	m.Values["clip"] = c.Values["clip"]
	m.Fields = []string{"update_gate", "reset_gate", "new_gate", "d_hidden", "reset_after", "gate_activation", "hidden_activation", "clip"}
	m.content = rnnContent("update_gate", true)
	m.forward, m.arity = forwardGru, 2
	return m, nil
}

// gruGateProduct is Gru::gate_product (gru.rs:247): input @ W_x + b_x,
// hidden @ W_h + b_h, the reset applied to the hidden part when given.
func gruGateProduct(o *ops, name string, gate *Module, input, hidden, reset dispatch.Value) dispatch.Value {
	return o.in(name, func() dispatch.Value {
		in := gate.Values["input_transform"].(*Module)
		hid := gate.Values["hidden_transform"].(*Module)
		val := func(p *Param) dispatch.Value {
			if o.err != nil {
				return nil
			}
			t, err := p.Val(o.w)
			o.err = err
			return t
		}
		ip := o.m(input, "matmul", val(in.param("weight")))
		hp := o.m(hidden, "matmul", val(hid.param("weight")))
		if b := in.param("bias"); b != nil {
			ip = o.m(ip, "add", o.mg(val(b), "unsqueeze", []string{"2"}))
		}
		if b := hid.param("bias"); b != nil {
			hp = o.m(hp, "add", o.mg(val(b), "unsqueeze", []string{"2"}))
		}
		if reset != nil {
			return o.m(ip, "add", o.m(reset, "mul", hp))
		}
		return o.m(ip, "add", hp)
	})
}

// forwardGru is Gru::forward (gru.rs:150) and forward_iter (gru.rs:178):
// it returns the hidden states of every timestep.
func forwardGru(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	x, err := tensorArg(c.Args[0], 3, 1, "Tensor<3>")
	if err != nil {
		return nil, err
	}
	var hidden dispatch.Value
	if s, ok := optionOf(c.Args[1]); ok {
		if _, ok := dispatch.Deref(s).(dispatch.Unknown); ok {
			return dispatch.Unknown{}, nil
		}
		t, err := tensorArg(s, 2, 2, "Tensor<2>")
		if err != nil {
			return nil, err
		}
		hidden = t
	} else if en, ok := dispatch.Deref(c.Args[1]).(*dispatch.Enum); !ok || en.Type != "Option" {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 2, Message: "mismatched types: expected `Option<Tensor<2>>`, found `" + c.Args[1].TypeName() + "`"}
	}
	s := x.Shape()
	batch, seq := s[0], s[1]
	dHidden := int64(num(m.Values["d_hidden"]))
	dev := deviceRef(x.Device())
	outT, err := tensorFn(w, 3, "empty", ints(batch, seq, dHidden), dev)
	if err != nil {
		return nil, err
	}
	if hidden == nil {
		z, err := tensorFn(w, 2, "zeros", ints(batch, dHidden), dev)
		if err != nil {
			return nil, err
		}
		hidden = z
	}
	o := &ops{w: w}
	var out dispatch.Value = outT
	gate := func(name string) *Module { return m.Values[name].(*Module) }
	resetAfter := bool(m.Values["reset_after"].(dispatch.Bool))
	clip, hasClip := optionOf(m.Values["clip"])
	for t := range seq {
		in := o.mg(timestep(o, x, t), "squeeze_dim", []string{"2"}, usizeVal(1))
		uv := activate(o, "gate_activation", m.Values["gate_activation"], gruGateProduct(o, "update_gate", gate("update_gate"), in, hidden, nil))
		rv := activate(o, "gate_activation", m.Values["gate_activation"], gruGateProduct(o, "reset_gate", gate("reset_gate"), in, hidden, nil))
		var ng dispatch.Value
		if resetAfter {
			ng = gruGateProduct(o, "new_gate", gate("new_gate"), in, hidden, rv)
		} else {
			ng = gruGateProduct(o, "new_gate", gate("new_gate"), in, o.m(hidden, "mul", rv), nil)
		}
		cand := activate(o, "hidden_activation", m.Values["hidden_activation"], ng)
		oneMinusZ := o.m(o.m(uv, "neg"), "add_scalar", dispatch.Float{V: 1})
		a := o.m(cand, "mul", oneMinusZ)
		b := o.m(uv, "mul", hidden)
		hidden = o.m(a, "add", b)
		if hasClip {
			cl := num(clip)
			hidden = o.m(hidden, "clamp", dispatch.Float{V: -cl}, dispatch.Float{V: cl})
		}
		u := o.mg(hidden, "unsqueeze_dim", []string{"3"}, usizeVal(1))
		out = o.m(out, "slice_assign", &dispatch.Array{Elems: []dispatch.Value{urange(0, batch), urange(t, t+1), urange(0, dHidden)}}, u)
		if o.err != nil {
			return nil, o.err
		}
	}
	return out, nil
}
