// Package watch turns fsnotify events under a workspace folder into
// debounced batches of changed paths, so a `git checkout` of thousands of
// files reaches the session as one re-check, not thousands.
//
// It watches every directory of the folder except .git internals (HEAD,
// refs and packed-refs are watched: they are how a branch switch shows),
// node_modules, vendor, third_party and what the ignore function rejects.
// Events are drained on their own goroutine (fsnotify/fsnotify#502).
package watch

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Defaults for the batching.
const (
	DefaultDelay   = 200 * time.Millisecond // quiet time that ends a batch
	DefaultMaxWait = 10 * time.Second       // a batch never waits longer than this
	// MaxPending bounds the paths kept for one batch; past it the batch is
	// just the folder root ("everything may have changed"), so a storm
	// cannot grow memory without limit.
	MaxPending = 4096
)

// Options tune a watcher.
type Options struct {
	Delay   time.Duration
	MaxWait time.Duration
	// Ignore reports whether a workspace-relative directory is skipped
	// (for example because .gitignore ignores it).
	Ignore func(rel string) bool
}

// Watcher delivers batches of absolute paths on Batches().
type Watcher struct {
	root    string
	opt     Options
	fsw     *fsnotify.Watcher
	batches chan []string
	errs    chan error
	done    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
}

var skipDirs = map[string]bool{"node_modules": true, "vendor": true, "third_party": true}

// New starts watching root recursively.
func New(root string, opt Options) (*Watcher, error) {
	if opt.Delay <= 0 {
		opt.Delay = DefaultDelay
	}
	if opt.MaxWait <= 0 {
		opt.MaxWait = DefaultMaxWait
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &Watcher{root: filepath.Clean(root), opt: opt, fsw: fsw,
		batches: make(chan []string, 16), errs: make(chan error, 16), done: make(chan struct{})}
	w.addTree(w.root)
	w.addGit()
	raw := make(chan fsnotify.Event, 1024)
	w.wg.Add(2)
	go w.drain(raw)
	go w.batch(raw)
	return w, nil
}

// Batches delivers one slice of changed absolute paths per quiet period.
func (w *Watcher) Batches() <-chan []string { return w.batches }

// Errors delivers watcher errors (for logging; the watcher keeps going).
func (w *Watcher) Errors() <-chan error { return w.errs }

// Close stops the watcher and closes Batches.
func (w *Watcher) Close() error {
	var err error
	w.once.Do(func() {
		close(w.done)
		err = w.fsw.Close()
		w.wg.Wait()
		close(w.batches)
	})
	return err
}

func (w *Watcher) skip(dir string) bool {
	name := filepath.Base(dir)
	if dir != w.root && (name == ".git" || skipDirs[name]) {
		return true
	}
	if w.opt.Ignore != nil && dir != w.root {
		if rel, err := filepath.Rel(w.root, dir); err == nil && w.opt.Ignore(filepath.ToSlash(rel)) {
			return true
		}
	}
	return false
}

// addTree watches dir and every directory below it that is not skipped.
func (w *Watcher) addTree(dir string) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if w.skip(p) {
			return filepath.SkipDir
		}
		if err := w.fsw.Add(p); err != nil {
			w.report(err)
		}
		return nil
	})
}

// addGit watches the parts of .git that say a branch switched.
func (w *Watcher) addGit() {
	git := filepath.Join(w.root, ".git")
	if st, err := os.Stat(git); err != nil || !st.IsDir() {
		return
	}
	w.fsw.Add(git) // HEAD and packed-refs live here; other entries are filtered
	filepath.WalkDir(filepath.Join(git, "refs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			w.fsw.Add(p)
		}
		return nil
	})
}

func (w *Watcher) report(err error) {
	select {
	case w.errs <- err:
	default: // nobody listening: drop rather than block
	}
}

// drain moves raw events off fsnotify's channel at once, so the kernel
// queue never overflows while a batch is being built.
func (w *Watcher) drain(raw chan<- fsnotify.Event) {
	defer w.wg.Done()
	defer close(raw)
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			select {
			case raw <- ev:
			case <-w.done:
				return
			}
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.report(err)
		case <-w.done:
			return
		}
	}
}

// relevant filters .git internals down to HEAD, refs and packed-refs.
func (w *Watcher) relevant(p string) bool {
	rel, err := filepath.Rel(w.root, p)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".git" || strings.HasPrefix(rel, ".git/") {
		r := strings.TrimPrefix(rel, ".git/")
		return r == "HEAD" || r == "packed-refs" || strings.HasPrefix(r, "refs/")
	}
	return true
}

func (w *Watcher) batch(raw <-chan fsnotify.Event) {
	defer w.wg.Done()
	pending := map[string]bool{}
	overflow := false
	var quiet, deadline <-chan time.Time
	var quietT, deadlineT *time.Timer
	flush := func() {
		if len(pending) == 0 && !overflow {
			return
		}
		var out []string
		if overflow {
			out = []string{w.root}
		} else {
			out = make([]string, 0, len(pending))
			for p := range pending {
				out = append(out, p)
			}
		}
		pending, overflow = map[string]bool{}, false
		quiet, deadline = nil, nil
		if deadlineT != nil {
			deadlineT.Stop()
			deadlineT = nil
		}
		select {
		case w.batches <- out:
		case <-w.done:
		}
	}
	for {
		select {
		case ev, ok := <-raw:
			if !ok {
				return
			}
			if !w.relevant(ev.Name) {
				continue
			}
			if ev.Op&fsnotify.Create != 0 {
				if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() && !w.skip(ev.Name) {
					w.addTree(ev.Name) // a new directory: watch it and say what it holds
				}
			}
			if !overflow {
				pending[ev.Name] = true
				if len(pending) > MaxPending {
					overflow, pending = true, map[string]bool{}
				}
			}
			if quietT != nil {
				quietT.Stop()
			}
			quietT = time.NewTimer(w.opt.Delay)
			quiet = quietT.C
			if deadline == nil {
				deadlineT = time.NewTimer(w.opt.MaxWait)
				deadline = deadlineT.C
			}
		case <-quiet:
			flush()
		case <-deadline:
			flush()
		case <-w.done:
			return
		}
	}
}
