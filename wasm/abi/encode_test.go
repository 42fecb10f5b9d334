package abi_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
	"github.com/dispatch-playground/playground/wasm/abi"
)

// sameAsMarshal fails unless Encode gives json.Marshal's bytes for res.
func sameAsMarshal(t *testing.T, res engine.Result) {
	t.Helper()
	want, werr := json.Marshal(res)
	got, gerr := abi.Encode(res)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("json.Marshal error %v, Encode error %v", werr, gerr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Encode differs from json.Marshal\nEncode %s\nMarshal %s", got, want)
	}
}

func TestEncodeMatchesMarshalOnExamples(t *testing.T) {
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			sameAsMarshal(t, engine.Run(engine.Request{Config: ex.Config, Snippet: ex.Snippet}))
			if ex.HasFix {
				sameAsMarshal(t, engine.Run(engine.Request{Config: ex.FixedConfig, Snippet: ex.FixedSnippet}))
			}
		})
	}
}

// awkward holds every kind of byte sequence encoding/json escapes.
const awkward = "plain ascii, then \"quotes\" \\ back\\slash </script> & \b\f\n\r\t\x00\x01\x1f\x7f " +
	"é ü 漢字 🦀 \u2028 \u2029 \xff\xfe broken \xe2\x80 cut \xed\xa0\x80 surrogate, long enough to take the eight-byte path"

func TestEncodeMatchesMarshalOnAwkwardText(t *testing.T) {
	for _, s := range []string{"", "a", awkward, awkward[:7], awkward[:9], awkward[3:], "12345678", "1234567\"", "\u2028"} {
		res := engine.Result{Status: s, Output: s, Engine: engine.EngineInfo{Version: s, Burn: s}}
		sameAsMarshal(t, res)
	}
}

func TestEncodeNullsAndEmpties(t *testing.T) {
	sameAsMarshal(t, engine.Result{})
	sameAsMarshal(t, engine.Result{Diagnostics: []engine.Diagnostic{}, Trace: []engine.TraceEntry{}, Tests: []engine.TestResult{}})
	sameAsMarshal(t, engine.Result{Tests: []engine.TestResult{{}, {Panic: &engine.Panic{}, ShouldPanic: true}}})
	sameAsMarshal(t, engine.Result{
		Diagnostics: []engine.Diagnostic{{}, {Labels: []engine.Label{}, Help: []string{}, Fixes: []engine.Fix{{}, {Edits: []engine.Edit{}}}}},
		Trace:       []engine.TraceEntry{{}, {Shape: []int64{}}, {Shape: []int64{-1, 0, 1 << 40}, Autodiff: true, Note: "n"}, {Module: "model.blocks.0"}},
	})
}

func TestEncodeCompactsAndEscapesRecords(t *testing.T) {
	for _, raw := range []string{
		`null`, `{}`, `[]`, `"x"`, `1.5e3`, `true`,
		` { "a" : [ 1 , 2 ] ,` + "\n\t\r" + `"b":"x < y && z > 0 \u003c \" \\ \u2028 ` + "\u2028 \u2029 é" + `" } `,
		`{"sourceCode":"Tensor::<2>::ones(&device)","tags":["a","b"],"n":null,"deep":{"x":[{"y":"  spaced  "}]}}`,
		`"` + "\xe2\x80\xa8" + `"`,
		`"ends with \\"`,
		`"12345678<"`,
	} {
		if !json.Valid([]byte(raw)) {
			t.Fatalf("bad test input %q", raw)
		}
		sameAsMarshal(t, engine.Result{Diagnostics: []engine.Diagnostic{{Record: json.RawMessage(raw)}}})
	}
	if _, err := abi.Encode(engine.Result{Diagnostics: []engine.Diagnostic{{Record: json.RawMessage{}}}}); err == nil {
		t.Error("an empty record was encoded")
	}
}

// TestEncodeCoversEveryField fills every field of a Result, however deep,
// with a value that is not the zero value, so that a field added to the
// contract and not to the encoder fails here.
func TestEncodeCoversEveryField(t *testing.T) {
	var res engine.Result
	fill(reflect.ValueOf(&res).Elem(), 0)
	sameAsMarshal(t, res)
}

func fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("s<" + v.Type().Name() + ">")
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(7 + depth))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte(`{"filled": [1, "<&>"]}`))
			return
		}
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), depth+1)
		}
		v.Set(s)
	default:
		panic("fill: no value for kind " + v.Kind().String() + "; teach fill and Encode the new field")
	}
}

func FuzzEncode(f *testing.F) {
	f.Add("ok", awkward, `{"a":"<b>"}`, int64(3))
	f.Add("", "\xff", ` [ 1 , "\u2028" ] `, int64(-1))
	f.Fuzz(func(t *testing.T, status, text, record string, n int64) {
		raw := json.RawMessage(record)
		if !json.Valid(raw) {
			raw = nil
		}
		res := engine.Result{
			Status: status, Output: text,
			Diagnostics: []engine.Diagnostic{{Code: text, Message: text, Record: raw, Help: []string{text},
				Labels: []engine.Label{{Message: status}}, Fixes: []engine.Fix{{Title: text, Edits: []engine.Edit{{NewText: text}}}}}},
			Trace: []engine.TraceEntry{{Op: status, Note: text, Shape: []int64{n}}},
			Tests: []engine.TestResult{{Name: status, Output: text, Panic: &engine.Panic{Rendered: text}}},
		}
		sameAsMarshal(t, res)
	})
}

// BenchmarkEncode compares the encoder with json.Marshal on a typical
// Result (two diagnostics with their catalog records) and on the largest
// one among the examples (64 KiB of printed output).
func BenchmarkEncode(b *testing.B) {
	typical, _ := examples.ByName("wrong-device-add")
	results := map[string]engine.Result{"wrong-device-add": engine.Run(engine.Request{Config: typical.Config, Snippet: typical.Snippet})}
	size := 0
	for _, ex := range examples.All() {
		res := engine.Run(engine.Request{Config: ex.Config, Snippet: ex.Snippet})
		if out, _ := json.Marshal(res); len(out) > size {
			size = len(out)
			results["largest"] = res
		}
	}
	for _, name := range []string{"wrong-device-add", "largest"} {
		res := results[name]
		out, _ := json.Marshal(res)
		b.Run("ex="+name+"/with=Encode", func(b *testing.B) {
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				if _, err := abi.Encode(res); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("ex="+name+"/with=json.Marshal", func(b *testing.B) {
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				if _, err := json.Marshal(res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
