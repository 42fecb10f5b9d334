package dispatch

// Transaction is burn-tensor's Transaction
// (crates/burn-tensor/src/tensor/api/transaction.rs): the tensors
// registered to be read together. Dispatch routes the whole transaction by
// its first float tensor, else its first int, else its first bool
// (crates/burn-dispatch/src/ops/transaction.rs:13-16), and unwraps every
// registered tensor for that backend (transaction_op!, macros.rs:1545-1600),
// so one tensor of another backend panics as vec_op!'s inputs do. The
// backend then reads the floats, the ints and the bools, in that order
// (burn-backend/src/backend/ops/transaction.rs:46-75), and the data come
// back in the order they were registered.
type Transaction struct {
	tensors []*Tensor
}

func (*Transaction) TypeName() string { return "Transaction" }

func (w *World) transactionFunction(name string, c Call) (Value, *UsageError, *Panic) {
	if name != "default" {
		return nil, errUnknownFunction("struct `Transaction`", name), nil
	}
	if ue := (argList{c: c}).want(0); ue != nil {
		return nil, ue, nil
	}
	return &Transaction{}, nil, nil
}

func (w *World) transactionMethod(tx *Transaction, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	switch c.Method {
	case "register":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		t, ok := a.get(0).(*Tensor)
		if !ok {
			return nil, errArgType(1, "Tensor<D, K>", c.Args[0]), nil
		}
		if t.kind == KindQFloat {
			return nil, errUnsupported("Transaction::register of a quantized tensor"), nil
		}
		return &Transaction{tensors: append(append([]*Tensor(nil), tx.tensors...), t)}, nil, nil
	case "execute", "try_execute":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		data, p := w.executeTransaction(tx)
		if p != nil {
			return nil, nil, p
		}
		out := &Array{Elems: data, Vec: true}
		if c.Method == "try_execute" {
			return &Enum{Type: "Result", Variant: "Ok", Fields: []Value{out}}, nil, nil
		}
		return out, nil, nil
	}
	return nil, errUnknownMethod("`Transaction`", c.Method), nil
}

// executeTransaction routes and reads a transaction's tensors.
func (w *World) executeTransaction(tx *Transaction) ([]Value, *Panic) {
	var first *Tensor
	for _, kind := range []Kind{KindFloat, KindInt, KindBool} {
		for _, t := range tx.tensors {
			if t.kind == kind && first == nil {
				first = t
			}
		}
	}
	if first == nil {
		return nil, nil
	}
	want := first.on.backend
	for _, t := range tx.tensors {
		switch {
		case first.tracked && t.kind == KindFloat && !t.tracked:
			return nil, panicVecAutodiffPlain(want)
		case first.tracked && t.kind == KindFloat && t.on.backend != want:
			return nil, panicVecAutodiffWrongBackend(want)
		case t.on.backend != want, !first.tracked && t.tracked:
			return nil, panicVecWrongBackend(want)
		}
	}
	data := make([]Value, len(tx.tensors))
	for _, kind := range []Kind{KindFloat, KindInt, KindBool} {
		for i, t := range tx.tensors {
			if t.kind != kind {
				continue
			}
			v, ue, p := w.read(t, Call{Recv: t, Method: "into_data"})
			if p != nil {
				return nil, p
			}
			if ue != nil {
				v = Unknown{}
			}
			data[i] = v
		}
	}
	return data, nil
}
