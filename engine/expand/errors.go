package expand

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/similar"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// Diagnostic codes of expansion. The messages are rustc's.
const (
	CodeUnknownMacro      = "unknown-macro"
	CodeNoRuleMatches     = "macro-no-rule-matches"
	CodeMacroDefinition   = "macro-definition"
	CodeRecursionLimit    = "macro-recursion-limit"
	CodeCompileError      = "compile-error"
	CodeEnvNotDefined     = "env-not-defined"
	codeSyntaxError       = syntax.CodeSyntaxError
	codeUnsupportedSyntax = syntax.CodeUnsupportedSyntax
	codeUnmodelled        = "playground-unmodelled"
	codeLimit             = "playground-limit"
)

// Every diagnostic of expansion is built by one of the functions below, so
// that the messages read as a set.

func newDiag(code string, phase diag.Phase, r source.Range, msg string) diag.Diagnostic {
	return diag.Diagnostic{Code: code, Severity: diag.Error, Phase: phase, Message: msg, File: diag.MainRS, Range: r}
}

func label(r source.Range, msg string) diag.Label {
	return diag.Label{File: diag.MainRS, Range: r, Message: msg}
}

// errUnknownMacro is rustc's unresolved macro; later is where a macro of
// that name is defined further down, out of macro_rules!'s textual scope.
func errUnknownMacro(r source.Range, path string, later *source.Range) diag.Diagnostic {
	d := newDiag(CodeUnknownMacro, diag.Check, r, fmt.Sprintf("cannot find macro `%s` in this scope", path))
	if later != nil {
		d.Labels = []diag.Label{label(*later, "a macro with the same name exists, but it appears later")}
		d.Help = []string{"macro_rules! macros can be used only below their definition: move it above this call, or mark it #[macro_export]"}
	}
	return d
}

func errStdMacroUnsupported(r source.Range, name string) diag.Diagnostic {
	d := newDiag(codeUnsupportedSyntax, diag.Check, r, fmt.Sprintf("macro `%s!` is not supported by the playground", name))
	d.Help = []string{"the playground runs a subset of Rust: the statements, items and macros of Burn user code"}
	return d
}

// errNoRuleMatches is rustc's failed_to_match_macro.
func errNoRuleMatches(f failure, head source.Range) diag.Diagnostic {
	msg, lab := "no rules expected "+f.tok.String(), "no rules expected this token in macro call"
	if f.tok.Kind == syntax.EOF {
		msg, lab = "unexpected end of macro invocation", "missing tokens in macro arguments"
	}
	d := newDiag(CodeNoRuleMatches, diag.Parse, f.tok.Range, msg)
	d.Labels = []diag.Label{label(f.tok.Range, lab), label(head, "when calling this macro")}
	note := "while trying to match " + f.want.describe()
	if sp := f.want.tok.Range; (f.want.kind == locToken || f.want.kind == locSep) && sp.End > sp.Start {
		d.Labels = append(d.Labels, label(sp, note))
	} else if f.want.kind == locMetaVar {
		d.Labels = append(d.Labels, label(f.want.span, note))
	} else {
		d.Help = append(d.Help, note)
	}
	return d
}

func errInvalidFragment(r source.Range, frag string) diag.Diagnostic {
	d := newDiag(CodeMacroDefinition, diag.Parse, r, fmt.Sprintf("invalid fragment specifier `%s`", frag))
	d.Help = []string{"valid fragment specifiers are `ident`, `block`, `stmt`, `expr`, `pat`, `ty`, `lifetime`, `literal`, `path`, `meta`, `tt`, `item` and `vis`, along with `expr_2021` and `pat_param` for edition compatibility"}
	if spec, ok := meantFragment(frag); ok {
		d.Fixes = []diag.Fix{{Title: fmt.Sprintf("Use `%s`", spec), Edits: []diag.Edit{{File: diag.MainRS, Range: r, NewText: spec}}}}
	}
	return d
}

// fragmentSpecifiers are the valid fragment specifiers, as rustc lists them.
var fragmentSpecifiers = []string{"ident", "block", "stmt", "expr", "pat", "ty", "lifetime", "literal", "path", "meta", "tt", "item", "vis"}

// meantFragment is the specifier a word most likely means: the one it
// starts with (`expression` for `expr`, `type` for `ty`), or a close
// spelling (`idnet`).
func meantFragment(word string) (string, bool) {
	for _, s := range fragmentSpecifiers {
		if strings.HasPrefix(word, s) {
			return s, true
		}
	}
	return similar.Name(word, fragmentSpecifiers)
}

func errMissingFragment(r source.Range) diag.Diagnostic {
	d := newDiag(CodeMacroDefinition, diag.Parse, r, "missing fragment specifier")
	d.Help = []string{"fragment specifiers must be provided: add one, as in `$name:expr`"}
	return d
}

func errDuplicateBinding(r source.Range, name string) diag.Diagnostic {
	return newDiag(CodeMacroDefinition, diag.Parse, r, fmt.Sprintf("duplicate matcher binding `%s`", name))
}

func errMissingKleene(r source.Range) diag.Diagnostic {
	return newDiag(CodeMacroDefinition, diag.Parse, r, "expected one of: `*`, `+`, or `?`")
}

func errQuestionSeparator(r source.Range) diag.Diagnostic {
	return newDiag(CodeMacroDefinition, diag.Parse, r, "the `?` macro repetition operator does not take a separator")
}

func errUnboundMetaVar(r source.Range, name string) diag.Diagnostic {
	d := newDiag(CodeMacroDefinition, diag.Parse, r, fmt.Sprintf("cannot find macro parameter `$%s` in this scope", name))
	d.Labels = []diag.Label{label(r, "not found in this scope")}
	return d
}

func errStillRepeating(r source.Range, name string) diag.Diagnostic {
	return newDiag(CodeMacroDefinition, diag.Parse, r, fmt.Sprintf("variable `%s` is still repeating at this depth", name))
}

func errNoRepeatingVars(r source.Range) diag.Diagnostic {
	return newDiag(CodeMacroDefinition, diag.Parse, r,
		"attempted to repeat an expression containing no syntax variables matched as repeating at this depth")
}

func errRepeatMismatch(r source.Range, a string, na int, b string, nb int) diag.Diagnostic {
	return newDiag(CodeMacroDefinition, diag.Parse, r,
		fmt.Sprintf("meta-variable `%s` repeats %d %s, but `%s` repeats %d %s", a, na, times(na), b, nb, times(nb)))
}

func times(n int) string {
	if n == 1 {
		return "time"
	}
	return "times"
}

func errMustRepeat(r source.Range) diag.Diagnostic {
	return newDiag(CodeMacroDefinition, diag.Parse, r, "this must repeat at least once")
}

func errAmbiguousParses(r source.Range) diag.Diagnostic {
	return newDiag(CodeNoRuleMatches, diag.Parse, r, "ambiguity: multiple successful parses")
}

func errLocalAmbiguity(r source.Range, name string, locs []loc, bb []*mpos, others int) diag.Diagnostic {
	var nts []string
	for _, mp := range bb {
		l := locs[mp.idx]
		nts = append(nts, fmt.Sprintf("%s ('%s')", l.frag, l.name))
	}
	msg := fmt.Sprintf("local ambiguity when calling macro `%s`: multiple parsing options: ", name)
	if others == 0 {
		msg += fmt.Sprintf("built-in NTs %s.", strings.Join(nts, " or "))
	} else {
		s := "s"
		if others == 1 {
			s = ""
		}
		msg += fmt.Sprintf("built-in NTs %s or %d other option%s.", strings.Join(nts, " or "), others, s)
	}
	return newDiag(CodeNoRuleMatches, diag.Parse, r, msg)
}

func errExpectedLiteral(t syntax.Token) diag.Diagnostic {
	return newDiag(codeSyntaxError, diag.Parse, t.Range, "expected literal, found "+t.String())
}

func errFragmentSplit(r source.Range, kind string) diag.Diagnostic {
	return newDiag(codeSyntaxError, diag.Parse, r, fmt.Sprintf("expected a `%s` fragment here", kind))
}

func errMatcherTooComplex(r source.Range, name string) diag.Diagnostic {
	return newDiag(codeLimit, diag.Parse, r,
		fmt.Sprintf("matching the arguments of `%s!` takes more than the playground's %d ways at once", name, maxPositions))
}

// errRecursionLimit is rustc's recursion limit error; crate names the crate
// in its help.
func errRecursionLimit(r source.Range, name, crate string) diag.Diagnostic {
	d := newDiag(CodeRecursionLimit, diag.Parse, r, fmt.Sprintf("recursion limit reached while expanding `%s!`", name))
	d.Help = []string{fmt.Sprintf("consider increasing the recursion limit by adding a `#![recursion_limit = \"%d\"]` attribute to your crate (`%s`)", 2*RecursionLimit, crate)}
	return d
}

func errExpansionTooLarge(r source.Range) diag.Diagnostic {
	return newDiag(codeLimit, diag.Parse, r,
		fmt.Sprintf("the program's macros expand to more than the playground's limit of %d tokens; expansion stops here", MaxTokens))
}

// errTrailingTokens is rustc's "macro expansion ignores ..." for an
// expansion that does not end where its position's syntax does.
func errTrailingTokens(t syntax.Token, call source.Range, name, context string) diag.Diagnostic {
	d := newDiag(codeSyntaxError, diag.Parse, t.Range, fmt.Sprintf("macro expansion ignores %s and any tokens following", t.String()))
	d.Labels = []diag.Label{label(call, "caused by the macro expansion here")}
	d.Help = []string{fmt.Sprintf("the usage of `%s!` is likely invalid in %s context", name, context)}
	return d
}

func errCompileError(r source.Range, msg string) diag.Diagnostic {
	return newDiag(CodeCompileError, diag.Check, r, msg)
}

func errEnvNotDefined(r source.Range, name, custom string) diag.Diagnostic {
	msg := fmt.Sprintf("environment variable `%s` not defined at compile time", name)
	if custom != "" {
		msg = custom
	}
	d := newDiag(CodeEnvNotDefined, diag.Check, r, msg)
	if name == "OUT_DIR" {
		d.Help = []string{"Cargo sets OUT_DIR only for a package with a build script, and the playground runs none"}
		return d
	}
	d.Help = []string{fmt.Sprintf("Cargo sets only its own variables at compile time; to read `%s` while the program runs, use `std::env::var(%s)`", name, strconv.Quote(name))}
	return d
}

func errMacroArgs(r source.Range, msg string) diag.Diagnostic {
	return newDiag(codeSyntaxError, diag.Parse, r, msg)
}

func errConcatLiteral(r source.Range) diag.Diagnostic {
	d := newDiag(codeSyntaxError, diag.Parse, r, "expected a literal")
	d.Help = []string{"only literals (like `\"foo\"`, `-42` and `3.14`) can be passed to `concat!()`"}
	return d
}

func warnInclude(r source.Range, macro, arg, file string) diag.Diagnostic {
	d := newDiag(codeUnmodelled, diag.Check, r, fmt.Sprintf("`%s!(%s)` reads `%s`, a file of the crate this request does not carry: the playground cannot read it here", macro, strconv.Quote(arg), file))
	d.Severity = diag.Warning
	d.Help = []string{"what is computed from its contents is not checked; put the contents in the program as a literal to run it here"}
	return d
}
