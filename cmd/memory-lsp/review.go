package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// runReview lists the held writes, or approves or rejects some of them.
func runReview(ctx context.Context, e *env, a *parsedArgs) (int, error) {
	approve, reject := a.set["approve"], a.set["reject"]
	if approve && reject {
		return exitError, usagef("--approve and --reject go in separate runs")
	}
	svc, err := e.readService()
	if err != nil {
		return exitError, err
	}
	if !approve && !reject {
		held, bad, err := svc.Held()
		if err != nil {
			return exitError, err
		}
		if e.json {
			if held == nil {
				held = []memory.Held{}
			}
			writeJSON(e.stdout, struct {
				Held []memory.Held `json:"held"`
				// Unreadable are the queue's lines that are no record.
				Unreadable []int `json:"unreadable,omitempty"`
			}{held, bad})
			return exitOK, nil
		}
		fmt.Fprint(e.stdout, heldText(held, bad, e.cfg))
		return exitOK, nil
	}
	ids := a.str("approve") + a.str("reject")
	req := memory.ReviewRequest{Approve: approve}
	if ids == "all" {
		req.All = true
	} else {
		for id := range strings.SplitSeq(ids, ",") {
			if id = strings.TrimSpace(id); id != "" {
				req.IDs = append(req.IDs, id)
			}
		}
		if len(req.IDs) == 0 {
			return exitError, usagef("give the IDs of held writes (memory-lsp review lists them), or all")
		}
	}
	out, err := svc.Review(ctx, req)
	if err != nil {
		return exitError, err
	}
	if e.json {
		if out == nil {
			out = []memory.ReviewOutcome{}
		}
		writeJSON(e.stdout, struct {
			Reviewed []memory.ReviewOutcome `json:"reviewed"`
		}{out})
		return exitOK, nil
	}
	if len(out) == 0 {
		fmt.Fprintln(e.stdout, "Nothing is held for review.")
	}
	code := exitOK
	for _, o := range out {
		switch {
		case o.Problem != "":
			fmt.Fprintf(e.stdout, "Kept %s held: %s\n", o.Held.ID, memory.Printable(o.Problem))
			code = exitFindings
		case o.Store == nil:
			fmt.Fprintf(e.stdout, "Rejected %s: \"%s\" (nothing stored).\n", o.Held.ID, memory.Printable(o.Held.Content))
		default:
			fmt.Fprintf(e.stdout, "Approved %s: %s\n", o.Held.ID, memory.Printable(o.Store.Message))
		}
	}
	return code, nil
}

// heldText lists held writes for a person. Every field is shown
// printable (an agent chose the name it goes by, and may have written the
// file), and the reasons are those the checks find now, not the record's.
func heldText(held []memory.Held, bad []int, cfg config.Config) string {
	var b strings.Builder
	if len(held) == 0 {
		b.WriteString("Nothing is held for review.\n")
	} else {
		fmt.Fprintf(&b, "%s held for review in .memory/%s (no agent and no query reads them):\n", memory.Plural(len(held), "write", "writes"), store.HeldName)
	}
	for _, h := range held {
		fmt.Fprintf(&b, "\n%s  %s  %s  by %s\n", memory.Printable(h.ID), memory.Printable(h.Category), memory.Printable(h.Time), h.Who())
		slug := ""
		if h.Slug != "" {
			slug = "[" + memory.Printable(h.Slug) + "] "
		}
		fmt.Fprintf(&b, "  %s%s\n", slug, memory.Printable(h.Content))
		signals := memory.Recheck(h, cfg)
		if len(signals) == 0 {
			signals = h.Signals
		}
		for _, s := range signals {
			fmt.Fprintf(&b, "  held: %s\n", memory.Printable(s.What))
		}
	}
	if len(bad) > 0 {
		fmt.Fprintf(&b, "\n.memory/%s has lines that are no held write (lines %s); they are kept as they are.\n", store.HeldName, joinInts(bad))
	}
	if len(held) > 0 {
		b.WriteString("\nApprove: memory-lsp review --approve ID   Reject: memory-lsp review --reject ID   (or all)\n")
	}
	return b.String()
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
