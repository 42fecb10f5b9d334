package dispatch

import (
	"github.com/dispatch-playground/playground/engine/tensor"
)

// module::ctc_loss (crates/burn-tensor/src/tensor/module.rs:63-78): no
// check of its own; Dispatch::ctc_loss is a multi_op! on all four tensors
// (crates/burn-dispatch/src/ops/module.rs:719-731), and burn-flex runs
// burn-backend's ctc_loss_default (package tensor, ctc.go).
func (w *World) ctcLoss(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(5); ue != nil {
		return nil, ue, nil
	}
	want := []struct {
		kind Kind
		rank int
		typ  string
	}{{KindFloat, 3, "Tensor<3>"}, {KindInt, 2, "Tensor<2, Int>"}, {KindInt, 1, "Tensor<1, Int>"}, {KindInt, 1, "Tensor<1, Int>"}}
	ts := make([]*Tensor, 4)
	for i, wnt := range want {
		t, ue := a.tensor(i)
		if ue != nil {
			return nil, ue, nil
		}
		if t.kind != wnt.kind || t.Rank() != wnt.rank {
			return nil, errArgType(i+1, wnt.typ, c.Args[i]), nil
		}
		ts[i] = t
	}
	blank, ue := a.int(4)
	if ue != nil {
		return nil, ue, nil
	}
	pl, p := routeMulti([]namedInput{{name: "log_probs", t: ts[0], arg: 1}, {name: "targets", t: ts[1], arg: 2},
		{name: "input_lengths", t: ts[2], arg: 3}, {name: "target_lengths", t: ts[3], arg: 4}})
	v, ue, p := w.finish("ctc_loss", ts[0], pl, p, KindFloat, []int64{ts[0].shape[1]}, ts[0].dtype)
	return w.computed(v, ue, p, ts, func(*Tensor) (*tensor.Tensor, error) {
		work, ok := tensor.CTCWork(ts[0].shape, ts[1].shape)
		if !ok || !w.budget.TakeWork(work) || !w.budget.TakeShape([]int64{ts[0].shape[0], ts[0].shape[1], 2*ts[1].shape[1] + 1}) {
			return nil, tensor.ErrBudget
		}
		return tensor.CTCLoss(ts[0].vals(), &ts[1].vals().Data, &ts[2].vals().Data, &ts[3].vals().Data, int(blank))
	})
}
