package dispatch

// tryVecAs is Tensor::try_into_vec_as::<E>() and try_to_vec_as::<E>()
// (crates/burn-tensor/src/tensor/api/base.rs:2116-2118, 2209-2211): the
// read, the conversion to E, the values as Ok(Vec<E>). E is the
// turbofish, else the declared type, else f32 for a float tensor as
// elementDType reads it. A read the model cannot complete, or quantized
// data converted to another dtype (an Err in Burn), is left unknown.
func (w *World) tryVecAs(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	if ue := a.want(0); ue != nil {
		return nil, ue, nil
	}
	target := elementDType(t, c)
	if p := w.readData(t, readFailures["into_data"]); p != nil {
		return Unknown{}, nil, nil
	}
	if t.kind == KindQFloat {
		return Unknown{}, nil, nil
	}
	d := dataValues(t, target)
	if d == nil {
		return &Enum{Type: "Result", Variant: "Ok", Fields: []Value{Unknown{}}}, nil, nil
	}
	elems := make([]Value, d.NumElements())
	for i := range elems {
		elems[i] = elementValue(d, i)
	}
	return &Enum{Type: "Result", Variant: "Ok", Fields: []Value{&Array{Elems: elems, Vec: true}}}, nil, nil
}
