package nn

import (
	"testing"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// TestJSONFloat writes floats as serde_json (ryu) writes them.
func TestJSONFloat(t *testing.T) {
	cases := []struct {
		v    float64
		f32  bool
		want string
	}{
		{0.5, false, "0.5"}, {1, false, "1.0"}, {0, false, "0.0"}, {-2.25, false, "-2.25"},
		{1e-5, false, "0.00001"}, {1e-6, false, "1e-6"}, {0.0001, false, "0.0001"}, {1.5e-7, false, "1.5e-7"},
		{1e16, false, "1e16"}, {123456789, false, "123456789.0"}, {1e15, false, "1000000000000000.0"},
		{0.1, true, "0.1"}, {0.5773502691896258, false, "0.5773502691896258"},
	}
	for _, c := range cases {
		if got := JSONFloat(c.v, c.f32); got != c.want {
			t.Errorf("JSONFloat(%v, %v) = %q, want %q", c.v, c.f32, got, c.want)
		}
	}
}

// TestJSONValues serializes values as serde's derives do: externally
// tagged variants, None as null, pretty arrays and objects.
func TestJSONValues(t *testing.T) {
	cases := []struct {
		name string
		v    dispatch.Value
		want string
	}{
		{"unit variant", &dispatch.Enum{Type: "LinearLayout", Variant: "Row"}, `"Row"`},
		{"struct variant", &dispatch.Enum{Type: "Initializer", Variant: "Normal", Named: map[string]dispatch.Value{
			"mean": dispatch.Float{V: 0}, "std": dispatch.Float{V: 1}}}, "{\n  \"Normal\": {\n    \"mean\": 0.0,\n    \"std\": 1.0\n  }\n}"},
		{"tuple variant", &dispatch.Enum{Type: "PaddingConfig2d", Variant: "Explicit", Fields: []dispatch.Value{
			dispatch.Int{V: 1}, dispatch.Int{V: 2}}}, "{\n  \"Explicit\": [\n    1,\n    2\n  ]\n}"},
		{"None and Some", &dispatch.Array{Elems: []dispatch.Value{none(), some(dispatch.Int{V: 3})}}, "[\n  null,\n  3\n]"},
		{"empty array", &dispatch.Array{}, "[]"},
		{"escaped string", dispatch.Str("a\"b\n"), `"a\"b\n"`},
	}
	for _, c := range cases {
		got, ok := JSON(c.v, nil)
		if !ok || got != c.want {
			t.Errorf("%s: JSON = %q (%v), want %q", c.name, got, ok, c.want)
		}
	}
}
