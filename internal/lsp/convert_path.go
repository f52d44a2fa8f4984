package lsp

import (
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"go.lsp.dev/uri"
)

// hostWindows selects the Windows rules of pathOfOn and uriOfOn.
var hostWindows = runtime.GOOS == "windows"

// pathOfOn is pathOf for a platform, so the Windows rules are tested on
// any machine: editors on Windows send `file:///c%3A/Users/…` (VS Code
// lowercases the drive and escapes the colon) or `file:///C:/…`, and UNC
// shares as `file://server/share/…`. The path is cleaned and its drive
// letter upper-cased, the spelling Windows itself returns for a resolved
// folder (os.Getwd, filepath.EvalSymlinks), so a document's path has its
// folder's path as a prefix whichever way the editor spelled the drive.
func pathOfOn(u uri.URI, windows bool) (string, error) {
	if !u.IsFile() {
		return "", fmt.Errorf("unsupported URI %q: only file:// documents are part of a workspace", u)
	}
	if !windows {
		p := uri.FsPathFor(u, uri.PlatformPOSIX, true)
		if !strings.HasPrefix(p, "/") {
			return "", fmt.Errorf("URI %q has no absolute path", u)
		}
		return filepath.Clean(p), nil
	}
	p, ok := cleanWindowsPath(uri.FsPathFor(u, uri.PlatformWindows, true))
	if !ok {
		return "", fmt.Errorf("URI %q has no absolute Windows path (a drive letter or a \\\\server\\share)", u)
	}
	return p, nil
}

// uriOfOn is the inverse of pathOfOn; on Windows it writes the drive the
// way VS Code does (`file:///c%3A/…`), so the editor matches its own URIs.
func uriOfOn(p string, windows bool) uri.URI {
	if !windows {
		return uri.FileFor(uri.PlatformPOSIX, p)
	}
	if vol := windowsDrive(p); vol != "" {
		p = strings.ToLower(vol) + p[len(vol):]
	}
	return uri.FileFor(uri.PlatformWindows, p)
}

// cleanWindowsPath cleans an absolute Windows path (`C:\a\..\b` → `C:\b`,
// forward slashes allowed) and upper-cases its drive letter; ok is false
// for a path that is not absolute on Windows (`\home\x`, `C:x`, `x`).
func cleanWindowsPath(p string) (string, bool) {
	p = strings.ReplaceAll(p, "/", `\`)
	var vol, rest string
	switch {
	case windowsDrive(p) != "" && len(p) > 2 && p[2] == '\\':
		vol, rest = strings.ToUpper(p[:2]), p[2:]
	case strings.HasPrefix(p, `\\`):
		// \\server\share\rest: the volume is server and share.
		parts := strings.SplitN(p[2:], `\`, 3)
		if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
			return "", false
		}
		vol, rest = `\\`+parts[0]+`\`+parts[1], `\`
		if len(parts) == 3 {
			rest += parts[2]
		}
	default:
		return "", false
	}
	clean := path.Clean(strings.ReplaceAll(rest, `\`, "/"))
	if clean == "/" && strings.HasPrefix(vol, `\\`) {
		return vol, true
	}
	return vol + strings.ReplaceAll(clean, "/", `\`), true
}

// windowsDrive returns the "C:" of a path that starts with a drive letter.
func windowsDrive(p string) string {
	if len(p) >= 2 && p[1] == ':' && ('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z') {
		return p[:2]
	}
	return ""
}
