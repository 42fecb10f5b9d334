package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/web"
)

func catalogCommand(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("catalog", stderr)
	asJSON := fs.Bool("json", false, "print the records as the JSON array /api/catalog returns")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected arguments %q", fs.Args())
	}
	if *asJSON {
		_, err := stdout.Write(web.CatalogJSON())
		return err
	}
	for _, r := range catalog.All() {
		fmt.Fprintf(stdout, "%s\n    %s\n", r.Code, r.Title)
	}
	return nil
}

func versionCommand(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	_, err := fmt.Fprintf(stdout, "playground %s (Burn %s, %s %s/%s)\n", engine.Version, engine.BurnCommit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}
