package workspace

import "strings"

// relUnder returns abs relative to root, in forward slashes, when abs is
// root or below it. Both are OS paths as the loader and the editor give
// them: for a Windows root (`C:\…` or `\\server\share\…`) either slash
// separates and the drive letter's case does not matter, since editors send
// `c:` where Windows resolves folders to `C:`. Pure string work, so it is
// tested with Windows inputs on any machine.
func relUnder(abs, root string) (string, bool) {
	if windowsRoot(root) {
		abs, root = windowsSlash(abs), windowsSlash(root)
	}
	if abs == root {
		return "", true
	}
	prefix := strings.TrimSuffix(root, "/") + "/"
	if strings.HasPrefix(abs, prefix) {
		return abs[len(prefix):], true
	}
	return "", false
}

func windowsRoot(p string) bool {
	return strings.HasPrefix(p, `\\`) || len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && isLetter(p[0])
}

// windowsSlash writes a Windows path with forward slashes and an upper-case
// drive letter.
func windowsSlash(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		p = strings.ToUpper(p[:1]) + p[1:]
	}
	return p
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
