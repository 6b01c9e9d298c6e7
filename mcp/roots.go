//lint:file-ignore SA1019 MCP roots are deprecated from protocol 2026-07-28 but stay in the SDK for the deprecation window, and clients of earlier versions send them: we serve both.

package mcp

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memory-lsp/memory-lsp/core/memory"
)

// rootsKey labels our roots/list input request; the client echoes it back.
const rootsKey = "roots"

// rootsTimeout bounds a roots/list: a client that never answers must not
// hold a tool call, or a goroutine, for the rest of the session.
const rootsTimeout = 10 * time.Second

// sessionRoots is what one client session told us about its roots.
type sessionRoots struct {
	// gen counts roots/list_changed notices: an answer to a roots/list sent
	// before the latest notice describes old roots and is dropped.
	gen int
	// known is true once an answer of the current generation arrived; root
	// is then the folder it picked, or "" when no root was usable.
	known bool
	root  string
}

// statelessProtocol is the first protocol version in which a server may
// not send requests of its own (SEP-2322): from it on, the roots are asked
// for in the tool call's result, and the client retries the call with them.
const statelessProtocol = "2026-07-28"

// rootFor picks the workspace of one tool call: --root; else the client's
// roots (remembered for the session, or answered in this call's retry);
// else, when the client has roots we do not know yet, it asks for them:
// directly with roots/list on sessions before 2026-07-28, or by returning
// ask = true (the caller returns an input request carrying state, and the
// client retries the call with the answer); else the fallback, the CLI's
// nearest folder holding .memory.
//
// A client that declares roots but cannot list them (some answer "method
// not found") gets the fallback, not a failed tool call.
func (s *Server) rootFor(ctx context.Context, req *sdk.CallToolRequest) (root string, state string, ask bool, err error) {
	if s.opts.Root != "" {
		return s.opts.Root, "", false, nil
	}
	ss := req.Session
	if res, ok := req.Params.InputResponses[rootsKey].(*sdk.ListRootsResult); ok {
		root := pickRoot(res.Roots)
		if gen, err := strconv.Atoi(req.Params.RequestState); err == nil {
			s.remember(ss, gen, root)
		}
		return s.orFallback(root)
	}
	known, root, gen := s.recall(ss)
	if known {
		return s.orFallback(root)
	}
	if caps := req.ClientCapabilities(); caps == nil || caps.RootsV2 == nil || ss == nil {
		return s.orFallback("")
	}
	if req.ProtocolVersion() >= statelessProtocol {
		// The generation travels in the request state, so an answer that
		// crossed a change notice is used for this call but not remembered.
		return "", strconv.Itoa(gen), true, nil
	}
	return s.orFallback(s.listRoots(ctx, ss, gen))
}

// orFallback is root, or the fallback folder when root is "". The fallback
// is the folder the server was started in (or the one above holding
// .memory); a client that starts servers in / or the home folder and gives
// no roots would otherwise fill that folder with .memory, so that is refused
// with the way out.
func (s *Server) orFallback(root string) (string, string, bool, error) {
	if root != "" {
		return root, "", false, nil
	}
	fb := s.opts.Fallback
	if !memory.HasDir(fb) {
		home, _ := os.UserHomeDir()
		if filepath.Dir(fb) == fb || (home != "" && filepath.Clean(home) == fb) {
			return "", "", false, fmt.Errorf("no project folder: the client gave no workspace root and the server was started in %s; start it as `memory-lsp mcp --root <project folder>`", fb)
		}
	}
	return fb, "", false, nil
}

// recall returns what a session's roots told us, and the generation of
// the question to ask if nothing is known.
func (s *Server) recall(ss *sdk.ServerSession) (known bool, root string, gen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.sessions[ss]; r != nil {
		return r.known, r.root, r.gen
	}
	return false, "", 0
}

// listRoots sends roots/list (on sessions that allow server requests),
// remembers the folder it picks and returns it; "" when the client has no
// usable root or does not answer.
func (s *Server) listRoots(ctx context.Context, ss *sdk.ServerSession, gen int) string {
	ctx, cancel := context.WithTimeout(ctx, rootsTimeout)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		if ctx.Err() == nil {
			// Remembered as "no root": asking again each call would fail again.
			s.opts.Logger.Warn("the client declares roots but roots/list failed; using the fallback folder", "error", err, "fallback", s.opts.Fallback)
			s.remember(ss, gen, "")
		}
		return ""
	}
	root := pickRoot(res.Roots)
	s.opts.Logger.Info("client roots", "count", len(res.Roots), "workspace", root)
	s.remember(ss, gen, root)
	return root
}

// remember stores a session's roots answer unless a change notice arrived
// since the question was asked, or the session is gone.
func (s *Server) remember(ss *sdk.ServerSession, gen int, root string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.sessions[ss]; r != nil && r.gen == gen {
		r.known, r.root = true, root
	}
}

// track starts remembering roots for a new session; forget ends it. Only
// tracked sessions are remembered, so an answer that arrives after its
// session ended leaves nothing behind.
func (s *Server) track(ss *sdk.ServerSession) {
	s.mu.Lock()
	if s.sessions[ss] == nil {
		s.sessions[ss] = &sessionRoots{}
	}
	s.mu.Unlock()
}

// rootsChanged forgets a session's roots and, where the protocol allows the
// server to ask, fetches them again.
func (s *Server) rootsChanged(_ context.Context, req *sdk.RootsListChangedRequest) {
	ss := req.Session
	if ss == nil {
		return
	}
	s.mu.Lock()
	r := s.sessions[ss]
	if r == nil {
		s.mu.Unlock()
		return
	}
	r.gen++
	r.known, r.root = false, ""
	gen := r.gen
	s.mu.Unlock()
	s.opts.Logger.Debug("client roots changed")
	// A notification handler runs on the connection's read loop: waiting
	// here for the answer would wait for a message this loop must read.
	go s.fetchRoots(ss, gen)
}

// initialized asks a client that has roots for them as soon as the session
// is ready, so the first tool call needs no extra round trip.
func (s *Server) initialized(_ context.Context, req *sdk.InitializedRequest) {
	ss := req.Session
	if ss == nil {
		return
	}
	s.mu.Lock()
	gen := 0
	if r := s.sessions[ss]; r != nil {
		gen = r.gen
	}
	s.mu.Unlock()
	go s.fetchRoots(ss, gen)
}

// fetchRoots asks a session for its roots in the background, if the client
// declared roots and the protocol lets the server ask.
func (s *Server) fetchRoots(ss *sdk.ServerSession, gen int) {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.RootsV2 == nil || p.ProtocolVersion >= statelessProtocol {
		return
	}
	s.listRoots(context.Background(), ss, gen)
}

// forget drops a finished session.
func (s *Server) forget(ss *sdk.ServerSession) {
	s.mu.Lock()
	delete(s.sessions, ss)
	s.mu.Unlock()
}

// pickRoot chooses among the client's roots: the first folder that holds
// .memory, else the first folder at all (a store creates .memory there).
// Roots that are not file:// URIs of existing folders are skipped.
func pickRoot(roots []*sdk.Root) string {
	first := ""
	for _, r := range roots {
		if r == nil {
			continue
		}
		p, ok := pathOfURI(r.URI)
		if !ok {
			continue
		}
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			continue
		}
		if memory.HasDir(p) {
			return p
		}
		if first == "" {
			first = p
		}
	}
	return first
}

// pathOfURI converts a file:// URI to a clean absolute path.
func pathOfURI(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || !strings.EqualFold(u.Scheme, "file") {
		return "", false
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		// file:///C:/x has the path /C:/x; file://server/share is a UNC path.
		if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
			p = p[1:]
		} else if u.Host != "" && u.Host != "localhost" {
			p = "//" + u.Host + p
		}
	} else if u.Host != "" && u.Host != "localhost" {
		return "", false
	}
	p = filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(p) {
		return "", false
	}
	return p, true
}
