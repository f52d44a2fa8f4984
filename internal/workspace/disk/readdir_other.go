//go:build !linux

package disk

import "os"

// dirHandle is nothing here: every directory is opened by its path.
type dirHandle struct{}

func (dirHandle) close() {}

var noDir dirHandle

// open lists the directory abs.
func (r *dirReader) open(_ dirHandle, _, abs string) (dirHandle, []dirEntry, error) {
	entries, err := r.read(abs)
	return dirHandle{}, entries, err
}

// read lists the directory abs.
func (r *dirReader) read(abs string) ([]dirEntry, error) {
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, err
	}
	out := make([]dirEntry, len(entries))
	for i, e := range entries {
		k := kindOther
		switch {
		case e.IsDir():
			k = kindDir
		case e.Type().IsRegular():
			k = kindRegular
		}
		out[i] = dirEntry{name: e.Name(), kind: k}
	}
	return out, nil
}
