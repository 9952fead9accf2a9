package codediff

import (
	"bytes"
	"path"
	"strings"
)

// Reads says which files of a repository's trees the test's build can
// read, so that a search of a history passes over the commits that
// change none of them: such a commit gives its parent's outcome, as
// git bisect start -- PATHS assumes of the commits it leaves out.
//
// Without Paths, the rule is the one that holds for a build of the
// tree: documentation (*.md, LICENSE, ...), CI configuration (.github/,
// .travis.yml, ...) and repository metadata (.gitignore, linter
// configuration) are read by no build; in a Go module, neither are Go
// test files and testdata directories, unless the test runs go test.
// A file that a Go package of the trees could embed (one at or below
// the directory of a Go file with a //go:embed directive) is always
// read. The rule is a prediction: a search that uses it still tests the
// commit it names and that commit's parent.
type Reads struct {
	// Paths, when set, are the only files that matter (the user vouches
	// for them): a path names a file, a directory above it, or a pattern
	// (path.Match) over the whole path; "." names every file.
	Paths []string
	// GoTest says that the test runs go test: Go test files and testdata
	// are read.
	GoTest bool

	goModule bool
	embeds   []string // directories of Go files with //go:embed directives
}

// The reasons a file is read by no build, in the order they are listed.
const (
	WhyDocs     = "documentation"
	WhyCI       = "CI configuration"
	WhyMeta     = "repository metadata"
	WhyTests    = "Go tests"
	WhyOutside  = "files outside the paths given"
	WhyNoChange = "no file"
)

var whyOrder = []string{WhyDocs, WhyCI, WhyMeta, WhyTests, WhyOutside}

// NewReads makes the rule for a history whose trees include trees (the
// revisions at its ends, in whole): whether it is a Go module, and
// which directories embed files.
func NewReads(paths []string, goTest bool, trees ...*Tree) *Reads {
	r := &Reads{Paths: paths, GoTest: goTest}
	seen := map[string]bool{}
	for _, t := range trees {
		if t == nil {
			continue
		}
		for p, f := range t.Files {
			if p == "go.mod" || strings.HasSuffix(p, "/go.mod") {
				r.goModule = true
			}
			if strings.HasSuffix(p, ".go") && f != nil && bytes.Contains(f.Data, []byte("//go:embed")) {
				if d := path.Dir(p); !seen[d] {
					seen[d] = true
					r.embeds = append(r.embeds, d)
				}
			}
		}
	}
	return r
}

// Why returns why no build of the test reads the file at p (one of the
// Why constants), or "" when a build can read it.
func (r *Reads) Why(p string) string {
	if len(r.Paths) > 0 {
		for _, q := range r.Paths {
			if within(p, q) {
				return ""
			}
		}
		return WhyOutside
	}
	why := r.kind(p)
	if why == "" {
		return ""
	}
	for _, d := range r.embeds {
		if within(p, d) {
			return "" // a //go:embed pattern there may name it
		}
	}
	return why
}

// within says whether path p is q, lies below directory q, or matches
// pattern q.
func within(p, q string) bool {
	q = strings.TrimSuffix(strings.TrimPrefix(q, "./"), "/")
	if q == "." || q == "" || p == q || strings.HasPrefix(p, q+"/") {
		return true
	}
	ok, _ := path.Match(q, p)
	return ok
}

// kind classifies a path by its name alone.
func (r *Reads) kind(p string) string {
	base := path.Base(p)
	lower := strings.ToLower(base)
	ext := path.Ext(lower)
	stem := strings.TrimSuffix(lower, ext)
	top, _, _ := strings.Cut(p, "/")
	switch {
	case top == ".github" || top == ".circleci" || top == ".gitlab" || top == ".buildkite":
		return WhyCI
	case ciFiles[lower]:
		return WhyCI
	case metaFiles[lower]:
		return WhyMeta
	case docExts[ext]:
		return WhyDocs
	case docNames[stem] && (ext == "" || ext == ".txt"):
		return WhyDocs
	}
	if r.goModule && !r.GoTest {
		if strings.HasSuffix(base, "_test.go") || strings.HasPrefix(p, "testdata/") || strings.Contains(p, "/testdata/") {
			return WhyTests
		}
	}
	return ""
}

var (
	docExts  = map[string]bool{".md": true, ".markdown": true, ".rst": true, ".adoc": true, ".asciidoc": true}
	docNames = map[string]bool{"license": true, "licence": true, "copying": true, "authors": true, "contributors": true,
		"notice": true, "changelog": true, "maintainers": true, "codeowners": true, "patents": true, "readme": true}
	ciFiles = map[string]bool{".travis.yml": true, ".gitlab-ci.yml": true, "appveyor.yml": true, ".appveyor.yml": true,
		"azure-pipelines.yml": true, "codecov.yml": true, ".codecov.yml": true, ".cirrus.yml": true}
	metaFiles = map[string]bool{".gitignore": true, ".gitattributes": true, ".mailmap": true, ".editorconfig": true,
		".golangci.yml": true, ".golangci.yaml": true, ".golangci.toml": true, ".goreleaser.yml": true, ".goreleaser.yaml": true,
		".pre-commit-config.yaml": true, ".markdownlint.yaml": true, ".markdownlint.json": true, "renovate.json": true}
)

// Commit returns why no build of the test reads any of the files a
// commit changes ("documentation and CI configuration", "no file"), or
// "" when a build can read one of them: then the commit may change the
// outcome.
func (r *Reads) Commit(paths []string) string {
	if len(paths) == 0 {
		return WhyNoChange
	}
	kinds := map[string]bool{}
	for _, p := range paths {
		why := r.Why(p)
		if why == "" {
			return ""
		}
		kinds[why] = true
	}
	var list []string
	for _, w := range whyOrder {
		if kinds[w] {
			list = append(list, w)
		}
	}
	switch len(list) {
	case 1:
		return list[0]
	default:
		return strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
	}
}
