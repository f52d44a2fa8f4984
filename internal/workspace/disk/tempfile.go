package disk

import (
	"os"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"
)

// A write goes through a temporary file beside the doc (a rename is only
// atomic within one directory). A write killed midway (kill -9, power loss)
// leaves that file behind, where `git add -A` would pick it up; so its name
// is recognisable, listings never show it, and the next run removes it.

// tempPattern is os.CreateTemp's pattern for rel's temporary file:
// ".<name>.clew-<digits>.tmp".
func tempPattern(base string) string { return "." + base + ".clew-*.tmp" }

// tempNameRE recognises the temporary files of this and of earlier versions
// (which wrote ".<name>.clew-<digits>" without the suffix).
var tempNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\..+\.clew-[0-9]+(\.tmp)?$`) })

// IsTempFile reports whether a workspace path is a write's temporary file.
func IsTempFile(rel string) bool {
	base := path.Base(rel)
	return strings.Contains(base, ".clew-") && tempNameRE().MatchString(base) // the test first: a listing asks for every file
}

// abandonedAfter is how old a temporary file must be to count as left by an
// interrupted write: a write takes milliseconds, so a younger one may be a
// concurrent run's, still about to be renamed.
const abandonedAfter = time.Minute

// removeIfAbandoned deletes an old temporary file; it reports whether it did.
func removeIfAbandoned(abs string, now time.Time) bool {
	st, err := os.Lstat(abs)
	if err != nil || !st.Mode().IsRegular() || now.Sub(st.ModTime()) < abandonedAfter {
		return false
	}
	return os.Remove(abs) == nil
}
