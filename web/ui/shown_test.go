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
