package similar

import "testing"

func TestName(t *testing.T) {
	candidates := []string{"cuda", "cpu", "wgpu", "webgpu", "ndarray"}
	tests := map[string]string{
		"cudaa": "cuda", "CUDA": "cuda", "cdua": "cuda", "wpgu": "wgpu", "ndarry": "ndarray",
		"quantum": "", "x": "", "cuda": "",
	}
	for name, want := range tests {
		got, ok := Name(name, candidates)
		if got != want || ok != (want != "") {
			t.Errorf("Name(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
}
