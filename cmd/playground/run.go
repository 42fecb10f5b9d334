package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
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
	sandboxed := fs.Bool("sandbox", false, "run engine.wasm in the wazero sandbox instead of the native engine")
	configPath := fs.String("config", "", "Cargo.toml for a .rs FILE (default: burn with default features)")
	sf := addSandboxFlags(fs)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	if len(files) != 1 {
		return exitUsage, usageError("want one FILE, got %d", len(files))
	}
	req, err := readProgram(files[0], *configPath)
	if err != nil {
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
	if *asJSON {
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		fmt.Fprint(stdout, report.Text(res, map[string]string{diag.MainRS: req.Snippet, diag.CargoToml: req.Config}))
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

// readProgram reads a .txtar with Cargo.toml and main.rs sections (others are
// ignored), or a .rs file with the Cargo.toml at configPath.
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
			case diag.MainRS:
				req.Snippet, hasMain = string(f.Data), true
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
