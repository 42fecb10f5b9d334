package interp

import (
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// shapedUnknowns reports an argument of Tensor::from_floats, from_ints,
// from_bools or from_data that is an array nested as deep as the tensor's
// rank (its turbofish or the declared type) with every element at that
// depth a number, a bool or unknown: rustc typed those elements as the
// tensor's scalars, so the array's shape is known even when some values
// are not (a sequence of `rand` samples, modern-lstm's batcher). The tensor
// made from it has that shape and no values, as a dataset's image from
// outside does (data.KnownShape).
func shapedUnknowns(call dispatch.Call, arg dispatch.Value) bool {
	n := len(call.Path)
	if n < 2 || call.Path[n-2] != "Tensor" {
		return false
	}
	switch call.Path[n-1] {
	case "from_floats", "from_ints", "from_bools", "from_data":
	default:
		return false
	}
	rank := -1
	if len(call.Generics) > 0 && len(call.Generics[0]) > 0 {
		rank, _ = atoi(call.Generics[0][0])
	} else if inner, ok := strings.CutPrefix(strings.TrimSpace(call.Expect), "Tensor<"); ok {
		first, _, _ := strings.Cut(strings.TrimSuffix(inner, ">"), ",")
		rank, _ = atoi(first)
	}
	if rank < 1 {
		return false
	}
	_, ok := uniformScalars(arg, rank)
	return ok
}

func atoi(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil
}

// uniformScalars is the length of v when v is an array nested depth deep,
// every sub-array of one length at each depth, and its innermost elements
// scalars or unknown.
func uniformScalars(v dispatch.Value, depth int) (int, bool) {
	arr, ok := dispatch.Deref(v).(*dispatch.Array)
	if !ok || len(arr.Elems) == 0 {
		return 0, false
	}
	if depth == 1 {
		for _, e := range arr.Elems {
			switch dispatch.Deref(e).(type) {
			case dispatch.Float, dispatch.Int, dispatch.Bool, dispatch.Unknown:
			default:
				return 0, false
			}
		}
		return len(arr.Elems), true
	}
	inner := -1
	for _, e := range arr.Elems {
		n, ok := uniformScalars(e, depth-1)
		if !ok || inner >= 0 && n != inner {
			return 0, false
		}
		inner = n
	}
	return len(arr.Elems), true
}
