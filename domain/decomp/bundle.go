package decomp

import (
	"bytes"
	"errors"
	"fmt"
)

// A File is one named text of a bundle.
type File struct {
	Name string
	Data []byte
}

// Bundle joins several texts into one, so that a Plan over it can make
// changes whose edits span files (a name changed in every file of a
// package). Each file is a NUL byte, its name, a NUL byte and its
// data: texts that hold no NUL byte (source code) split back
// unambiguously, whatever the edits made inside them.
func Bundle(files []File) ([]byte, error) {
	n := 0
	for _, f := range files {
		n += len(f.Name) + len(f.Data) + 2
	}
	b := make([]byte, 0, n)
	for _, f := range files {
		if bytes.IndexByte(f.Data, 0) >= 0 || bytes.IndexByte([]byte(f.Name), 0) >= 0 {
			return nil, fmt.Errorf("%s holds a NUL byte: it cannot be bundled", f.Name)
		}
		b = append(b, 0)
		b = append(b, f.Name...)
		b = append(b, 0)
		b = append(b, f.Data...)
	}
	return b, nil
}

// Unbundle splits a bundle back into its files. Their data are slices of
// b.
func Unbundle(b []byte) ([]File, error) {
	var files []File
	for len(b) > 0 {
		if b[0] != 0 {
			return nil, errors.New("not a bundle: no file header")
		}
		end := bytes.IndexByte(b[1:], 0)
		if end < 0 {
			return nil, errors.New("not a bundle: a file header does not end")
		}
		name := string(b[1 : 1+end])
		b = b[2+end:]
		next := bytes.IndexByte(b, 0)
		if next < 0 {
			next = len(b)
		}
		files = append(files, File{Name: name, Data: b[:next:next]})
		b = b[next:]
	}
	return files, nil
}

// UnbundleAs splits a bundle back into the data of the files called
// names, which it must hold in that order.
func UnbundleAs(b []byte, names []string) ([][]byte, error) {
	files, err := Unbundle(b)
	if err != nil {
		return nil, err
	}
	if len(files) != len(names) {
		return nil, fmt.Errorf("%d files in a bundle of %d", len(files), len(names))
	}
	data := make([][]byte, len(files))
	for i, f := range files {
		if f.Name != names[i] {
			return nil, fmt.Errorf("%s in the place of %s", f.Name, names[i])
		}
		data[i] = f.Data
	}
	return data, nil
}

// BundleSpans are where each file's data lies in a bundle: [from, to).
func BundleSpans(files []File) [][2]int {
	spans := make([][2]int, len(files))
	off := 0
	for i, f := range files {
		off += len(f.Name) + 2
		spans[i] = [2]int{off, off + len(f.Data)}
		off += len(f.Data)
	}
	return spans
}
