package diag

import (
	"reflect"
	"testing"

	"github.com/dispatch-playground/playground/engine/source"
)

func TestCloneSharesNothing(t *testing.T) {
	orig := List{{
		Code: "c", Severity: Error, Phase: Config, Message: "m", File: CargoToml,
		Range:  source.Range{Start: 1, End: 2},
		Labels: []Label{{File: CargoToml, Message: "l"}},
		Help:   []string{"h"},
		Fixes:  []Fix{{Title: "f", Edits: []Edit{{File: CargoToml, NewText: "x"}}}},
	}, {Code: "bare"}}
	copied := orig.Clone()
	if !reflect.DeepEqual(orig, copied) {
		t.Fatalf("clone differs:\n%+v\n%+v", orig, copied)
	}
	copied[0].Labels[0].Message = "changed"
	copied[0].Help[0] = "changed"
	copied[0].Fixes[0].Title = "changed"
	copied[0].Fixes[0].Edits[0].NewText = "changed"
	copied[1].Code = "changed"
	if orig[0].Labels[0].Message != "l" || orig[0].Help[0] != "h" || orig[0].Fixes[0].Title != "f" ||
		orig[0].Fixes[0].Edits[0].NewText != "x" || orig[1].Code != "bare" {
		t.Fatalf("changing the clone changed the original: %+v", orig)
	}
	if List(nil).Clone() != nil {
		t.Error("the clone of nil is not nil")
	}
}
