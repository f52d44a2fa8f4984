// The few tree-sitter declarations the flattener needs. They mirror the
// public C API (api.h) of the tree-sitter runtime that go-tree-sitter
// compiles into the binary; flat_test.go checks the layout against it.
#include <stdint.h>
#include <stdbool.h>

typedef struct {
	uint32_t context[4];
	const void *id;
	const void *tree;
} clew_ts_node;

typedef struct {
	const void *tree;
	const void *id;
	uint32_t context[3];
} clew_ts_cursor;

// clew_node is one visible syntax node in preorder. Links are relative,
// so a node finds its neighbours from its own address: the first child is
// the next node, the next sibling is size nodes on, the parent up nodes
// back. The array starts with a header before the root: its id is the
// tree, for the field lookups the cursor cannot answer.
typedef struct {
	uint32_t start, end;
	uint32_t up;   // this node's index minus its parent's; 0 for the root
	uint32_t size; // nodes in this subtree, this one included
	uint32_t named_kids;
	uint16_t sym, field;
	uint8_t flags;
	uint8_t lang; // which symbol table names sym and field
	uint8_t pad[6];
	const void *id; // TSNode.id: which node this is (the header's: TSNode.tree)
} clew_node;

enum { CLEW_NAMED = 1, CLEW_MISSING = 2, CLEW_HAS_NEXT = 4 };

int clew_flatten(clew_ts_node root, clew_node *out, int cap, uint8_t lang);
uintptr_t clew_child_by_field(uintptr_t tree, uintptr_t id, uint16_t field);
uint64_t clew_cursor_walk(clew_ts_node root);
