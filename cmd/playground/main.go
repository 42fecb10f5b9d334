// Command playground is the Dispatch Playground's command line: it serves the
// playground (the default), runs a program through the engine or the
// sandbox, lists the catalog and prints its version.
//
//	playground [serve] [flags]              serve on 127.0.0.1:8080
//	playground run [--json] [--sandbox] FILE  run a .txtar or .rs file
//	playground test [--json] FILE|DIR       run its tests as cargo test does
//	playground request FILE                 print the Request JSON of FILE
//	playground catalog [--json]             list the catalog's records
//	playground version                      print the versions
//
// Exit status: 0 when a run is ok, 1 when it panicked or was rejected (or a
// test failed), 2 on usage errors or when the program cannot be run at all.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1 // the run panicked or was rejected
	exitUsage  = 2 // a usage error, or the program could not be run at all
)

// errUsage marks an error caused by how the command was called.
var errUsage = errors.New("usage")

const usage = `usage:
  playground [serve] [flags]               serve the playground (default)
  playground run [--json] [--sandbox] [--config Cargo.toml] FILE
                                           run FILE (.txtar with Cargo.toml and
                                           main.rs sections, or .rs)
  playground test [--json] [--config Cargo.toml] FILE|DIR
                                           run the #[test] functions of FILE or
                                           of a crate folder as cargo test does
  playground request [--config Cargo.toml] FILE
                                           print the Request JSON of FILE
  playground catalog [--json]              list the catalog's records
  playground version                       print the versions

Run "playground COMMAND -h" for the flags of a command.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run dispatches a command line and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	command := "serve"
	if len(args) > 0 && (args[0] == "" || args[0][0] != '-') {
		command, args = args[0], args[1:]
	}
	var err error
	code := exitOK
	switch command {
	case "serve":
		err = serveCommand(ctx, args, stderr)
	case "run":
		code, err = runCommand(ctx, args, stdout, stderr)
	case "test":
		code, err = testCommand(args, stdout, stderr)
	case "request":
		err = requestCommand(args, stdout, stderr)
	case "catalog":
		err = catalogCommand(args, stdout, stderr)
	case "version":
		err = versionCommand(args, stdout, stderr)
	case "help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "playground: unknown command %q\n%s", command, usage)
		return exitUsage
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case err != nil:
		fmt.Fprintf(stderr, "playground %s: %v\n", command, err)
		return exitUsage
	}
	return code
}

// newFlagSet makes a flag set that reports errors instead of exiting.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("playground "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseInterspersed parses flags that may come before or after the
// positional arguments, as in `playground run FILE --json`.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

func usageError(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, a...))
}
