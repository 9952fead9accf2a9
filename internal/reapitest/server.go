// Package reapitest is a small remote execution service for tests: an
// in-process gRPC server speaking the Remote Execution API v2 (the
// official protocol definitions) that keeps blobs and action results in
// memory and runs actions as local processes in temporary directories.
// It stands in for Buildbarn or BuildBuddy in wynot's tests.
package reapitest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"cloud.google.com/go/longrunning/autogen/longrunningpb"
	repb "github.com/bazelbuild/remote-apis/build/bazel/remote/execution/v2"
	"github.com/bazelbuild/remote-apis/build/bazel/semver"
	bspb "google.golang.org/genproto/googleapis/bytestream"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Server is the service. Its counters say what clients did.
type Server struct {
	repb.UnimplementedExecutionServer
	repb.UnimplementedActionCacheServer
	repb.UnimplementedContentAddressableStorageServer
	repb.UnimplementedCapabilitiesServer
	bspb.UnimplementedByteStreamServer

	// Addr is where it listens (127.0.0.1:PORT).
	Addr string
	// Platform is what its worker offers; an action asking for a
	// property it lacks fails its precondition, as on Buildbarn.
	Platform map[string]string
	// CacheSuccessOnly keeps only results of exit code 0 in the action
	// cache, as many services do.
	CacheSuccessOnly bool
	// Hide, when set, is a local directory the worker does not have:
	// actions run in a mount namespace where an empty file system covers
	// it (unshare -m; see CanHide).
	Hide string
	// Header, when set, is a KEY=VALUE every call must carry.
	Header string
	// BatchLimit bounds the bytes of one BatchReadBlobs or
	// BatchUpdateBlobs; larger batches are refused with
	// INVALID_ARGUMENT while the capabilities advertise no limit, as
	// Buildbarn does with its message size limit (2 MiB by default).
	BatchLimit int64
	// Instance, when set, is the only instance name that executes
	// actions; capabilities asked for another say that execution is
	// not enabled.
	Instance string
	// BackendDown, when set, is the address of a part of the service
	// (its scheduler, say) that is gone: Execute fails with the dial
	// error the frontend gets, as UNAVAILABLE.
	BackendDown string
	// DropStreams is how many Execute streams, from now on, end with
	// UNAVAILABLE once their action runs (as when the frontend
	// restarts); the actions go on and WaitExecution waits for them.
	DropStreams int
	// UnavailableResponses is how many Execute calls, from now on, are
	// answered by a response of status UNAVAILABLE.
	UnavailableResponses int
	// IgnoreTimeouts makes the worker run actions to their end whatever
	// their timeout, as a service that does not enforce it.
	IgnoreTimeouts bool
	// KillWithoutStatus answers an action killed at its timeout as
	// Buildbarn's runner sometimes does: exit code -1 and status OK.
	KillWithoutStatus bool
	// LookupInExecute makes Execute answer from the action cache unless
	// told to skip it, as some services do; Buildbarn does not (the
	// default), clients ask GetActionResult first.
	LookupInExecute bool

	mu       sync.Mutex
	blobs    map[string][]byte
	results  map[string]*repb.ActionResult
	Uploaded []string // hashes of blobs uploaded, in order
	Executed int      // actions run
	Hits     int      // actions answered from the action cache
	Updates  int      // action results written by clients
	Refused  int      // batches refused for their size
	Waits    int      // WaitExecution calls
	Headers  []metadata.MD

	running int           // executions in progress
	idle    *sync.Cond    // signalled when running drops to 0 (on mu)
	held    chan struct{} // while set, actions wait in the queue until it is closed
	queued  int           // actions waiting in the queue

	grpc      *grpc.Server
	fileCache string // the worker's file cache, input files by digest
	opCount   int
	ops       map[string]*operation
}

// Start starts a server on a loopback port; Stop stops it.
func Start() (*Server, error) { return Listen("127.0.0.1:0") }

// Listen starts a server on addr.
func Listen(addr string) (*Server, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{Addr: l.Addr().String(), blobs: map[string][]byte{}, results: map[string]*repb.ActionResult{}, CacheSuccessOnly: true, BatchLimit: 2 << 20}
	s.idle = sync.NewCond(&s.mu)
	s.grpc = grpc.NewServer(grpc.UnaryInterceptor(s.unary), grpc.StreamInterceptor(s.stream), grpc.MaxRecvMsgSize(64<<20))
	repb.RegisterExecutionServer(s.grpc, s)
	repb.RegisterActionCacheServer(s.grpc, s)
	repb.RegisterContentAddressableStorageServer(s.grpc, s)
	repb.RegisterCapabilitiesServer(s.grpc, s)
	bspb.RegisterByteStreamServer(s.grpc, s)
	go s.grpc.Serve(l)
	return s, nil
}

// CanHide reports whether Hide works here (root, mount namespaces).
func CanHide() bool {
	dir, err := os.MkdirTemp("", "reapitest-hide-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(dir)
	return exec.Command("unshare", "-m", "sh", "-c", `mount -t tmpfs none "$0"`, dir).Run() == nil
}

// Stop stops the server.
func (s *Server) Stop() {
	s.grpc.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fileCache != "" {
		os.RemoveAll(s.fileCache)
		s.fileCache = ""
	}
}

func (s *Server) check(ctx context.Context) error {
	md, _ := metadata.FromIncomingContext(ctx)
	s.mu.Lock()
	s.Headers = append(s.Headers, md)
	want := s.Header
	s.mu.Unlock()
	if want == "" {
		return nil
	}
	k, v, _ := strings.Cut(want, "=")
	for _, got := range md.Get(k) {
		if got == v {
			return nil
		}
	}
	return status.Errorf(codes.Unauthenticated, "no %s header", k)
}

func (s *Server) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

func (s *Server) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	if err := s.check(ss.Context()); err != nil {
		return err
	}
	return handler(srv, ss)
}

// Blob returns a stored blob.
func (s *Server) Blob(hash string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.blobs[hash]
	return b, ok
}

// Forget drops every stored blob (an evicting storage), keeping
// action results.
func (s *Server) Forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blobs = map[string][]byte{}
}

func (s *Server) put(data []byte) *repb.Digest {
	h := sha256.Sum256(data)
	d := &repb.Digest{Hash: hex.EncodeToString(h[:]), SizeBytes: int64(len(data))}
	s.mu.Lock()
	s.blobs[d.Hash] = data
	s.mu.Unlock()
	return d
}

func (s *Server) GetCapabilities(ctx context.Context, req *repb.GetCapabilitiesRequest) (*repb.ServerCapabilities, error) {
	enabled := s.Instance == "" || req.InstanceName == s.Instance
	return &repb.ServerCapabilities{
		CacheCapabilities: &repb.CacheCapabilities{DigestFunctions: []repb.DigestFunction_Value{repb.DigestFunction_SHA256},
			ActionCacheUpdateCapabilities: &repb.ActionCacheUpdateCapabilities{UpdateEnabled: true}},
		ExecutionCapabilities: &repb.ExecutionCapabilities{DigestFunction: repb.DigestFunction_SHA256, ExecEnabled: enabled,
			DigestFunctions: []repb.DigestFunction_Value{repb.DigestFunction_SHA256}},
		LowApiVersion:  &semver.SemVer{Major: 2},
		HighApiVersion: &semver.SemVer{Major: 2, Minor: 3},
	}, nil
}

func (s *Server) FindMissingBlobs(ctx context.Context, req *repb.FindMissingBlobsRequest) (*repb.FindMissingBlobsResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	resp := &repb.FindMissingBlobsResponse{}
	for _, d := range req.BlobDigests {
		if _, ok := s.blobs[d.Hash]; !ok {
			resp.MissingBlobDigests = append(resp.MissingBlobDigests, d)
		}
	}
	return resp, nil
}

// tooLarge refuses a batch of n bytes above the limit.
func (s *Server) tooLarge(n int64) error {
	if s.BatchLimit <= 0 || n <= s.BatchLimit {
		return nil
	}
	s.mu.Lock()
	s.Refused++
	s.mu.Unlock()
	return status.Errorf(codes.InvalidArgument, "batch of %d bytes is larger than the maximum message size of %d bytes", n, s.BatchLimit)
}

func (s *Server) BatchUpdateBlobs(ctx context.Context, req *repb.BatchUpdateBlobsRequest) (*repb.BatchUpdateBlobsResponse, error) {
	var n int64
	for _, r := range req.Requests {
		n += int64(len(r.Data))
	}
	if err := s.tooLarge(n); err != nil {
		return nil, err
	}
	resp := &repb.BatchUpdateBlobsResponse{}
	for _, r := range req.Requests {
		d := s.put(r.Data)
		st := &repb.BatchUpdateBlobsResponse_Response{Digest: r.Digest, Status: status.New(codes.OK, "").Proto()}
		if d.Hash != r.Digest.Hash {
			st.Status = status.New(codes.InvalidArgument, "digest mismatch").Proto()
		}
		s.mu.Lock()
		s.Uploaded = append(s.Uploaded, r.Digest.Hash)
		s.mu.Unlock()
		resp.Responses = append(resp.Responses, st)
	}
	return resp, nil
}

func (s *Server) BatchReadBlobs(ctx context.Context, req *repb.BatchReadBlobsRequest) (*repb.BatchReadBlobsResponse, error) {
	var n int64
	for _, d := range req.Digests {
		n += d.SizeBytes
	}
	if err := s.tooLarge(n); err != nil {
		return nil, err
	}
	resp := &repb.BatchReadBlobsResponse{}
	for _, d := range req.Digests {
		b, ok := s.Blob(d.Hash)
		st := status.New(codes.OK, "")
		if !ok {
			st = status.New(codes.NotFound, "no blob "+d.Hash)
		}
		resp.Responses = append(resp.Responses, &repb.BatchReadBlobsResponse_Response{Digest: d, Data: b, Status: st.Proto()})
	}
	return resp, nil
}

func (s *Server) Read(req *bspb.ReadRequest, stream bspb.ByteStream_ReadServer) error {
	parts := strings.Split(req.ResourceName, "/")
	if len(parts) < 3 {
		return status.Error(codes.InvalidArgument, "resource name")
	}
	b, ok := s.Blob(parts[len(parts)-2])
	if !ok {
		return status.Error(codes.NotFound, "no blob")
	}
	for off := 0; off < len(b); off += 64 << 10 {
		if err := stream.Send(&bspb.ReadResponse{Data: b[off:min(off+64<<10, len(b))]}); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) Write(stream bspb.ByteStream_WriteServer) error {
	var name string
	var data []byte
	for {
		req, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if req.ResourceName != "" {
			name = req.ResourceName
		}
		data = append(data, req.Data...)
		if req.FinishWrite {
			break
		}
	}
	parts := strings.Split(name, "/")
	if len(parts) < 4 {
		return status.Error(codes.InvalidArgument, "resource name "+name)
	}
	d := s.put(data)
	if d.Hash != parts[len(parts)-2] {
		return status.Error(codes.InvalidArgument, "digest mismatch")
	}
	s.mu.Lock()
	s.Uploaded = append(s.Uploaded, d.Hash)
	s.mu.Unlock()
	return stream.SendAndClose(&bspb.WriteResponse{CommittedSize: int64(len(data))})
}

// GetActionResult answers from the action cache, with the contents
// asked for inline (up to 64 KiB each).
func (s *Server) GetActionResult(ctx context.Context, req *repb.GetActionResultRequest) (*repb.ActionResult, error) {
	s.mu.Lock()
	r, ok := s.results[req.ActionDigest.Hash]
	if ok {
		s.Hits++
	}
	s.mu.Unlock()
	if !ok {
		return nil, status.Error(codes.NotFound, "no result")
	}
	r = proto.Clone(r).(*repb.ActionResult)
	inline := func(d *repb.Digest) []byte {
		if b, ok := s.Blob(d.GetHash()); ok && len(b) <= 64<<10 {
			return b
		}
		return nil
	}
	if req.InlineStdout {
		r.StdoutRaw = inline(r.StdoutDigest)
	}
	if req.InlineStderr {
		r.StderrRaw = inline(r.StderrDigest)
	}
	for _, f := range r.OutputFiles {
		if slices.Contains(req.InlineOutputFiles, f.Path) {
			f.Contents = inline(f.Digest)
		}
	}
	return r, nil
}

// UpdateActionResult writes a client's result into the action cache.
func (s *Server) UpdateActionResult(ctx context.Context, req *repb.UpdateActionResultRequest) (*repb.ActionResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.results[req.ActionDigest.Hash] = req.ActionResult
	s.Updates++
	return req.ActionResult, nil
}

// message reads a stored message.
func (s *Server) message(d *repb.Digest, m proto.Message) error {
	b, ok := s.Blob(d.GetHash())
	if !ok {
		st, _ := status.New(codes.FailedPrecondition, "missing blob").WithDetails(&errdetails.PreconditionFailure{
			Violations: []*errdetails.PreconditionFailure_Violation{{Type: "MISSING", Subject: "blobs/" + d.GetHash()}}})
		return st.Err()
	}
	return proto.Unmarshal(b, m)
}

// materialize writes the directory d into dir.
func (s *Server) materialize(d *repb.Digest, dir string) error {
	var m repb.Directory
	if err := s.message(d, &m); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range m.Files {
		b, ok := s.Blob(f.Digest.Hash)
		if !ok {
			return s.message(f.Digest, &repb.Directory{})
		}
		if err := s.link(f.Digest.Hash, b, f.IsExecutable, filepath.Join(dir, f.Name)); err != nil {
			return err
		}
	}
	for _, l := range m.Symlinks {
		if err := os.Symlink(l.Target, filepath.Join(dir, l.Name)); err != nil {
			return err
		}
	}
	for _, sub := range m.Directories {
		if err := s.materialize(sub.Digest, filepath.Join(dir, sub.Name)); err != nil {
			return err
		}
	}
	return nil
}

// link puts an input file at path as Buildbarn's worker does: a hard
// link to a read-only file of its file cache, shared by every action
// with the same file (a test running as root can still write to it).
func (s *Server) link(hash string, b []byte, executable bool, path string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fileCache == "" {
		dir, err := os.MkdirTemp("", "reapitest-cache-")
		if err != nil {
			return err
		}
		s.fileCache = dir
	}
	mode := os.FileMode(0o444)
	name := filepath.Join(s.fileCache, hash)
	if executable {
		mode, name = 0o555, name+"-x"
	}
	if _, err := os.Stat(name); err != nil {
		if err := os.WriteFile(name+".tmp", b, 0o600); err != nil {
			return err
		}
		if err := os.Chmod(name+".tmp", mode); err != nil {
			return err
		}
		if err := os.Rename(name+".tmp", name); err != nil {
			return err
		}
	}
	return os.Link(name, path)
}

func (s *Server) Execute(req *repb.ExecuteRequest, stream repb.Execution_ExecuteServer) error {
	if s.BackendDown != "" {
		return status.Errorf(codes.Unavailable, "connection error: desc = \"transport: Error while dialing: dial tcp %s: connect: connection refused\"", s.BackendDown)
	}
	var action repb.Action
	if err := s.message(req.ActionDigest, &action); err == nil {
		// As Buildbarn's scheduler: an error of the call, not of the
		// action.
		for _, p := range action.GetPlatform().GetProperties() {
			if v, ok := s.Platform[p.Name]; !ok || v != p.Value {
				return status.Errorf(codes.FailedPrecondition, "No workers exist for instance name prefix %q platform {%s=%s}", req.InstanceName, p.Name, p.Value)
			}
		}
	}
	s.mu.Lock()
	s.opCount++
	name := fmt.Sprintf("operations/%d", s.opCount)
	unavailable := s.UnavailableResponses > 0
	if unavailable {
		s.UnavailableResponses--
	}
	drop := s.DropStreams > 0
	if drop {
		s.DropStreams--
	}
	s.mu.Unlock()
	if unavailable {
		return sendResponse(stream, name, req.ActionDigest, &repb.ExecuteResponse{Status: status.New(codes.Unavailable, "the worker went away").Proto()})
	}
	if !drop {
		// As Buildbarn: the operation is named at once, queued, and
		// reported again when it executes and when it is done.
		if err := sendStage(stream, name, req.ActionDigest, repb.ExecutionStage_QUEUED); err != nil {
			return err
		}
		var sendErr error
		resp := s.response(stream.Context(), req, func() {
			sendErr = sendStage(stream, name, req.ActionDigest, repb.ExecutionStage_EXECUTING)
		})
		if sendErr != nil {
			return sendErr
		}
		return sendResponse(stream, name, req.ActionDigest, resp)
	}
	// The stream is dropped once the operation is named, as when the
	// frontend restarts; the action goes on, and WaitExecution finds it.
	op := &operation{done: make(chan struct{}), stage: repb.ExecutionStage_QUEUED, action: req.ActionDigest}
	s.mu.Lock()
	if s.ops == nil {
		s.ops = map[string]*operation{}
	}
	s.ops[name] = op
	s.mu.Unlock()
	go func() {
		op.resp = s.response(context.Background(), req, func() {
			s.mu.Lock()
			op.stage = repb.ExecutionStage_EXECUTING
			s.mu.Unlock()
		})
		close(op.done)
	}()
	if err := sendStage(stream, name, req.ActionDigest, repb.ExecutionStage_QUEUED); err != nil {
		return err
	}
	return status.Error(codes.Unavailable, "the connection to the client was lost")
}

// operation is an action running after its Execute stream was dropped.
type operation struct {
	done   chan struct{}
	resp   *repb.ExecuteResponse
	stage  repb.ExecutionStage_Value // on the server's mu
	action *repb.Digest
}

// WaitExecution waits again for an operation whose stream was dropped.
func (s *Server) WaitExecution(req *repb.WaitExecutionRequest, stream repb.Execution_WaitExecutionServer) error {
	s.mu.Lock()
	op, ok := s.ops[req.Name]
	s.Waits++
	s.mu.Unlock()
	if !ok {
		return status.Errorf(codes.NotFound, "no operation %s", req.Name)
	}
	s.mu.Lock()
	stage := op.stage
	s.mu.Unlock()
	if err := sendStage(stream, req.Name, op.action, stage); err != nil {
		return err
	}
	select {
	case <-op.done:
	case <-stream.Context().Done():
		return stream.Context().Err()
	}
	return sendResponse(stream, req.Name, op.action, op.resp)
}

// Hold keeps actions queued from now on, as a service whose workers are
// all gone does (Buildbarn keeps them queued, not failed): their
// operations stay in the stage QUEUED, and nothing runs until Release.
// Actions already executing go on.
func (s *Server) Hold() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held == nil {
		s.held = make(chan struct{})
	}
}

// Release lets the actions held in the queue, and later ones, execute.
func (s *Server) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held != nil {
		close(s.held)
		s.held = nil
	}
}

// Counts returns the counters Executed and Hits as they are now.
func (s *Server) Counts() (executed, hits int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Executed, s.Hits
}

// Queued returns how many actions wait in the queue.
func (s *Server) Queued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queued
}

// queue waits while actions are held, or until ctx ends.
func (s *Server) queue(ctx context.Context) error {
	s.mu.Lock()
	held := s.held
	if held != nil {
		s.queued++
	}
	s.mu.Unlock()
	if held == nil {
		return nil
	}
	defer func() {
		s.mu.Lock()
		s.queued--
		s.mu.Unlock()
	}()
	select {
	case <-held:
		return nil
	case <-ctx.Done():
		return status.FromContextError(ctx.Err()).Err()
	}
}

// Idle waits until no execution is in progress and returns the counters
// Executed and Hits. A client that cancels an execution (a test no
// longer needed) returns before the service has ended its process and
// counted it; after the client has exited, Idle gives the counts of
// everything it asked for.
func (s *Server) Idle() (executed, hits int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.running > 0 {
		s.idle.Wait()
	}
	return s.Executed, s.Hits
}

// response runs the action, calling executing when it leaves the queue;
// a failure is the response's status.
func (s *Server) response(ctx context.Context, req *repb.ExecuteRequest, executing func()) *repb.ExecuteResponse {
	s.mu.Lock()
	s.running++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.running--; s.running == 0 {
			s.idle.Broadcast()
		}
		s.mu.Unlock()
	}()
	resp, err := s.execute(ctx, req, executing)
	if err != nil {
		st, _ := status.FromError(err)
		resp = &repb.ExecuteResponse{Status: st.Proto()}
	}
	return resp
}

type opStream interface {
	Send(*longrunningpb.Operation) error
}

// stageOf is an operation's metadata: its stage.
func stageOf(action *repb.Digest, stage repb.ExecutionStage_Value) *anypb.Any {
	m, err := anypb.New(&repb.ExecuteOperationMetadata{Stage: stage, ActionDigest: action})
	if err != nil {
		panic(err)
	}
	return m
}

// sendStage reports that the operation is in stage.
func sendStage(stream opStream, name string, action *repb.Digest, stage repb.ExecutionStage_Value) error {
	return stream.Send(&longrunningpb.Operation{Name: name, Metadata: stageOf(action, stage)})
}

func sendResponse(stream opStream, name string, action *repb.Digest, resp *repb.ExecuteResponse) error {
	any, err := anypb.New(resp)
	if err != nil {
		return err
	}
	return stream.Send(&longrunningpb.Operation{Name: name, Done: true, Metadata: stageOf(action, repb.ExecutionStage_COMPLETED),
		Result: &longrunningpb.Operation_Response{Response: any}})
}

func (s *Server) execute(ctx context.Context, req *repb.ExecuteRequest, executing func()) (*repb.ExecuteResponse, error) {
	var action repb.Action
	if err := s.message(req.ActionDigest, &action); err != nil {
		return nil, err
	}
	if s.LookupInExecute && !req.SkipCacheLookup {
		s.mu.Lock()
		r, ok := s.results[req.ActionDigest.Hash]
		if ok {
			s.Hits++
		}
		s.mu.Unlock()
		if ok {
			return &repb.ExecuteResponse{Result: r, CachedResult: true, Status: status.New(codes.OK, "").Proto()}, nil
		}
	}
	// No worker takes the action while actions are held.
	if err := s.queue(ctx); err != nil {
		return nil, err
	}
	if executing != nil {
		executing()
	}
	var cmd repb.Command
	if err := s.message(action.CommandDigest, &cmd); err != nil {
		return nil, err
	}
	for _, p := range action.GetPlatform().GetProperties() {
		if v, ok := s.Platform[p.Name]; !ok || v != p.Value {
			return nil, status.Errorf(codes.FailedPrecondition, "no worker offers platform property %s=%s", p.Name, p.Value)
		}
	}
	dir, err := os.MkdirTemp("", "reapitest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := s.materialize(action.InputRootDigest, dir); err != nil {
		return nil, err
	}
	timeout := 10 * time.Minute
	if action.Timeout != nil && !s.IgnoreTimeouts {
		timeout = action.Timeout.AsDuration()
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := cmd.Arguments
	if s.Hide != "" {
		args = append([]string{"unshare", "-m", "sh", "-c", `mount -t tmpfs none "$0" && exec "$@"`, s.Hide}, args...)
	}
	c := exec.CommandContext(runCtx, args[0], args[1:]...)
	c.Dir = filepath.Join(dir, cmd.WorkingDirectory)
	c.Env = []string{}
	for _, v := range cmd.EnvironmentVariables {
		c.Env = append(c.Env, v.Name+"="+v.Value)
	}
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr strings.Builder
	c.Stdout, c.Stderr = &stdout, &stderr
	begun := time.Now()
	runErr := c.Run()
	s.mu.Lock()
	s.Executed++
	s.mu.Unlock()
	res := &repb.ActionResult{StdoutDigest: s.put([]byte(stdout.String())), StderrDigest: s.put([]byte(stderr.String())),
		ExecutionMetadata: &repb.ExecutedActionMetadata{Worker: "reapitest", ExecutionStartTimestamp: timestamppb.New(begun),
			ExecutionCompletedTimestamp: timestamppb.Now()}}
	var ee *exec.ExitError
	switch {
	case runErr == nil:
	case errors.As(runErr, &ee):
		res.ExitCode = int32(ee.ExitCode())
	default:
		return nil, status.Errorf(codes.InvalidArgument, "cannot run: %v", runErr)
	}
	outs := cmd.OutputPaths
	if len(outs) == 0 {
		//lint:ignore SA1019 a v2.0 client's outputs
		outs = cmd.OutputFiles
	}
	for _, o := range outs {
		b, err := os.ReadFile(filepath.Join(c.Dir, o))
		if err != nil {
			continue
		}
		res.OutputFiles = append(res.OutputFiles, &repb.OutputFile{Path: o, Digest: s.put(b)})
	}
	if runCtx.Err() == context.DeadlineExceeded && s.KillWithoutStatus {
		res.ExitCode = -1
		return &repb.ExecuteResponse{Result: res, Status: status.New(codes.OK, "").Proto()}, nil
	}
	if runCtx.Err() == context.DeadlineExceeded {
		return &repb.ExecuteResponse{Result: res, Status: status.New(codes.DeadlineExceeded, fmt.Sprintf("timed out after %s", timeout)).Proto()}, nil
	}
	if !action.DoNotCache && (res.ExitCode == 0 || !s.CacheSuccessOnly) {
		s.mu.Lock()
		s.results[req.ActionDigest.Hash] = res
		s.mu.Unlock()
	}
	return &repb.ExecuteResponse{Result: res, Status: status.New(codes.OK, "").Proto()}, nil
}
