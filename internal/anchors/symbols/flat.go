package symbols

// #include "flatten.h"
import "C"

import (
	"sync"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// rawNode mirrors clew_node (flatten.h) field for field.
type rawNode struct {
	start, end          uint32
	parent, first, next int32
	namedKids           uint32
	sym, field          uint16
	flags               uint8
	_                   [3]uint8
	ts                  struct { // clew_ts_node: the C node, for clew_child_by_field
		context  [4]uint32
		id, tree uintptr
	}
}

// The two layouts must agree; these fail to compile otherwise.
var (
	_ [unsafe.Sizeof(rawNode{}) - C.sizeof_clew_node]byte
	_ [C.sizeof_clew_node - unsafe.Sizeof(rawNode{})]byte
)

// tsNode is one syntax node of a flattened tree. Walkers hold pointers into
// the tree's node slice, so nil still means "absent" and nothing is
// allocated per node visited.
type tsNode struct {
	rawNode
	t *flatTree
}

// flatTree is a whole syntax tree copied out of tree-sitter in one cgo call.
type flatTree struct {
	nodes []tsNode
	st    *symbolTable
}

var rawPool = sync.Pool{New: func() any { return new([]rawNode) }}

// flatten copies the tree under root. The tree may be closed afterwards.
func flatten(root *sitter.Node, st *symbolTable, srcLen int) *flatTree {
	// go-tree-sitter keeps the C TSNode as the first field of Node; the
	// runtime check in rootMatches guards against a change of that layout.
	cRoot := *(*C.clew_ts_node)(unsafe.Pointer(root))
	bufp := rawPool.Get().(*[]rawNode)
	defer rawPool.Put(bufp)
	buf := *bufp
	if cap(buf) < srcLen/2+64 {
		buf = make([]rawNode, srcLen/2+64)
	}
	buf = buf[:cap(buf)]
	for {
		n := int(C.clew_flatten(cRoot, (*C.clew_node)(unsafe.Pointer(&buf[0])), C.int(len(buf))))
		if n >= 0 {
			buf = buf[:n]
			break
		}
		buf = make([]rawNode, 2*len(buf))
	}
	*bufp = buf[:0]
	t := &flatTree{nodes: make([]tsNode, len(buf)), st: st}
	for i := range buf {
		t.nodes[i] = tsNode{rawNode: buf[i], t: t}
	}
	if !rootMatches(&t.nodes[0], root) {
		panic("symbols: tree-sitter node layout changed")
	}
	return t
}

func rootMatches(n *tsNode, root *sitter.Node) bool {
	return n.start == root.StartByte() && n.end == root.EndByte() && n.sym == uint16(root.Symbol())
}

func (t *flatTree) root() *tsNode { return &t.nodes[0] }

func (t *flatTree) at(i int32) *tsNode {
	if i < 0 {
		return nil
	}
	return &t.nodes[i]
}

// The accessors keep go-tree-sitter's names so the language walkers read
// the same as before.

func (n *tsNode) StartByte() uint32    { return n.start }
func (n *tsNode) EndByte() uint32      { return n.end }
func (n *tsNode) Symbol() uint16       { return n.sym }
func (n *tsNode) IsNamed() bool        { return n.flags&C.CLEW_NAMED != 0 }
func (n *tsNode) IsMissing() bool      { return n.flags&C.CLEW_MISSING != 0 }
func (n *tsNode) NamedChildCount() int { return int(n.namedKids) }
func (n *tsNode) firstChild() *tsNode  { return n.t.at(n.first) }
func (n *tsNode) nextSibling() *tsNode { return n.t.at(n.next) }

// Type is the grammar's name for the node ("ERROR" for an error node).
func (n *tsNode) Type() string { return n.t.st.symbolName(n.sym) }

// fieldName is the field this node fills in its parent, "" for none.
func (n *tsNode) fieldName() string { return n.t.st.fieldName(n.field) }

// ChildByFieldName returns the first child under the field name, as
// ts_node_child_by_field_name does. The cursor recorded one field per child;
// a child that fills several (Swift's `name` and `type`) is found by asking
// tree-sitter, which costs one cgo call.
func (n *tsNode) ChildByFieldName(name string) *tsNode {
	id, ok := n.t.st.fieldID[name]
	if !ok || n.first < 0 {
		return nil
	}
	for c := n.firstChild(); c != nil; c = c.nextSibling() {
		if c.field == id {
			return c
		}
	}
	found := uintptr(C.clew_child_by_field(*(*C.clew_ts_node)(unsafe.Pointer(&n.ts)), C.uint16_t(id)))
	if found == 0 {
		return nil
	}
	// The answer is visible and reached only through hidden nodes, so it is
	// a child here; the subtree is the fallback for a grammar that breaks that.
	end := len(n.t.nodes)
	for p := n; p != nil; p = n.t.at(p.parent) {
		if p.next >= 0 {
			end = int(p.next)
			break
		}
	}
	for i := int(n.first); i < end; i++ {
		if n.t.nodes[i].ts.id == found {
			return &n.t.nodes[i]
		}
	}
	return nil
}

// firstNamedChild returns the first named child, nil when there is none.
func (n *tsNode) firstNamedChild() *tsNode {
	for c := n.firstChild(); c != nil; c = c.nextSibling() {
		if c.IsNamed() {
			return c
		}
	}
	return nil
}

// symbolName is ts_node_type for a symbol of this grammar.
func (st *symbolTable) symbolName(sym uint16) string {
	switch {
	case int(sym) < len(st.name):
		return st.name[sym]
	case sym == errorSymbol:
		return "ERROR"
	case sym == errorSymbol-1:
		return "_ERROR"
	}
	return ""
}

func (st *symbolTable) fieldName(id uint16) string {
	if int(id) < len(st.fields) {
		return st.fields[id]
	}
	return ""
}

// buildFields lists a grammar's field names by id (id 0 is "no field").
func buildFields(g *sitter.Language) ([]string, map[string]uint16) {
	names := []string{""}
	ids := map[string]uint16{}
	for id := 1; id < 1<<16; id++ {
		name := g.FieldName(id)
		if name == "" {
			break
		}
		names = append(names, name)
		if _, dup := ids[name]; !dup {
			ids[name] = uint16(id)
		}
	}
	return names, ids
}

// cursorWalk parses src and walks the tree in C only: the reference that
// BenchmarkTablesVsCursorWalk measures Parse against.
func cursorWalk(lang Language, src []byte) uint64 {
	tree := parseTree(lang, src, nil)
	if tree == nil {
		return 0
	}
	defer tree.Close()
	return uint64(C.clew_cursor_walk(*(*C.clew_ts_node)(unsafe.Pointer(tree.RootNode()))))
}
