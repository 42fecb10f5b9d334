package rstd

import (
	"path"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// PathBuf is std::path::PathBuf or &Path: a path as text, joined and taken
// apart as std does on a Unix target. Asking the file system about it
// (exists, is_file, metadata, read_dir) needs the outside world: the
// answer is unknown.
type PathBuf struct{ S string }

func (PathBuf) TypeName() string { return "PathBuf" }

func pathFunction(typ, name string, args []Value) (Value, bool, error) {
	switch {
	case name == "new" && typ == "PathBuf" && len(args) == 0:
		return PathBuf{}, true, nil
	case (name == "new" || name == "from") && len(args) == 1:
		if s, ok := pathText(args[0]); ok {
			return PathBuf{S: s}, true, nil
		}
		return unknown, true, nil
	}
	return nil, false, nil
}

// pathText is the text of a string or a path argument.
func pathText(v Value) (string, bool) {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Str:
		return string(x), true
	case PathBuf:
		return x.S, true
	}
	return "", false
}

func pathMethod(p PathBuf, call Call) (Value, bool, error) {
	args := call.Args
	arg := func() (string, bool) {
		if len(args) != 1 {
			return "", false
		}
		return pathText(args[0])
	}
	switch call.Name {
	case "join":
		if s, ok := arg(); ok {
			return PathBuf{S: joinPath(p.S, s)}, true, nil
		}
	case "push":
		if s, ok := arg(); ok && call.SetRecv != nil {
			call.SetRecv(PathBuf{S: joinPath(p.S, s)})
			return dispatch.Unit{}, true, nil
		}
	case "display", "to_string_lossy":
		return dispatch.Str(p.S), true, nil
	case "to_str":
		return some(dispatch.Str(p.S)), true, nil
	case "to_path_buf", "as_path", "clone", "to_owned", "into", "as_ref":
		return p, true, nil
	case "parent":
		if p.S == "" || p.S == "/" {
			return none(), true, nil
		}
		dir := path.Dir(strings.TrimRight(p.S, "/"))
		if dir == "." && !strings.HasPrefix(p.S, "./") {
			dir = ""
		}
		return some(PathBuf{S: dir}), true, nil
	case "file_name":
		base := path.Base(p.S)
		if p.S == "" || base == "/" || base == ".." {
			return none(), true, nil
		}
		return some(dispatch.Str(base)), true, nil
	case "extension":
		base := path.Base(p.S)
		if i := strings.LastIndexByte(base, '.'); i > 0 && i < len(base)-1 {
			return some(dispatch.Str(base[i+1:])), true, nil
		}
		return none(), true, nil
	case "with_extension":
		if s, ok := arg(); ok {
			base := path.Base(p.S)
			stem := p.S
			if i := strings.LastIndexByte(base, '.'); i > 0 {
				stem = p.S[:len(p.S)-len(base)+i]
			}
			if s == "" {
				return PathBuf{S: stem}, true, nil
			}
			return PathBuf{S: stem + "." + s}, true, nil
		}
	case "is_absolute":
		return dispatch.Bool(strings.HasPrefix(p.S, "/")), true, nil
	case "exists", "is_file", "is_dir", "metadata", "read_dir", "canonicalize", "try_exists":
		return unknown, true, nil
	}
	return nil, false, nil
}

// joinPath is Path::join on Unix: an absolute part replaces the path.
func joinPath(base, part string) string {
	switch {
	case strings.HasPrefix(part, "/") || base == "":
		return part
	case strings.HasSuffix(base, "/"):
		return base + part
	}
	return base + "/" + part
}
