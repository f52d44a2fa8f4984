package symbols

import "strings"

// Schemas and infrastructure: contracts that move least under an anchor.
// Their declarations hash by the same token rules as code (comments and
// layout are not tokens).
const (
	Protobuf  Language = "protobuf"
	SQL       Language = "sql"
	Terraform Language = "hcl"
)

// protobuf: message, enum, service; rpc as Service.Method; field as
// Message.field (nested messages qualify: Outer.Inner.field).
var protoSpec = &langSpec{
	comments:   newSet("comment"),
	atoms:      newSet("string"),
	dropLeaves: newSet(),
	walk:       func(w *walker, root *tsNode) { w.protoBody(root, -1) },
}

func (w *walker) protoBody(n *tsNode, parent int) {
	for _, c := range w.named(n) {
		switch c.Type() {
		case "message":
			name := w.firstOfType(c, "message_name")
			body := w.firstOfType(c, "message_body")
			i := w.add("message", c, w.firstOfType(name, "identifier"), body, parent)
			w.protoBody(body, i)
		case "enum":
			name := w.firstOfType(c, "enum_name")
			w.add("enum", c, w.firstOfType(name, "identifier"), w.firstOfType(c, "enum_body"), parent)
		case "service":
			name := w.firstOfType(c, "service_name")
			i := w.add("service", c, w.firstOfType(name, "identifier"), nil, parent)
			for _, r := range w.named(c) {
				if r.Type() == "rpc" {
					w.add("rpc", r, w.firstOfType(w.firstOfType(r, "rpc_name"), "identifier"), nil, i)
				}
			}
		case "field", "map_field", "oneof_field":
			if parent >= 0 {
				w.add("field", c, w.firstOfType(c, "identifier"), nil, parent)
			}
		case "oneof":
			// A oneof's fields belong to the message.
			w.protoBody(c, parent)
		case "ERROR", "message_body":
			w.protoBody(c, parent)
		}
	}
}

// SQL DDL: table, view, index, function, and column as table.column (from
// CREATE TABLE and ALTER TABLE … ADD COLUMN). Keywords are case-insensitive
// tokens. Within a file the last definition of an object wins, as in an
// append-only migration history.
var sqlSpec = &langSpec{
	comments:   newSet("comment", "marginalia"),
	atoms:      newSet("literal"),
	dropLeaves: newSet(),
	norm: func(typ, s string) string {
		if strings.HasPrefix(typ, "keyword_") {
			return strings.ToLower(s)
		}
		return s
	},
	walk: walkSQL,
}

func walkSQL(w *walker, root *tsNode) {
	tables := map[string]int{}
	for _, st := range w.named(root) {
		if st.Type() == "ERROR" {
			walkSQL(w, st)
			continue
		}
		for _, c := range w.named(st) {
			switch c.Type() {
			case "create_table":
				ref := w.firstOfType(c, "object_reference")
				name := sqlName(w, ref)
				i := w.add("table", st, name, w.firstOfType(c, "column_definitions"), -1)
				w.supersede("table", w.text(name), i)
				tables[strings.ToLower(w.text(name))] = i
				for _, col := range w.named(w.firstOfType(c, "column_definitions")) {
					if col.Type() == "column_definition" {
						w.add("column", col, col.ChildByFieldName("name"), nil, i)
					}
				}
			case "create_view", "create_materialized_view":
				name := sqlName(w, w.firstOfType(c, "object_reference"))
				i := w.add("view", st, name, w.firstOfType(c, "create_query"), -1)
				w.supersede("view", w.text(name), i)
			case "create_index":
				name := c.ChildByFieldName("column")
				if name == nil {
					continue
				}
				i := w.add("index", st, name, nil, -1)
				w.supersede("index", w.text(name), i)
			case "create_function":
				name := sqlName(w, w.firstOfType(c, "object_reference"))
				i := w.add("function", st, name, w.firstOfType(c, "function_body"), -1)
				w.supersede("function", w.text(name), i)
			case "alter_table":
				walkAlterTable(w, st, c, tables)
			case "alter_view":
				name := sqlName(w, w.firstOfType(c, "object_reference"))
				if ren := w.firstOfType(c, "rename_object"); ren != nil {
					w.addChange(ChangeRename, "view", st, name, nil, sqlName(w, w.firstOfType(ren, "object_reference")))
				} else {
					w.addChange(ChangeAlter, "view", st, name, nil, nil)
				}
			case "drop_table", "drop_view":
				// DROP TABLE a, b parses its first name only; the rest is
				// an ERROR node and stays defined.
				kind := strings.TrimPrefix(c.Type(), "drop_")
				w.addChange(ChangeDrop, kind, st, sqlName(w, w.firstOfType(c, "object_reference")), nil, nil)
			case "drop_index":
				w.addChange(ChangeDrop, "index", st, c.ChildByFieldName("name"), nil, nil)
			}
		}
	}
}

// walkAlterTable records an ALTER TABLE: the statement alters the table
// (or renames it); ADD COLUMN declares a column (of the table when this
// file creates it, else under the table's name); DROP, ALTER and RENAME
// COLUMN change the column.
func walkAlterTable(w *walker, st, c *tsNode, tables map[string]int) {
	name := sqlName(w, w.firstOfType(c, "object_reference"))
	if name == nil {
		return
	}
	table := w.text(name)
	others := 0 // actions other than RENAME TO
	for _, act := range w.named(c) {
		typ := act.Type()
		if typ != "rename_object" && typ != "object_reference" && !strings.HasPrefix(typ, "keyword_") {
			others++
		}
		switch typ {
		case "rename_object":
			w.addChange(ChangeRename, "table", st, name, nil, sqlName(w, w.firstOfType(act, "object_reference")))
		case "add_column":
			col := w.firstOfType(act, "column_definition")
			if col == nil {
				continue
			}
			if t, ok := tables[strings.ToLower(table)]; ok {
				w.add("column", col, col.ChildByFieldName("name"), nil, t)
			} else {
				i := w.add("column", col, col.ChildByFieldName("name"), nil, -1)
				w.decls[i].scope = []string{table}
			}
		case "drop_column":
			w.addChange(ChangeDrop, "column", act, act.ChildByFieldName("name"), []string{table}, nil)
		case "alter_column":
			w.addChange(ChangeAlter, "column", act, act.ChildByFieldName("name"), []string{table}, nil)
		case "rename_column":
			w.addChange(ChangeRename, "column", act, act.ChildByFieldName("old_name"), []string{table}, act.ChildByFieldName("new_name"))
		}
	}
	// A statement that only renames keeps the table's hash, as a rename of
	// code does; anything else it does alters the table.
	if others > 0 {
		w.addChange(ChangeAlter, "table", st, name, nil, nil)
	}
}

// addChange records a change statement of the object named by nameNode
// (scope: the table of a column); newName names it after a rename.
func (w *walker) addChange(op, kind string, node, nameNode *tsNode, scope []string, newName *tsNode) {
	if nameNode == nil || (op == ChangeRename && newName == nil) {
		return
	}
	i := w.add(kind, node, nameNode, nil, -1)
	w.decls[i].change = op
	w.decls[i].scope = scope
	if newName != nil {
		w.decls[i].newName = w.text(newName)
	}
}

// sqlName is the last identifier of a (schema-qualified) object reference.
func sqlName(w *walker, ref *tsNode) *tsNode {
	if ref == nil {
		return nil
	}
	if n := ref.ChildByFieldName("name"); n != nil {
		return n
	}
	ids := w.named(ref)
	if len(ids) == 0 {
		return nil
	}
	return ids[len(ids)-1]
}

// supersede drops earlier top-level definitions of the same kind and name
// (and their members): the newest CREATE is the object's definition.
func (w *walker) supersede(kind, name string, keep int) {
	for i := range w.decls[:keep] {
		d := &w.decls[i]
		if d.parent < 0 && d.kind == kind && strings.EqualFold(d.name, name) {
			d.dropped = true
		}
	}
}

// Terraform / HCL: resource and data as type.name, module, variable, output.
var hclSpec = &langSpec{
	comments:   newSet("comment"),
	atoms:      newSet("string_lit"),
	dropLeaves: newSet(),
	walk: func(w *walker, root *tsNode) {
		for _, body := range w.named(root) {
			if body.Type() != "body" {
				continue
			}
			for _, b := range w.named(body) {
				if b.Type() != "block" {
					continue
				}
				kw := w.firstOfType(b, "identifier")
				var labels []*tsNode
				for _, c := range w.named(b) {
					if c.Type() == "string_lit" {
						labels = append(labels, w.firstOfType(c, "template_literal"))
					}
				}
				body := w.firstOfType(b, "body")
				switch kind := w.text(kw); kind {
				case "resource", "data":
					if len(labels) == 2 && labels[0] != nil && labels[1] != nil {
						i := w.add(kind, b, labels[1], body, -1)
						w.decls[i].scope = []string{w.text(labels[0])}
					}
				case "module", "variable", "output":
					if len(labels) == 1 && labels[0] != nil {
						w.add(kind, b, labels[0], body, -1)
					}
				}
			}
		}
	},
}
