package burncheck

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"
)

// unreachableRows are check.rs rows of panics.tsv that no input can
// produce, with what happens instead; their cases assert the substitute.
var unreachableRows = map[string]string{
	"bt-check-squeeze-oob":  "squeeze reads tensor_dims[dim] before testing dim, so Rust's index panic comes first",
	"bt-check-range-assign": "slice_assign tests a range that Slice::to_range has already clamped to the dimension",
}

// internalRows are panics.tsv rows that follow a check! which always
// panics, or a MetadataError variant Shape::reshape never returns.
var internalRows = []string{"bt-check-reshape-unreachable", "bt-check-reshape-other", "bt-check-dim-index-unreachable"}

func TestChecksPrintBurnsMessages(t *testing.T) {
	for _, c := range checkCases {
		t.Run(c.name, func(t *testing.T) {
			f := c.run()
			if c.want == "" {
				if f != nil {
					t.Fatalf("want the check to pass, got:\n%s", f.Message)
				}
				return
			}
			if f == nil {
				t.Fatalf("want a failure, the check passed")
			}
			if f.Message != c.want {
				t.Errorf("message\n got: %q\nwant: %q", f.Message, c.want)
			}
			if !strings.HasPrefix(c.name, "bt-") {
				return
			}
			if _, dead := unreachableRows[c.name]; dead {
				if slices.Contains(f.IDs, c.name) {
					t.Errorf("row %s is unreachable in Burn but was reported", c.name)
				}
				return
			}
			if !slices.Contains(f.IDs, c.name) {
				t.Errorf("IDs %v do not name %s", f.IDs, c.name)
			}
			if f.ID != f.IDs[0] {
				t.Errorf("ID %s is not the first of %v", f.ID, f.IDs)
			}
		})
	}
}

func TestMultipleFailedConditionsAreNumberedInOrder(t *testing.T) {
	want := map[string][]string{
		"multi:narrow":    {"bt-check-narrow-len0", "bt-check-narrow-start"},
		"multi:ew":        {"bt-check-device", "bt-check-ew-shape", "bt-check-ew-shape"},
		"multi:matmul":    {"bt-check-device", "bt-check-matmul-inner"},
		"multi:stack":     {"bt-check-stack-same-rank", "bt-check-stack-empty"},
		"multi:squeeze":   {"bt-check-squeeze-zero", "bt-check-squeeze-d2"},
		"multi:creation":  {"bt-check-creation-0dim", "bt-check-creation-rank"},
		"multi:det":       {"bt-check-det-dtype", "bt-check-det-d1", "bt-check-det-d2", "bt-check-det-rank", "bt-check-det-square"},
		"multi:movedim":   {"bt-check-movedim-oob", "bt-check-movedim-dup", "bt-check-movedim-dup", "bt-check-movedim-dup"},
		"multi:cross":     {"bt-check-cross-size", "bt-check-cross-broadcast", "bt-check-cross-broadcast"},
		"multi:unsqueeze": {"bt-check-unsqueeze-dim-in", "bt-check-unsqueeze-dim-out"},
	}
	for _, c := range checkCases {
		ids, ok := want[c.name]
		if !ok {
			continue
		}
		delete(want, c.name)
		f := c.run()
		if f == nil {
			t.Fatalf("%s: the check passed", c.name)
		}
		if !slices.Equal(f.IDs, ids) {
			t.Errorf("%s: IDs %v, want %v", c.name, f.IDs, ids)
		}
		for i := range ids {
			if !strings.Contains(f.Message, "\n    "+itoa(i+1)+". ") {
				t.Errorf("%s: item %d is missing from\n%s", c.name, i+1, f.Message)
			}
		}
		if strings.Contains(f.Message, "\n    "+itoa(len(ids)+1)+". ") {
			t.Errorf("%s: more than %d items in\n%s", c.name, len(ids), f.Message)
		}
	}
	for name := range want {
		t.Errorf("no case %s", name)
	}
}

// TestEveryCheckRowHasACase reads Burn's panic table and requires a case for
// each check.rs row a user can reach.
func TestEveryCheckRowHasACase(t *testing.T) {
	file, err := os.Open("../catalog/panics.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	cases := map[string]bool{}
	for _, c := range checkCases {
		cases[c.name] = true
	}
	rows := map[string]bool{}
	scanner := bufio.NewScanner(file)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		cols := strings.Split(scanner.Text(), "\t")
		if len(cols) < 8 || cols[1] != checkFile {
			continue
		}
		id, reachable := cols[0], cols[7]
		rows[id] = true
		switch {
		case slices.Contains(internalRows, id):
			if reachable != "internal" {
				t.Errorf("%s: user_reachable is %q, this package treats it as internal", id, reachable)
			}
		case id == "bt-check-format":
			// Every case checks the envelope; TestFailureFormat checks it alone.
		case !cases[id]:
			t.Errorf("no case triggers %s (%s)", id, cols[4])
		}
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("panics.tsv has no check.rs rows")
	}
	for name := range cases {
		if strings.HasPrefix(name, "bt-") && !rows[name] {
			t.Errorf("case %s names no check.rs row of panics.tsv", name)
		}
	}
	for id := range unreachableRows {
		if !rows[id] {
			t.Errorf("unreachable row %s is not in panics.tsv", id)
		}
	}
}

func TestFailureFormat(t *testing.T) {
	var c tensorCheck
	c.register("First", "a", "no details")
	c.registerDetailed("Last", "b", "with details", "the details")
	c.registerDetailed("Last", "c", "empty details", "")
	f := c.failure()
	want := "=== Tensor Operation Error ===\n  Operation: 'Last'\n  Reason:" +
		"\n    1. no details " +
		"\n    2. with details the details " +
		"\n    3. empty details  " +
		"\n"
	if f.Message != want {
		t.Errorf("got %q\nwant %q", f.Message, want)
	}
	if f.ID != "a" || !slices.Equal(f.IDs, []string{"a", "b", "c"}) {
		t.Errorf("ID %q IDs %v", f.ID, f.IDs)
	}
	if f.Error() != f.Message {
		t.Error("Error() is not the message")
	}
	var ok tensorCheck
	if ok.failure() != nil {
		t.Error("a check without failed conditions failed")
	}
}

func TestCheckLevelFailuresLeaveTheLocationToTheCaller(t *testing.T) {
	for _, c := range checkCases {
		f := c.run()
		if f == nil {
			continue
		}
		ownLocation := c.name == "bt-check-reshape" || c.name == "bt-check-squeeze-oob"
		if ownLocation != (f.Location != "") {
			t.Errorf("%s: location %q", c.name, f.Location)
		}
	}
	if _, f := Reshape([]int64{6}, []int64{4, 2}); f.Location != "crates/burn-tensor/src/tensor/api/check.rs:1497" {
		t.Errorf("reshape location %q", f.Location)
	}
	if f := Squeeze(5, []int64{2, 3}); f.ID != IDIndexOutOfBounds || f.Location != "crates/burn-tensor/src/tensor/api/check.rs:251" {
		t.Errorf("squeeze past the rank: %+v", f)
	}
}

func TestDeviceEqualityFollowsTheKey(t *testing.T) {
	plain := Operand{Shape: []int64{2}, Device: "Device<Flex(Cpu)>"}
	tracked := Operand{Shape: []int64{2}, Device: "Device<Autodiff(Flex(Cpu))>", DeviceKey: "Device<Flex(Cpu)>"}
	if f := BinaryOpsEW("Add", plain, tracked); f != nil {
		t.Errorf("devices with one key differ:\n%s", f.Message)
	}
	tracked.DeviceKey = ""
	f := BinaryOpsEW("Add", plain, tracked)
	if f == nil || !strings.Contains(f.Message, "Rhs tensor device Device<Autodiff(Flex(Cpu))>.") {
		t.Errorf("devices with different keys: %v", f)
	}
}

func TestDimIndex(t *testing.T) {
	for _, c := range []struct {
		dim     int64
		rank    int
		want    int
		message string
	}{
		{0, 2, 0, ""},
		{-1, 2, 1, ""},
		{-2, 2, 0, ""},
		{2, 2, 0, "BoundsError: dimension 2 out of bounds: 0..2"},
		{-3, 2, 0, "BoundsError: dimension -3 out of bounds: 0..2"},
		{0, 0, 0, "BoundsError: dimension 0 out of bounds: 0..0"},
	} {
		got, f := DimIndex("Sum Dim", c.dim, c.rank)
		if c.message == "" {
			if f != nil || got != c.want {
				t.Errorf("DimIndex(%d, %d) = %d, %v", c.dim, c.rank, got, f)
			}
			continue
		}
		want := "=== Tensor Operation Error ===\n  Operation: 'Sum Dim'\n  Reason:\n    1. " + c.message + " \n"
		if f == nil || f.Message != want || f.ID != "bt-check-dim-index" {
			t.Errorf("DimIndex(%d, %d): %+v, want %q", c.dim, c.rank, f, want)
		}
	}
}

func TestReshape(t *testing.T) {
	for _, c := range []struct {
		shape, args, want []int64
		reason            string
	}{
		{[]int64{2, 3}, []int64{3, 2}, []int64{3, 2}, ""},
		{[]int64{2, 3}, []int64{-1}, []int64{6}, ""},
		{[]int64{2, 3}, []int64{0, -1}, []int64{2, 3}, ""},
		{[]int64{2, 3, 4}, []int64{0, -1, 2}, []int64{2, 6, 2}, ""},
		{[]int64{6}, []int64{4, 2}, nil, "The given shape doesn't have the same number of elements as the current shape. Current shape: [6], target shape: [4, 2]."},
		{[]int64{2, 3}, []int64{0, 4}, nil, "The given shape doesn't have the same number of elements as the current shape. Current shape: [2, 3], target shape: [2, 4]."},
		// Shape::reshape's own test expects this text.
		{[]int64{2, 4}, []int64{-1, 3}, nil, "Cannot infer a valid target shape. Current shape: [2, 4], target dimensions: [-1, 3]."},
		{[]int64{6}, []int64{-1, -1}, nil, "Repeated -1 in reshape"},
		{[]int64{6}, []int64{-2, 3}, nil, "The given shape cannot contain negative dimensions (other than -1)."},
		{[]int64{6}, []int64{2, -1, -1, -5}, nil, "Repeated -1 in reshape"},
	} {
		got, f := Reshape(c.shape, c.args)
		if c.reason == "" {
			if f != nil || !slices.Equal(got, c.want) {
				t.Errorf("Reshape(%v, %v) = %v, %v", c.shape, c.args, got, f)
			}
			continue
		}
		want := "=== Tensor Operation Error ===\n  Operation: 'Reshape'\n  Reason:\n    1. " + c.reason + " \n"
		if f == nil || f.Message != want {
			t.Errorf("Reshape(%v, %v): %+v\nwant %q", c.shape, c.args, f, want)
		}
	}
	// Inferring beside a kept zero-sized dim divides 0 by 0 in Shape::reshape.
	if _, f := Reshape([]int64{0, 3}, []int64{0, -1}); f == nil || f.ID != IDDivideByZero ||
		f.Location != "crates/cubecl-zspace/src/shape.rs:463" {
		t.Errorf("inferring from a zero-sized target: %+v", f)
	}
	// Shape::reshape's `self.dims[idx]` (cubecl-zspace shape.rs:420), where
	// the #[track_caller] chain of Index stops.
	if _, f := Reshape([]int64{2, 3}, []int64{1, 2, 0}); f == nil || f.ID != IDIndexOutOfBounds ||
		f.Message != "index out of bounds: the len is 2 but the index is 2" || f.Location != "crates/cubecl-zspace/src/shape.rs:420" {
		t.Errorf("0 past the source rank: %+v", f)
	}
}

func TestTensorDebugDependsOnlyOnTheKind(t *testing.T) {
	for kind, want := range map[string]string{
		"Int":    "Tensor { primitive: BridgeTensor { kind: Int }, _kind: PhantomData<burn_tensor::bridge::kind::Int> }",
		"Float":  "Tensor { primitive: BridgeTensor { kind: Float }, _kind: PhantomData<burn_tensor::bridge::kind::Float> }",
		"QFloat": "Tensor { primitive: BridgeTensor { kind: QFloat }, _kind: PhantomData<burn_tensor::bridge::kind::Float> }",
	} {
		if got := TensorDebug(kind); got != want {
			t.Errorf("%s: %q", kind, got)
		}
	}
}

func TestSliceArithmetic(t *testing.T) {
	for _, c := range []struct {
		slice      Slice
		size       int64
		start, end int64
		count      int64
	}{
		{RangeSlice(0, 8), 3, 0, 3, 3},
		{RangeSlice(-2, 10), 5, 3, 5, 2},
		{FullSlice(), 4, 0, 4, 4},
		{IndexSlice(-1), 4, 3, 4, 1},
		{IndexSlice(1), 4, 1, 2, 1},
		{InclusiveSlice(1, 2), 4, 1, 3, 2},
		{Slice{Start: 0, End: 5, HasEnd: true, Step: 2}, 5, 0, 5, 3},
		{Slice{Start: 0, Step: -3}, 7, 0, 7, 3},
		{RangeSlice(3, 1), 5, 3, 1, 0},
	} {
		start, end := c.slice.toRange(c.size)
		if start != c.start || end != c.end || c.slice.outputSize(c.size) != c.count {
			t.Errorf("%+v over %d: %d..%d count %d", c.slice, c.size, start, end, c.slice.outputSize(c.size))
		}
	}
}
