package symbols

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// replayed renders a replayed history as "file:line kind name" lines.
func replayed(files ...string) ([]string, []Table) {
	var tabs []Table
	for _, f := range files {
		tabs = append(tabs, Parse(SQL, []byte(f), Options{}))
	}
	out := ReplaySQL(tabs)
	var lines []string
	for i, t := range out {
		for _, d := range t.Decls {
			lines = append(lines, fmt.Sprintf("%d:%d %s %s", i, d.StartLine, d.Kind, d.QualifiedName))
		}
	}
	return lines, out
}

func declNamed(t Table, kind, qn string) (Decl, bool) {
	for _, d := range t.Decls {
		if d.Kind == kind && d.QualifiedName == qn {
			return d, true
		}
	}
	return Decl{}, false
}

const initSQL = `CREATE TABLE users (
  id bigint PRIMARY KEY,
  email text NOT NULL
);
CREATE INDEX users_email ON users (email);
CREATE VIEW users_v AS SELECT id FROM users;
`

func TestReplaySQLOneFileIsItsTable(t *testing.T) {
	got, out := replayed(initSQL)
	want := []string{"0:1 table users", "0:2 column users.id", "0:3 column users.email", "0:5 index users_email", "0:6 view users_v"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	plain := Parse(SQL, []byte(initSQL), Options{})
	if !slices.EqualFunc(out[0].Decls, plain.Decls, func(a, b Decl) bool { return a.DeclHash == b.DeclHash && a.BodyHash == b.BodyHash }) {
		t.Error("a file without changes keeps its hashes")
	}
}

func TestReplaySQLMigrations(t *testing.T) {
	base := Parse(SQL, []byte(initSQL), Options{})
	users, _ := declNamed(base, "table", "users")
	email, _ := declNamed(base, "column", "users.email")

	cases := []struct {
		name  string
		later []string
		want  []string
		check func(t *testing.T, out []Table)
	}{
		{
			name:  "a later ALTER: the table is found at it, with another hash; a column is added there",
			later: []string{"-- 002\nALTER TABLE users ADD COLUMN name text;\n"},
			want:  []string{"0:2 column users.id", "0:3 column users.email", "0:5 index users_email", "0:6 view users_v", "1:2 table users", "1:2 column users.name"},
			check: func(t *testing.T, out []Table) {
				d, _ := declNamed(out[1], "table", "users")
				if d.DeclHash == users.DeclHash || d.BodyHash != users.BodyHash {
					t.Errorf("altered table: decl hash must change, body hash (for moves and renames) stay")
				}
				if d.Signature != "ALTER TABLE users ADD COLUMN name text" {
					t.Errorf("signature %q", d.Signature)
				}
			},
		},
		{
			name:  "the same ALTER in another layout hashes the same",
			later: []string{"alter table users\n  add column name TEXT; -- why\n"},
			want:  []string{"0:2 column users.id", "0:3 column users.email", "0:5 index users_email", "0:6 view users_v", "1:1 table users", "1:2 column users.name"},
			check: func(t *testing.T, out []Table) {
				a, _ := declNamed(out[1], "table", "users")
				_, ref := replayed(initSQL, "ALTER TABLE users ADD COLUMN name text;")
				b, _ := declNamed(ref[1], "table", "users")
				if a.DeclHash != b.DeclHash {
					t.Error("keyword case, layout and comments of an ALTER changed the hash")
				}
			},
		},
		{
			name:  "a DROP removes the table and its columns; the index and view stay",
			later: []string{"ALTER TABLE users ADD COLUMN name text;", "DROP TABLE users;"},
			want:  []string{"0:5 index users_email", "0:6 view users_v"},
		},
		{
			name:  "DROP then CREATE again: the new CREATE wins, its columns only",
			later: []string{"DROP TABLE users;\nCREATE TABLE users (\n  id bigint PRIMARY KEY,\n  email text NOT NULL\n);\n"},
			want:  []string{"0:5 index users_email", "0:6 view users_v", "1:2 table users", "1:3 column users.id", "1:4 column users.email"},
			check: func(t *testing.T, out []Table) {
				d, _ := declNamed(out[1], "table", "users")
				if d.DeclHash != users.DeclHash {
					t.Error("an identical re-CREATE has the first CREATE's hash")
				}
			},
		},
		{
			name:  "a CREATE in a later file supersedes the earlier one without a DROP",
			later: []string{"CREATE VIEW users_v AS SELECT id, email FROM users;"},
			want:  []string{"0:1 table users", "0:2 column users.id", "0:3 column users.email", "0:5 index users_email", "1:1 view users_v"},
		},
		{
			name:  "RENAME TO: the table and its columns get the new name, hash kept",
			later: []string{"ALTER TABLE users RENAME TO accounts;"},
			want:  []string{"0:2 column accounts.id", "0:3 column accounts.email", "0:5 index users_email", "0:6 view users_v", "1:1 table accounts"},
			check: func(t *testing.T, out []Table) {
				d, _ := declNamed(out[1], "table", "accounts")
				if d.DeclHash != users.DeclHash || d.Name != "accounts" {
					t.Errorf("a pure rename keeps the hash: %+v", d)
				}
			},
		},
		{
			name:  "column changes: DROP COLUMN removes it, ALTER COLUMN changes its hash, RENAME COLUMN renames it (and alters the table)",
			later: []string{"ALTER TABLE users DROP COLUMN id;", "ALTER TABLE users ALTER COLUMN email TYPE varchar(320);", "ALTER TABLE users RENAME COLUMN email TO mail;"},
			want:  []string{"0:5 index users_email", "0:6 view users_v", "3:1 table users", "3:1 column users.mail"},
			check: func(t *testing.T, out []Table) {
				d, _ := declNamed(out[3], "column", "users.mail")
				if d.DeclHash == email.DeclHash {
					t.Error("ALTER COLUMN must change the column's hash")
				}
			},
		},
		{
			name:  "a change of an object the history never created is ignored",
			later: []string{"ALTER TABLE other ADD COLUMN x int;\nDROP TABLE gone;"},
			want:  []string{"0:1 table users", "0:2 column users.id", "0:3 column users.email", "0:5 index users_email", "0:6 view users_v", "1:1 column other.x"},
		},
		{
			name:  "names compare case-insensitively",
			later: []string{"DROP TABLE Users;"},
			want:  []string{"0:5 index users_email", "0:6 view users_v"},
		},
		{
			name:  "DROP INDEX, DROP VIEW",
			later: []string{"DROP INDEX users_email;\nDROP VIEW users_v;"},
			want:  []string{"0:1 table users", "0:2 column users.id", "0:3 column users.email"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, out := replayed(append([]string{initSQL}, c.later...)...)
			if !slices.Equal(got, c.want) {
				t.Fatalf("got  %q\nwant %q", got, c.want)
			}
			if c.check != nil {
				c.check(t, out)
			}
		})
	}
}

// Within one file the same rules hold: an ALTER after the CREATE changes
// the table.
func TestReplaySQLWithinAFile(t *testing.T) {
	got, out := replayed(initSQL + "ALTER TABLE users ADD COLUMN name text;\n")
	want := []string{"0:2 column users.id", "0:3 column users.email", "0:5 index users_email", "0:6 view users_v", "0:7 table users", "0:7 column users.name"}
	if !slices.Equal(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	plain := Parse(SQL, []byte(initSQL), Options{})
	a, _ := declNamed(out[0], "table", "users")
	b, _ := declNamed(plain, "table", "users")
	if a.DeclHash == b.DeclHash {
		t.Error("the ALTER must change the table's hash")
	}
}

func TestSQLChanges(t *testing.T) {
	src := "ALTER TABLE public.users ADD COLUMN a int, DROP COLUMN b;\nALTER TABLE users RENAME TO people;\nALTER VIEW v RENAME TO w;\nDROP TABLE IF EXISTS t;\nDROP INDEX i;\n"
	tab := Parse(SQL, []byte(src), Options{})
	var got []string
	for _, c := range tab.Changes {
		got = append(got, fmt.Sprintf("%d %s %s %s>%s", c.StartLine, c.Op, c.Kind, c.QualifiedName, c.NewName))
	}
	want := []string{
		"1 drop column users.b>", "1 alter table users>",
		"2 rename table users>people",
		"3 rename view v>w",
		"4 drop table t>",
		"5 drop index i>",
	}
	if !slices.Equal(got, want) {
		t.Errorf("changes:\n got %q\nwant %q", got, want)
	}
	if l := list(tab); !slices.Equal(l, []string{"column users.a"}) {
		t.Errorf("decls %q", l)
	}
}

// FuzzReplaySQL: any two files as a migrations folder — no panic, every
// replayed declaration inside the file it is placed in (spans and lines
// of that file), no object twice, and the changes' spans inside their file.
func FuzzReplaySQL(f *testing.F) {
	f.Add([]byte(initSQL), []byte("ALTER TABLE users ADD COLUMN name text;\nDROP TABLE users;\n"))
	f.Add([]byte(initSQL), []byte("ALTER TABLE users RENAME TO accounts;\nALTER TABLE accounts RENAME COLUMN email TO mail, DROP COLUMN id;\n"))
	f.Add([]byte("DROP VIEW users_v;\nCREATE VIEW users_v AS SELECT 1;\n"), []byte(initSQL))
	f.Add([]byte("ALTER TABLE"), []byte("DROP TABLE IF EXISTS a, b CASCADE; DROP INDEX"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		srcs := [][]byte{a, b}
		tabs := []Table{Parse(SQL, a, Options{}), Parse(SQL, b, Options{})}
		for i, tab := range tabs {
			for _, c := range tab.Changes {
				checkBounds(t, srcs[i], Table{Decls: []Decl{c.Decl}})
			}
		}
		out := ReplaySQL(tabs)
		if len(out) != 2 {
			t.Fatalf("%d tables for 2 files", len(out))
		}
		seen := map[string]bool{}
		for i, tab := range out {
			checkBounds(t, srcs[i], tab)
			for _, d := range tab.Decls {
				k := d.Kind + " " + strings.ToLower(d.QualifiedName)
				if seen[k] {
					t.Fatalf("%s twice in the replayed history", k)
				}
				seen[k] = true
			}
		}
	})
}
