// Command completions writes the playground page's completions of Burn's
// API and burn's features (burnapi.Completions) as JSON, for the page to
// fetch the first time an editor completes:
//
//	go run ./internal/tools/completions -o web/static/dist/completions.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/dispatch-playground/playground/engine/burnapi"
)

func main() {
	out := flag.String("o", "", "file to write (default: standard output)")
	flag.Parse()
	data, err := json.Marshal(burnapi.Default().Completions())
	if err != nil {
		fmt.Fprintln(os.Stderr, "completions:", err)
		os.Exit(1)
	}
	if *out == "" {
		os.Stdout.Write(data)
		return
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "completions:", err)
		os.Exit(1)
	}
}
