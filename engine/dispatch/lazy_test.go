package dispatch

import (
	"slices"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// TestCreationValuesAreMadeWhenRead: a random parameter on the autodiff
// device keeps its values for later through require_grad and a reshape (a
// model's weights, which a batch without values never reads); the trace still
// previews them; the first operation that reads them makes them, and they
// are the values the generator drew at creation, as is the next tensor
// drawn after it.
func TestCreationValuesAreMadeWhenRead(t *testing.T) {
	w := world(t, "flex", "autodiff")
	ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
	x := mustCall(t, w, fnG("Tensor::random", []string{"2"}, dims(600, 500), enum("Distribution", "Default"), ref(ad))).(*Tensor)
	x = mustCall(t, w, method(x, "require_grad")).(*Tensor)
	if x.val != nil || x.lazy == nil {
		t.Fatalf("require_grad made the parameter's values")
	}
	flat := mustCall(t, w, method(x, "reshape", dims(300000))).(*Tensor)
	if flat.val != nil || flat.lazy == nil || x.val != nil {
		t.Fatalf("reshape made the values")
	}
	y := mustCall(t, w, fnG("Tensor::random", []string{"1"}, dims(4), enum("Distribution", "Default"), ref(ad))).(*Tensor)
	tr := w.Trace()
	preview := tr[len(tr)-3].Note

	rng := tensor.NewRNG(tensor.DefaultSeed)
	wantX, _ := tensor.Random([]int{600, 500}, tensor.F32, tensor.Distribution{Kind: tensor.DistDefault}, rng)
	wantY, _ := tensor.Random([]int{4}, tensor.F32, tensor.Distribution{Kind: tensor.DistDefault}, rng)
	if want := "values: " + wantX.Preview(tensor.PreviewElements); preview != want || !strings.HasSuffix(preview, "(300000 values)") {
		t.Errorf("the trace previews the parameter as %q, want %q", preview, want)
	}
	if !slices.Equal(y.vals().F, wantY.F) {
		t.Errorf("the tensor drawn next is %v, want %v", y.vals().F, wantY.F)
	}
	sum := mustCall(t, w, method(x, "sum")).(*Tensor)
	if x.val == nil || !slices.Equal(x.val.F, wantX.F) {
		t.Errorf("the parameter's values, made by sum, are not the ones drawn at creation")
	}
	if !sum.hasVals() {
		t.Errorf("sum has no values")
	}
	if got := flat.vals(); got == nil || !slices.Equal(got.F, wantX.F) || len(got.Shape) != 1 {
		t.Errorf("the reshaped parameter's values are not the parameter's, flattened")
	}
}
