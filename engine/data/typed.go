package data

import "github.com/dispatch-playground/playground/engine/dispatch"

// A type may implement Batcher<I, O> more than once, for several outputs O
// (Burn's text-generation example batches TextGenerationItems into a
// TextGenerationBatch and, through it, a TrainingTextGenerationBatch).
// rustc picks the impl from the loader's O, which the code that consumes
// the loader fixes: burn-train's learner takes a DataLoader of its
// TrainStep's Input (burn-train/src/learner/supervised/paradigm.rs:71,
// `TrainLoader<LC> = Arc<dyn DataLoader<TrainingBackend<LC>, InputTrain<LC>>>`).

// TypedHost is the part of a host that picks a method of the program's
// by its types; the interpreter's host implements it.
type TypedHost interface {
	// CallMethodReturning is CallMethod choosing, among the program's
	// trait impls of name for recv's type, the one that returns ret
	// (a type's last path segment).
	CallMethodReturning(recv dispatch.Value, name, ret string, args []dispatch.Value) (dispatch.Value, bool, error)
	// ParamType is the type (its last path segment, an associated type
	// such as Self::Input resolved in the impl) of parameter i, self
	// left out, of the program's method name (`Trait::name` for a
	// trait's) on recv; "" when recv is not the program's or the
	// method has no such parameter.
	ParamType(recv dispatch.Value, name string, i int) string
}

// ForOutput is the same loader whose batcher is asked for batches of the
// type named out (a last path segment): the impl of Batcher<I, out> when
// the batcher's type has several. An empty out changes nothing.
func (d *DataLoader) ForOutput(out string) *DataLoader {
	if out == "" {
		return d
	}
	c := *d
	c.output = out
	return &c
}
