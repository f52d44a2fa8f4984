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

// clew_node is one visible syntax node in preorder. Indexes are into the
// same array; -1 means none.
typedef struct {
	uint32_t start, end;
	int32_t parent, first, next;
	uint32_t named_kids;
	uint16_t sym, field;
	uint8_t flags;
	uint8_t pad[3];
	clew_ts_node ts; // for the field lookups the cursor cannot answer
} clew_node;

enum { CLEW_NAMED = 1, CLEW_MISSING = 2 };

int clew_flatten(clew_ts_node root, clew_node *out, int cap);
uintptr_t clew_child_by_field(clew_ts_node n, uint16_t field);
uint64_t clew_cursor_walk(clew_ts_node root);
