package workspace

import "time"

// GitLog is the optional history side of Git, asked by the context compiler
// (docs/context.md: the history tier, the git context). The façade checks for it by
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

// GitChanges is the optional co-change side of GitLog: which files one
// commit changed. The context compiler follows it from the commits that
// changed the cursor's file to the files changed with it (co_changed).
type GitChanges interface {
	// ChangedFiles lists the workspace-relative paths the commit added or
	// modified against its first parent, sorted; nil when the commit cannot
	// be read or changes more than max files (a sweep says nothing about
	// which files belong together).
	ChangedFiles(sha string, max int) []string
	// FileChange reads a file before (first parent) and after the commit;
	// nil for the side where it does not exist.
	FileChange(sha, path string) (before, after []byte, ok bool)
}
