// Package remote runs wynot's tests as actions of a remote execution
// service speaking the Remote Execution API v2 (REAPI: Buildbarn,
// BuildBuddy, EngFlow, NativeLink, Buildfarm). Each test is an Action
// whose input root is the candidate's work directory and the files the
// test needs besides (declared, or named by path in its command); only
// the blobs the service's content-addressable storage lacks are uploaded,
// so a candidate costs the bytes it changed. The service's action cache
// serves outcomes seen before, failing ones too: the remote command
// records the test's real exit status in a file and exits 0 (services
// may cache only successful actions). Repeated runs of one test, and the
// runs of the original, carry a fresh salt, so that they are never
// answered from the cache.
//
// It uses the official protocol definitions of
// github.com/bazelbuild/remote-apis with gRPC.
package remote

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"cloud.google.com/go/longrunning/autogen/longrunningpb"
	repb "github.com/bazelbuild/remote-apis/build/bazel/remote/execution/v2"
	bspb "google.golang.org/genproto/googleapis/bytestream"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/wynot/wynot/runner"
)

// Options say where and how tests run remotely.
type Options struct {
	// Target is the service: reapi://HOST:PORT[/INSTANCE] or
	// grpc://... in plain text, reapis:// or grpcs:// over TLS.
	Target string
	// Inputs are local files and directories every test needs besides
	// the candidate; each goes into the input root under
	// InputsDir/NAME, and arguments naming it are rewritten to that.
	Inputs []string
	// Headers are KEY=VALUE metadata sent with every call.
	Headers []string
	// CredentialsFile holds a token sent as "authorization: Bearer".
	CredentialsFile string
	// Platform is KEY=VALUE properties a worker must have.
	Platform []string
	// Env is what the remote command's environment gets besides PATH
	// and what the test sets: KEY=VALUE, or KEY for wynot's own value
	// of KEY (HOME, say, where a test script finds its toolchain).
	Env []string
	// RetryFor, if set, is how long calls are retried while the service
	// is unavailable (default RetryFor).
	RetryFor time.Duration
	// QueueTimeout, if set, is how long tests may wait in the service's
	// queue while none of them executes before the executor gives up
	// (default QueueTimeout); negative waits without bound.
	QueueTimeout time.Duration
	// Say, if set, is told things the user should know (a file the
	// test's output names that was not sent).
	Say func(format string, args ...any)
}

// InputsDir is where declared inputs go in the input root.
const InputsDir = ".wynot-inputs"

// Files of the input root and outputs that the remote command uses.
const (
	statusFile = ".wynot-status"
	stdinFile  = ".wynot-stdin"
)

// Stats count what the executor did.
type Stats struct {
	Actions       atomic.Int64 // tests run
	CacheHits     atomic.Int64 // of them served by the action cache
	BlobsUploaded atomic.Int64
	BytesUploaded atomic.Int64
}

// Executor runs tests as remote actions; it implements runner.Executor
// and runner.Checker.
type Executor struct {
	Stats Stats

	opts     Options
	display  string // HOST:PORT[/INSTANCE], for messages
	addr     string // HOST:PORT
	instance string
	conn     *grpc.ClientConn
	exec     repb.ExecutionClient
	ac       repb.ActionCacheClient
	cas      repb.ContentAddressableStorageClient
	caps     repb.CapabilitiesClient
	bs       bspb.ByteStreamClient
	inputs   []input
	platform *repb.Platform
	maxBatch int64
	v21      bool        // the server speaks v2.1 or later (output_paths)
	noUpdate atomic.Bool // the action cache refused a result from wynot

	mu      sync.Mutex
	digests map[fileKey]*repb.Digest // digests of local files by identity
	hinted  map[string]bool

	watch    watch         // the actions in flight
	overtime time.Duration // how long past its timeout an action may execute (overtime)
	// noticeAfter, if set, is how long a stall lasts before it is said
	// (notice).
	noticeAfter time.Duration
}

// input is a declared input: a local path and its name in the input root.
type input struct{ local, name string }

// New connects to the service opts.Target names. Nothing is sent before
// the first call (Check).
func New(opts Options) (*Executor, error) {
	addr, instance, useTLS, err := parseTarget(opts.Target)
	if err != nil {
		return nil, err
	}
	md := metadata.MD{}
	for _, h := range opts.Headers {
		k, v, ok := strings.Cut(h, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--remote-header %q: want KEY=VALUE", h)
		}
		md.Append(strings.ToLower(strings.TrimSpace(k)), v)
	}
	for _, kv := range opts.Env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "" || strings.ContainsAny(k, " \t\n") {
			return nil, fmt.Errorf("--remote-env %q: want KEY=VALUE, or KEY to pass wynot's own value", kv)
		}
		if !strings.Contains(kv, "=") {
			if _, ok := os.LookupEnv(k); !ok {
				return nil, fmt.Errorf("--remote-env %s: wynot's environment has no %s to pass; give %s=VALUE", k, k, k)
			}
		}
	}
	if opts.CredentialsFile != "" {
		b, err := os.ReadFile(opts.CredentialsFile)
		if err != nil {
			return nil, fmt.Errorf("--remote-credentials: %v", err)
		}
		token := strings.TrimSpace(string(b))
		if token == "" {
			return nil, fmt.Errorf("--remote-credentials: %s is empty", opts.CredentialsFile)
		}
		md.Set("authorization", "Bearer "+token)
	}
	creds := insecure.NewCredentials()
	if useTLS {
		creds = credentials.NewTLS(&tls.Config{MinVersion: tls.VersionTLS12})
	}
	dial := []grpc.DialOption{grpc.WithTransportCredentials(creds),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64 << 20))}
	if len(md) > 0 {
		dial = append(dial,
			grpc.WithUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, o ...grpc.CallOption) error {
				return invoker(metadata.NewOutgoingContext(ctx, metadata.Join(md, outgoing(ctx))), method, req, reply, cc, o...)
			}),
			grpc.WithStreamInterceptor(func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, o ...grpc.CallOption) (grpc.ClientStream, error) {
				return streamer(metadata.NewOutgoingContext(ctx, metadata.Join(md, outgoing(ctx))), desc, cc, method, o...)
			}))
	}
	conn, err := grpc.NewClient(addr, dial...)
	if err != nil {
		return nil, fmt.Errorf("--exec %s: %v", opts.Target, err)
	}
	e := &Executor{opts: opts, display: addr, addr: addr, instance: instance, conn: conn,
		exec: repb.NewExecutionClient(conn), ac: repb.NewActionCacheClient(conn), cas: repb.NewContentAddressableStorageClient(conn),
		caps: repb.NewCapabilitiesClient(conn), bs: bspb.NewByteStreamClient(conn),
		maxBatch: safeBatch, digests: map[fileKey]*repb.Digest{}, hinted: map[string]bool{}, overtime: overtime}
	if instance != "" {
		e.display += "/" + instance
	}
	if e.inputs, err = declare(opts.Inputs); err != nil {
		conn.Close()
		return nil, err
	}
	if e.platform, err = platform(opts.Platform); err != nil {
		conn.Close()
		return nil, err
	}
	return e, nil
}

func outgoing(ctx context.Context) metadata.MD {
	md, _ := metadata.FromOutgoingContext(ctx)
	return md
}

// IsTarget says whether s names a remote execution service by one of
// the schemes New takes: reapi:// and grpc:// in plain text, reapis://
// and grpcs:// over TLS.
func IsTarget(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	return ok && (scheme == "reapi" || scheme == "grpc" || scheme == "reapis" || scheme == "grpcs")
}

// parseTarget reads reapi://HOST:PORT[/INSTANCE] and its variants.
func parseTarget(target string) (addr, instance string, useTLS bool, err error) {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		return "", "", false, fmt.Errorf("--exec %q: want reapi://HOST:PORT[/INSTANCE]", target)
	}
	switch u.Scheme {
	case "reapi", "grpc":
	case "reapis", "grpcs":
		useTLS = true
	default:
		return "", "", false, fmt.Errorf("--exec %q: want reapi://HOST:PORT[/INSTANCE] (reapis:// or grpcs:// for TLS)", target)
	}
	addr = u.Host
	if u.Port() == "" {
		addr += map[bool]string{false: ":80", true: ":443"}[useTLS]
	}
	return addr, strings.Trim(u.Path, "/"), useTLS, nil
}

// declare names the declared inputs in the input root, each by its base
// name (numbered when two share one).
func declare(paths []string) ([]input, error) {
	var ins []input
	used := map[string]bool{}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("--remote-input: %v", err)
		}
		name := filepath.Base(abs)
		for i := 2; used[name]; i++ {
			name = fmt.Sprintf("%s.%d", filepath.Base(abs), i)
		}
		used[name] = true
		ins = append(ins, input{abs, InputsDir + "/" + name})
	}
	return ins, nil
}

func platform(props []string) (*repb.Platform, error) {
	if len(props) == 0 {
		return nil, nil
	}
	p := &repb.Platform{}
	for _, kv := range props {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--platform %q: want KEY=VALUE", kv)
		}
		p.Properties = append(p.Properties, &repb.Platform_Property{Name: k, Value: v})
	}
	sort.Slice(p.Properties, func(i, j int) bool {
		a, b := p.Properties[i], p.Properties[j]
		return a.Name < b.Name || a.Name == b.Name && a.Value < b.Value
	})
	return p, nil
}

// The remote executor says what the service did and has things to say
// while tests wait.
var (
	_ runner.Summarizer = (*Executor)(nil)
	_ runner.Speaker    = (*Executor)(nil)
)

// Summary says what the service did, for the closing lines.
func (e *Executor) Summary() string {
	n := e.Stats.Actions.Load()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d runs on %s were answered by its action cache (the original's runs and the final checks never are); %s sent in %d blobs",
		e.Stats.CacheHits.Load(), n, e.display, size(e.Stats.BytesUploaded.Load()), e.Stats.BlobsUploaded.Load())
}

func size(n int64) string {
	switch {
	case n >= 10<<20:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 10<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// SetSay changes where the executor's messages go.
func (e *Executor) SetSay(say func(format string, args ...any)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.opts.Say = say
}

func (e *Executor) String() string { return "the remote execution service at " + e.display }

// Where says where tests run: not in a directory here (runner.Placer).
func (e *Executor) Where() string { return "on " + e.String() + ", in a worker's directory" }

// Close closes the connection.
func (e *Executor) Close() error { return e.conn.Close() }

// Check asks the service what it can do: it must answer, execute
// actions and take SHA-256 digests.
func (e *Executor) Check(ctx context.Context, root string) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	caps, err := e.caps.GetCapabilities(ctx, &repb.GetCapabilitiesRequest{InstanceName: e.instance})
	if err != nil {
		return e.callError("cannot reach", err)
	}
	ex := caps.GetExecutionCapabilities()
	if ex == nil || !ex.GetExecEnabled() {
		if e.instance == "" {
			return fmt.Errorf("--exec: %s does not execute actions of the default instance: give its instance name (reapi://HOST:PORT/INSTANCE), unless it is a cache only", e.display)
		}
		return fmt.Errorf("--exec: %s does not execute actions of instance %q: check the instance name (reapi://HOST:PORT/INSTANCE), unless it is a cache only", e.display, e.instance)
	}
	if !slices.Contains(ex.GetDigestFunctions(), repb.DigestFunction_SHA256) && ex.GetDigestFunction() != repb.DigestFunction_SHA256 {
		return fmt.Errorf("--exec: %s does not take SHA-256 digests", e.display)
	}
	if n := caps.GetCacheCapabilities().GetMaxBatchTotalSizeBytes(); n > 0 {
		e.maxBatch = min(n, safeBatch)
	}
	if v := caps.GetHighApiVersion(); v != nil && (v.Major > 2 || v.Major == 2 && v.Minor >= 1) {
		e.v21 = true
	}
	return nil
}

// callError says what a failed call means for the user.
func (e *Executor) callError(what string, err error) error {
	st, _ := status.FromError(err)
	switch st.Code() {
	case codes.Unavailable, codes.DeadlineExceeded:
		msg := st.Message()
		if m := dialError.FindStringSubmatch(msg); m != nil {
			if addr := m[1]; addr != e.addr {
				// The service answers, but one of its own parts does not:
				// the dial error is the frontend's, to its backend.
				return fmt.Errorf("--exec: the remote execution service at %s answers, but cannot reach a part of itself at %s (%s): is its scheduler or storage stopped?", e.display, addr, m[2])
			}
			return fmt.Errorf("--exec: %s the remote execution service at %s: %s (is it running?)", what, e.display, m[2])
		}
		if strings.Contains(msg, "No workers exist") {
			return e.noWorker(msg)
		}
		return fmt.Errorf("--exec: %s the remote execution service at %s: %s", what, e.display, msg)
	case codes.Unauthenticated, codes.PermissionDenied:
		return fmt.Errorf("--exec: %s refuses wynot (%s): %s; give --remote-header or --remote-credentials", e.display, st.Code(), st.Message())
	}
	return fmt.Errorf("--exec: %s: %s: %s", e.display, st.Code(), st.Message())
}

// dialError finds the address and the reason in a gRPC dial error.
var dialError = regexp.MustCompile(`dial tcp ([^ ]+?): (?:connect: )?([^"]*)`)

// noWorker says that no worker takes the action: its platform, or the
// instance name, is not what the service's workers offer.
func (e *Executor) noWorker(msg string) error {
	if e.platform != nil {
		return fmt.Errorf("%w: %s has no worker for --platform %s (%s): give properties its workers offer", runner.ErrStart, e.display, strings.Join(e.opts.Platform, " "), msg)
	}
	return fmt.Errorf("%w: %s has no worker for instance %q (%s): check the instance name (reapi://HOST:PORT/INSTANCE); or its workers may be gone", runner.ErrStart, e.display, e.instance, msg)
}

// safeBatch bounds the bytes of one batch call. A service advertising
// no limit (max_batch_total_size_bytes 0) still has its message size
// limit: Buildbarn refuses batches above 2 MiB with INVALID_ARGUMENT.
// Larger blobs go by ByteStream, and a refused batch is sent again by
// ByteStream.
const safeBatch = 1 << 20

// refused reports whether err is a service refusing a call for its size.
func refused(err error) bool {
	c := status.Code(err)
	return c == codes.InvalidArgument || c == codes.ResourceExhausted
}

// blob is content to upload: in memory, or a local file.
type blob struct {
	digest *repb.Digest
	data   []byte
	path   string
}

// tree is an input root being built.
type tree struct {
	e     *Executor
	dirs  map[string]*repb.Directory // by path in the root, "" for the root
	blobs map[string]blob            // by hash
}

func (t *tree) dir(path string) *repb.Directory {
	if d, ok := t.dirs[path]; ok {
		return d
	}
	d := &repb.Directory{}
	t.dirs[path] = d
	if path != "" {
		parent := t.dir(parentOf(path))
		parent.Directories = append(parent.Directories, &repb.DirectoryNode{Name: baseOf(path)})
	}
	return d
}

func parentOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func baseOf(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// addData puts data into the root at path.
func (t *tree) addData(path string, data []byte, executable bool) {
	d := digestOf(data)
	t.blobs[d.Hash] = blob{digest: d, data: data}
	dir := t.dir(parentOf(path))
	dir.Files = append(dir.Files, &repb.FileNode{Name: baseOf(path), Digest: d, IsExecutable: executable})
}

// addLocal puts the local file or directory local into the root at path.
func (t *tree) addLocal(local, path string) error {
	st, err := os.Lstat(local)
	if err != nil {
		return err
	}
	switch {
	case st.Mode()&os.ModeSymlink != 0:
		target, err := os.Readlink(local)
		if err != nil {
			return err
		}
		dir := t.dir(parentOf(path))
		dir.Symlinks = append(dir.Symlinks, &repb.SymlinkNode{Name: baseOf(path), Target: target})
	case st.IsDir():
		t.dir(path)
		entries, err := os.ReadDir(local)
		if err != nil {
			return err
		}
		for _, en := range entries {
			sub := en.Name()
			if path != "" {
				sub = path + "/" + sub
			}
			if err := t.addLocal(filepath.Join(local, en.Name()), sub); err != nil {
				return err
			}
		}
	case st.Mode().IsRegular():
		d, err := t.e.fileDigest(local, st)
		if err != nil {
			return err
		}
		t.blobs[d.Hash] = blob{digest: d, path: local}
		dir := t.dir(parentOf(path))
		dir.Files = append(dir.Files, &repb.FileNode{Name: baseOf(path), Digest: d, IsExecutable: st.Mode()&0o111 != 0})
	}
	return nil
}

// copies returns shell commands that replace the tree's files by
// writable copies of their own: two processes a file for a few files,
// six for all of them otherwise.
func (t *tree) copies() []string {
	n := 0
	for _, d := range t.dirs {
		n += len(d.Files)
	}
	if n > 3 {
		var top []string
		for _, f := range t.dirs[""].Files {
			top = append(top, f.Name)
		}
		for _, d := range t.dirs[""].Directories {
			top = append(top, d.Name)
		}
		for _, l := range t.dirs[""].Symlinks {
			top = append(top, l.Name)
		}
		sort.Strings(top)
		var here, there strings.Builder
		for _, name := range top {
			here.WriteString(" " + shQuote("./"+name))
			there.WriteString(" " + shQuote("./.wynot-copy/"+name))
		}
		return []string{"mkdir .wynot-copy && cp -pR" + here.String() + " .wynot-copy/ && rm -rf" + here.String() +
			" && mv" + there.String() + " . && rmdir .wynot-copy && chmod -R u+w" + here.String() + "; "}
	}
	var out []string
	for path, d := range t.dirs {
		for _, f := range d.Files {
			name := "./" + f.Name
			if path != "" {
				name = "./" + path + "/" + f.Name
			}
			q, tmp := shQuote(name), shQuote(name+".w~")
			if f.IsExecutable {
				out = append(out, "cp -p "+q+" "+tmp+" && chmod u+w "+tmp+" && mv -f "+tmp+" "+q+"; ")
			} else {
				out = append(out, "cat "+q+" >"+tmp+" && mv -f "+tmp+" "+q+"; ")
			}
		}
	}
	sort.Strings(out)
	return out
}

// shQuote quotes s for the shell.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// root finishes the tree: every directory's entries sorted, the
// directories serialized bottom up; it returns the root's digest.
func (t *tree) root() *repb.Digest {
	paths := make([]string, 0, len(t.dirs))
	for p := range t.dirs {
		paths = append(paths, p)
	}
	// Deepest first, so that a directory's children have digests.
	depth := func(p string) int {
		if p == "" {
			return 0
		}
		return strings.Count(p, "/") + 1
	}
	sort.Slice(paths, func(i, j int) bool {
		if di, dj := depth(paths[i]), depth(paths[j]); di != dj {
			return di > dj
		}
		return paths[i] < paths[j]
	})
	var rootDigest *repb.Digest
	for _, p := range paths {
		d := t.dirs[p]
		for _, n := range d.Directories {
			child := n.Name
			if p != "" {
				child = p + "/" + child
			}
			n.Digest = t.digestOfDir(t.dirs[child])
		}
		if p == "" {
			rootDigest = t.digestOfDir(d)
		}
	}
	return rootDigest
}

// digestOfDir serializes d, keeps it as a blob and returns its digest.
func (t *tree) digestOfDir(d *repb.Directory) *repb.Digest {
	sort.Slice(d.Files, func(i, j int) bool { return d.Files[i].Name < d.Files[j].Name })
	sort.Slice(d.Directories, func(i, j int) bool { return d.Directories[i].Name < d.Directories[j].Name })
	sort.Slice(d.Symlinks, func(i, j int) bool { return d.Symlinks[i].Name < d.Symlinks[j].Name })
	return t.message(d)
}

// message serializes m deterministically, keeps it as a blob and
// returns its digest.
func (t *tree) message(m proto.Message) *repb.Digest {
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		panic(err) // only for messages that cannot be serialized
	}
	d := digestOf(data)
	t.blobs[d.Hash] = blob{digest: d, data: data}
	return d
}

func digestOf(data []byte) *repb.Digest {
	h := sha256.Sum256(data)
	return &repb.Digest{Hash: hex.EncodeToString(h[:]), SizeBytes: int64(len(data))}
}

// fileKey identifies a local file's content as long as it is not
// rewritten: its path, size, modification time and inode.
type fileKey struct {
	path       string
	size, mtim int64
	ino        uint64
}

// fileDigest hashes a local file, once while it stays the same.
func (e *Executor) fileDigest(path string, st os.FileInfo) (*repb.Digest, error) {
	k := fileKey{path: path, size: st.Size(), mtim: st.ModTime().UnixNano()}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		k.ino = sys.Ino
	}
	e.mu.Lock()
	d, ok := e.digests[k]
	e.mu.Unlock()
	if ok {
		return d, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return nil, err
	}
	d = &repb.Digest{Hash: hex.EncodeToString(h.Sum(nil)), SizeBytes: n}
	e.mu.Lock()
	e.digests[k] = d
	e.mu.Unlock()
	return d, nil
}

// Execute runs p as a remote action.
func (e *Executor) Execute(ctx context.Context, p runner.Process) (runner.Run, error) {
	if p.Dir != p.WorkDir {
		return runner.Run{Exit: -1}, fmt.Errorf("%w: with --exec %s the test runs in the candidate's directory on a remote worker; it cannot run in %s", runner.ErrStart, e.display, p.Dir)
	}
	t := &tree{e: e, dirs: map[string]*repb.Directory{}, blobs: map[string]blob{}}
	t.dir("")
	var copies []string // the commands that copy the candidate's files
	if p.WorkDir != "" {
		if err := t.addLocal(p.WorkDir, ""); err != nil {
			return runner.Run{Exit: -1}, err
		}
		copies = t.copies()
	}
	// The declared inputs, and the files the command names by absolute
	// path (the test script, a program given as ./prog).
	args := p.Relative(p.Argv)
	ins := e.inputs
	for i, a := range args {
		if i > 0 && !filepath.IsAbs(a) {
			continue
		}
		if st, err := os.Stat(a); err == nil && st.Mode().IsRegular() && filepath.IsAbs(a) && !slices.ContainsFunc(ins, func(in input) bool { return in.local == a }) {
			ins = append(ins, input{a, fmt.Sprintf("%s/%d/%s", InputsDir, i, filepath.Base(a))})
		}
	}
	for _, in := range ins {
		if err := t.addLocal(in.local, in.name); err != nil {
			return runner.Run{Exit: -1}, fmt.Errorf("%w: %v", runner.ErrStart, err)
		}
	}
	for i, a := range args {
		for _, in := range ins {
			if a == in.local {
				args[i] = "./" + in.name
			} else {
				args[i] = strings.ReplaceAll(args[i], in.local+"/", in.name+"/")
			}
		}
	}
	redirect := "</dev/null"
	if p.Stdin != nil {
		t.addData(stdinFile, p.Stdin, false)
		redirect = "<" + stdinFile
	}
	// The remote command records the test's exit status and succeeds,
	// so that the action cache keeps failing outcomes too. The test runs
	// in a subshell with the original standard error; the shell's own
	// error output (where it reports a test killed by a signal) goes
	// nowhere, so the test's output is what it is locally.
	//
	// Workers may hard-link input files from a cache they share with
	// later actions (Buildbarn's do): the candidate's files are copied
	// first, writable as locally, so that a test writing to them changes
	// only its own copy.
	script := `exec 3>&2 2>/dev/null; ` + strings.Join(copies, "") + `(exec "$@" 2>&3 3>&- ` + redirect + `); echo "$?" >` + statusFile + `; exit 0`
	cmd := &repb.Command{
		Arguments:            append([]string{"/bin/sh", "-c", script, "sh"}, args...),
		EnvironmentVariables: environment(p.Env, e.opts.Env),
	}
	// Services before v2.2 read the platform from the Command, before
	// v2.1 the outputs from output_files: both are set for them.
	//lint:ignore SA1019 the platform in the Command is what older services read
	cmd.Platform = e.platform
	if e.v21 {
		cmd.OutputPaths = []string{statusFile}
	} else {
		//lint:ignore SA1019 services before v2.1 know only output_files
		cmd.OutputFiles = []string{statusFile}
	}
	action := &repb.Action{CommandDigest: t.message(cmd), InputRootDigest: t.root(), Platform: e.platform}
	if p.Fresh {
		// A repeated test, or the original, runs afresh each time, and
		// its result is of no use to any later run.
		salt := make([]byte, 16)
		_, _ = rand.Read(salt)
		action.Salt = salt
		action.DoNotCache = true
	}
	// The action cache's key is the action without its timeout, which
	// wynot calibrates anew on every run: a result is as good under any
	// timeout longer than the test took. The action run carries the
	// timeout; its result is written under the key.
	key := t.message(action)
	actionDigest := key
	if p.Timeout > 0 {
		timed := proto.Clone(action).(*repb.Action)
		timed.Timeout = durationpb.New(p.Timeout)
		actionDigest = t.message(timed)
	}
	start := time.Now()
	// As Bazel does, the action cache is asked first: services need not
	// look it up in Execute (Buildbarn does not).
	var resp *repb.ExecuteResponse
	if !p.Fresh {
		resp = e.lookup(ctx, key, p.Timeout)
	}
	if resp == nil {
		if err := e.upload(ctx, t.blobs); err != nil {
			return runner.Run{Exit: -1}, err
		}
		// The service enforces the timeout, from the start of the
		// action's execution; should it not, wynot does, later (time in
		// the queue does not count).
		var began time.Time
		var err error
		resp, began, err = e.execute(ctx, actionDigest, t.blobs, p.Fresh, p.Timeout, p.Started)
		if !began.IsZero() {
			start = began
		}
		if errors.Is(err, errOvertime) {
			return runner.Run{Exit: -1, Signal: syscall.SIGKILL, TimedOut: true, Duration: time.Since(start)}, nil
		}
		if err != nil {
			return runner.Run{Exit: -1}, err
		}
		if !p.Fresh && actionDigest != key && complete(resp) {
			e.remember(ctx, key, resp.GetResult())
		}
	}
	r := runner.Run{Duration: time.Since(start)}
	e.Stats.Actions.Add(1)
	if resp.GetCachedResult() {
		e.Stats.CacheHits.Add(1)
	}
	var err error
	var statusText []byte
	r.Stdout, r.Stderr, statusText, err = e.outputs(ctx, resp.GetResult())
	if errors.Is(err, errLost) && resp.GetCachedResult() {
		// A cached result whose outputs the storage no longer has: run
		// the action again.
		if err = e.upload(ctx, t.blobs); err != nil {
			return r, err
		}
		if resp, _, _, err = e.executeOnce(ctx, actionDigest, true, "", nil); err == nil {
			r.Stdout, r.Stderr, statusText, err = e.outputs(ctx, resp.GetResult())
		}
	}
	if err != nil {
		return r, err
	}
	res := resp.GetResult()
	if code := status.FromProto(resp.GetStatus()).Code(); code == codes.DeadlineExceeded {
		r.Exit, r.Signal, r.TimedOut = -1, syscall.SIGKILL, true
		r.Stdout, r.Stderr = tail(r.Stdout), tail(r.Stderr)
		return r, nil
	}
	n, perr := strconv.Atoi(strings.TrimSpace(string(statusText)))
	switch {
	case perr != nil && killedAtTimeout(res, p.Timeout, r.Duration):
		// Buildbarn's runner may kill the action at its timeout and
		// answer with the exit code Go gives a killed process (-1) and
		// status OK, before its worker sees the deadline.
		r.Exit, r.Signal, r.TimedOut = -1, syscall.SIGKILL, true
	case perr != nil:
		r.Exit = int(res.GetExitCode())
		r.Lost = fmt.Sprintf("unresolved: the remote action ended without the test's status (exit code %d)", res.GetExitCode())
	case n > 128 && n < 128+65:
		// sh reports a test killed by signal N as 128+N.
		r.Exit, r.Signal = -1, syscall.Signal(n-128)
	default:
		r.Exit = n
	}
	if r.Exit == 124 {
		r.TimedOut = true
	}
	r.Stdout, r.Stderr = tail(r.Stdout), tail(r.Stderr)
	e.hintMissing(r)
	return r, nil
}

// killedAtTimeout reports whether an action whose result has no status
// file was killed by a signal after running for its whole timeout
// (measured by the worker where it says, else by wynot).
func killedAtTimeout(res *repb.ActionResult, timeout, elapsed time.Duration) bool {
	if timeout <= 0 || res.GetExitCode() >= 0 {
		return false
	}
	if m := res.GetExecutionMetadata(); m.GetExecutionStartTimestamp() != nil && m.GetExecutionCompletedTimestamp() != nil {
		elapsed = m.GetExecutionCompletedTimestamp().AsTime().Sub(m.GetExecutionStartTimestamp().AsTime())
	}
	return elapsed >= timeout
}

// outputs reads what an action result holds: standard output and
// error, and the status file.
func (e *Executor) outputs(ctx context.Context, res *repb.ActionResult) (stdout, stderr, status []byte, err error) {
	if stdout, err = e.output(ctx, res.GetStdoutRaw(), res.GetStdoutDigest()); err != nil {
		return
	}
	if stderr, err = e.output(ctx, res.GetStderrRaw(), res.GetStderrDigest()); err != nil {
		return
	}
	for _, f := range res.GetOutputFiles() {
		if f.GetPath() == statusFile {
			if status, err = e.output(ctx, f.GetContents(), f.GetDigest()); err != nil {
				return
			}
		}
	}
	return
}

func tail(b []byte) []byte {
	if len(b) > runner.OutputLimit {
		return b[len(b)-runner.OutputLimit:]
	}
	return b
}

// Hint says what a remote test does not get that a local one does.
func (e *Executor) Hint() string {
	return "a remote test gets PATH and what the test itself sets, not wynot's whole environment, and only the files sent: pass a variable it needs (HOME, say) with --remote-env KEY, a file with --remote-input PATH"
}

// environment is what the remote command gets: PATH, what extra says
// (Options.Env), and what the test's environment sets beyond wynot's
// own.
func environment(env, extra []string) []*repb.Command_EnvironmentVariable {
	vars := map[string]string{"PATH": os.Getenv("PATH")}
	if vars["PATH"] == "" {
		vars["PATH"] = "/usr/local/bin:/usr/bin:/bin"
	}
	for _, kv := range extra {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		} else if v, ok := os.LookupEnv(kv); ok {
			vars[kv] = v
		}
	}
	own := map[string]bool{}
	for _, kv := range os.Environ() {
		own[kv] = true
	}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && !own[kv] {
			vars[k] = v
		}
	}
	out := make([]*repb.Command_EnvironmentVariable, 0, len(vars))
	for k, v := range vars {
		out = append(out, &repb.Command_EnvironmentVariable{Name: k, Value: v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

var missingPath = regexp.MustCompile(`(/[^\s:'"]+): (?:No such file or directory|not found)`)

// hintMissing tells the user, once per path, when a test's output says
// that a file is missing that exists here: it was not sent.
func (e *Executor) hintMissing(r runner.Run) {
	e.mu.Lock()
	say := e.opts.Say
	e.mu.Unlock()
	if say == nil || r.Clean() {
		return
	}
	for _, out := range [][]byte{r.Stderr, r.Stdout} {
		for _, m := range missingPath.FindAllSubmatch(out, -1) {
			path := string(m[1])
			if _, err := os.Stat(path); err != nil {
				continue
			}
			e.mu.Lock()
			seen := e.hinted[path]
			e.hinted[path] = true
			e.mu.Unlock()
			if !seen {
				say("a remote test says %s is missing: it exists here but was not sent; declare it with --remote-input %s", path, path)
			}
		}
	}
}

// upload sends the blobs the service's storage lacks.
func (e *Executor) upload(ctx context.Context, blobs map[string]blob) error {
	req := &repb.FindMissingBlobsRequest{InstanceName: e.instance, DigestFunction: repb.DigestFunction_SHA256}
	for _, b := range blobs {
		req.BlobDigests = append(req.BlobDigests, b.digest)
	}
	var missing *repb.FindMissingBlobsResponse
	err := e.retry(ctx, func() (err error) {
		missing, err = e.cas.FindMissingBlobs(ctx, req)
		return err
	})
	if err != nil {
		return e.callError("cannot reach", err)
	}
	batch := &repb.BatchUpdateBlobsRequest{InstanceName: e.instance, DigestFunction: repb.DigestFunction_SHA256}
	var size int64
	flush := func() error {
		if len(batch.Requests) == 0 {
			return nil
		}
		var resp *repb.BatchUpdateBlobsResponse
		err := e.retry(ctx, func() (err error) {
			resp, err = e.cas.BatchUpdateBlobs(ctx, batch)
			return err
		})
		if refused(err) {
			for _, r := range batch.Requests {
				if err := e.write(ctx, r.Digest, r.Data); err != nil {
					return err
				}
			}
			batch.Requests, size = nil, 0
			return nil
		}
		if err != nil {
			return e.callError("cannot upload to", err)
		}
		for _, r := range resp.GetResponses() {
			if c := codes.Code(r.GetStatus().GetCode()); c != codes.OK {
				return fmt.Errorf("--exec: %s refused a blob: %s %s", e.display, c, r.GetStatus().GetMessage())
			}
		}
		batch.Requests, size = nil, 0
		return nil
	}
	for _, d := range missing.GetMissingBlobDigests() {
		b, ok := blobs[d.Hash]
		if !ok {
			continue
		}
		data := b.data
		if data == nil {
			if data, err = os.ReadFile(b.path); err != nil {
				return err
			}
			if int64(len(data)) != b.digest.SizeBytes {
				return fmt.Errorf("%s changed while it was sent", b.path)
			}
		}
		e.Stats.BlobsUploaded.Add(1)
		e.Stats.BytesUploaded.Add(int64(len(data)))
		if int64(len(data))+1024 > e.maxBatch {
			if err := e.write(ctx, b.digest, data); err != nil {
				return err
			}
			continue
		}
		if size+int64(len(data))+1024 > e.maxBatch {
			if err := flush(); err != nil {
				return err
			}
		}
		batch.Requests = append(batch.Requests, &repb.BatchUpdateBlobsRequest_Request{Digest: b.digest, Data: data})
		size += int64(len(data)) + 1024
	}
	return flush()
}

// write uploads one large blob by ByteStream.
func (e *Executor) write(ctx context.Context, d *repb.Digest, data []byte) error {
	if err := e.retry(ctx, func() error { return e.writeOnce(ctx, d, data) }); err != nil {
		return e.callError("cannot upload to", err)
	}
	return nil
}

func (e *Executor) writeOnce(ctx context.Context, d *repb.Digest, data []byte) error {
	stream, err := e.bs.Write(ctx)
	if err != nil {
		return err
	}
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	name := fmt.Sprintf("uploads/%x/blobs/%s/%d", id, d.Hash, d.SizeBytes)
	if e.instance != "" {
		name = e.instance + "/" + name
	}
	const chunk = 1 << 20
	for off := 0; ; off += chunk {
		end := min(off+chunk, len(data))
		req := &bspb.WriteRequest{WriteOffset: int64(off), Data: data[off:end], FinishWrite: end == len(data)}
		if off == 0 {
			req.ResourceName = name
		}
		if err := stream.Send(req); err != nil && err != io.EOF {
			return err
		}
		if end == len(data) {
			break
		}
	}
	if _, err := stream.CloseAndRecv(); err != nil {
		return err
	}
	return nil
}

// output is inline content, or the blob d read from the storage.
func (e *Executor) output(ctx context.Context, inline []byte, d *repb.Digest) ([]byte, error) {
	if len(inline) > 0 || d == nil || d.SizeBytes == 0 {
		return inline, nil
	}
	if d.SizeBytes+1024 <= e.maxBatch {
		var resp *repb.BatchReadBlobsResponse
		err := e.retry(ctx, func() (err error) {
			resp, err = e.cas.BatchReadBlobs(ctx, &repb.BatchReadBlobsRequest{InstanceName: e.instance, Digests: []*repb.Digest{d}, DigestFunction: repb.DigestFunction_SHA256})
			return err
		})
		if err != nil && !refused(err) {
			return nil, e.callError("cannot read from", err)
		}
		if rs := resp.GetResponses(); err == nil && len(rs) > 0 {
			switch codes.Code(rs[0].GetStatus().GetCode()) {
			case codes.OK:
				return rs[0].GetData(), nil
			case codes.NotFound:
				return nil, fmt.Errorf("%w: %s: %s", errLost, e.display, rs[0].GetStatus().GetMessage())
			}
			// Refused for another reason (its size): by ByteStream.
		}
	}
	name := fmt.Sprintf("blobs/%s/%d", d.Hash, d.SizeBytes)
	if e.instance != "" {
		name = e.instance + "/" + name
	}
	var out []byte
	err := e.retry(ctx, func() error {
		out = nil
		stream, err := e.bs.Read(ctx, &bspb.ReadRequest{ResourceName: name})
		if err != nil {
			return err
		}
		for {
			r, err := stream.Recv()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			out = append(out, r.GetData()...)
		}
	})
	if status.Code(err) == codes.NotFound {
		return nil, fmt.Errorf("%w: %s: %v", errLost, e.display, err)
	}
	if err != nil {
		return nil, e.callError("cannot read from", err)
	}
	return out, nil
}

// errLost is an output blob the storage no longer has.
var errLost = errors.New("--exec: the remote storage lost an output")

// execute runs the action and waits for its response; began is when
// it was last seen begin to execute (zero if never). A service that
// says blobs are missing (evicted since they were found, or lost in a
// restart) gets them again. A service that is briefly unavailable (a
// restart, a dropped stream, an UNAVAILABLE response, which the
// specification calls transient, as for a worker lost while it executed
// the action) is asked again with backoff until it has been so for
// RetryFor; an action already running is waited for again by its
// operation's name (WaitExecution) rather than run anew. Time in the
// service's queue does not count towards the test's timeout: the watch
// says when actions stay queued, and ends them after the queue timeout.
func (e *Executor) execute(ctx context.Context, action *repb.Digest, blobs map[string]blob, skipCache bool, timeout time.Duration, started func()) (*repb.ExecuteResponse, time.Time, error) {
	octx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	t := e.track(timeout, cancel, started)
	defer e.untrack(t)
	var op string         // the operation, once the service has named it
	var failing time.Time // since when the service fails, zero while it answers
	uploads, noWorkers, attempt := 0, 0, 0
	for {
		if op == "" {
			e.enter(t, asked)
		}
		resp, name, alive, err := e.executeOnce(octx, action, skipCache, op, t)
		if name != "" {
			op = name
		}
		if alive {
			// The service had the operation in hand: an outage, if any,
			// begins anew.
			failing, attempt = time.Time{}, 0
		}
		if err == nil {
			st := status.FromProto(resp.GetStatus())
			switch st.Code() {
			case codes.OK, codes.DeadlineExceeded:
				e.ended()
				if !resp.GetCachedResult() {
					// It executed, whether or not its stage was seen.
					e.start(t)
				}
				return resp, t.began, nil
			case codes.Unavailable:
				err, op = st.Err(), ""
			case codes.FailedPrecondition:
				err, op = st.Err(), ""
			default:
				return nil, t.began, fmt.Errorf("%w: %s: %s: %s", runner.ErrStart, e.display, st.Code(), st.Message())
			}
		}
		if ctx.Err() != nil {
			return nil, t.began, ctx.Err()
		}
		if octx.Err() != nil {
			// The watch ended it: past its timeout, or queued too long.
			return nil, t.began, context.Cause(octx)
		}
		if failing.IsZero() {
			failing = time.Now()
		}
		st, _ := status.FromError(err)
		switch {
		case st.Code() == codes.FailedPrecondition && !missingBlobs(st):
			return nil, t.began, e.noWorker(st.Message())
		case st.Code() == codes.FailedPrecondition:
			if uploads++; uploads > 3 {
				return nil, t.began, e.callError("lost", err)
			}
			if err := e.upload(ctx, blobs); err != nil {
				return nil, t.began, err
			}
			continue
		case st.Code() == codes.NotFound && op != "":
			// The service forgot the operation (its scheduler restarted):
			// run the action anew.
			op = ""
			continue
		case st.Code() == codes.Unavailable && strings.Contains(st.Message(), "No workers exist"):
			// Buildbarn says so while workers may still be registering.
			if noWorkers++; noWorkers > 3 {
				return nil, t.began, e.noWorker(st.Message())
			}
		case !retryable(err) || time.Since(failing) > e.retryFor():
			return nil, t.began, e.callError("lost", err)
		}
		e.enter(t, between)
		if err := e.backoff(octx, attempt); err != nil {
			if ctx.Err() == nil && octx.Err() != nil {
				return nil, t.began, context.Cause(octx)
			}
			return nil, t.began, err
		}
		attempt++
	}
}

// RetryFor is how long calls are retried while the service is
// unavailable, by default; Options.RetryFor changes it.
const RetryFor = 60 * time.Second

func (e *Executor) retryFor() time.Duration {
	if e.opts.RetryFor > 0 {
		return e.opts.RetryFor
	}
	return RetryFor
}

// retryable reports whether err is one a later call may not have.
func retryable(err error) bool {
	switch status.Code(err) {
	case codes.Unavailable, codes.ResourceExhausted, codes.Aborted:
		return true
	}
	return false
}

// backoff waits before the attempt+1st call: 200 ms, doubling, at most
// 5 s, with jitter.
func (e *Executor) backoff(ctx context.Context, attempt int) error {
	d := min(200*time.Millisecond<<min(attempt, 5), 5*time.Second)
	d = d/2 + time.Duration(mrand.Int64N(int64(d/2)+1))
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// retry calls f until it succeeds, fails for good, or the service has
// been unavailable for longer than RetryFor.
func (e *Executor) retry(ctx context.Context, f func() error) error {
	giveUp := time.Now().Add(e.retryFor())
	for attempt := 0; ; attempt++ {
		err := f()
		if err == nil || !retryable(err) || ctx.Err() != nil || time.Now().After(giveUp) {
			return err
		}
		if err := e.backoff(ctx, attempt); err != nil {
			return err
		}
	}
}

// lookup asks the action cache for the action's result, with the
// standard output and error and the status file inline where the
// service allows. A result without the test's status, or any error, is
// no result: the action then runs.
//
// A result that took longer than timeout (when set) is no result
// either: under this timeout the test would have timed out.
func (e *Executor) lookup(ctx context.Context, action *repb.Digest, timeout time.Duration) *repb.ExecuteResponse {
	res, err := e.ac.GetActionResult(ctx, &repb.GetActionResultRequest{InstanceName: e.instance, ActionDigest: action,
		InlineStdout: true, InlineStderr: true, InlineOutputFiles: []string{statusFile}, DigestFunction: repb.DigestFunction_SHA256})
	resp := &repb.ExecuteResponse{Result: res, CachedResult: true}
	if err != nil || !complete(resp) {
		return nil
	}
	if m := res.GetExecutionMetadata(); timeout > 0 && m.GetExecutionStartTimestamp() != nil && m.GetExecutionCompletedTimestamp() != nil &&
		m.GetExecutionCompletedTimestamp().AsTime().Sub(m.GetExecutionStartTimestamp().AsTime()) > timeout {
		return nil
	}
	return resp
}

// complete reports whether resp is a finished action with the test's
// status: what may be cached.
func complete(resp *repb.ExecuteResponse) bool {
	res := resp.GetResult()
	return status.FromProto(resp.GetStatus()).Code() == codes.OK && res.GetExitCode() == 0 &&
		slices.ContainsFunc(res.GetOutputFiles(), func(f *repb.OutputFile) bool { return f.GetPath() == statusFile })
}

// remember writes the result of an action run with a timeout into the
// action cache under key, the action without it. A service that does
// not take results from clients is told once; its cache then serves
// only runs with the same timeout (--timeout).
func (e *Executor) remember(ctx context.Context, key *repb.Digest, res *repb.ActionResult) {
	if e.noUpdate.Load() {
		return
	}
	_, err := e.ac.UpdateActionResult(ctx, &repb.UpdateActionResultRequest{InstanceName: e.instance, ActionDigest: key,
		ActionResult: res, DigestFunction: repb.DigestFunction_SHA256})
	if err == nil || ctx.Err() != nil {
		return
	}
	if !e.noUpdate.Swap(true) {
		e.mu.Lock()
		say := e.opts.Say
		e.mu.Unlock()
		if say != nil {
			say("%s does not take action results from wynot (%s): its action cache serves a later run only with the same --timeout", e.display, status.Code(err))
		}
	}
}

// missingBlobs reports whether a failed precondition names missing blobs.
func missingBlobs(st *status.Status) bool {
	for _, d := range st.Details() {
		if pf, ok := d.(*errdetails.PreconditionFailure); ok {
			for _, v := range pf.GetViolations() {
				if v.GetType() == "MISSING" {
					return true
				}
			}
		}
	}
	return false
}

// executeOnce runs the action once (without the action cache with
// skipCache), or waits again for the operation op when set, and waits
// for its response, telling t (if set) the stages the service reports.
// It returns the operation's name as soon as the service gave it, with
// or without an error, and whether the service reported the operation
// in progress (alive).
func (e *Executor) executeOnce(ctx context.Context, action *repb.Digest, skipCache bool, op string, t *tracked) (resp *repb.ExecuteResponse, name string, alive bool, err error) {
	var stream interface {
		Recv() (*longrunningpb.Operation, error)
	}
	if op != "" {
		stream, err = e.exec.WaitExecution(ctx, &repb.WaitExecutionRequest{Name: op})
	} else {
		stream, err = e.exec.Execute(ctx, &repb.ExecuteRequest{InstanceName: e.instance, ActionDigest: action,
			SkipCacheLookup: skipCache, DigestFunction: repb.DigestFunction_SHA256})
	}
	if err != nil {
		return nil, "", false, err
	}
	var last *longrunningpb.Operation
	for {
		o, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, name, alive, err
		}
		last, name = o, o.GetName()
		if o.GetDone() {
			break
		}
		alive = true
		md := &repb.ExecuteOperationMetadata{}
		if o.GetMetadata().UnmarshalTo(md) == nil {
			if p, ok := phaseOf(md); ok {
				e.enter(t, p)
			}
		}
	}
	if last == nil || !last.GetDone() {
		return nil, name, alive, status.Error(codes.Unavailable, "the execution stream ended before the action was done")
	}
	if e := last.GetError(); e != nil {
		return nil, name, alive, status.ErrorProto(e)
	}
	resp = &repb.ExecuteResponse{}
	if err := last.GetResponse().UnmarshalTo(resp); err != nil {
		return nil, name, alive, err
	}
	return resp, name, alive, nil
}
