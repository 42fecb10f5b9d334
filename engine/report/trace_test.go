package report_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/report"
	"github.com/dispatch-playground/playground/engine/source"
)

func at(line, column int) source.Span {
	return source.Span{Start: source.Pos{Line: line, Column: column}, End: source.Pos{Line: line, Column: column + 1}}
}

func TestTraceListingGroupsConsecutiveModules(t *testing.T) {
	trace := []engine.TraceEntry{
		{Op: "float_ones", Device: "Flex(Cpu)", Kind: "Float", Shape: []int64{2, 4}, Span: at(9, 13)},
		{Op: "float_matmul", Device: "Flex(Cpu)", Kind: "Float", Shape: []int64{2, 3}, Span: at(4, 17), Module: "model.input"},
		{Op: "float_add", Device: "Flex(Cpu)", Kind: "Float", Shape: []int64{2, 3}, Span: at(4, 17), Module: "model.input", Autodiff: true},
		{Op: "float_exp", Device: "Flex(Cpu)", Kind: "Float", Shape: []int64{2, 3}, Span: at(5, 9), Module: "model", Note: "values: [1.0]"},
		{Op: "float_sum", Device: "Flex(Cpu)", Kind: "Float", Shape: []int64{1}, Span: at(10, 13)},
		{Op: "float_add", Device: "Cuda(0)", Kind: "Float", Shape: []int64{2, 3}, Span: at(11, 5), File: "src/model.rs", Module: "model.input"},
	}
	got := report.TraceListing(trace)
	want := "" +
		"  1  float_ones    Flex(Cpu)  Float [2, 4]  main.rs:9:13\n" +
		"  model.input: 2 operations\n" +
		"    2  float_matmul  Flex(Cpu)  Float [2, 3]  main.rs:4:17\n" +
		"    3  float_add     Flex(Cpu)  Float [2, 3]  main.rs:4:17       autodiff\n" +
		"  model: 1 operation\n" +
		"    4  float_exp     Flex(Cpu)  Float [2, 3]  main.rs:5:9        (values: [1.0])\n" +
		"  5  float_sum     Flex(Cpu)  Float [1]     main.rs:10:13\n" +
		"  model.input: 1 operation\n" +
		"    6  float_add     Cuda(0)    Float [2, 3]  src/model.rs:11:5\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if report.TraceListing(nil) != "" {
		t.Errorf("an empty trace lists something: %q", report.TraceListing(nil))
	}
}

func TestTextWithTraceListsUnderTheSummary(t *testing.T) {
	res := engine.Result{Status: engine.StatusOK, Complete: true, Trace: []engine.TraceEntry{
		{Op: "float_ones", Device: "Cpu", Kind: "Float", Shape: []int64{2}, Span: at(1, 1), Module: "model"},
	}}
	got := report.TextWithTrace(res, nil)
	want := "trace: 1 operation on 1 device (Cpu: 1), 0 transfers\n" +
		"  model: 1 operation\n" +
		"    1  float_ones  Cpu  Float [2]  main.rs:1:1\n" +
		"status: ok\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if plain := report.Text(res, nil); strings.Contains(plain, "float_ones") {
		t.Errorf("Text lists the trace:\n%s", plain)
	}
}
