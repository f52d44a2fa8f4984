package symbols

// #include "flatten.h"
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// tsNode mirrors clew_node (flatten.h) field for field: one syntax node of
// a flattened tree. Walkers hold pointers into the tree's node array, so nil
// still means "absent" and nothing is allocated per node visited. Its links
// are relative (see flatten.h), so a node reaches its neighbours and its
// grammar's tables without a pointer: the array holds no pointers, the
// collector never scans it, and one array is reused from file to file.
type tsNode struct {
	start, end uint32
	up, size   uint32
	namedKids  uint32
	sym, field uint16
	flags      uint8
	lang       uint8
	_          [6]uint8
	id         uintptr // TSNode.id; the header's: TSNode.tree
}

// The two layouts must agree; these fail to compile otherwise.
var (
	_ [unsafe.Sizeof(tsNode{}) - C.sizeof_clew_node]byte
	_ [C.sizeof_clew_node - unsafe.Sizeof(tsNode{})]byte
)

// flatTree is a whole syntax tree copied out of tree-sitter in one cgo call.
// Its nodes are valid until release.
type flatTree struct {
	nodes []tsNode
	buf   []tsNode // the header, then nodes
}

// nodeArrays keeps node arrays of up to 64Ki nodes (4 MiB; a Go file of
// about 250 KB) between parses.
var nodeArrays = freeList[tsNode]{maxKept: 1 << 16}

// flatten copies the tree under root, whose grammar's symbol table is st.
// The tree may be closed afterwards; release gives the nodes back.
func flatten(root *sitter.Node, st *symbolTable, srcLen int) *flatTree {
	// go-tree-sitter keeps the C TSNode as the first field of Node; the
	// runtime check in rootMatches guards against a change of that layout.
	cRoot := *(*C.clew_ts_node)(unsafe.Pointer(root))
	// A Go file has about one node per 4 bytes, and at most one per 2; the
	// array holds a header before the nodes.
	buf := nodeArrays.get(srcLen/2 + 64)
	buf = buf[:cap(buf)]
	for {
		n := int(C.clew_flatten(cRoot, (*C.clew_node)(unsafe.Pointer(&buf[0])), C.int(len(buf)), C.uint8_t(st.id)))
		if n >= 0 {
			buf = buf[:1+n]
			break
		}
		buf = make([]tsNode, 2*len(buf))
	}
	t := &flatTree{nodes: buf[1:], buf: buf}
	if !rootMatches(&t.nodes[0], root) {
		panic("symbols: tree-sitter node layout changed")
	}
	return t
}

// release gives the node array back for the next tree: no node of t may
// be used afterwards.
func (t *flatTree) release() {
	nodeArrays.put(t.buf)
	t.nodes, t.buf = nil, nil
}

func rootMatches(n *tsNode, root *sitter.Node) bool {
	return n.start == root.StartByte() && n.end == root.EndByte() && n.sym == uint16(root.Symbol())
}

func (t *flatTree) root() *tsNode { return &t.nodes[0] }

// rel is the node k places after n in the array (k may be negative).
func (n *tsNode) rel(k int) *tsNode {
	return (*tsNode)(unsafe.Add(unsafe.Pointer(n), k*int(unsafe.Sizeof(tsNode{}))))
}

// The accessors keep go-tree-sitter's names so the language walkers read
// the same as before.

func (n *tsNode) StartByte() uint32    { return n.start }
func (n *tsNode) EndByte() uint32      { return n.end }
func (n *tsNode) Symbol() uint16       { return n.sym }
func (n *tsNode) IsNamed() bool        { return n.flags&C.CLEW_NAMED != 0 }
func (n *tsNode) IsMissing() bool      { return n.flags&C.CLEW_MISSING != 0 }
func (n *tsNode) NamedChildCount() int { return int(n.namedKids) }
func (n *tsNode) hasKids() bool        { return n.size > 1 }
func (n *tsNode) hasNext() bool        { return n.flags&C.CLEW_HAS_NEXT != 0 }
func (n *tsNode) isRoot() bool         { return n.up == 0 }

func (n *tsNode) firstChild() *tsNode {
	if n.size > 1 {
		return n.rel(1)
	}
	return nil
}

func (n *tsNode) nextSibling() *tsNode {
	if n.flags&C.CLEW_HAS_NEXT != 0 {
		return n.rel(int(n.size))
	}
	return nil
}

func (n *tsNode) parent() *tsNode {
	if n.up > 0 {
		return n.rel(-int(n.up))
	}
	return nil
}

func (n *tsNode) symbols() *symbolTable { return symbolTables[n.lang] }

// Type is the grammar's name for the node ("ERROR" for an error node).
func (n *tsNode) Type() string { return n.symbols().symbolName(n.sym) }

// fieldName is the field this node fills in its parent, "" for none.
func (n *tsNode) fieldName() string { return n.symbols().fieldName(n.field) }

// ChildByFieldName returns the first child under the field name, as
// ts_node_child_by_field_name does. The cursor recorded one field per child;
// a child that fills several (Swift's `name` and `type`) is found by asking
// tree-sitter, which costs one cgo call.
func (n *tsNode) ChildByFieldName(name string) *tsNode {
	id, ok := n.symbols().fieldID[name]
	if !ok || n.size <= 1 {
		return nil
	}
	for c := n.firstChild(); c != nil; c = c.nextSibling() {
		if c.field == id {
			return c
		}
	}
	root := n
	for !root.isRoot() {
		root = root.parent()
	}
	tree := root.rel(-1).id // the header
	found := uintptr(C.clew_child_by_field(C.uintptr_t(tree), C.uintptr_t(n.id), C.uint16_t(id)))
	if found == 0 {
		return nil
	}
	// The answer is visible and reached only through hidden nodes, so it is
	// a child here; the subtree is the fallback for a grammar that breaks that.
	for i := 1; i < int(n.size); i++ {
		if c := n.rel(i); c.id == found {
			return c
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
