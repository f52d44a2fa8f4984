package mcp

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// workspacePath turns the path an agent passed into a workspace-relative
// slash path. Relative paths are taken from the workspace root; absolute
// ones must lie inside it. `..` that climbs out, and symlinks that resolve
// outside, are refused before anything is read.
func workspacePath(root, p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", fmt.Errorf("file is empty: pass a path relative to the workspace root %s (for example \"internal/x/y.go\")", root)
	}
	var rel string
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(root, filepath.Clean(p))
		if err != nil || escapes(filepath.ToSlash(r)) {
			// The root has its symlinks resolved; the path may not.
			real, rerr := filepath.EvalSymlinks(p)
			if rerr != nil {
				return "", outside(root, p)
			}
			if r, err = filepath.Rel(root, real); err != nil || escapes(filepath.ToSlash(r)) {
				return "", outside(root, p)
			}
		}
		rel = filepath.ToSlash(r)
	} else {
		rel = path.Clean(filepath.ToSlash(p))
		if escapes(rel) {
			return "", outside(root, p)
		}
	}
	if rel == "." {
		return "", fmt.Errorf("%q is the workspace root, not a file: pass a file inside it", p)
	}
	if real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel))); err == nil {
		if r, err := filepath.Rel(root, real); err != nil || escapes(filepath.ToSlash(r)) {
			return "", fmt.Errorf("%q is a symlink to %s, outside the workspace %s: refused", p, real, root)
		}
	}
	return rel, nil
}

func escapes(rel string) bool {
	return rel == ".." || strings.HasPrefix(rel, "../") || path.IsAbs(rel)
}

func outside(root, p string) error {
	return fmt.Errorf("%q is outside the workspace %s: refused; pass a path inside it (relative to the root, or absolute under it)", p, root)
}
