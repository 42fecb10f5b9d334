package engine

import (
	"sort"
)

// ApplyFix returns the request with the fix's edits applied. Edits address
// byte offsets of the request's own texts; edits that do not fit the text
// are skipped.
func ApplyFix(req Request, fix Fix) Request {
	byFile := map[string][]Edit{}
	for _, e := range fix.Edits {
		byFile[e.File] = append(byFile[e.File], e)
	}
	req.Snippet = applyEdits(req.Snippet, byFile["main.rs"])
	req.Config = applyEdits(req.Config, byFile["Cargo.toml"])
	return req
}

func applyEdits(text string, edits []Edit) string {
	// Apply from the end so earlier offsets stay valid.
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Span.Start.Offset > edits[j].Span.Start.Offset })
	for _, e := range edits {
		s, t := e.Span.Start.Offset, e.Span.End.Offset
		if s < 0 || t < s || t > len(text) {
			continue
		}
		text = text[:s] + e.NewText + text[t:]
	}
	return text
}
