package crossfile

import "strings"

// packageManagers are the JavaScript package managers a project picks one of.
var packageManagers = []string{"npm", "pnpm", "yarn", "bun"}

// pmUse is what a text says of package managers: the one it prefers ("" for
// none, or for several), and each it speaks of as one to use.
type pmUse struct {
	prefers  string
	positive map[string]bool
	// explicit: the text says to use it ("use pnpm", "pnpm only"), not only
	// shows a command with it.
	explicit bool
	// jobs are what its commands do: "install" for install, i, ci and
	// add, else the subcommand or the script run ("test", "lint-fix").
	jobs map[string]bool
}

// sharesJob: both texts run a package manager for one job (`yarn run test`
// and `pnpm run test`): two ways to do one thing. Two jobs may use two
// tools without contradiction in what the texts show.
func sharesJob(a, b pmUse) bool {
	for j := range a.jobs {
		if b.jobs[j] {
			return true
		}
	}
	return false
}

// scriptRunners run a package.json script by its name alone (`pnpm lint`).
var scriptRunners = map[string]bool{"pnpm": true, "yarn": true, "bun": true}

// subcommands that install or run with a package manager: its use as the
// project's; publish, view and the like speak of the registry instead.
var pmSubcommands = map[string]bool{
	"install": true, "i": true, "add": true, "ci": true, "run": true, "test": true, "build": true, "dev": true,
	"start": true, "exec": true, "remove": true, "rm": true, "update": true, "up": true, "lint": true,
	"dlx": true, "x": true, "workspace": true, "workspaces": true, "format": true, "typecheck": true,
	"check": true, "serve": true, "preview": true, "-r": true, "--filter": true, "-w": true,
}

// pmRegistry subcommands speak of the registry or the package itself, not
// of how the project installs: `npm publish`, `npm view`.
var pmRegistry = map[string]bool{"publish": true, "pack": true, "login": true, "logout": true, "view": true, "info": true,
	"whoami": true, "version": true, "deprecate": true, "unpublish": true, "owner": true, "dist-tag": true, "search": true}

// pmMaybe before a package manager allow it rather than choose it.
var pmMaybe = map[string]bool{"may": true, "also": true, "optionally": true, "alternatively": true, "either": true}

// pmVerbs before a package manager say to use it ("use pnpm", "prefer
// bun"), when what follows ends the phrase (pmEnds) rather than names one
// of its features ("use yarn resolutions").
var pmVerbs = map[string]bool{"use": true, "uses": true, "using": true, "prefer": true, "always": true}

var pmEnds = map[string]bool{"": true, "for": true, "to": true, "as": true, "instead": true, "only": true, "not": true,
	"rather": true, "over": true, "in": true, "when": true, "and": true, "everywhere": true}

// pmNegations within three words before a package manager make it one
// not to use.
var pmNegations = map[string]bool{"not": true, "never": true, "no": true, "don't": true, "dont": true, "avoid": true,
	"instead": true, "rather": true, "without": true, "nor": true, "than": true}

// packageManager reads which package manager a text tells an agent to use.
func packageManager(s string) pmUse {
	u := pmUse{positive: map[string]bool{}, jobs: map[string]bool{}}
	// A colon inside a word is a script's ("test:e2e"); one that ends a
	// word ends a label or a clause.
	ws := strings.Fields(strings.ToLower(strings.NewReplacer("`", " ", "(", " ", ")", " ", ",", " ", ";", " ", ": ", " ", "\"", " ").Replace(s)))
	negative, mentioned := map[string]bool{}, map[string]bool{}
	global := false
	for i, w := range ws {
		w = strings.TrimRight(w, ".!?:")
		if w == "-g" || w == "--global" || w == "globally" || w == "npx" || w == "bunx" || w == "pnpx" {
			global = true
		}
		if !isPM(w) {
			continue
		}
		neg := false
		for k := max(0, i-3); k < i; k++ {
			if pmNegations[strings.TrimRight(ws[k], ".!?")] || pmMaybe[strings.TrimRight(ws[k], ".!?")] {
				neg = true // ruled out, or only allowed ("you can also use npm")
			}
		}
		for k := i + 1; k < len(ws) && k <= i+4; k++ {
			if w2 := strings.TrimRight(ws[k], ".!?:"); w2 == "not" || w2 == "isn't" || w2 == "never" || w2 == "fails" || w2 == "fail" || w2 == "won't" {
				neg = true // "Yarn Berry is not used", "`npm install` will fail"
			}
		}
		if neg {
			negative[w] = true
			continue
		}
		mentioned[w] = true
		next := ""
		if i+1 < len(ws) {
			next = strings.TrimRight(ws[i+1], ".!?:")
		}
		prev := ""
		if i > 0 {
			prev = ws[i-1]
		}
		if pmRegistry[next] {
			continue
		}
		script := scriptRunners[w] && next != "" && !strings.HasPrefix(next, "-") && !strings.ContainsAny(next, "/#")
		said := pmVerbs[prev] && (pmEnds[next] || pmSubcommands[next]) || next == "only"
		if pmSubcommands[next] || script || said {
			u.positive[w] = true
			if said {
				u.explicit = true
			}
			after := ""
			if i+2 < len(ws) {
				after = ws[i+2]
			}
			switch {
			case (next == "install" || next == "i" || next == "ci") && (after == "" || strings.HasPrefix(after, "-") || !isPackageName(after)):
				u.jobs["install"] = true // the project's dependencies
			case next == "install" || next == "i" || next == "add":
				u.jobs["add"] = true // one package: often a user's project, in a library's docs
			case next == "run" || next == "run-script":
				if i+2 < len(ws) {
					u.jobs[strings.TrimRight(ws[i+2], ".!?")] = true
				}
			case next != "" && next != "only" && !strings.HasPrefix(next, "-"):
				u.jobs[next] = true
			}
		}
	}
	if global || changeWords(s) {
		// A global tool or a one-off run says nothing of the project's;
		// history ("stopped using yarn") says what it no longer is.
		return pmUse{positive: u.positive, jobs: map[string]bool{}}
	}
	for pm := range u.positive {
		if negative[pm] {
			delete(u.positive, pm)
		}
	}
	for pm := range negative {
		delete(mentioned, pm)
	}
	// A text that names two package managers without ruling one out
	// ("npm or pnpm") prefers neither; one that only adds a named package
	// (`npm install @acme/widgets`, a library's docs for its users) says
	// nothing of how the project installs.
	addsOnly := len(u.jobs) == 1 && u.jobs["add"] && !u.explicit
	if len(u.positive) == 1 && len(mentioned) == 1 && !addsOnly {
		for pm := range u.positive {
			u.prefers = pm
		}
	}
	return u
}

func isPM(w string) bool {
	for _, pm := range packageManagers {
		if w == pm {
			return true
		}
	}
	return false
}

// isPackageName: a word after `npm install` that names a package to add
// (`react`, `@scope/pkg`), not the end of a sentence or a clause.
func isPackageName(w string) bool {
	w = strings.TrimRight(w, ".!?:")
	if w == "" || pmEnds[w] || isPM(w) || notPackage[w] || w == "first" || w == "then" || w == "before" || w == "after" || w == "or" || w == "&&" || w == "#" {
		return false
	}
	return strings.HasPrefix(w, "@") || strings.ContainsAny(w, "/-") || len(w) > 1 && w[0] >= 'a' && w[0] <= 'z'
}

// notPackage are words after `npm install` that go on the sentence, not
// name a package.
var notPackage = map[string]bool{"at": true, "from": true, "once": true, "inside": true, "it": true, "on": true,
	"the": true, "this": true, "your": true, "all": true, "here": true, "there": true, "locally": true, "again": true,
	"is": true, "will": true, "should": true, "must": true, "without": true, "within": true, "under": true}
