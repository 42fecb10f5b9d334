package tensor

import "fmt"

// Lazy is a tensor's values not made yet: a creation op's (random, zeros,
// ones, full) whose elements each depend on their index only, so that they
// can be made when an operation first reads them, and a few of them can be
// shown without making the rest. A model's parameters are the common case:
// a Linear of 1024×512 draws half a million values that nothing reads when
// the batch it is fed carries its shape only.
//
// A Lazy makes its tensor once and every reader gets that one (its
// autodiff node included), so a Lazy is shared freely, as Data is.
type Lazy struct {
	shape []int
	dtype DType
	// elem writes element i into dst's element j; make fills all of them.
	elem func(dst *Data, j, i int)
	make func() *Tensor
	t    *Tensor
	made bool
}

// Force is the tensor, made on the first call.
func (l *Lazy) Force() *Tensor {
	if !l.made {
		l.t, l.made = l.make(), true
		l.make, l.elem = nil, nil
	}
	return l.t
}

// DType is the tensor's dtype.
func (l *Lazy) DType() DType { return l.dtype }

// Shape is the tensor's dims.
func (l *Lazy) Shape() []int { return l.shape }

// Preview is Data.Preview of the tensor, made from the elements it shows
// when the tensor is large.
func (l *Lazy) Preview(max int) string {
	n := numel(l.shape)
	if l.made || n <= max || n <= 6 {
		if t := l.Force(); t != nil {
			return t.Preview(max)
		}
		return ""
	}
	idx := []int{0, 1, 2, n - 3, n - 2, n - 1}
	some := newData(l.dtype, []int{len(idx)})
	for j, i := range idx {
		l.elem(some, j, i)
	}
	return previewLarge(some, n)
}

// Then is a Lazy of f applied to this one's tensor when it is made, for an
// f that keeps the values (require_grad, detach, a move between devices):
// the preview is this one's.
func (l *Lazy) Then(f func(*Tensor) *Tensor) *Lazy { return l.then(l.shape, f) }

// Reshaped is a Lazy of this one's tensor reshaped to shape, which has as
// many elements: element i is the same, so is the preview.
func (l *Lazy) Reshaped(shape []int) *Lazy {
	return l.then(shape, func(t *Tensor) *Tensor {
		r, err := Reshape(t, shape)
		if err != nil {
			return nil
		}
		return r
	})
}

// then is a Lazy in shape of f applied to this one's tensor, element i
// of which is this one's element i; a tensor that could not be made stays
// unmade (nil).
func (l *Lazy) then(shape []int, f func(*Tensor) *Tensor) *Lazy {
	apply := func(t *Tensor) *Tensor {
		if t == nil {
			return nil
		}
		return f(t)
	}
	if l.made {
		return &Lazy{shape: shape, dtype: l.dtype, t: apply(l.t), made: true}
	}
	return &Lazy{shape: shape, dtype: l.dtype, elem: l.elem, make: func() *Tensor { return apply(l.Force()) }}
}

// RandomLater is Random made lazily: rng moves on now past the draws
// Random would take, so that every later draw is the one it would be, and
// the values are Random's when they are made.
func RandomLater(shape []int, dtype DType, dist Distribution, rng *RNG) (*Lazy, error) {
	if err := dist.check(); err != nil {
		return nil, err
	}
	var lo, hi int64
	if dtype.IsInt() {
		lo, hi = dtype.floatToInt(dist.Low), dtype.floatToInt(dist.High)
		if dist.Kind == DistUniform && lo >= hi {
			return nil, fmt.Errorf("%w: Uniform(%d, %d) is empty for %s", ErrDistribution, lo, hi, dtype)
		}
	}
	start := *rng
	k := drawsPerElement(dist)
	rng.state += uint64(numel(shape)) * k * splitMixGamma
	shape = append([]int(nil), shape...)
	return &Lazy{
		shape: shape, dtype: dtype,
		elem: func(dst *Data, j, i int) {
			at := RNG{state: start.state + uint64(i)*k*splitMixGamma}
			switch {
			case dtype.IsFloat():
				dst.F[j] = sampleFloat(dist, dtype, &at)
			case dtype.IsInt():
				dst.I[j] = sampleInt(dist, dtype, lo, hi, &at)
			default:
				dst.B[j] = sampleFloat(dist, F32, &at) != 0
			}
		},
		make: func() *Tensor {
			at := start
			t, _ := Random(shape, dtype, dist, &at)
			return t
		},
	}, nil
}

// FullLater is Full made lazily (zeros and ones are fills of 0 and 1).
func FullLater(shape []int, dtype DType, value Scalar) *Lazy {
	shape = append([]int(nil), shape...)
	one := Full([]int{1}, dtype, value)
	return &Lazy{
		shape: shape, dtype: dtype,
		elem: func(dst *Data, j, _ int) {
			dst.F, dst.I, dst.B = fillAt(dst.F, one.F, j), fillAt(dst.I, one.I, j), fillAt(dst.B, one.B, j)
		},
		make: func() *Tensor { return Full(shape, dtype, value) },
	}
}

// fillAt sets dst[j] to the one value of src, for the store a dtype uses
// (the others are nil and stay so).
func fillAt[E any](dst, src []E, j int) []E {
	if dst != nil {
		dst[j] = src[0]
	}
	return dst
}
