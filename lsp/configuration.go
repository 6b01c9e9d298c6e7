package lsp

import "context"

// refreshConfiguration pulls the `memory` section when the client supports it.
func (s *Server) refreshConfiguration(ctx context.Context) {}
