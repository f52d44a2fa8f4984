package symbols

import "testing"

// T-01 on F-SW.
func TestSwiftExtractionFSW(t *testing.T) {
	tab := assertList(t, Swift, fixture(t, "Mixer.swift"), []string{
		"struct Mixer",
		"property Mixer.channels",
		"method Mixer.blend(first:second:)",
		"enum Mode", // enum cases are not declarations
	})
	b := find(t, tab, "Mixer.blend(first:second:)")
	if b.Container != "Mixer" || b.StartLine != 7 || b.EndLine != 10 || b.Name != "blend(first:second:)" {
		t.Errorf("blend: %+v", b)
	}
	src := fixture(t, "Mixer.swift")
	if src[b.NameStartByte:b.NameEndByte] != "blend" {
		t.Errorf("name span %q", src[b.NameStartByte:b.NameEndByte])
	}
}

func TestSwiftExtraction(t *testing.T) {
	assertList(t, Swift, fixture(t, "Player.swift"), []string{
		"protocol Playable",
		"type Playable.Media",
		"property Playable.isPlaying",
		"method Playable.play(from:)",
		"class Player",
		"type Player.Media",
		"property Player.isPlaying",
		"property Player.volume",
		"constructor Player.init(url:)",
		"constructor Player.init()",
		"method Player.play(from:)",
		"method Player.seek(Int)", // same labels: overloads get their types
		"method Player.seek(Double)",
		"method Player.move(_:)",
		"method Player.clamp()",
		"class Player.Queue",
		"struct Player.Queue.Entry",
		"method Player.Queue.Entry.describe()",
		"method Player.deinit",
		"property Player.title", // from the extension
		"method Player.stop()",
	})
}

func TestSwiftFormattingAndChanges(t *testing.T) {
	src := fixture(t, "Mixer.swift")
	// T-03: doc comment, wrapped header, comment line, blank line.
	t03 := edit(t, src,
		"/// Mixes the input channels.", "/// Mixes the input channels.\n/// Averages them, too.",
		"    func blend(first: Double, second: Double) -> Double {\n        let total = first + second\n",
		"    func blend(\n        first: Double,\n        second: Double\n    ) -> Double {\n        // sum first\n        let total = first + second\n\n")
	assertAllSame(t, Swift, "T-03", src, t03)
	assertAllSame(t, Swift, "crlf", src, edit(t, src, "\n", "\r\n"))
	assertAllSame(t, Swift, "semicolons", src, edit(t, src, "let total = first + second\n", "let total = first + second;\n"))
	// T-05: rename keeps both hashes, labels stay in the name.
	assertRenamed(t, Swift, src, edit(t, src, "func blend(", "func combine("),
		"method Mixer.blend(first:second:)", "method Mixer.combine(first:second:)")
	// T-09: a member edit makes the container stale.
	assertChanged(t, Swift, "T-09", src, edit(t, src, "first + second", "first - second"), true,
		[]string{"struct Mixer", "method Mixer.blend(first:second:)"}, []string{"enum Mode", "property Mixer.channels"})
	// Labels are identity: move(to:) is not move(from:).
	if _, ok := hashMap(Swift, edit(t, src, "blend(first:", "blend(from:"))["method Mixer.blend(from:second:)"]; !ok {
		t.Error("label change did not change the name")
	}
	// Re-indenting a multi-line string with its code is layout.
	p := fixture(t, "Player.swift")
	assertAllSame(t, Swift, "multi-line string", p, edit(t, p, "                    entry\n                    \"\"\"", "                entry\n                \"\"\""))
}

// D-06: moving a method into an extension keeps its identity and hash.
func TestSwiftMoveIntoExtension(t *testing.T) {
	src := fixture(t, "Mixer.swift")
	moved := edit(t, src,
		"    let channels: Int\n\n    func blend(first: Double, second: Double) -> Double {\n        let total = first + second\n        return total / Double(channels)\n    }\n}\n",
		"    let channels: Int\n}\n\nextension Mixer {\n    func blend(first: Double, second: Double) -> Double {\n        let total = first + second\n        return total / Double(channels)\n    }\n}\n")
	a, b := hashMap(Swift, src), hashMap(Swift, moved)
	k := "method Mixer.blend(first:second:)"
	if a[k] != b[k] || b[k].decl == "" {
		t.Errorf("D-06: %v → %v", a[k], b[k])
	}
}
