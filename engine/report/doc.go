// Package report renders a Result as rustc-style text for terminals: each
// diagnostic as `error[code]: message` with its location, the numbered source
// lines under a caret run, its labels and `= help:` lines; then the program's
// output, the "thread 'main' panicked at ..." text of a panic, and a summary
// of the trace.
//
// It only formats: it must not run the engine, look up the catalog or decide
// a status. Like the rest of engine/ it imports only the standard library
// and the engine's own packages.
package report
