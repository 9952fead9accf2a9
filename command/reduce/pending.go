package reduce

import "github.com/wynot/wynot/keep"

// writeTreeLocked writes the inputs in changed (a smaller failing tree
// that changes several files at once: a change across a package's
// files, files removed together) to the tree reduced in place as one
// change, journaled (keep.Tree.Journal), so that the tree never stays
// half changed. The caller holds rd.mu and has set the inputs' new data
// or removal.
func (rd *reducer) writeTreeLocked(changed []*input) {
	cs := make([]keep.Change, len(changed))
	for i, in := range changed {
		cs[i] = keep.Change{Name: in.Name, Data: in.data, Mode: in.Mode, Removed: in.removed}
	}
	err := rd.tree.result.Journal(cs, func() error {
		for _, in := range changed {
			if err := rd.saveLocked(in, false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		rd.s.SetFatal(err)
	}
}
