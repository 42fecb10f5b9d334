package dispatch

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// requirement is burn-autodiff's Requirement
// (crates/burn-autodiff/src/graph/requirement.rs).
type requirement int

const (
	reqNone requirement = iota
	reqGrad
	reqGradInBackward
)

func (r requirement) String() string {
	return [...]string{"None", "Grad", "GradInBackward"}[r]
}

// adNode is a node of burn-autodiff's graph: a leaf made by creation or
// require_grad, or the output of an op on tracked floats.
type adNode struct {
	id          uint64
	order       int
	requirement requirement
	parents     []*adNode // the parents that require gradients
	computed    bool      // an op output (ComputeBound) rather than a leaf (Ambiguous)
	// step is true when a backward step is registered for the node: every
	// op output registers one, even untracked (ops/base.rs:172-190), and
	// require_grad registers a RootStep; a fresh leaf has none.
	step        bool
	consumed    bool     // a backward pass removed the step
	distributed *ParamID // set by Tensor::set_distributed
}

// debug is AutodiffTensor's derived Debug around primitive
// (crates/burn-autodiff/src/tensor.rs:20-25, graph/node.rs:40-49). The node
// id counter is process-wide; the model numbers nodes from zero.
func (n *adNode) debug(primitive string) string {
	parents := make([]string, len(n.parents))
	for i, p := range n.parents {
		parents[i] = fmt.Sprintf("Parent { id: NodeId { value: %d } }", p.id)
	}
	props := "Ambiguous"
	if n.computed {
		props = "ComputeBound"
	}
	distributed := "None"
	if n.distributed != nil {
		distributed = "Some(DistributedParams { param_id: " + n.distributed.debug() + " })"
	}
	return fmt.Sprintf("AutodiffTensor { primitive: %s, node: Node { parents: [%s], order: %d, id: NodeId { value: %d }, requirement: %s, properties: %s, client: GraphMutexClient, distributed_params: %s }, rc: NodeId { value: %d } }",
		primitive, strings.Join(parents, ", "), n.order, n.id, n.requirement, props, distributed, n.id)
}

// newLeaf is AutodiffTensor::new: an untracked leaf without a step.
func (w *World) newLeaf() *adNode {
	n := &adNode{id: w.nextNode}
	w.nextNode++
	return n
}

// newOpNode is AutodiffTensor::from_parents followed by register_step.
func (w *World) newOpNode(inputs ...*adNode) *adNode {
	n := &adNode{id: w.nextNode, computed: true, step: true}
	w.nextNode++
	for _, p := range inputs {
		if p == nil {
			continue
		}
		if p.order+1 > n.order {
			n.order = p.order + 1
		}
		if p.requirement != reqNone {
			n.requirement = reqGradInBackward
			n.parents = append(n.parents, p)
		}
	}
	if n.order == 0 {
		n.order = 1
	}
	if n.requirement != reqNone {
		// An untracked output has no parents: it joins a graph of its own
		// only when a backward pass is rooted at it (graphOf).
		w.graphs.register(n)
	}
	return n
}

// Gradients is the container backward() returns: the gradients of the
// leaves that required them.
type Gradients struct {
	grads map[uint64]bool
	// values are the gradients package tensor computed, nil past the
	// budget. They are shared by clones and only read; grad_replace
	// writes to replaced, by node id, instead.
	values   *tensor.Grads
	replaced map[uint64]*tensor.Tensor
	// cut are the leaves above a step an earlier pass consumed or freed,
	// where this pass stopped (graph/traversal.rs:41-45): the values
	// package tensor computed count the gradient through it, Burn's do
	// not, so they are not known.
	cut map[uint64]bool
}

// valueOf is the values of t's gradient, nil when they were not computed.
func (g *Gradients) valueOf(t *Tensor) *tensor.Tensor {
	if v, ok := g.replaced[t.node.id]; ok {
		return v
	}
	if g.values == nil || !t.hasVals() || g.cut[t.node.id] {
		return nil
	}
	v, _ := g.values.Get(t.vals())
	return v
}

func (*Gradients) TypeName() string { return "Gradients" }

// requireGrad is Autodiff's float_set_require_grad(true): a leaf (or an
// untracked result) becomes a tracked leaf with a RootStep; a result
// computed from tracked tensors cannot (crates/burn-autodiff/src/tensor.rs:106-131).
func (w *World) requireGrad(t *Tensor) (*Tensor, *Panic) {
	switch t.node.requirement {
	case reqGrad:
		return t, nil
	case reqGradInBackward:
		return nil, panicRequireGradNonLeaf()
	}
	out := *t
	out.node = &adNode{id: t.node.id, requirement: reqGrad, computed: t.node.computed, step: true}
	return &out, nil
}

// withAutodiffDeviceFix adds to p, a panic of an operation that needs an
// autodiff tensor, the fix that makes t's device autodiff where the
// program made it.
func withAutodiffDeviceFix(p *Panic, t *Tensor) *Panic {
	if fix, ok := autodiffDeviceFix(t); ok {
		p.Fixes = append(p.Fixes, fix)
	}
	return p
}

// backward runs Dispatch::backward (crates/burn-dispatch/src/backend.rs:287-324)
// and the graph traversal of burn-autodiff's server: the root needs a
// registered step, the traversal consumes the steps it visits, and every
// leaf that required gradients and feeds a visited step gets one.
func (w *World) backward(t *Tensor) (*Gradients, *Panic) {
	if !t.tracked {
		return nil, withAutodiffDeviceFix(panicRequiresAutodiff(entryBackward), t)
	}
	if t.on.backend == Capture {
		return nil, panicCaptureAutodiff(entryBackward)
	}
	root := t.node
	if !root.step || root.consumed {
		return nil, panicBackwardNoStep()
	}
	graph := w.graphs.graphOf(root)
	g := &Gradients{grads: map[uint64]bool{}, replaced: map[uint64]*tensor.Tensor{}}
	if root.requirement == reqGrad {
		g.grads[root.id] = true
	}
	visited := map[*adNode]bool{root: true}
	consumed := []*adNode{root}
	var cut []*adNode
	root.consumed = true
	queue := append([]*adNode(nil), root.parents...)
	for len(queue) > 0 {
		n := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if n.requirement == reqGrad {
			g.grads[n.id] = true
		}
		if visited[n] || !n.step || n.consumed {
			if n.consumed && !visited[n] && len(n.parents) > 0 {
				cut = append(cut, n)
			}
			continue
		}
		visited[n] = true
		n.consumed = true
		consumed = append(consumed, n)
		queue = append(queue, n.parents...)
	}
	w.graphs.cleanup(graph, consumed, t)
	above := map[*adNode]bool{}
	for len(cut) > 0 {
		n := cut[len(cut)-1]
		cut = cut[:len(cut)-1]
		if above[n] {
			continue
		}
		above[n] = true
		if n.requirement == reqGrad {
			if g.cut == nil {
				g.cut = map[uint64]bool{}
			}
			g.cut[n.id] = true
		}
		cut = append(cut, n.parents...)
	}
	return g, nil
}

// gradOf is Dispatch::grad / grad_remove: the gradient, if the graph
// produced one, comes back as a plain float on the inner backend carrying
// the source's checkpointing (backend.rs:326-480).
func (w *World) gradOf(t *Tensor, g *Gradients, remove bool, entry autodiffEntry) (Value, *Panic) {
	if !t.tracked {
		return nil, withAutodiffDeviceFix(panicRequiresAutodiff(entry), t)
	}
	if t.on.backend == Capture {
		return nil, panicCaptureAutodiff(entry)
	}
	if !g.grads[t.node.id] {
		return none(), nil
	}
	grad := w.newTensor(KindFloat, t.shape, t.dtype, t.on)
	grad.ckp = copyStrategy(t.ckp)
	grad.val = g.valueOf(t)
	if remove {
		delete(g.grads, t.node.id)
		delete(g.replaced, t.node.id)
	}
	return some(grad), nil
}

func copyStrategy(s *Strategy) *Strategy {
	if s == nil {
		return nil
	}
	c := *s
	return &c
}

func strategyPtr(s Strategy) *Strategy { return &s }

func none() Value        { return &Enum{Type: "Option", Variant: "None"} }
func some(v Value) Value { return &Enum{Type: "Option", Variant: "Some", Fields: []Value{v}} }
