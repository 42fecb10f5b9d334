package ui

import "testing"

func TestPanicViewShowsWhyARejectedProgramDidNotRun(t *testing.T) {
	cases := []struct {
		phase  string
		mode   Mode
		status string
		want   bool
	}{
		{"check", ModePanic, "panicked", false},
		{"check", ModePanic, "rejected", true},
		{"check", ModeValidation, "panicked", true},
		{"run", ModePanic, "panicked", true},
		{"run", ModeValidation, "panicked", false},
		{"config", ModePanic, "rejected", true},
		{"parse", ModeValidation, "rejected", true},
	}
	for _, c := range cases {
		if got := shown(c.phase, c.mode, c.status); got != c.want {
			t.Errorf("shown(%s, %s, %s) = %t, want %t", c.phase, c.mode, c.status, got, c.want)
		}
	}
}

func TestThePanicCardLinksBurnAtTheModelledCommit(t *testing.T) {
	rec := record{FilePath: "crates/burn-dispatch/src/remote_server.rs", LineNumber: 97, GithubURL: "https://example.invalid/seed"}
	file, line, url := panicSource("crates/burn-dispatch/src/remote_server.rs:115", rec)
	if file != "crates/burn-dispatch/src/remote_server.rs" || line != 115 ||
		url != burnSourceURL+"crates/burn-dispatch/src/remote_server.rs#L115" {
		t.Errorf("got %s:%d %s", file, line, url)
	}
	if _, line, url := panicSource("src/main.rs:3:5", rec); line != 97 || url != rec.GithubURL {
		t.Errorf("a panic in the program keeps the record's source, got %d %s", line, url)
	}
}
