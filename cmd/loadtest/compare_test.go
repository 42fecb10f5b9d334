package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A short comparison measures all four paths, every Result it saw is the
// native engine's, and it prints them side by side.
func TestCompareMeasuresEveryPath(t *testing.T) {
	module := moduleFile(t)
	o := options{clients: 4, duration: 700 * time.Millisecond, wasm: module, maxRSSMiB: 2048,
		filter: regexp.MustCompile(`^(tour-hello|wrong-device-add|book-autodiff)$`)}
	var out bytes.Buffer
	paths, err := compare(context.Background(), o, &out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, p.name)
		if f := p.r.failures(o); len(f) > 0 {
			t.Errorf("%s: %v", p.name, f)
		}
	}
	if strings.Join(names, " ") != "native sandbox http-native http" {
		t.Errorf("paths %v", names)
	}
	for _, want := range []string{"== side by side", "Results/s", "÷ native", "http-native ÷ http", "sandbox ÷ http"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, &out)
		}
	}
}
