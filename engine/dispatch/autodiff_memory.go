package dispatch

// burn-autodiff's graph memory management, as far as a program can see
// it: which nodes a backward pass frees, so that a later backward rooted
// at one of them panics (crates/burn-autodiff/src/runtime/server.rs:69)
// and a later traversal stops there.
//
// Burn keeps every registered node (a node with a step: an op output on
// tracked inputs, a leaf that required gradients) in one graph of its
// GraphLocator (runtime/graph.rs:197-300): a node joins the graph of its
// own id and of its parents', merging them when they are several, or a new
// one when none of them is located. Each graph's GraphMemoryManagement
// (runtime/memory_management.rs) holds its nodes with their parents and a
// NodeRefCount, an Arc that every tensor handle on the node clones
// (tensor.rs:20-25, 51): a node is referenced when a handle lives.
// AutodiffServer::backward (server.rs:62-105), in the root's graph only:
//
//  1. consume_node (memory_management.rs:52-58): each node the traversal
//     consumed leaves the graph when no handle refers to it;
//  2. the cleaner removes every consumed node from the locator, referenced
//     or not (server.rs:102-104, graph.rs:185-189, 283-300), so an op on a
//     consumed node later starts a graph without it;
//  3. free_unavailable_nodes (memory_management.rs:60-96): a node with a
//     parent missing from the graph is unavailable, and so is every node
//     below it; those are deleted with their steps. Nodes no living handle
//     can reach again (neither referenced nor above a referenced node) are
//     deleted too; the model keeps them, which changes nothing a program
//     can observe, since no handle reaches them.
//
// Which handles live is the evaluator's to say (SetLiveHandles). When it
// cannot tell, every node counts as referenced, so no node leaves the
// graph in step 1: the model then frees a subset of what Burn frees and
// never panics where Burn does not.

// maxGraphNodes bounds the nodes of one graph the model sweeps after each
// backward pass; past it the model stops freeing nodes (as if every handle
// lived), which keeps the cost of a long loop that never frees flat.
const maxGraphNodes = 1 << 12

// graphMemory is the GraphLocator and the memory management of its graphs.
type graphMemory struct {
	// located is GraphLocator::graphs: the graph of each node id.
	located map[uint64]*adGraph
	off     bool
	live    func(root *Tensor, add func(*Tensor)) bool
}

// adGraph is one Graph of the locator: its memory management's nodes by
// id. into is the graph it was merged into.
type adGraph struct {
	into  *adGraph
	nodes map[uint64]*adNode
}

// SetLiveHandles gives the World the evaluator's view of the tensor
// handles the program holds while root's backward() runs: live calls add
// for each handle it can see and returns false when it cannot tell (then
// every node counts as referenced).
func (w *World) SetLiveHandles(live func(root *Tensor, add func(*Tensor)) bool) {
	w.graphs.live = live
}

// find is the graph id is located in, nil when none.
func (m *graphMemory) find(id uint64) *adGraph {
	g := m.located[id]
	if g == nil {
		return nil
	}
	top := g
	for top.into != nil {
		top = top.into
	}
	for g != top {
		next := g.into
		g.into = top
		g = next
	}
	m.located[id] = top
	return top
}

// register is AutodiffServer::register through GraphLocator::select
// (graph.rs:197-214, server.rs:52-60). A leaf that required gradients is
// registered with its RootStep when it requires them; the model registers
// it when it first matters, as the parent of a node or the root of a
// backward pass, which is the same as long as its step was not consumed.
func (m *graphMemory) register(n *adNode) *adGraph {
	if m.off {
		return nil
	}
	g := m.find(n.id)
	for _, p := range n.parents {
		pg := m.find(p.id)
		if pg == nil && p.step && !p.consumed && len(p.parents) == 0 {
			pg = m.register(p)
		}
		switch {
		case pg == nil || pg == g:
		case g == nil:
			g = pg
		default:
			g = mergeGraphs(g, pg)
		}
		if m.off {
			return nil
		}
	}
	if g == nil {
		g = &adGraph{nodes: map[uint64]*adNode{}}
	}
	if m.located == nil {
		m.located = map[uint64]*adGraph{}
	}
	m.located[n.id] = g
	g.nodes[n.id] = n
	if len(g.nodes) > maxGraphNodes {
		m.off, m.located = true, nil
		return nil
	}
	return g
}

// mergeGraphs is GraphLocator::merge (graph.rs:248-268): one graph holds
// both graphs' nodes.
func mergeGraphs(a, b *adGraph) *adGraph {
	if len(a.nodes) < len(b.nodes) {
		a, b = b, a
	}
	for id, n := range b.nodes {
		a.nodes[id] = n
	}
	b.nodes, b.into = nil, a
	return a
}

// graphOf is the graph a backward pass rooted at root runs in
// (graph.rs:128-131): its own, registering it if it was not yet.
func (m *graphMemory) graphOf(root *adNode) *adGraph {
	if m.off {
		return nil
	}
	if g := m.find(root.id); g != nil {
		return g
	}
	return m.register(root)
}

// cleanup is AutodiffServer::cleanup after the pass consumed the nodes in
// consumed (the root first): steps 1 to 3 above.
func (m *graphMemory) cleanup(g *adGraph, consumed []*adNode, root *Tensor) {
	if m.off || g == nil {
		return
	}
	// The root's handle lives: Tensor::backward borrows it
	// (crates/burn-tensor/src/tensor/api/autodiff.rs:53).
	live := map[uint64]bool{root.node.id: true}
	known := m.live != nil && m.live(root, func(t *Tensor) {
		if t != nil && t.node != nil {
			live[t.node.id] = true
		}
	})
	for _, n := range consumed {
		if known && !live[n.id] {
			delete(g.nodes, n.id)
		}
		delete(m.located, n.id)
	}
	// unavailable_propagation (memory_management.rs:124-156), memoized.
	status := make(map[uint64]bool, len(g.nodes))
	var unavailable func(n *adNode) bool
	unavailable = func(n *adNode) bool {
		if s, seen := status[n.id]; seen {
			return s
		}
		status[n.id] = false
		bad := false
		for _, p := range n.parents {
			if pn, in := g.nodes[p.id]; !in || unavailable(pn) {
				bad = true
			}
		}
		status[n.id] = bad
		return bad
	}
	var doomed []*adNode
	for _, n := range g.nodes {
		if unavailable(n) {
			doomed = append(doomed, n)
		}
	}
	for _, n := range doomed {
		// Its step goes with it (server.rs:97-101).
		n.consumed = true
		delete(g.nodes, n.id)
		delete(m.located, n.id)
	}
}
