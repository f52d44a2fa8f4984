package claims

import (
	"reflect"
	"strings"
	"testing"
)

const ecoSQL = "-- initial schema\nCREATE TABLE accounts (\n  id bigint PRIMARY KEY,\n  balance numeric NOT NULL\n);\n\nGRANT\nSELECT,\nUPDATE\nON accounts\nTO app_role;\n"

// Public SQL cases.
func TestSQLCases(t *testing.T) {
	cases := []struct {
		id, src string
		want    []Statement
	}{
		{"S01", ecoSQL, []Statement{
			{"CREATE TABLE accounts ( id bigint PRIMARY KEY, balance numeric NOT NULL )", 2},
			{"GRANT SELECT, UPDATE ON accounts TO app_role", 7}}},
		{"S03", "insert into t values ('a;b');\nselect 1;", []Statement{{"insert into t values ('a;b')", 1}, {"select 1", 2}}},
		{"S05a", "", nil},
		{"S05b", "  \n;\n  ;", nil},
		{"S07", "DO $body$ SELECT '$$'; SELECT 2; $body$; SELECT 3;", []Statement{{"DO $body$ SELECT '$$'; SELECT 2; $body$", 1}, {"SELECT 3", 1}}},
		{"S09", "INSERT INTO t VALUES ('it''s; fine'); SELECT 1;", []Statement{{"INSERT INTO t VALUES ('it''s; fine')", 1}, {"SELECT 1", 1}}},
		{"S11", "-- don't split; here\nSELECT 1 /* it's a ; comment */ FROM t;\nSELECT 2;", []Statement{{"SELECT 1 FROM t", 2}, {"SELECT 2", 3}}},
		{"S13", "SELECT $$;$$; SELECT 2;", []Statement{{"SELECT $$;$$", 1}, {"SELECT 2", 1}}},
		{"ident-dollar", "SELECT a$b$c; SELECT 2;", []Statement{{"SELECT a$b$c", 1}, {"SELECT 2", 1}}},
		{"param", "SELECT $1; SELECT $2;", []Statement{{"SELECT $1", 1}, {"SELECT $2", 1}}},
		{"other-tag", "SELECT $a$ x $b$ ; $a$; SELECT 2", []Statement{{"SELECT $a$ x $b$ ; $a$", 1}, {"SELECT 2", 1}}},
		{"block-newlines", "/* a\nb\n*/ SELECT 1;", []Statement{{"SELECT 1", 3}}},
		{"unclosed-dollar", "SELECT $$ never closed; SELECT 2;", []Statement{{"SELECT $$ never closed; SELECT 2;", 1}}},
		{"unclosed-quote", "SELECT 'x; SELECT 2;", []Statement{{"SELECT 'x; SELECT 2;", 1}}},
		{"double-quote-splits", `SELECT "a;b";`, []Statement{{`SELECT "a`, 1}, {`b"`, 1}}},
	}
	for _, c := range cases {
		if got := SplitSQL(c.src); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %#v, want %#v", c.id, got, c.want)
		}
	}
}

// S13: pathological inputs terminate (and fast).
func TestSQLPathological(t *testing.T) {
	inputs := []string{
		strings.Repeat("$", 5000),
		strings.Repeat("'", 5000),
		strings.Repeat("/*", 5000),
		"--" + strings.Repeat("x", 5000),
		"SELECT $$" + strings.Repeat("a;", 5000),
		strings.Repeat("$a$", 5000),
		strings.Repeat("$a", 5000),
	}
	for _, in := range inputs {
		_ = SplitSQL(in)
	}
}
