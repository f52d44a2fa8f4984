package claims

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite want/report, want/json and want/edits in testdata/verify/*.txtar")

// Fixture format (testdata/verify/*.txtar), kept simple so a later
// integration step can turn the same files into real git repos:
//
//	-- options --        one per line: strict | write | eco | consumer KEY |
//	                     missing KEY | brain-dir DIR | code CLAIM DOC LINE STATE [message] |
//	                     read KEY KIND [branch=B] [sha=S] [channel-sha=S] [parked=P] [fetch=F]
//	                     [behind=N] [midmerge=a,b]   (the facts behind KEY's read line)
//	-- repo/<key>/<path> --       a tracked file of that repo (brain = the brain)
//	-- untracked/<key>/<path> --  an untracked, not-ignored file
//	-- deleted/<key>/<path> --    tracked, deleted on disk
//	-- want/exit --      the exit code (hand-written, never updated)
//	-- want/contains --  substrings the report must contain, one per line (hand-written)
//	-- want/lacks --     substrings it must not contain (hand-written)
//	-- want/report --    the whole report (-update rewrites it)
//	-- want/edits --     the glob rewrites applied to the docs (-update rewrites it)
//
// "eco" preloads the shared fixture of multivac-cases.md.
func TestVerifyFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/verify/*.txtar")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runFixture(t, file)
		})
	}
}

var ecoFiles = map[string]string{
	"repo/brain/.multivac/config.yml":    "repos:\n  api: ../acme-api\n  web: {path: ../acme-web}\n",
	"repo/brain/AGENTS.md":               "# acme brain\n\nStart here.\n",
	"repo/brain/.multivac/invariants.md": "# acme law\n\n| ID | statement | authority | state | date | source |\n| --- | --- | --- | --- | --- | --- |\n",
	"repo/api/db/migrations/0001.sql":    ecoSQL,
	"repo/api/src/server.ts":             "export const port = 8080;\n",
	"repo/api/README.md":                 "# acme-api\n",
	"repo/web/src/index.ts":              "export const app = \"acme-web\";\n",
	"repo/web/README.md":                 "# acme-web\n",
}

type fixture struct {
	arch    *txtar.Archive
	files   map[string]string // section name → content
	options []string
}

func loadFixture(t *testing.T, file string) *fixture {
	arch, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{arch: arch, files: map[string]string{}}
	for _, s := range arch.Files {
		if s.Name == "options" {
			f.options = strings.Split(strings.TrimSpace(string(s.Data)), "\n")
		}
	}
	for _, o := range f.options {
		if o == "eco" {
			for k, v := range ecoFiles {
				f.files[k] = v
			}
		}
	}
	for _, s := range arch.Files {
		f.files[s.Name] = string(s.Data)
	}
	// "append/<section>" adds lines to a preloaded file (the eco law, say).
	for name, data := range f.files {
		if rest, ok := strings.CutPrefix(name, "append/"); ok {
			f.files[rest] += data
			delete(f.files, name)
		}
	}
	return f
}

// input builds the engine's input from the fixture.
func (f *fixture) input(t *testing.T) (Input, map[string]*MemRepo) {
	in := Input{Docs: map[string][]byte{}}
	repos := map[string]*MemRepo{}
	get := func(key string) *MemRepo {
		if repos[key] == nil {
			repos[key] = &MemRepo{Name: key, Content: map[string][]byte{}, Deleted: map[string]bool{}}
		}
		return repos[key]
	}
	get("brain")
	missing := map[string]bool{}
	for _, o := range f.options {
		w := strings.Fields(o)
		if len(w) == 0 {
			continue
		}
		switch w[0] {
		case "strict":
			in.Options.Strict = true
		case "write":
			in.Options.Write = true
		case "consumer":
			in.Options.Consumer = w[1]
		case "brain-dir":
			in.Options.BrainDir = w[1]
		case "missing":
			missing[w[1]] = true
		case "code":
			line, _ := strconv.Atoi(w[3])
			in.CodeLegs = append(in.CodeLegs, CodeLeg{Claim: w[1], Doc: w[2], Line: line, State: w[4], Message: strings.Join(w[5:], " ")})
		}
	}
	for name, data := range f.files {
		kind, rest, ok := strings.Cut(name, "/")
		if !ok || (kind != "repo" && kind != "untracked" && kind != "deleted") {
			continue
		}
		key, p, _ := strings.Cut(rest, "/")
		r := get(key)
		switch kind {
		case "repo":
			r.Content[p] = []byte(data)
		case "untracked":
			r.Untrack = append(r.Untrack, p)
		case "deleted":
			r.Deleted[p] = true
		}
	}
	brain := repos["brain"]
	if cfg, ok := brain.Content[ConfigFile]; ok {
		in.Config, in.ConfigDiagnostics = ParseConfig(cfg)
	} else {
		in.Config = DefaultConfig()
		in.ConfigMissing = brain.Content[LawFile] != nil
	}
	for p, c := range brain.Content {
		if LawDoc(p) {
			in.Docs[p] = c
		}
	}
	for _, r := range repos {
		sort.Strings(r.Untrack)
		if r.Untrack == nil && !strings.Contains(strings.Join(f.options, " "), "ref-read "+r.Name) {
			r.Untrack = []string{} // a working-tree read with nothing untracked
		}
	}
	defer func() {
		for _, o := range f.options {
			if w := strings.Fields(o); len(w) >= 3 && w[0] == "read" {
				repos[w[1]].ReadFacts = parseFacts(w[2:], in.Config.ChannelFor(w[1]))
			}
		}
	}()
	if in.Options.Consumer != "" {
		c := get(in.Options.Consumer)
		c.ReadFacts = ReadFacts{Kind: ReadConsumer, Branch: "main", SHA: "4d5e6f7"}
		in.Repos = []Repo{c}
		return in, repos
	}
	brain.ReadFacts = ReadFacts{Kind: ReadBrain, Branch: "main", SHA: "abc1234"}
	in.Repos = []Repo{brain}
	for _, e := range in.Config.Repos {
		if path.Clean(e.Path) == "." { // brain==code, or an alias of the brain
			alias := &MemRepo{Name: e.Key, ID: "brain", Content: brain.Content, Deleted: brain.Deleted, Untrack: brain.Untrack, ReadFacts: brain.ReadFacts}
			if e.Key != "brain" {
				in.Repos = append(in.Repos, alias)
			}
			continue
		}
		r := get(e.Key)
		r.Missing = missing[e.Key]
		r.ReadFacts = ReadFacts{Kind: ReadFellBack, Branch: "main", SHA: "1a2b3c4", Channel: in.Config.ChannelFor(e.Key)}
		if r.Missing {
			r.ReadFacts = ReadFacts{Kind: ReadNotOnDisk}
		}
		in.Repos = append(in.Repos, r)
	}
	return in, repos
}

func runFixture(t *testing.T, file string) {
	f := loadFixture(t, file)
	in, repos := f.input(t)
	res, err := Evaluate(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	report := Report(res)

	if want, ok := f.files["want/exit"]; ok {
		if got := strconv.Itoa(res.Exit); got != strings.TrimSpace(want) {
			t.Errorf("exit %s, want %s\n%s", got, strings.TrimSpace(want), report)
		}
	} else {
		t.Error("fixture has no want/exit")
	}
	for _, s := range lines(f.files["want/contains"]) {
		if !strings.Contains(report, s) {
			t.Errorf("report lacks %q\n%s", s, report)
		}
	}
	if !in.Options.Write && len(res.Edits) > 0 {
		t.Errorf("--check (no write) must leave the law unchanged, got %d edits", len(res.Edits))
	}
	last := -1
	for _, s := range lines(f.files["want/order"]) {
		i := strings.Index(report, s)
		if i < 0 || i < last {
			t.Errorf("report lacks %q after the previous want/order line\n%s", s, report)
		}
		last = i
	}
	for _, s := range lines(f.files["want/lacks"]) {
		if strings.Contains(report, s) {
			t.Errorf("report contains %q\n%s", s, report)
		}
	}
	// Each file is read once per run, however many legs cover it.
	for _, r := range repos {
		for p := range r.reads {
			if n := r.Reads(p); n > 1 {
				t.Errorf("%s:%s read %d times", r.Name, p, n)
			}
		}
	}
	edits := renderEdits(in.Docs, res.Edits)
	js, _ := json.MarshalIndent(struct {
		Claims      []ClaimResult `json:"claims"`
		Coverage    Coverage      `json:"coverage"`
		Diagnostics []Diagnostic  `json:"diagnostics"`
		Exit        int           `json:"exit"`
	}{res.Claims, res.Coverage, res.Diagnostics, res.Exit}, "", "  ")

	got := map[string]string{"want/report": report, "want/edits": edits, "want/json": string(js) + "\n"}
	if *update {
		for name, data := range got {
			setSection(f.arch, name, data)
		}
		if err := os.WriteFile(file, txtar.Format(f.arch), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for name, data := range got {
		want, ok := sectionOf(f.arch, name)
		if !ok {
			t.Errorf("%s missing; run go test -update", name)
			continue
		}
		if want != data {
			t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, data, want)
		}
	}
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func sectionOf(a *txtar.Archive, name string) (string, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

func setSection(a *txtar.Archive, name, data string) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = []byte(data)
			return
		}
	}
	a.Files = append(a.Files, txtar.File{Name: name, Data: []byte(data)})
}

// renderEdits applies the glob rewrites and prints each changed line.
func renderEdits(docs map[string][]byte, edits []Edit) string {
	var b strings.Builder
	for _, e := range edits {
		doc := string(docs[e.Doc])
		after := doc[:e.Start] + e.NewText + doc[e.End:]
		ls := strings.LastIndexByte(after[:e.Start], '\n') + 1
		le := strings.IndexByte(after[e.Start:], '\n')
		if le < 0 {
			le = len(after) - e.Start
		}
		fmt.Fprintf(&b, "%s: %s\n", e.Doc, after[ls:e.Start+le])
	}
	return b.String()
}

func parseFacts(w []string, channel string) ReadFacts {
	f := ReadFacts{Kind: ReadKind(w[0]), Channel: channel, Branch: "main", SHA: "1a2b3c4"}
	for _, kv := range w[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "branch":
			f.Branch = v
		case "sha":
			f.SHA = v
		case "channel-sha":
			f.ChannelSHA = v
		case "parked":
			f.Parked = strings.ReplaceAll(v, "_", " ")
		case "fetch":
			f.LastFetch = strings.ReplaceAll(v, "_", " ")
		case "behind":
			f.Behind, _ = strconv.Atoi(v)
		case "midmerge":
			f.MidMerge = strings.Split(v, ",")
		}
	}
	return f
}
