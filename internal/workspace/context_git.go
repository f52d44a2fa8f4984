package workspace

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
)

// GitLog is the optional history side of Git, asked by the context compiler
// (SPEC §5: the history tier, the git context). The façade checks for it by
// type assertion on the snapshot's Git value, so a Git without it still
// works: the answer then has no commits and an unavailable working tree.
// workspace/gitstate implements it with go-git, reading objects only.
type GitLog interface {
	// HeadFiles maps each regular file of HEAD's tree under the workspace
	// folder to its git blob id (40 hex); nil when there is no HEAD.
	HeadFiles() map[string]string
	// Commits returns the commits of HEAD's first-parent line that changed
	// path, newest first, at most max, each with the file's content after it.
	Commits(path string, max int) []GitCommit
}

// GitCommit is one commit that changed a file.
type GitCommit struct {
	SHA     string
	Time    time.Time
	Author  string
	Subject string
	Body    string
	// Content is the file after this commit; nil when Deleted or too large.
	Content []byte
	Deleted bool
}

// gitBlobID is git's object id of a blob with this content, so a file's
// snapshot content compares with HEAD's tree without asking git for a
// status walk. It doubles as the file's fingerprint hash.
func gitBlobID(b []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(b)) + "\x00"))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// gitOf is the repository state for the answer's git context. dirty is
// decided by the caller from blob ids; "" means it could not be decided.
func gitOf(info GitInfo, hasGit, hasLog bool, dirty string) devcontext.Git {
	switch {
	case !hasGit || !info.IsRepo:
		return devcontext.Git{Unavailable: "not a git repository"}
	case info.Head == "":
		return devcontext.Git{Branch: info.Branch, WorkingTree: dirty}
	case !hasLog:
		return devcontext.Git{Branch: info.Branch, Head: info.Head}
	}
	return devcontext.Git{Branch: info.Branch, Head: info.Head, WorkingTree: dirty}
}
