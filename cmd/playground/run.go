package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/report"
	"github.com/dispatch-playground/playground/wasm/abi"
)

func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("run", stderr)
	asJSON := fs.Bool("json", false, "print the Result JSON instead of text")
	listTrace := fs.Bool("trace", false, "list every tensor operation under the trace's summary, grouped by the module whose method ran it")
	sandboxed := fs.Bool("sandbox", false, "run engine.wasm in the wazero sandbox instead of the native engine")
	configPath := fs.String("config", "", "Cargo.toml for a .rs FILE (default: burn with default features)")
	bin := fs.String("bin", "", "with a crate DIR: run src/bin/NAME.rs, as `cargo run --bin NAME`")
	example := fs.String("example", "", "with a crate DIR: run examples/NAME.rs, as `cargo run --example NAME`")
	sf := addSandboxFlags(fs)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	if len(files) != 1 {
		return exitUsage, usageError("want one FILE or crate DIR, got %d", len(files))
	}
	var req engine.Request
	if info, err := os.Stat(files[0]); err == nil && info.IsDir() {
		if *configPath != "" {
			return exitUsage, usageError("--config applies to a .rs file; the folder %s has its own Cargo.toml", files[0])
		}
		if req, err = readCrate(files[0], *bin, *example); err != nil {
			return exitUsage, err
		}
	} else if *bin != "" || *example != "" {
		return exitUsage, usageError("--bin and --example choose a target of a crate DIR")
	} else if req, err = readProgram(files[0], *configPath); err != nil {
		return exitUsage, err
	}

	var out []byte
	if *sandboxed {
		sf.limits.PoolSize = 1
		sb, err := sf.start(ctx, nil)
		if err != nil {
			return exitUsage, err
		}
		defer sb.Close(context.Background())
		if out, err = sb.RunJSON(ctx, req); err != nil {
			return exitUsage, err
		}
	} else if out, err = abi.HandleRequest(req); err != nil {
		return exitUsage, err
	}

	var res engine.Result
	if err := json.Unmarshal(out, &res); err != nil {
		return exitUsage, fmt.Errorf("decode the Result: %w", err)
	}
	switch {
	case *asJSON:
		fmt.Fprintf(stdout, "%s\n", out)
	case *listTrace:
		fmt.Fprint(stdout, report.TextWithTrace(res, sources(req)))
	default:
		fmt.Fprint(stdout, report.Text(res, sources(req)))
	}
	if res.Status == engine.StatusOK {
		return exitOK, nil
	}
	return exitFailed, nil
}

func requestCommand(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("request", stderr)
	configPath := fs.String("config", "", "Cargo.toml for a .rs FILE (default: burn with default features)")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usageError("want one FILE, got %d", len(files))
	}
	req, err := readProgram(files[0], *configPath)
	if err != nil {
		return err
	}
	b, err := abi.EncodeRequest(req)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", b)
	return err
}

// readProgram reads a .txtar with Cargo.toml and main.rs sections, or a .rs
// file with the Cargo.toml at configPath. A txtar's sections named like a
// crate's files (src/model.rs, src/bin/train.rs) are the crate's files, and
// its main.rs is src/main.rs; its other sections are ignored.
func readProgram(path, configPath string) (engine.Request, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return engine.Request{}, err
	}
	if strings.EqualFold(filepath.Ext(path), ".txtar") {
		if configPath != "" {
			return engine.Request{}, usageError("--config applies to a .rs file; %s has its own Cargo.toml section", path)
		}
		var req engine.Request
		var hasMain bool
		for _, f := range txtar.Parse(data).Files {
			switch f.Name {
			case diag.CargoToml:
				req.Config = string(f.Data)
			case diag.MainRS, engine.EntryMain:
				req.Snippet, hasMain = string(f.Data), true
			default:
				if isCrateFile(f.Name) {
					if req.Files == nil {
						req.Files = map[string]string{}
					}
					req.Files[f.Name] = string(f.Data)
				}
			}
		}
		if !hasMain {
			return engine.Request{}, usageError("%s has no %q section", path, diag.MainRS)
		}
		return req, nil
	}
	req := engine.Request{Snippet: string(data)}
	if configPath != "" {
		config, err := os.ReadFile(configPath)
		if err != nil {
			return engine.Request{}, err
		}
		req.Config = string(config)
	}
	return req, nil
}

// isCrateFile tells a txtar section that is a file of the crate, or of
// another package Cargo reads with it (../guide/Cargo.toml, its sources).
func isCrateFile(name string) bool {
	if strings.HasPrefix(name, "../") {
		return filepath.Ext(name) == ".rs" || path.Base(name) == diag.CargoToml
	}
	if filepath.Ext(name) != ".rs" {
		return false
	}
	for _, dir := range crateFolders {
		if strings.HasPrefix(name, dir+"/") {
			return true
		}
	}
	return false
}
