package memory

import (
	"context"
	"errors"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// TEMPORARY: replaced by the real OpenRepo when i14-repo merges
func OpenRepo(ctx context.Context, root string, cfg config.Config) (rules.Repo, error) {
	return nil, errors.New("repository view not merged yet")
}
