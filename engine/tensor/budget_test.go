package tensor

import (
	"runtime"
	"strings"
	"testing"
)

func TestBudget(t *testing.T) {
	b := NewBudget(100, DefaultWork)
	if !b.Take(60) || !b.Take(40) || b.Used() != 100 || b.Elided() {
		t.Fatal("taking exactly the budget")
	}
	if b.Take(1) || !b.Elided() || b.Used() != 100 {
		t.Error("one element over")
	}
	if NewBudget(10, DefaultWork).Take(-1) {
		t.Error("a negative count")
	}
	if n, ok := ShapeElements([]int64{1 << 40, 1 << 40}); ok {
		t.Errorf("2^80 elements overflow: %d", n)
	}
	if n, ok := ShapeElements([]int64{1 << 40, 1 << 40, 0}); !ok || n != 0 {
		t.Error("a zero dim makes zero elements however large the others")
	}
	if !strings.Contains(NewBudget(DefaultBudget, DefaultWork).ElidedNote(), "1,000,000 elements") {
		t.Error(NewBudget(DefaultBudget, DefaultWork).ElidedNote())
	}
}

// A 10^12-element tensor in a snippet: the budget refuses it before any
// storage exists, and the run's memory stays where it was.
func TestHugeTensorCostsNoMemory(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b := NewBudget(DefaultBudget, DefaultWork)
	small := []int64{2, 3}
	huge := []int64{1_000_000, 1_000_000}
	if !b.TakeShape(small) {
		t.Fatal("a small tensor fits")
	}
	if b.TakeShape(huge) {
		t.Fatal("a 10^12-element tensor got values")
	}
	if n, ok := ShapeElements(huge); !ok || n != 1e12 {
		t.Errorf("ShapeElements = %d", n)
	}
	// Everything computed from it stays shape-only: the caller asks again
	// for each result and is refused again.
	if b.TakeShape([]int64{1_000_000, 1_000_000}) || !b.Elided() || b.Used() != 6 {
		t.Error("the budget keeps refusing")
	}
	if !b.TakeShape([]int64{10}) {
		t.Error("small tensors after the refusal still fit")
	}
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 1<<20 {
		t.Errorf("heap grew by %d bytes", grown)
	}
}

func TestWorkBudget(t *testing.T) {
	if w, ok := MatmulWork([]int64{2, 1, 3, 4}, []int64{1, 5, 4, 6}); !ok || w != 2*5*3*4*6 {
		t.Errorf("batched matmul work %d %v", w, ok)
	}
	if _, ok := MatmulWork([]int64{3, 4}, []int64{5, 6}); ok {
		t.Error("inner dims 4 and 5 do not multiply")
	}
	// Three 577x577 matrices fit the element budget, but one product
	// would do 1.9*10^8 multiply-adds.
	b := NewBudget(DefaultBudget, DefaultWork)
	square := []int64{577, 577}
	w, _ := MatmulWork(square, square)
	if !b.TakeShape(square) || !b.TakeShape(square) || !b.TakeShape(square) || b.TakeWork(w) || !b.Elided() {
		t.Errorf("577^3 = %d multiply-adds within %d", w, int64(DefaultWork))
	}
	// The backward pass of a tracked matmul pays twice the forward work.
	x, _ := Ones([]int{2, 3}, F32).RequireGrad()
	y, _ := Ones([]int{3, 4}, F32).RequireGrad()
	p, _ := Matmul(x, y)
	s, _ := Reduce("sum", p, BoolNative)
	tight := NewBudget(DefaultBudget, 2*2*3*4-1)
	if _, err := Backward(s, tight); err == nil {
		t.Error("backward within one multiply-add too few")
	}
	enough := NewBudget(DefaultBudget, 2*2*3*4)
	if _, err := Backward(s, enough); err != nil || enough.WorkUsed() != 48 {
		t.Errorf("backward work: %v, used %d", err, enough.WorkUsed())
	}
}
