package golang

import (
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"sync"
)

// ExportImporter imports packages from the export data the go command
// wrote for them (go list -export): a module's requirements and the
// standard library alike, typed as the compiler types them, so that a
// candidate's misuse of a third-party package is a type error too. One
// importer serves a whole reduction: every package is read once, and a
// type is the same object wherever it is imported.
type ExportImporter struct {
	mu    sync.Mutex
	files map[string]string // export data file by import path
	imp   types.Importer
}

// NewExportImporter imports the packages of files, export data files by
// import path ("" for a package without).
func NewExportImporter(files map[string]string) *ExportImporter {
	e := &ExportImporter{files: files}
	e.imp = importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		f, ok := e.files[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
	return e
}

// Import imports the package path.
func (e *ExportImporter) Import(path string) (*types.Package, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.imp.Import(path)
}
