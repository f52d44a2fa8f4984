package workspace

import (
	"testing"
	"time"
)

func TestTrustedStatKeepsOnlyOldStats(t *testing.T) {
	start := time.Unix(1000, 0)
	old := FileStat{Size: 3, ModTime: start.Add(-time.Second).UnixNano(), Ctime: start.Add(-time.Second).UnixNano(), Ok: true}
	if got := TrustedStat(old, start); got != old {
		t.Errorf("an old stat is trusted: got %+v", got)
	}
	for name, st := range map[string]FileStat{
		"modified in the window": {Size: 3, ModTime: start.Add(-RacyWindow / 2).UnixNano(), Ctime: old.Ctime, Ok: true},
		"changed in the window":  {Size: 3, ModTime: old.ModTime, Ctime: start.Add(-RacyWindow / 2).UnixNano(), Ok: true},
		"after the start":        {Size: 3, ModTime: start.Add(time.Second).UnixNano(), Ctime: old.Ctime, Ok: true},
		"no stat":                {Size: 3, ModTime: old.ModTime, Ctime: old.Ctime},
	} {
		if got := TrustedStat(st, start); got.Ok {
			t.Errorf("%s: trusted %+v", name, got)
		}
	}
	if StatUnchanged(FileStat{}, FileStat{}) || !StatUnchanged(old, old) {
		t.Error("StatUnchanged: only an Ok stat equal to the record is unchanged")
	}
	moved := old
	moved.Ctime++
	if StatUnchanged(old, moved) {
		t.Error("a moved status-change time is a change")
	}
}

func TestPackReaderIsStrict(t *testing.T) {
	b := AppendPackString(nil, "scheme")
	b = AppendPackString(b, "")
	r := &PackReader{S: string(b)}
	if r.Str() != "scheme" || r.Str() != "" || !r.Done() {
		t.Fatalf("round trip failed: %+v", r)
	}
	for cut := 0; cut < len(b)-1; cut++ {
		r := &PackReader{S: string(b[:cut])}
		r.Str()
		r.Str()
		if r.Done() {
			t.Errorf("truncated at %d: read as whole", cut)
		}
	}
	r = &PackReader{S: "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"}
	if r.Num(); !r.Bad {
		t.Error("an overlong uvarint is not refused")
	}
}
