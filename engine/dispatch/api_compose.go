package dispatch

import (
	"fmt"
	"math"

	"github.com/dispatch-playground/playground/engine/burncheck"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// Operations burn-tensor and burn-nn compose from several dispatch ops.

// catOrStack is Tensor::cat(tensors, dim) and Tensor::stack::<D2>(tensors,
// dim) (crates/burn-tensor/src/tensor/api/base.rs:2484-2560): the dim and
// shape checks, then vec_op! routing on the first element.
func (w *World) catOrStack(name string, tt tensorType, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	arr, ok := a.get(0).(*Array)
	if !ok {
		return nil, errArgType(1, "Vec<Tensor<D, K>>", a.c.Args[0]), nil
	}
	dim, ue := a.int(1)
	if ue != nil {
		return nil, ue, nil
	}
	tensors := make([]*Tensor, len(arr.Elems))
	for i, e := range arr.Elems {
		t, ok := Deref(e).(*Tensor)
		if !ok || (i > 0 && t.TypeName() != tensors[0].TypeName()) {
			return nil, errArgType(1, "Vec<Tensor<D, K>>", a.c.Args[0]), nil
		}
		tensors[i] = t
	}
	rank := tt.rank
	if len(tensors) > 0 {
		rank = tensors[0].Rank()
	} else if rank < 0 && arr.Elem != "" {
		// `let v: Vec<Tensor<2>> = vec![];` typed the empty list.
		rank = parseTensorType(nil, arr.Elem).rank
	}
	if rank < 0 {
		return nil, &UsageError{Code: "wrong-arguments", Arg: 1,
			Message: "type annotations needed for `Vec<Tensor<_, _>>`"}, nil
	}
	shapes := make([][]int64, len(tensors))
	for i, t := range tensors {
		shapes[i] = t.shape
	}
	var (
		d int
		f *burncheck.Failure
	)
	if name == "stack" {
		// stack's own turbofish is on the last path segment
		// (`Tensor::<1>::stack::<2>`).
		var own [][]string
		if n := len(a.c.Generics); n > 0 {
			own = a.c.Generics[n-1:]
		}
		rank2 := genericRank(own)
		if rank2 < 0 {
			rank2 = rank + 1
		}
		if f = burncheck.TensorStack(rank, rank2, shapes, dim); f == nil {
			d = normDim(dim, rank+1)
		}
	} else {
		d, f = burncheck.TensorCat(rank, shapes, dim)
	}
	if p := checkFailed(f); p != nil {
		return nil, nil, p
	}
	if name == "stack" {
		// Each tensor is unsqueezed at dim on its own backend, then cat.
		for i, t := range tensors {
			shape := append(append(append([]int64{}, t.shape[:d]...), 1), t.shape[d:]...)
			out, p := w.unaryOp(t, t.kind.opPrefix()+"_reshape", t.kind, shape, t.dtype)
			if p != nil {
				return nil, nil, p
			}
			w.reshapeValues(out, t)
			tensors[i] = out
		}
	}
	first := tensors[0]
	shape := append([]int64{}, first.shape...)
	shape[d] = 0
	// cat drops the tensors that are empty along dim before dispatch, and
	// returns an empty tensor on the first one's device when none is left.
	var kept []*Tensor
	for _, t := range tensors {
		shape[d] += t.shape[d]
		if t.shape[d] > 0 {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		dev := first.Device()
		sub := Call{Args: []Value{Tuple{dev, dtypeEnum(first.dtype)}}}
		return w.create("empty", tensorType{rank: len(shape), kind: first.kind}, shape, argList{c: sub}, 0)
	}
	tensors = kept
	if first.kind == KindQFloat {
		return w.qCat(tensors, d, shape)
	}
	op := first.kind.opPrefix() + "_cat"
	pl, p := routeVec(tensors)
	if p != nil {
		return nil, nil, w.failOp(op, first, p.on(1))
	}
	if p := w.prepare(pl.on); p != nil {
		return nil, nil, p
	}
	out := w.output(pl, first.kind, shape, first.dtype)
	w.compute(out, tensors, func() (*tensor.Tensor, error) {
		values := make([]*tensor.Tensor, len(tensors))
		for i, t := range tensors {
			values[i] = t.vals()
		}
		return tensor.Cat(values, d)
	})
	w.recordOp(op, pl, out)
	return out, nil, nil
}

// oneHot is one_hot::<D2>(num_classes) (orderable.rs:279-348): burn-tensor
// checks the indices against num_classes (only where the model knows the
// values: tensors made from literal data), the class count and D2, then
// builds the output from the tensor's device as it reports it, so int
// labels on an autodiff device give a one-hot that joins the graph once
// cast to float.
func (w *World) oneHot(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	if t.kind == KindBool {
		return nil, errUnknownMethod("struct `"+t.TypeName()+"`", "one_hot"), nil
	}
	classes, ue := a.int(0)
	if ue != nil {
		return nil, ue, nil
	}
	rank2 := genericRank(a.c.Generics)
	if rank2 < 0 {
		if tt := parseTensorType(nil, a.c.Expect); tt.rank >= 0 {
			rank2 = tt.rank
		} else {
			rank2 = t.Rank() + 1
		}
	}
	known := t.literal
	if t.hasVals() {
		known = t.floatValues()
	}
	if p := checkFailed(burncheck.TensorOneHot(t.kind.String(), known, t.Rank(), rank2, classes)); p != nil {
		return nil, nil, p
	}
	d := t.Device()
	shape := append(t.Shape(), classes)
	sub := Call{Args: []Value{Int{V: 0}, Tuple{d, dtypeEnum(t.dtype)}}}
	v, ue, p := w.create("full", tensorType{rank: len(shape), kind: t.kind}, shape, argList{c: sub}, 1)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	out := v.(*Tensor)
	if out.hasVals() {
		// The budget took the output's shape when full computed the
		// off values; the one-hot values replace them.
		out.setVals(nil)
		if dt, ok := valueDType(out.dtype); ok && t.hasVals() {
			out.val, _ = tensor.OneHot(t.vals(), int(classes), dt)
		}
	}
	w.trace[len(w.trace)-1].Note = "one_hot: the output starts as full(off_value) on the tensor's device, then the on_value is scattered in"
	return out, nil, nil
}

// maxOrMinPair is max_pair and min_pair (orderable.rs:708-711, 936-939):
// not a dispatch op of their own but a lower, whose element-wise check
// runs first, and a mask_where that takes the other tensor where the mask
// holds. min_pair compares the other way round, so its check names the
// other tensor as Lhs.
func (w *World) maxOrMinPair(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	if t.kind == KindBool {
		return nil, errTraitBounds(c.Method, t), nil
	}
	o, ue := sameTensorArg(a, 0, t)
	if ue != nil {
		return nil, ue, nil
	}
	lhs, rhs := t, o
	if c.Method == "min_pair" {
		lhs, rhs = o, t
	}
	mask, ue, p := w.runRow(opTable["lower"], lhs, argList{c: Call{Args: []Value{rhs}}, method: true})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	return w.runRow(opTable["mask_where"], t, argList{c: Call{Args: []Value{mask, o}}, method: true})
}

// activation is burn::tensor::activation::* (crates/burn-tensor/src/tensor/activation/base.rs):
// relu, sigmoid, gelu, softmax, log_softmax and leaky_relu are Dispatch's
// activation ops; tanh is float_tanh; silu is x * sigmoid(x).
func (w *World) activation(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	want := 1
	if name == "softmax" || name == "log_softmax" || name == "leaky_relu" {
		want = 2
	}
	if ue := a.want(want); ue != nil {
		return nil, ue, nil
	}
	t, ue := a.tensor(0)
	if ue != nil {
		return nil, ue, nil
	}
	if t.kind != KindFloat {
		return nil, errArgType(1, fmt.Sprintf("Tensor<%d>", t.Rank()), c.Args[0]), nil
	}
	if name == "softmax" || name == "log_softmax" {
		dim, ue := a.int(1)
		if ue != nil {
			return nil, ue, nil
		}
		if _, f := burncheck.TensorDim("activation::"+name, dim, t.Rank()); f != nil {
			return nil, nil, checkFailed(f).on(2)
		}
	}
	op := name
	if name == "tanh" {
		op = "float_tanh"
	}
	if name == "silu" {
		s, p := w.unaryOp(t, "sigmoid", KindFloat, nil, t.dtype)
		if p != nil {
			return nil, nil, p
		}
		w.compute(s, []*Tensor{t}, func() (*tensor.Tensor, error) { return tensor.Unary("sigmoid", t.vals()) })
		return w.runRow(opTable["mul"], t, argList{c: Call{Args: []Value{s}}, method: true})
	}
	out, p := w.unaryOp(t, op, KindFloat, nil, t.dtype)
	if p != nil {
		return nil, nil, p
	}
	w.compute(out, []*Tensor{t}, func() (*tensor.Tensor, error) {
		switch name {
		case "softmax", "log_softmax":
			dim, _ := a.int(1)
			if name == "softmax" {
				return tensor.Softmax(t.vals(), normDim(dim, t.Rank()))
			}
			return tensor.LogSoftmax(t.vals(), normDim(dim, t.Rank()))
		case "leaky_relu":
			slope, ue := a.float(1)
			if ue != nil {
				return nil, tensor.ErrKind
			}
			return tensor.LeakyRelu(t.vals(), slope), nil
		}
		return tensor.Unary(name, t.vals())
	})
	return out, nil, nil
}

// moduleLinear is burn::tensor::module::linear(input, weight, bias)
// (crates/burn-tensor/src/tensor/module.rs:527-590). Dispatch leaves the
// ModuleOps::linear default in place (its own impl is commented out,
// crates/burn-dispatch/src/ops/module.rs:749-755), so the default of
// burn-backend runs over Dispatch's ops (backend/ops/modules/linear.rs:17-58):
// float_matmul(x, weight), then float_add(output, bias) with bias
// reshaped, both routed by binary_float! with no burn-tensor device check.
func (w *World) moduleLinear(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(3); ue != nil {
		return nil, ue, nil
	}
	x, ue := a.tensor(0)
	if ue != nil {
		return nil, ue, nil
	}
	weight, ue := a.tensor(1)
	if ue != nil {
		return nil, ue, nil
	}
	var bias *Tensor
	switch b := a.get(2).(type) {
	case *Enum:
		if b.Type == "Option" && b.Variant == "Some" && len(b.Fields) == 1 {
			bias, _ = Deref(b.Fields[0]).(*Tensor)
		}
	case *Tensor:
		bias = b
	}
	return w.linear(x, weight, bias)
}

func (w *World) linear(x, weight, bias *Tensor) (Value, *UsageError, *Panic) {
	if x.kind != KindFloat || weight.kind != KindFloat || weight.Rank() != 2 {
		return nil, &UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: linear takes float tensors and a 2-D weight"}, nil
	}
	input := x
	if x.Rank() == 1 {
		// D == 1 runs on an unsqueezed batch of one and squeezes it back.
		var p *Panic
		if input, p = w.unaryOp(x, "float_reshape", KindFloat, []int64{1, x.shape[0]}, x.dtype); p != nil {
			return nil, nil, p
		}
		w.reshapeValues(input, x)
	}
	rank := input.Rank()
	if rank > 2 {
		// unsqueeze_leading reshapes the weight to the input's rank.
		shape := append(make([]int64, rank-2), weight.shape...)
		for i := 0; i < rank-2; i++ {
			shape[i] = 1
		}
		var p *Panic
		reshaped, p := w.unaryOp(weight, "float_reshape", KindFloat, shape, weight.dtype)
		if p != nil {
			return nil, nil, p
		}
		w.reshapeValues(reshaped, weight)
		weight = reshaped
	}
	pl, p := w.routeBinaryFloat(input, weight)
	if p != nil {
		return nil, nil, w.failOp("float_matmul", input, p.on(1))
	}
	if p := w.prepare(pl.on); p != nil {
		return nil, nil, p
	}
	outShape := append(append([]int64{}, input.shape[:rank-1]...), weight.shape[len(weight.shape)-1])
	out := w.output(pl, KindFloat, outShape, input.dtype)
	w.compute(out, []*Tensor{input, weight}, func() (*tensor.Tensor, error) {
		work, ok := tensor.MatmulWork(input.shape, weight.shape)
		if !ok || !w.budget.TakeWork(work) {
			return nil, tensor.ErrBudget
		}
		return tensor.Matmul(input.vals(), weight.vals())
	})
	w.recordOp("float_matmul", pl, out)
	if bias != nil {
		shape := append(make([]int64, rank-1), bias.shape...)
		for i := range shape[:rank-1] {
			shape[i] = 1
		}
		b, p := w.unaryOp(bias, "float_reshape", KindFloat, shape, bias.dtype)
		if p != nil {
			return nil, nil, p
		}
		w.reshapeValues(b, bias)
		pl, p := w.routeBinaryFloat(out, b)
		if p != nil {
			return nil, nil, w.failOp("float_add", out, p.on(1))
		}
		sum := w.output(pl, KindFloat, outShape, out.dtype)
		product := out
		w.compute(sum, []*Tensor{product, b}, func() (*tensor.Tensor, error) { return tensor.Binary("add", product.vals(), b.vals()) })
		w.recordOp("float_add", pl, sum)
		out = sum
	}
	if x.Rank() == 1 {
		batched := out
		if out, p = w.unaryOp(batched, "float_reshape", KindFloat, batched.shape[1:], batched.dtype); p != nil {
			return nil, nil, p
		}
		w.reshapeValues(out, batched)
	}
	return out, nil, nil
}

// LinearConfig is burn-nn's LinearConfig.
type LinearConfig struct {
	dIn, dOut int64
	bias      bool
	// initializer is the Initializer given to with_initializer; nil is
	// the default, KaimingUniform with gain 1/sqrt(3).
	initializer *Enum
}

// Linear is burn-nn's Linear module: weight [d_input, d_output] and an
// optional bias [d_output], held as Params that require gradients.
type Linear struct {
	weight, bias *Tensor
}

func (*LinearConfig) TypeName() string { return "LinearConfig" }
func (*Linear) TypeName() string       { return "Linear" }

func (w *World) linearConfigFunction(name string, c Call) (Value, *UsageError, *Panic) {
	if name != "new" {
		return nil, errUnknownFunction("struct `LinearConfig`", name), nil
	}
	a := argList{c: c}
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	dIn, ue := a.int(0)
	if ue != nil {
		return nil, ue, nil
	}
	dOut, ue := a.int(1)
	if ue != nil {
		return nil, ue, nil
	}
	return &LinearConfig{dIn: dIn, dOut: dOut, bias: true}, nil, nil
}

func (w *World) linearConfigMethod(cfg *LinearConfig, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	switch c.Method {
	case "with_bias":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		b, ue := a.boolean(0)
		if ue != nil {
			return nil, ue, nil
		}
		out := *cfg
		out.bias = b
		return &out, nil, nil
	case "with_initializer":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		init, ok := a.get(0).(*Enum)
		if !ok || init.Type != "Initializer" {
			return nil, errArgType(1, "Initializer", c.Args[0]), nil
		}
		out := *cfg
		out.initializer = init
		return &out, nil, nil
	case "clone":
		return cfg, nil, nil
	case "init":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		d, ue, p := w.deviceArg(a, 0)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		// The initializer draws each Param from a uniform distribution on
		// the device and marks it as requiring gradients.
		weight, p := w.param(d, []int64{cfg.dIn, cfg.dOut}, cfg)
		if p != nil {
			return nil, nil, p.on(1)
		}
		m := &Linear{weight: weight}
		if cfg.bias {
			if m.bias, p = w.param(d, []int64{cfg.dOut}, cfg); p != nil {
				return nil, nil, p.on(1)
			}
		}
		return m, nil, nil
	}
	return nil, errUnknownMethod("struct `LinearConfig`", c.Method), nil
}

// param creates a Param tensor the way cfg's initializer does
// (crates/burn-core/src/module/initializer.rs:134-200) on the device, then
// require_grad. Both of a Linear's Params have fan_in d_input and fan_out
// d_output.
func (w *World) param(d *Device, shape []int64, cfg *LinearConfig) (*Tensor, *Panic) {
	name, fill := initialization(cfg.initializer, float64(max(cfg.dIn, 1)), float64(max(cfg.dOut, 1)))
	sub := Call{Args: []Value{fill, d}}
	v, _, p := w.create(name, tensorType{rank: len(shape), kind: KindFloat}, shape, argList{c: sub}, 1)
	if p != nil {
		return nil, p
	}
	t := v.(*Tensor)
	out, _, p := w.gradTracking(t, "require_grad", argList{c: Call{}, method: true})
	if p != nil {
		return nil, p
	}
	return out.(*Tensor), nil
}

// initialization is the creation op an Initializer runs and its fill
// value or distribution. The default is KaimingUniform with gain
// 1/sqrt(3): U(-k, k) with k = 1/sqrt(fan_in). Orthogonal, computed from
// a QR decomposition, draws as random but carries no values.
func initialization(init *Enum, fanIn, fanOut float64) (string, Value) {
	field := func(name string, fallback float64) float64 {
		if init == nil {
			return fallback
		}
		if s, ok := scalarOf(init.Named[name]); ok {
			if s.IsInt {
				return float64(s.I)
			}
			return s.F
		}
		return fallback
	}
	uniform := func(lo, hi float64) (string, Value) {
		return "random", &Enum{Type: "Distribution", Variant: "Uniform", Fields: []Value{Float{V: lo}, Float{V: hi}}}
	}
	normal := func(mean, std float64) (string, Value) {
		return "random", &Enum{Type: "Distribution", Variant: "Normal", Fields: []Value{Float{V: mean}, Float{V: std}}}
	}
	kaiming := func() float64 {
		if b, ok := Deref(init.Named["fan_out_only"]).(Bool); ok && bool(b) {
			return 1 / math.Sqrt(fanOut)
		}
		return 1 / math.Sqrt(fanIn)
	}
	xavier := math.Sqrt(2 / (fanIn + fanOut))
	if init == nil {
		k := 1 / math.Sqrt(fanIn)
		return uniform(-k, k)
	}
	switch init.Variant {
	case "Zeros":
		return "zeros", Unit{}
	case "Ones":
		return "ones", Unit{}
	case "Constant":
		return "full", Float{V: field("value", 0)}
	case "Uniform":
		return uniform(field("min", 0), field("max", 1))
	case "Normal":
		return normal(field("mean", 0), field("std", 1))
	case "KaimingUniform":
		a := math.Sqrt(3) * field("gain", 1) * kaiming()
		return uniform(-a, a)
	case "KaimingNormal":
		return normal(0, field("gain", 1)*kaiming())
	case "XavierUniform":
		a := math.Sqrt(3) * field("gain", 1) * xavier
		return uniform(-a, a)
	case "XavierNormal":
		return normal(0, field("gain", 1)*xavier)
	}
	return "random", Unit{}
}

func (w *World) linearMethod(m *Linear, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	switch c.Method {
	case "forward":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		x, ue := a.tensor(0)
		if ue != nil {
			return nil, ue, nil
		}
		return w.linear(x, m.weight, m.bias)
	case "to_device", "fork":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		d, ue, p := w.deviceArg(a, 0)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		// Module::to_device maps every Param through Tensor::to_device;
		// the Param then requires grad exactly when the moved tensor does.
		out := &Linear{}
		var err *Panic
		if out.weight, err = w.toDevice(m.weight, d); err != nil {
			return nil, nil, err.on(0).label("the Linear's weight is a float Param of the module")
		}
		if m.bias != nil {
			if out.bias, err = w.toDevice(m.bias, d); err != nil {
				return nil, nil, err.on(0)
			}
		}
		return out, nil, nil
	case "devices":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		var devices []Value
		for _, t := range []*Tensor{m.weight, m.bias} {
			if t == nil {
				continue
			}
			d := t.Device()
			seen := false
			for _, o := range devices {
				if o.(*Device).Equal(d) {
					seen = true
				}
			}
			if !seen {
				devices = append(devices, d)
			}
		}
		return &Array{Elems: devices, Vec: true}, nil, nil
	case "clone":
		return m, nil, nil
	case "no_grad":
		return m, nil, nil
	}
	return nil, errUnknownMethod("struct `Linear`", c.Method), nil
}
