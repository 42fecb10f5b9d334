// Package catalog holds the records behind every diagnostic code: one JSON
// record per Burn panic message (and per error of the playground itself), in
// the schema of the project's two seed records, plus the table of Burn's
// panic sites (panics.tsv) that maps a panic id to its record.
//
// Burn panic sites the model raises that panics.tsv does not list (a
// dtype conversion in burn-std, burn-capture's scope checks) are rows of
// sites.tsv, in the same columns; the rules below treat them as rows of
// the panic table.
//
// The data is embedded and parsed once; the package only looks records up.
// It must not decide which code a diagnostic gets (the phases do), must not
// format messages (dispatch prints Burn's exact text), and imports only the
// standard library and engine/diag (for the slug of a message).
//
// # Adding a record
//
// A record is records/<code>.json: the object {"record": {...},
// "datasetVersion": ...} with the seed keys in the seed order, indented by
// two spaces. The rules the tests enforce:
//
//   - errorMessage is the message as written in Burn's source: the format
//     string of panic!/expect/assert, the text of compile_error!, or the
//     Display text of a returned error, with its placeholders ({}, {:?},
//     {name}) kept. Rust's decorations are not part of it: unimplemented!
//     prints "not implemented: ", unreachable! prints "internal error:
//     entered unreachable code: ", todo! prints "not yet implemented: ",
//     expect appends ": {err:?}", assert_eq! wraps the text in "assertion
//     `left == right` failed: ...". Only a bare unimplemented!() or
//     unreachable!(), which has no text of its own, uses what Rust prints
//     ("not implemented", "internal error: entered unreachable code").
//   - The code (the file name and the slug field) is the slug of the
//     message: lowercased, every run of characters other than a-z and
//     0-9 turned into one '-', trimmed, cut to 50 characters, trailing '-'
//     trimmed. When two different messages cut to the same slug, the message
//     that comes first in panics.tsv keeps it and the next ones get "-2",
//     "-3", ... appended. The two seed records keep the slugs they came with.
//     Where the message column of panics.tsv describes a message instead of
//     quoting it (the check envelope, a user-defined reason), errorMessage
//     holds the text Burn prints and the code is the slug of the column.
//   - Panic sites whose messages differ only in placeholder names ("{t:?}"
//     and "{:?}") print the same text and share one record, as do sites with
//     the very same message. The record cites the first user-reachable
//     such row of panics.tsv; diagnostics carry the precise location.
//   - messagePattern is errorMessage with regexp metacharacters escaped and
//     each placeholder replaced by (.+?), unanchored, so that it finds the
//     message inside what Rust prints. It must compile in Go's regexp and
//     use nothing JavaScript's RegExp lacks. Alternatives may be added for
//     other printed forms (the Debug form of a returned error). A message
//     that is nothing but a placeholder ("{reason}") gets a pattern for the
//     texts that can fill it, since "(.+?)" alone would match anything.
//   - id is the first 16 hex digits of sha256("<repo>:<code>").
//   - A Burn record has errorType "panic" (any panicking macro, expect or
//     assert), "compile" (compile_error! of a proc-macro) or "error" (an
//     Err the caller receives), analyzedSha 2c06be35... and the commit's
//     date, and links to the cited line at that commit. A message that only
//     newer Burn has cites the newer commit and says so in documentation.
//
// Records of the playground's own errors use repo
// "dispatch-playground/playground", errorType "validation" or "limit", and
// null file, line and URL; their codes are fixed names rather than slugs.
package catalog
