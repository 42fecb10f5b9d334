// Package config reads the user's Cargo.toml into what the dispatch model
// needs: the enabled features of Burn's crates, closed under Burn's feature
// graph (features.tsv, embedded), the environment the program sees, the
// simulated hardware, the build target and the remote servers the snippet
// can reach, with their faults. The last four come from
// [package.metadata.playground] (docs/config.md lists every key).
//
// Everything it reads keeps its byte range, so every diagnostic points at
// the user's text and every fix is an edit of it: unknown features in
// Cargo's words with a suggested spelling, Cargo's own type and key
// checks, the playground's settings, and the Burn panics a configuration
// makes certain (a server Burn cannot host, a BURN_DEVICE that names a
// backend the build lacks).
//
// It must not run anything: it knows which features are on, not what the
// program does with them. It imports only the standard library, go-toml's
// parser, and the engine's own position, diagnostic and dispatch types.
//
// The TOML is read with go-toml's unstable parser because it exposes the
// byte range of every key and scalar, from which the ranges of arrays and
// tables are reconstructed; go-toml's decoder then checks what the parser
// leaves to its consumer (duplicate keys, redefined tables).
package config
