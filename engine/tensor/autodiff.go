package tensor

// The autodiff tape, modelled on burn-autodiff (crates/burn-autodiff at
// 2c06be35): every float result of an operation with a tracked input
// gets a node holding its parents and the step that turns the result's
// gradient into theirs. Burn's requirements map onto nodes as follows:
// Requirement::Grad is a leaf node, GradInBackward a node with parents,
// and Requirement::None no node at all.

// node is a tracked tensor's place in the graph.
type node struct {
	leaf bool
	// parents has one entry per input of the operation, nil where that
	// input is not tracked.
	parents []*node
	// backward returns the gradient of each input that need marks, given
	// the gradient of the result (burn-autodiff's Backward::backward).
	backward func(grad *Data, need []bool) []*Data
	size     int   // elements of the result, for the budget
	work     int64 // multiply-adds its backward step does (matmul)
}

// track wraps an operation's result, giving it a node when any input is
// tracked. Only float results are tracked: int and bool results never are,
// in Burn as here.
func track(out *Data, inputs []*Tensor, backward func(grad *Data, need []bool) []*Data) *Tensor {
	t := &Tensor{Data: *out}
	if !out.DType.IsFloat() {
		return t
	}
	var parents []*node
	for i, in := range inputs {
		if in != nil && in.node != nil {
			if parents == nil {
				parents = make([]*node, len(inputs))
			}
			parents[i] = in.node
		}
	}
	if parents != nil {
		t.node = &node{parents: parents, backward: backward, size: out.NumElements()}
	}
	return t
}

// Grads is burn-autodiff's Gradients after a backward pass: the gradient
// of every leaf that required grad and that the root depends on.
// Gradients of intermediate results are consumed during the pass, so
// grad() on one finds nothing, as in Burn.
type Grads struct {
	byNode map[*node]*Data
}

// Backward is tensor.backward(): it seeds the root's gradient with ones of
// the root's shape and dtype (Gradients::new, crates/burn-autodiff/src/
// grads.rs:55-72), so a non-scalar root differentiates the sum of its
// elements, then walks the graph from the root to the leaves, adding up
// the gradients of tensors used more than once. budget pays for one
// gradient per element of every tracked tensor the root depends on, and
// for the matmul gradients' multiply-adds; ErrBudget leaves the caller
// with shapes only.
func Backward(root *Tensor, budget *Budget) (*Grads, error) {
	if root.node == nil {
		return nil, ErrNotTracked
	}
	order := reverseTopological(root.node)
	var elements, work int64
	for _, n := range order {
		elements += int64(n.size)
		work += n.work
	}
	if !budget.Take(elements) || !budget.TakeWork(work) {
		return nil, ErrBudget
	}
	pending := map[*node]*Data{root.node: onesData(root.Shape, root.DType)}
	grads := &Grads{byNode: map[*node]*Data{}}
	for _, n := range order {
		g, ok := pending[n]
		if !ok {
			continue
		}
		delete(pending, n)
		if n.leaf {
			grads.byNode[n] = g
			continue
		}
		need := make([]bool, len(n.parents))
		for i, p := range n.parents {
			need[i] = p != nil
		}
		for i, pg := range n.backward(g, need) {
			p := n.parents[i]
			if p == nil || pg == nil {
				continue
			}
			if old, ok := pending[p]; ok {
				pending[p] = addData(pg, old)
			} else {
				pending[p] = pg
			}
		}
	}
	return grads, nil
}

// reverseTopological lists the nodes the root depends on, each before its
// parents, by an iterative depth-first walk (a long loop in a snippet
// makes a deep graph).
func reverseTopological(root *node) []*node {
	type frame struct {
		n    *node
		next int
	}
	visited := map[*node]bool{root: true}
	var post []*node
	stack := []frame{{n: root}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(top.n.parents) {
			p := top.n.parents[top.next]
			top.next++
			if p != nil && !visited[p] {
				visited[p] = true
				stack = append(stack, frame{n: p})
			}
			continue
		}
		post = append(post, top.n)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// Get is tensor.grad(&grads): the gradient of a leaf that required grad,
// as an untracked tensor.
func (g *Grads) Get(t *Tensor) (*Tensor, bool) {
	if t.node == nil {
		return nil, false
	}
	d, ok := g.byNode[t.node]
	if !ok {
		return nil, false
	}
	return &Tensor{Data: *d}, true
}

// Remove is tensor.grad_remove(&mut grads): the gradient, taken out of the
// container.
func (g *Grads) Remove(t *Tensor) (*Tensor, bool) {
	grad, ok := g.Get(t)
	if ok {
		delete(g.byNode, t.node)
	}
	return grad, ok
}

// Replace is tensor.grad_replace(&mut grads, grad): the container holds
// grad for t from now on.
func (g *Grads) Replace(t *Tensor, grad *Tensor) {
	if t.node != nil {
		g.byNode[t.node] = &grad.Data
	}
}

// Len is how many gradients the container holds.
func (g *Grads) Len() int { return len(g.byNode) }

func onesData(shape []int, dtype DType) *Data {
	return &Ones(shape, dtype).Data
}

// addData adds two float gradients of one shape, rounding to their dtype.
func addData(a, b *Data) *Data {
	out := newData(a.DType, a.Shape)
	for i := range out.F {
		out.F[i] = a.DType.roundFloat(a.F[i] + b.F[i])
	}
	return out
}
