// Package similar finds the name a person most likely meant: rustc's and
// Cargo's "a name with a similar name exists", for a misspelt feature, key,
// variable or method.
package similar

import "strings"

// Name returns the candidate closest to name, if it is close enough to
// be what the user meant: an edit distance (with transpositions, ignoring
// case) of at most a third of the name's length, and at least 1. Ties go
// to the earlier candidate.
func Name(name string, candidates []string) (string, bool) {
	limit := len(name) / 3
	if limit < 1 {
		limit = 1
	}
	best, bestDistance := "", limit+1
	lower := strings.ToLower(name)
	for _, c := range candidates {
		// The distance is at least the difference in length; skipping
		// hopeless candidates keeps a huge name from costing much.
		if c == name || abs(len(c)-len(name)) >= bestDistance {
			continue
		}
		if d := editDistance(lower, strings.ToLower(c)); d < bestDistance {
			best, bestDistance = c, d
		}
	}
	return best, best != ""
}

// editDistance is the optimal string alignment distance between a and b,
// counted in bytes: insertions, deletions, substitutions and swaps of two
// adjacent bytes each cost 1.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
