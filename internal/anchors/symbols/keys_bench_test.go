package symbols

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// configOfSize writes a service catalogue in one format until it is at
// least size bytes: nested mappings, sequences, strings, numbers — what a
// deployment or CI config holds. It returns the text and the number of
// services.
func configOfSize(lang Language, size int) ([]byte, int) {
	var b strings.Builder
	n := 0
	switch lang {
	case YAML:
		b.WriteString("# services\nservices:\n")
	case JSON:
		b.WriteString("{\"services\": {\n")
	}
	for b.Len() < size {
		name := fmt.Sprintf("svc%05d", n)
		switch lang {
		case YAML:
			fmt.Fprintf(&b, "  %s:\n    image: \"registry.example.com/team/%s:1.%d.3\"\n    replicas: %d\n"+
				"    env:\n      LOG_LEVEL: info\n      TIMEOUT_MS: %d\n    ports: [8080, 9090]\n"+
				"    healthcheck:\n      path: /healthz\n      interval: 10s\n", name, name, n%10, n%5+1, 1000+n)
		case JSON:
			if n > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "  %q: {\"image\": \"registry.example.com/team/%s:1.%d.3\", \"replicas\": %d,\n"+
				"    \"env\": {\"LOG_LEVEL\": \"info\", \"TIMEOUT_MS\": %d}, \"ports\": [8080, 9090],\n"+
				"    \"healthcheck\": {\"path\": \"/healthz\", \"interval\": \"10s\"}}", name, name, n%10, n%5+1, 1000+n)
		case TOML:
			fmt.Fprintf(&b, "[services.%s]\nimage = \"registry.example.com/team/%s:1.%d.3\"\nreplicas = %d\nports = [8080, 9090]\n\n"+
				"[services.%s.env]\nLOG_LEVEL = \"info\"\nTIMEOUT_MS = %d\n\n"+
				"[services.%s.healthcheck]\npath = \"/healthz\"\ninterval = \"10s\"\n\n", name, name, n%10, n%5+1, name, 1000+n, name)
		}
		n++
	}
	if lang == JSON {
		b.WriteString("\n}}\n")
	}
	return []byte(b.String()), n
}

// reference decodes the same text with the usual decoder of the format:
// encoding/json, yaml.v3 (which clew's YAML reader is built on), and
// tree-sitter's TOML parse alone (the grammar clew's TOML reader walks; no
// TOML decoder is a dependency).
func reference(b *testing.B, lang Language, src []byte) {
	var v any
	var err error
	switch lang {
	case JSON:
		err = json.Unmarshal(src, &v)
	case YAML:
		err = yaml.Unmarshal(src, &v)
	case TOML:
		tree := parseTree(TOML, src, nil)
		if tree == nil || tree.RootNode().HasError() {
			err = fmt.Errorf("toml parse failed")
		}
		if tree != nil {
			tree.Close()
		}
	}
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkKeyVerify is what verifying one key anchor costs per file size:
// building the file's key table (every key path with its value hash, what
// the check indexes) and looking the anchor's path up, against decoding the
// same file with the format's usual decoder, alternating the two so load
// hits both alike. cpu-ratio and wall-ratio are clew / reference.
func BenchmarkKeyVerify(b *testing.B) {
	for _, lang := range []Language{YAML, JSON, TOML} {
		for _, size := range []int{10 << 10, 100 << 10, 1 << 20} {
			src, n := configOfSize(lang, size)
			want := fmt.Sprintf("services.svc%05d.env.TIMEOUT_MS", n/2)
			reps := max(1, (1<<20)/len(src)) // about 1 MB per measurement
			b.Run(fmt.Sprintf("%s/%dKB", lang, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(src) * reps))
				var oursWall, refWall, oursCPU, refCPU time.Duration
				keys := 0
				for b.Loop() {
					w0, c0 := time.Now(), processCPU()
					for range reps {
						t := Parse(lang, src, Options{})
						found := false
						for _, d := range t.Decls {
							if d.QualifiedName == want {
								found = d.DeclHash != ""
								break
							}
						}
						if !found {
							b.Fatalf("%s not in the table", want)
						}
						keys = len(t.Decls)
					}
					w1, c1 := time.Now(), processCPU()
					for range reps {
						reference(b, lang, src)
					}
					w2, c2 := time.Now(), processCPU()
					oursWall += w1.Sub(w0)
					refWall += w2.Sub(w1)
					oursCPU += c1 - c0
					refCPU += c2 - c1
				}
				b.ReportMetric(float64(oursCPU)/float64(refCPU), "cpu-ratio")
				b.ReportMetric(float64(oursWall)/float64(refWall), "wall-ratio")
				b.ReportMetric(float64(oursCPU.Microseconds())/float64(b.N*reps), "clew-cpu-µs/file")
				b.ReportMetric(float64(refCPU.Microseconds())/float64(b.N*reps), "ref-cpu-µs/file")
				b.ReportMetric(float64(keys), "keys")
			})
		}
	}
}
