package contextmap

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

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
func gitOf(info workspace.GitInfo, hasGit, hasLog bool, dirty string) devcontext.Git {
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
