package main

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/config"
	"github.com/dispatch-playground/playground/engine/diag"
)

// crateFolders are the folders of a crate whose .rs files Cargo builds.
var crateFolders = []string{"src", "examples", "tests", "benches"}

// readCrate reads a crate folder as Cargo builds it: its Cargo.toml and
// every .rs file under src/, examples/, tests/ and benches/. The entry is
// src/main.rs, src/bin/BIN.rs with bin, or examples/EXAMPLE.rs with
// example; its text is the Request's snippet and the others are its files.
func readCrate(dir, bin, example string) (engine.Request, error) {
	config, files, err := readCrateFiles(dir)
	if err != nil {
		return engine.Request{}, err
	}
	entry := engine.EntryMain
	switch {
	case bin != "" && example != "":
		return engine.Request{}, usageError("--bin and --example name two targets; give one")
	case bin != "":
		entry = "src/bin/" + bin + ".rs"
	case example != "":
		entry = "examples/" + example + ".rs"
	}
	snippet, ok := files[entry]
	if !ok {
		return engine.Request{}, usageError("no target %s in %s (it has %s)", entry, dir, strings.Join(targets(files), ", "))
	}
	delete(files, entry)
	req := engine.Request{Config: config, Snippet: snippet, Files: files}
	if entry != engine.EntryMain {
		req.Entry = entry
	}
	return req, nil
}

// readCrateFiles reads a crate folder's Cargo.toml and its .rs files by
// path from the crate root.
func readCrateFiles(dir string) (string, map[string]string, error) {
	config, err := os.ReadFile(filepath.Join(dir, "Cargo.toml"))
	if err != nil {
		return "", nil, usageError("%s is not a crate: %v", dir, err)
	}
	files := map[string]string{}
	for _, sub := range crateFolders {
		root := filepath.Join(dir, sub)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root && os.IsNotExist(err) {
					return filepath.SkipDir
				}
				return err
			}
			if d.IsDir() || filepath.Ext(p) != ".rs" {
				return nil
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			if len(files) >= engine.MaxCrateFiles {
				return usageError("%s has more than %d .rs files", dir, engine.MaxCrateFiles)
			}
			text, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[filepath.ToSlash(rel)] = string(text)
			return nil
		})
		if err != nil && err != filepath.SkipDir {
			return "", nil, err
		}
	}
	if err := readNeighbours(dir, string(config), files); err != nil {
		return "", nil, err
	}
	return string(config), files, nil
}

// workspaceTable finds a [workspace] table, or one of its sub-tables.
var workspaceTable = regexp.MustCompile(`(?m)^[ \t]*\[[ \t]*workspace[ \t]*[.\]]`)

// maxNeighbourRounds bounds how many levels of path dependencies are read.
const maxNeighbourRounds = 8

// readNeighbours adds to files what Cargo reads besides the crate folder,
// at their paths from the crate's root: the manifest of the workspace the
// crate is in (the nearest folder above it whose Cargo.toml has a
// [workspace] table), and the manifest and library sources of each path
// dependency, and of theirs.
func readNeighbours(dir, manifest string, files map[string]string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if !workspaceTable.MatchString(manifest) {
		up := ""
		for parent := abs; filepath.Dir(parent) != parent; parent = filepath.Dir(parent) {
			up = path.Join(up, "..")
			text, err := os.ReadFile(filepath.Join(filepath.Dir(parent), "Cargo.toml"))
			if err == nil && workspaceTable.Match(text) {
				files[path.Join(up, "Cargo.toml")] = string(text)
				break
			}
		}
	}
	unreadable := map[string]bool{}
	for range maxNeighbourRounds {
		manifests := config.Manifests{}
		for p, t := range files {
			if path.Base(p) == diag.CargoToml {
				manifests[p] = t
			}
		}
		added := false
		for _, m := range config.MissingManifests(manifest, manifests) {
			if unreadable[m] {
				continue
			}
			text, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(m)))
			if err != nil {
				// Cargo stops here; the engine says the dependency's
				// manifest is not known, which is the truth.
				unreadable[m] = true
				continue
			}
			files[m] = string(text)
			if err := readLibrary(dir, path.Dir(m), files); err != nil {
				return err
			}
			added = true
		}
		if !added {
			return nil
		}
	}
	return nil
}

// readLibrary adds the .rs files of the library of the package in pkg (a
// folder from the crate's root): src/ without its binaries.
func readLibrary(dir, pkg string, files map[string]string) error {
	root := filepath.Join(dir, filepath.FromSlash(pkg), "src")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && p == root && os.IsNotExist(err):
			return filepath.SkipDir
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "bin" && filepath.Dir(p) == root:
			return filepath.SkipDir
		case d.IsDir() || filepath.Ext(p) != ".rs":
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if len(files) >= engine.MaxCrateFiles {
			return usageError("%s and its path dependencies have more than %d files", dir, engine.MaxCrateFiles)
		}
		text, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[path.Join(pkg, "src", filepath.ToSlash(rel))] = string(text)
		return nil
	})
	if err == filepath.SkipDir {
		return nil
	}
	return err
}

// targets lists the runnable targets among a crate's files.
func targets(files map[string]string) []string {
	var out []string
	for p := range files {
		if p == engine.EntryMain || strings.HasPrefix(p, "src/bin/") || strings.HasPrefix(p, "examples/") {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		return []string{"no binary"}
	}
	return out
}

// sources are the texts a Result's diagnostics point into, by file name,
// for the text report.
func sources(req engine.Request) map[string]string {
	out := map[string]string{diag.CargoToml: req.Config, diag.MainRS: req.Snippet}
	if len(req.Files) == 0 && (req.Entry == "" || req.Entry == engine.EntryTests) {
		return out
	}
	for p, t := range req.Files {
		out[p] = t
	}
	entry := req.Entry
	if entry == "" || entry == engine.EntryTests {
		entry = engine.EntryMain
	}
	out[entry] = req.Snippet
	return out
}
