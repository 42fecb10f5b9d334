package dispatch

// ArgExpect is the type Rust infers for argument i of a tensor method
// from its signature, for the arguments ops.tsv types as `T` (a tensor of
// the receiver's kind and rank): `x.mul(y.mean_dim(1).unsqueeze())` makes
// the unsqueeze's D2 the receiver's rank. It is "" when the signature
// leaves the argument's type open.
func ArgExpect(recv Value, method string, i int) string {
	t, ok := Deref(recv).(*Tensor)
	if !ok {
		return ""
	}
	row, ok := opTable[method]
	if !ok || i >= len(row.args) || row.args[i] != "T" {
		return ""
	}
	return t.TypeName()
}
