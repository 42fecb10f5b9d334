// Package adversarial loads the corpus of hostile inputs in
// testdata/adversarial: deep nesting, huge identifiers and statement
// counts, enormous tensors, pathological feature lists, invalid UTF-8, NUL
// bytes, TOML bombs, oversized bodies and shares. Each input is a small
// generator description, expanded at test time, so the repository holds
// kilobytes where the inputs are megabytes.
//
// The engine's and the server's tests run every case and check that it
// gets the bounded, clear answer its file names, in bounded time and
// memory.
//
// It is for tests only: nothing that serves or runs programs may import it.
package adversarial
