//go:build !unix

package disk

import "io/fs"

// inode is unknown here: size and time key the index alone.
func inode(fs.FileInfo) uint64 { return 0 }
