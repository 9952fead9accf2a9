package reduce

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wynot/wynot/command"
)

// pendingFile is one file of a change to a tree being written: its new
// content, or its removal.
type pendingFile struct {
	Name    string      `json:"name"` // slash-separated, in the tree
	Data    []byte      `json:"data,omitempty"`
	Mode    fs.FileMode `json:"mode,omitempty"`
	Removed bool        `json:"removed,omitempty"`
}

// pendingPath is where the change being written to the tree reduced in
// place at dir is kept while it is written: DIR.wynot-pending.
func pendingPath(dir string) string { return strings.TrimSuffix(dir, "/") + ".wynot-pending" }

// writeTreeLocked writes the inputs in changed (a smaller failing tree
// that changes several files at once: a change across a package's
// files, files removed together) to the tree reduced in place as one
// change. The change is first written beside the tree (DIR.wynot-pending,
// atomically), then its files, then the record goes: a run killed in
// between leaves it, and the next run on the tree finishes the writing
// before anything else (finishPending), so the tree never stays half
// changed, a state that may not even fail. The caller holds rd.mu and
// has set the inputs' new data or removal.
func (rd *reducer) writeTreeLocked(changed []*input) {
	t := rd.tree
	journal := t.backup != "" && len(changed) > 1
	if journal {
		var files []pendingFile
		for _, in := range changed {
			files = append(files, pendingFile{Name: in.name, Data: in.data, Mode: in.mode, Removed: in.removed})
		}
		data, err := json.Marshal(files)
		if err == nil {
			err = command.WriteAtomic(pendingPath(t.dest), data, 0o600)
		}
		if err != nil {
			rd.s.SetFatal(fmt.Errorf("writing %s: %w", pendingPath(t.dest), err))
			return
		}
	}
	for _, in := range changed {
		if err := rd.saveLocked(in, false); err != nil {
			rd.s.SetFatal(err)
			return
		}
	}
	if journal {
		os.Remove(pendingPath(t.dest))
	}
}

// finishPending finishes writing the change an interrupted reduction of
// the tree at dir left in DIR.wynot-pending, if any, and says so.
func (r *Reduction) finishPending(dir string) error {
	p := pendingPath(dir)
	data, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return nil
	}
	var files []pendingFile
	if err == nil {
		err = json.Unmarshal(data, &files)
	}
	if err != nil {
		return command.InputError("%s holds the last change of an interrupted reduction of %s, which cannot be read (%v): remove it, or restore %s from %s.orig", p, dir, err, dir, strings.TrimSuffix(dir, "/"))
	}
	for _, f := range files {
		dest := filepath.Join(dir, filepath.FromSlash(f.Name))
		if !filepath.IsLocal(filepath.FromSlash(f.Name)) {
			return command.InputError("%s names %s, outside %s: remove it", p, f.Name, dir)
		}
		if f.Removed {
			if err := os.Remove(dest); err != nil && !os.IsNotExist(err) {
				return command.InputError("finishing the change in %s: %v", p, unwrapPath(err))
			}
			removeEmptyParents(dest, dir)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return command.InputError("finishing the change in %s: %v", p, unwrapPath(err))
		}
		if err := command.WriteAtomic(dest, f.Data, f.Mode); err != nil {
			return command.InputError("finishing the change in %s: %v", p, unwrapPath(err))
		}
	}
	if err := os.Remove(p); err != nil {
		return command.InputError("removing %s: %v", p, err)
	}
	say(r.Out, "%s held the last change of an interrupted reduction of %s, which was killed while writing it: the change is now written", p, dir)
	return nil
}
