package tensor

// Matmul is matmul: [.., m, k] x [.., k, n] -> [.., m, n], the batch dims
// broadcast as element-wise ops broadcast. Products accumulate in float64
// and round once per output element; a backend accumulating in f32 (with
// its own order and fused multiply-adds) can differ in the last digit.
// Its gradients are grad x rhs^T and lhs^T x grad, summed over the batch
// dims an operand was broadcast along. The caller pays MatmulWork from the
// budget first; the backward pass pays twice that.
func Matmul(a, b *Tensor) (*Tensor, error) {
	if a.DType.Kind() != b.DType.Kind() || a.DType.IsBool() {
		return nil, kindError("matmul of %s and %s tensors", a.DType.Kind(), b.DType.Kind())
	}
	rank := len(a.Shape)
	if rank < 2 || len(b.Shape) != rank {
		return nil, shapeError("matmul of shapes %v and %v", a.Shape, b.Shape)
	}
	m, k, n := a.Shape[rank-2], a.Shape[rank-1], b.Shape[rank-1]
	if b.Shape[rank-2] != k {
		return nil, shapeError("matmul of shapes %v and %v", a.Shape, b.Shape)
	}
	batch, err := broadcastShape(a.Shape[:rank-2], b.Shape[:rank-2])
	if err != nil {
		return nil, err
	}
	shape := append(append([]int(nil), batch...), m, n)
	p := &product{m: m, k: k, n: n,
		aBatch: batchIndex(a.Shape[:rank-2], batch), bBatch: batchIndex(b.Shape[:rank-2], batch)}
	out := newData(a.DType, shape)
	if a.DType.IsInt() {
		p.multiplyInt(a.I, b.I, out.I)
		for i, v := range out.I {
			out.I[i] = a.DType.wrapInt(v)
		}
		return &Tensor{Data: *out}, nil
	}
	acc := make([]float64, len(out.F))
	p.multiply(a.F, b.F, acc)
	for i, v := range acc {
		out.F[i] = a.DType.roundFloat(v)
	}
	result := track(out, []*Tensor{a, b}, func(g *Data, need []bool) []*Data {
		grads := make([]*Data, 2)
		if need[0] {
			ga := make([]float64, len(a.F))
			p.gradLHS(g.F, b.F, ga)
			grads[0] = sumInto(ga, nil, a.Shape, a.DType)
		}
		if need[1] {
			gb := make([]float64, len(b.F))
			p.gradRHS(a.F, g.F, gb)
			grads[1] = sumInto(gb, nil, b.Shape, b.DType)
		}
		return grads
	})
	if result.node != nil {
		result.node.work = 2 * int64(len(p.aBatch)) * int64(m) * int64(k) * int64(n)
	}
	return result, nil
}

// product is one batched matrix product: per output batch, which matrix
// of each operand it reads.
type product struct {
	m, k, n        int
	aBatch, bBatch []int
}

// batchIndex maps each output batch to the operand's matrix number.
func batchIndex(in, out []int) []int {
	index := broadcastIndex(in, out)
	if index == nil {
		index = make([]int, numel(out))
		for i := range index {
			index[i] = i
		}
	}
	return index
}

func (p *product) multiply(a, b, out []float64) {
	m, k, n := p.m, p.k, p.n
	for batch := range p.aBatch {
		am, bm, om := a[p.aBatch[batch]*m*k:], b[p.bBatch[batch]*k*n:], out[batch*m*n:]
		for i := range m {
			row := om[i*n : (i+1)*n]
			for l := range k {
				x := am[i*k+l]
				brow := bm[l*n : (l+1)*n]
				for j, y := range brow {
					row[j] += x * y
				}
			}
		}
	}
}

func (p *product) multiplyInt(a, b, out []int64) {
	m, k, n := p.m, p.k, p.n
	for batch := range p.aBatch {
		am, bm, om := a[p.aBatch[batch]*m*k:], b[p.bBatch[batch]*k*n:], out[batch*m*n:]
		for i := range m {
			for l := range k {
				x := am[i*k+l]
				for j := range n {
					om[i*n+j] += x * bm[l*n+j]
				}
			}
		}
	}
}

// gradLHS adds g x b^T into ga, batch by batch.
func (p *product) gradLHS(g, b, ga []float64) {
	m, k, n := p.m, p.k, p.n
	for batch := range p.aBatch {
		gm, bm, am := g[batch*m*n:], b[p.bBatch[batch]*k*n:], ga[p.aBatch[batch]*m*k:]
		for i := range m {
			grow := gm[i*n : (i+1)*n]
			for l := range k {
				brow := bm[l*n : (l+1)*n]
				s := 0.0
				for j, v := range grow {
					s += v * brow[j]
				}
				am[i*k+l] += s
			}
		}
	}
}

// gradRHS adds a^T x g into gb, batch by batch.
func (p *product) gradRHS(a, g, gb []float64) {
	m, k, n := p.m, p.k, p.n
	for batch := range p.aBatch {
		am, gm, bm := a[p.aBatch[batch]*m*k:], g[batch*m*n:], gb[p.bBatch[batch]*k*n:]
		for i := range m {
			grow := gm[i*n : (i+1)*n]
			for l := range k {
				x := am[i*k+l]
				brow := bm[l*n : (l+1)*n]
				for j, v := range grow {
					brow[j] += x * v
				}
			}
		}
	}
}
