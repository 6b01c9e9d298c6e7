package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/budget"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

func budgetCommand() command {
	return command{name: "budget", args: "[--agents A,…]",
		help:     "print what each agent the workspace uses loads at session start (bytes, lines, tokens) against its limits, and each memory file against the agents' file tools",
		notes:    "The agents are those whose files are present (" + strings.Join(budget.Markers(), ", ") + ") unless the agents setting or --agents names them. Token counts are estimates (docs/budgets.md says how close). check reports the same limits as load-budget findings.",
		flags:    []flagSpec{{name: "agents", value: "A,…", help: "judge these agents instead: " + strings.Join(budget.IDs(), ", ")}},
		examples: []string{"memory-lsp budget", "memory-lsp budget --agents codex,claude", "memory-lsp budget --json"},
		run:      runBudget}
}

func runBudget(_ context.Context, e *env, a *parsedArgs) (int, error) {
	if a.set["agents"] {
		ids := []string{}
		for _, id := range strings.Split(a.str("agents"), ",") {
			if id = strings.TrimSpace(id); id != "" {
				ids = append(ids, id)
			}
		}
		cfg, err := e.cfg.Merge(config.Settings{Agents: &ids})
		if err != nil {
			return exitError, usagef("--%v", err) // "agents: …" names the flag
		}
		e.cfg = cfg
	}
	// The agents' own files have budgets whether or not the project keeps
	// a .memory/ folder yet.
	svc, err := e.service()
	if err != nil {
		return exitError, err
	}
	var files []rules.File
	if store.IsDir(svc.WS.Dir) {
		if files, err = svc.Load(); err != nil {
			return exitError, err
		}
	}
	b := memory.ComputeBudget(svc.Cfg, files, memory.AgentLoads(svc.Cfg, svc.WS.Root))
	if e.json {
		writeJSON(e.stdout, b)
		return exitOK, nil
	}
	fmt.Fprint(e.stdout, b.Text())
	return exitOK, nil
}
