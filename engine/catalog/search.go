package catalog

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
)

// maxSearchResults bounds what Search returns; beyond a handful the
// matches are word coincidences, not answers.
const maxSearchResults = 10

// Search finds the records of a pasted message, best first. Records whose
// messagePattern occurs in the text come first, the match with the most
// fixed text (outside placeholders) leading; then records whose message contains the
// text; then records sharing at least half of the text's words. Patterns
// made only of placeholders match anything and are left to the later
// tiers.
func Search(text string) []Record {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	c := load()
	query := words(text)
	lower := strings.ToLower(text)

	type hit struct {
		index int
		tier  int
		score float64
	}
	var hits []hit
	records := c.records()
	for i, r := range records {
		switch {
		case !r.matchesAnything && r.re.MatchString(text):
			hits = append(hits, hit{i, 0, float64(fixedTextMatched(r, text))})
		case strings.Contains(r.lowerMessage, lower):
			hits = append(hits, hit{i, 1, float64(len(lower)) / float64(len(r.Message))})
		default:
			if s := overlap(query, r.words); s >= 0.5 {
				hits = append(hits, hit{i, 2, s})
			}
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.tier != b.tier {
			return cmp.Compare(a.tier, b.tier)
		}
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(a.index, b.index)
	})
	if len(hits) > maxSearchResults {
		hits = hits[:maxSearchResults]
	}
	out := make([]Record, len(hits))
	for i, h := range hits {
		out[i] = records[h.index].clone()
	}
	return out
}

// fixedTextMatched is the length of the pattern's leftmost match in text
// minus what its placeholders captured: the amount of the record's own
// wording found in the text.
func fixedTextMatched(r Record, text string) int {
	m := r.re.FindStringSubmatchIndex(text)
	if m == nil {
		return 0
	}
	n := m[1] - m[0]
	for _, g := range r.placeholders {
		if start, end := m[2*g], m[2*g+1]; start >= 0 {
			n -= end - start
		}
	}
	return n
}

// words returns the distinct lowercase words of at least three letters or
// digits, common English words left out: they say little about which
// message it is.
func words(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(w) >= 3 && !stopWords[w] {
			set[w] = true
		}
	}
	return set
}

var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "are": true, "was": true,
	"with": true, "this": true, "that": true, "its": true, "from": true,
}

// overlap is the share of the query's words found in the record's words.
func overlap(query, record map[string]bool) float64 {
	if len(query) == 0 {
		return 0
	}
	n := 0
	for w := range query {
		if record[w] {
			n++
		}
	}
	return float64(n) / float64(len(query))
}
