#include "flatten.h"

// The tree-sitter runtime, linked in by go-tree-sitter.
clew_ts_cursor ts_tree_cursor_new(clew_ts_node node);
void ts_tree_cursor_delete(clew_ts_cursor *self);
clew_ts_node ts_tree_cursor_current_node(const clew_ts_cursor *self);
uint16_t ts_tree_cursor_current_field_id(const clew_ts_cursor *self);
bool ts_tree_cursor_goto_first_child(clew_ts_cursor *self);
bool ts_tree_cursor_goto_next_sibling(clew_ts_cursor *self);
bool ts_tree_cursor_goto_parent(clew_ts_cursor *self);
uint16_t ts_node_symbol(clew_ts_node self);
uint32_t ts_node_start_byte(clew_ts_node self);
uint32_t ts_node_end_byte(clew_ts_node self);
bool ts_node_is_named(clew_ts_node self);
bool ts_node_is_missing(clew_ts_node self);
clew_ts_node ts_node_child_by_field_id(clew_ts_node self, uint16_t field);

// clew_flatten walks the tree under root with one cursor and writes the
// header, then every visible node in preorder, to out. It returns the node
// count, or -1 when out holds fewer than the tree's nodes and the header
// (the caller retries with more room). One call replaces several cgo
// crossings per node.
int clew_flatten(clew_ts_node root, clew_node *header, int cap, uint8_t lang) {
	*header = (clew_node){.lang = lang, .id = root.tree};
	clew_node *out = header + 1;
	cap--;
	clew_ts_cursor c = ts_tree_cursor_new(root);
	int n = 0, parent = -1;
	for (;;) {
		if (n == cap) {
			ts_tree_cursor_delete(&c);
			return -1;
		}
		clew_ts_node x = ts_tree_cursor_current_node(&c);
		int i = n++;
		clew_node *o = &out[i];
		o->start = ts_node_start_byte(x);
		o->end = ts_node_end_byte(x);
		o->up = parent >= 0 ? (uint32_t)(i - parent) : 0;
		o->size = 1;
		o->named_kids = 0;
		o->sym = ts_node_symbol(x);
		o->field = ts_tree_cursor_current_field_id(&c);
		o->flags = (ts_node_is_named(x) ? CLEW_NAMED : 0) | (ts_node_is_missing(x) ? CLEW_MISSING : 0);
		o->lang = lang;
		for (int k = 0; k < (int)sizeof o->pad; k++) {
			o->pad[k] = 0;
		}
		o->id = x.id;
		if (parent >= 0 && (o->flags & CLEW_NAMED)) {
			out[parent].named_kids++;
		}
		if (ts_tree_cursor_goto_first_child(&c)) {
			parent = i;
			continue;
		}
		// i is a leaf; leave it, and every subtree that ends with it.
		int left = i;
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return n;
			}
			left = parent;
			out[left].size = (uint32_t)(n - left);
			parent = left - (int)out[left].up;
			if (out[left].up == 0) {
				parent = -1;
			}
		}
		out[left].flags |= CLEW_HAS_NEXT;
	}
}

// clew_cursor_walk is the reference the benchmarks compare against:
// tree-sitter's own cursor walk over every node, reading what a table
// needs (symbol, span), with nothing stored.
uint64_t clew_cursor_walk(clew_ts_node root) {
	clew_ts_cursor c = ts_tree_cursor_new(root);
	uint64_t sum = 0;
	for (;;) {
		clew_ts_node x = ts_tree_cursor_current_node(&c);
		sum += ts_node_symbol(x) + ts_node_start_byte(x) + ts_node_end_byte(x);
		if (ts_tree_cursor_goto_first_child(&c)) {
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return sum;
			}
		}
	}
}

// clew_child_by_field is ts_node_child_by_field_id, answered by the node's
// identity (0: none). A child can fill several fields, and the cursor
// reports only one of them. The node is rebuilt from its identity and its
// tree: the lookup reads the subtree and the tree's language, while the
// position and alias a TSNode also carries only place the children found.
uintptr_t clew_child_by_field(uintptr_t tree, uintptr_t id, uint16_t field) {
	clew_ts_node n = {.context = {0, 0, 0, 0}, .id = (const void *)id, .tree = (const void *)tree};
	return (uintptr_t)ts_node_child_by_field_id(n, field).id;
}
