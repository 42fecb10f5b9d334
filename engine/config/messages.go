package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/similar"
	"github.com/dispatch-playground/playground/engine/source"
)

// Every diagnostic of this package is built by one function in this file,
// so that the messages read as a set. Cargo's own findings use Cargo's
// words; Burn's panics use Burn's exact text and the catalog code of that
// text; the playground's own findings say what the playground assumes.

// Codes of the diagnostics that are not Burn panics.
const (
	CodeInvalidTOML          = "invalid-toml"
	CodeInvalidConfig        = "invalid-config"
	CodeUnknownFeature       = "unknown-feature"
	CodeInvalidFeature       = "invalid-feature"
	CodeUnknownKey           = "unknown-key"
	CodeUnusedManifestKey    = "unused-manifest-key"
	CodeDeprecatedKey        = "deprecated-key"
	CodeInvalidDependency    = "invalid-dependency"
	CodeNoBurnDependency     = "no-burn-dependency"
	CodeOptionalDependency   = "optional-dependency"
	CodeWorkspaceDependency  = "workspace-dependency"
	CodeBurnVersion          = "burn-version"
	CodeTargetDependency     = "target-dependency"
	CodeBurnDeviceWithoutStd = "burn-device-without-std"
	// CodeNestingTooDeep and CodeTooLarge are the codes the snippet's
	// parser and the engine use for the same limits on main.rs.
	CodeNestingTooDeep = "nesting-too-deep"
	CodeTooLarge       = "snippet-too-large"
)

// Burn's messages, verbatim (shared/burn/panics.tsv).
const (
	msgUnknownBurnDevice = "Unknown BURN_DEVICE override: '{}'."
	msgHostLibTorch      = "LibTorch is not supported as a remote-server backend (no BackendIr impl)"
	msgHostRemote        = "Cannot host a remote server on a remote device"
	msgHostCapture       = "Cannot host a remote server on a capture device"
)

func newDiagnostic(severity diag.Severity, code string, span source.Range, message string) diag.Diagnostic {
	return diag.Diagnostic{
		Code:     code,
		Severity: severity,
		Phase:    diag.Config,
		Message:  message,
		File:     diag.CargoToml,
		Range:    span,
	}
}

func replaceFix(title string, span source.Range, newText string) diag.Fix {
	return diag.Fix{Title: title, Edits: []diag.Edit{{File: diag.CargoToml, Range: span, NewText: newText}}}
}

// replaceString is a fix that replaces a string value, keeping its quotes.
func replaceString(title string, at *value, s string) diag.Fix {
	return replaceFix(title, at.span, quoteLike(at, s))
}

// quoteLike writes s as a TOML string in the quote style of v: a literal
// string stays literal when s allows it.
func quoteLike(v *value, s string) string {
	if v != nil && v.quote == '\'' && !strings.ContainsAny(s, "'\n") {
		return "'" + s + "'"
	}
	return strconv.Quote(s)
}

// withSuggestion adds "did you mean" help and, when a fix is given, the fix.
func withSuggestion(d diag.Diagnostic, suggestion string, fix *diag.Fix) diag.Diagnostic {
	if suggestion == "" {
		return d
	}
	d.Help = append(d.Help, fmt.Sprintf("did you mean `%s`?", suggestion))
	if fix != nil {
		d.Fixes = append(d.Fixes, *fix)
	}
	return d
}

func errInvalidTOML(message string, span source.Range) diag.Diagnostic {
	d := newDiagnostic(diag.Error, CodeInvalidTOML, span, "TOML parse error: "+message)
	d.Help = []string{"nothing else in Cargo.toml can be read until this is fixed"}
	return d
}

// errNestingTooDeep is the message of the snippet's nesting-too-deep, the
// catalog record's.
func errNestingTooDeep(span source.Range) diag.Diagnostic {
	d := newDiagnostic(diag.Error, CodeNestingTooDeep, span, fmt.Sprintf("nesting exceeds the playground's limit of %d levels", MaxNesting))
	d.Help = []string{"tables, arrays, inline tables and the parts of dotted keys count as levels; a real Cargo.toml needs a handful",
		"nothing else in Cargo.toml can be read until this is fixed"}
	return d
}

// errTooLarge is the engine's message for a Cargo.toml over its limit.
func errTooLarge(size int) diag.Diagnostic {
	return newDiagnostic(diag.Error, CodeTooLarge, source.Range{}, fmt.Sprintf("Cargo.toml is %d bytes; the playground takes at most %d", size, MaxBytes))
}

// errInvalidType is serde's message for a value of the wrong type, which is
// what Cargo prints.
func errInvalidType(v *value, expected string) diag.Diagnostic {
	return newDiagnostic(diag.Error, CodeInvalidConfig, v.span, fmt.Sprintf("invalid type: %s, expected %s", describe(v), expected))
}

// describe renders a value the way serde's Unexpected does.
func describe(v *value) string {
	switch v.kind {
	case kindString:
		return fmt.Sprintf("string %q", v.text)
	case kindInteger:
		return fmt.Sprintf("integer `%s`", v.text)
	case kindFloat:
		return fmt.Sprintf("floating point `%s`", v.text)
	case kindBool:
		return fmt.Sprintf("boolean `%s`", v.text)
	case kindDatetime:
		return "datetime"
	case kindArray, kindArrayOfTables:
		return "sequence"
	}
	return "map"
}

func errInvalidValue(span source.Range, message string) diag.Diagnostic {
	return newDiagnostic(diag.Error, CodeInvalidConfig, span, message)
}

func warnUnusedManifestKey(path string, key source.Range, suggestion string) diag.Diagnostic {
	d := newDiagnostic(diag.Warning, CodeUnusedManifestKey, key, "unused manifest key: "+path)
	fix := replaceFix(fmt.Sprintf("Rename to `%s`", suggestion), key, suggestion)
	return withSuggestion(d, suggestion, &fix)
}

func warnDeprecatedDefaultFeatures(dep string, key source.Range) diag.Diagnostic {
	d := newDiagnostic(diag.Warning, CodeDeprecatedKey, key,
		fmt.Sprintf("`default_features` is deprecated in favor of `default-features` and will not work in the 2024 edition\n(in the `%s` dependency)", dep))
	d.Fixes = []diag.Fix{replaceFix("Use `default-features`", key, "default-features")}
	return d
}

func warnNoSource(dep string, span source.Range) diag.Diagnostic {
	d := newDiagnostic(diag.Warning, CodeInvalidDependency, span,
		fmt.Sprintf("dependency (%s) specified without providing a local path, Git repository, version, or workspace dependency to use", dep))
	d.Help = []string{"add `version = \"0.22\"`"}
	return d
}

// errUnknownFeature is Cargo's message for `--features` naming a feature a
// package lacks; the closest feature, if any, becomes a one-click fix.
func errUnknownFeature(pkg, feature string, at *value, features []string) diag.Diagnostic {
	d := newDiagnostic(diag.Error, CodeUnknownFeature, at.span, fmt.Sprintf("package `%s` does not have the feature `%s`", pkg, feature))
	if suggestion, ok := similar.Name(feature, features); ok {
		fix := replaceString(fmt.Sprintf("Use the `%s` feature", suggestion), at, suggestion)
		return withSuggestion(d, suggestion, &fix)
	}
	d.Help = []string{fmt.Sprintf("the features of `%s` are: %s", pkg, strings.Join(features, ", "))}
	return d
}

func errSlashFeature(dep, feature string, span source.Range, fix *diag.Fix) diag.Diagnostic {
	d := newDiagnostic(diag.Error, CodeInvalidFeature, span,
		fmt.Sprintf("feature `%s` in dependency `%s` is not allowed to contain slashes", feature, dep))
	d.Help = []string{"If you want to enable features of a transitive dependency, the direct dependency needs to re-export those features from the `[features]` table."}
	if fix != nil {
		d.Fixes = []diag.Fix{*fix}
	}
	return d
}

func errDepSyntaxFeature(dep, feature string, span source.Range) diag.Diagnostic {
	d := newDiagnostic(diag.Error, CodeInvalidFeature, span,
		fmt.Sprintf("feature `%s` in dependency `%s` is not allowed to use explicit `dep:` syntax", feature, dep))
	d.Help = []string{"If you want to enable an optional dependency, specify the name of the optional dependency without the `dep:` prefix, or specify a feature from the dependency's `[features]` table that enables the optional dependency."}
	return d
}

func errOwnFeatureToken(feature, token string, span source.Range) diag.Diagnostic {
	return newDiagnostic(diag.Error, CodeUnknownFeature, span,
		fmt.Sprintf("feature `%s` includes `%s` which is neither a dependency nor another feature", feature, token))
}

func errOwnFeatureMissingDep(feature, token, dep string, span source.Range) diag.Diagnostic {
	return newDiagnostic(diag.Error, CodeUnknownFeature, span,
		fmt.Sprintf("feature `%s` includes `%s`, but `%s` is not a dependency", feature, token, dep))
}

func warnNoBurn(span source.Range, fix *diag.Fix) diag.Diagnostic {
	d := newDiagnostic(diag.Warning, CodeNoBurnDependency, span,
		"Cargo.toml does not depend on `burn`; the playground assumes `burn = \"0.22\"` with default features")
	if fix != nil {
		d.Fixes = []diag.Fix{*fix}
	}
	return d
}

func warnOptional(dep string, span source.Range) diag.Diagnostic {
	d := newDiagnostic(diag.Warning, CodeOptionalDependency, span,
		fmt.Sprintf("`%s` is an optional dependency that no default feature enables; the playground builds it as if it were enabled", dep))
	d.Help = []string{fmt.Sprintf("add `\"dep:%s\"` to `default` in [features], or remove `optional = true`", dep)}
	return d
}

func warnWorkspace(dep string, span source.Range) diag.Diagnostic {
	return newDiagnostic(diag.Warning, CodeWorkspaceDependency, span,
		fmt.Sprintf("`%s` is inherited from the workspace, which the playground cannot see; it assumes the workspace declares `%s = \"0.22\"` with default features", dep, dep))
}

func warnBurnVersion(pkg, requirement string, span source.Range) diag.Diagnostic {
	return newDiagnostic(diag.Warning, CodeBurnVersion, span,
		fmt.Sprintf("the playground simulates `%s` 0.22 (Burn at commit 2c06be35); the requirement `%s` selects another release, whose dispatch may differ", pkg, requirement))
}

func noteTargetDependency(table string, span source.Range) diag.Diagnostic {
	return newDiagnostic(diag.Note, CodeTargetDependency, span,
		fmt.Sprintf("the playground cannot tell which target it runs on, so it applies `[%s]` as if its condition held", table))
}

// errUnknownKey is serde's message for an unknown field, naming the valid
// ones.
func errUnknownKey(name string, key source.Range, valid []string) diag.Diagnostic {
	quoted := make([]string, len(valid))
	for i, v := range valid {
		quoted[i] = "`" + v + "`"
	}
	d := newDiagnostic(diag.Error, CodeUnknownKey, key,
		fmt.Sprintf("unknown field `%s`, expected one of %s", name, strings.Join(quoted, ", ")))
	suggestion, _ := similar.Name(name, valid)
	fix := replaceFix(fmt.Sprintf("Rename to `%s`", suggestion), key, suggestion)
	return withSuggestion(d, suggestion, &fix)
}

func errMissingKey(table string, span source.Range, key string) diag.Diagnostic {
	return newDiagnostic(diag.Error, CodeInvalidConfig, span, fmt.Sprintf("missing field `%s` in %s", key, table))
}

// burnDeviceMessage is Burn's panic text for BURN_DEVICE naming a backend
// whose feature is off (crates/burn-dispatch/src/device.rs:285-351): the
// name is the lowercased value, which is what Burn matched on.
func burnDeviceMessage(name string) string {
	return fmt.Sprintf("BURN_DEVICE=%s requested, but the '%s' feature is not enabled.", name, name)
}

// warnBurnDeviceDisabled is a warning, not an error: Burn panics only when
// Device::default() runs, and the run phase reports that panic where the
// snippet calls it.
func warnBurnDeviceDisabled(name string, span source.Range, fix *diag.Fix) diag.Diagnostic {
	msg := burnDeviceMessage(name)
	d := newDiagnostic(diag.Warning, diag.Slug(msg), span, msg)
	d.PanicID = "disp-burn-device-" + name
	d.Help = []string{fmt.Sprintf("Device::default() panics with this message; enable the `%s` feature of burn, or remove BURN_DEVICE", name)}
	if fix != nil {
		d.Fixes = []diag.Fix{*fix}
	}
	return d
}

func warnBurnDeviceUnknown(raw string, at *value, names []string) diag.Diagnostic {
	span := at.span
	msg := strings.Replace(msgUnknownBurnDevice, "{}", raw, 1)
	d := newDiagnostic(diag.Warning, diag.Slug(msgUnknownBurnDevice), span, msg)
	d.PanicID = "disp-burn-device-unknown"
	d.Help = []string{"Device::default() panics with this message; BURN_DEVICE takes one of " + strings.Join(names, ", ")}
	if suggestion, ok := similar.Name(strings.ToLower(raw), names); ok {
		fix := replaceString(fmt.Sprintf("Use `%s`", suggestion), at, suggestion)
		d = withSuggestion(d, suggestion, &fix)
	}
	return d
}

func warnBurnDeviceWithoutStd(span source.Range) diag.Diagnostic {
	d := newDiagnostic(diag.Warning, CodeBurnDeviceWithoutStd, span,
		"BURN_DEVICE has no effect: burn-dispatch reads it only with its `std` feature, which is off")
	d.Help = []string{"enable the `std` feature of burn (it is a default feature)"}
	return d
}

// errCannotHost reports a server whose device Burn's remote server refuses
// (crates/burn-dispatch/src/remote_server.rs:113-124).
func errCannotHost(device string, at *value) diag.Diagnostic {
	var msg, id string
	switch device {
	case "tch":
		msg, id = msgHostLibTorch, "disp-remote-server-libtorch"
	case "remote":
		msg, id = msgHostRemote, "disp-remote-server-remote"
	default:
		msg, id = msgHostCapture, "disp-remote-server-capture"
	}
	d := newDiagnostic(diag.Error, diag.Slug(msg), at.span, msg)
	d.PanicID = id
	d.Help = []string{"a remote server hosts a backend that implements BackendIr: cpu, cuda, metal, rocm, vulkan, wgpu, webgpu, flex or ndarray"}
	d.Fixes = []diag.Fix{replaceString("Host the server on Flex instead", at, "flex")}
	return d
}

func errUnknownServerDevice(device string, at *value, names []string) diag.Diagnostic {
	d := newDiagnostic(diag.Error, CodeInvalidConfig, at.span,
		fmt.Sprintf("unknown server device `%s`, expected one of %s", device, strings.Join(names, ", ")))
	if suggestion, ok := similar.Name(device, names); ok {
		fix := replaceString(fmt.Sprintf("Use `%s`", suggestion), at, suggestion)
		d = withSuggestion(d, suggestion, &fix)
	}
	return d
}

func errServerAddress(address string, span source.Range) diag.Diagnostic {
	d := newDiagnostic(diag.Error, CodeInvalidConfig, span,
		fmt.Sprintf("invalid server address `%s`: expected ws://host:port, wss://host:port or an Iroh endpoint id", address))
	d.Help = []string{"Burn's websocket client connects with the ws and wss schemes only; an Iroh endpoint id is 64 hexadecimal digits"}
	return d
}

func errDuplicateServer(address string, span, first source.Range) diag.Diagnostic {
	d := newDiagnostic(diag.Error, CodeInvalidConfig, span, fmt.Sprintf("two servers listen on `%s`", address))
	d.Labels = []diag.Label{{File: diag.CargoToml, Range: first, Message: "first declared here"}}
	return d
}

func errUnknownAdapter(kind string, at *value, kinds []string) diag.Diagnostic {
	return errUnknownChoice("wgpu adapter kind", kind, at, kinds)
}

func errUnknownTarget(target string, at *value, targets []string) diag.Diagnostic {
	return errUnknownChoice("target", target, at, targets)
}

func errUnknownFault(fault string, at *value, faults []string) diag.Diagnostic {
	return errUnknownChoice("server fault", fault, at, faults)
}

// errUnknownChoice is a value outside a closed list of what: the list,
// and the nearest choice as a fix when one is near.
func errUnknownChoice(what, got string, at *value, choices []string) diag.Diagnostic {
	d := newDiagnostic(diag.Error, CodeInvalidConfig, at.span,
		fmt.Sprintf("unknown %s `%s`, expected one of %s", what, got, strings.Join(choices, ", ")))
	if suggestion, ok := similar.Name(got, choices); ok {
		fix := replaceString(fmt.Sprintf("Use `%s`", suggestion), at, suggestion)
		d = withSuggestion(d, suggestion, &fix)
	}
	return d
}

func errIrohOnlyFault(fault string, span source.Range) diag.Diagnostic {
	return newDiagnostic(diag.Error, CodeInvalidConfig, span,
		fmt.Sprintf("server fault `%s` happens in the Iroh transport's framing; this server is a WebSocket server", fault))
}
