package dispatch

// Unchecked is what an assertion of Burn's API (TensorData::assert_eq,
// assert_approx_eq) returns when it could not compare: the values of the
// operands Missing names (0 the receiver, i+1 argument i) are not known
// (an operation whose values are not computed, a tensor past the value
// budget). It stands for (); the caller turns it into a
// playground-unchecked warning at the call, so the assertion never passes
// in silence.
type Unchecked struct {
	Missing []int
}

func (Unchecked) TypeName() string { return "()" }

// unchecked is the Unchecked of a comparison of self and other, either of
// which may lack values.
func unchecked(self, other *TensorData) Unchecked {
	var u Unchecked
	if self.values == nil {
		u.Missing = append(u.Missing, 0)
	}
	if other.values == nil {
		u.Missing = append(u.Missing, 1)
	}
	return u
}
