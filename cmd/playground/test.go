package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/report"
	"github.com/dispatch-playground/playground/wasm/abi"
)

// testCommand runs the #[test] functions of a program as `cargo test` does
// and prints libtest's report, which the Result carries as its output.
// Exit status: 0 when every test passed, 1 when one failed or the program
// was rejected (the report is then rustc-style text, as `run` prints it).
func testCommand(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("test", stderr)
	asJSON := fs.Bool("json", false, "print the Result JSON instead of libtest's report")
	configPath := fs.String("config", "", "Cargo.toml for a .rs FILE (default: burn with default features)")
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	if len(paths) != 1 {
		return exitUsage, usageError("want one FILE or DIR, got %d", len(paths))
	}
	req, err := readTestProgram(paths[0], *configPath)
	if err != nil {
		return exitUsage, err
	}
	req.Entry = engine.EntryTests
	out, err := abi.HandleRequest(req)
	if err != nil {
		return exitUsage, err
	}
	var res engine.Result
	if err := json.Unmarshal(out, &res); err != nil {
		return exitUsage, fmt.Errorf("decode the Result: %w", err)
	}
	switch {
	case *asJSON:
		fmt.Fprintf(stdout, "%s\n", out)
	case res.Status == engine.StatusRejected:
		fmt.Fprint(stdout, report.Text(res, sources(req)))
	default:
		// What was not checked comes first, as a build's warnings do, and
		// an incomplete run ends saying so: its "ok" is not libtest's.
		fmt.Fprint(stdout, report.Unchecked(res, sources(req)))
		fmt.Fprint(stdout, res.Output)
		if res.Unchecked() > 0 && !res.Complete {
			fmt.Fprintf(stdout, "status: %s\n", report.Status(res))
		}
	}
	if res.Status == engine.StatusOK {
		return exitOK, nil
	}
	return exitFailed, nil
}

// readTestProgram reads FILE as `run` does, or a crate folder: its
// Cargo.toml and every .rs file of its targets, whose test harnesses run
// as `cargo test` runs them.
func readTestProgram(path, configPath string) (engine.Request, error) {
	info, err := os.Stat(path)
	if err != nil {
		return engine.Request{}, err
	}
	if !info.IsDir() {
		return readProgram(path, configPath)
	}
	if configPath != "" {
		return engine.Request{}, usageError("--config applies to a .rs file; the folder %s has its own Cargo.toml", path)
	}
	// Every target's harness: the library, the binaries, tests/*.rs.
	config, files, err := readCrateFiles(path)
	if err != nil {
		return engine.Request{}, err
	}
	_, hasMain := files[engine.EntryMain]
	if _, hasLib := files["src/lib.rs"]; !hasMain && !hasLib {
		return engine.Request{}, usageError("%s has neither src/main.rs nor src/lib.rs", path)
	}
	snippet := files[engine.EntryMain]
	delete(files, engine.EntryMain)
	return engine.Request{Config: config, Snippet: snippet, Files: files}, nil
}
