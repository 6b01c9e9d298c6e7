package main

import (
	"fmt"
	"os"

	"github.com/tliron/commonlog"
	_ "github.com/tliron/commonlog/simple" // the stderr/file backend
)

// logLevels is the one --log-level mapping, for the language server and
// the MCP server alike, onto commonlog's verbosity.
var logLevels = map[string]int{"none": -4, "error": -2, "warning": -1, "notice": 0, "info": 1, "debug": 2}

const logLevelNames = "none, error, warning, notice, info or debug"

// configureLogging sends the process's logs to stderr or --log-file at
// --log-level (def when unset). Both servers own stdout for their protocol,
// so no log line may ever go there.
func configureLogging(a *parsedArgs, def string) error {
	name := a.str("log-level")
	if name == "" {
		name = def
	}
	level, ok := logLevels[name]
	if !ok {
		return usagef("unknown --log-level %q (%s)", name, logLevelNames)
	}
	if path := a.str("log-file"); path != "" {
		// commonlog exits the process when it cannot open its file; check first.
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("--log-file: %w", err)
		}
		f.Close()
		commonlog.Configure(level, &path)
		return nil
	}
	commonlog.Configure(level, nil)
	return nil
}

// logFlags are the logging flags of both servers.
func logFlags(def string) []flagSpec {
	return []flagSpec{
		{name: "log-file", value: "F", help: "write logs to this file instead of stderr"},
		{name: "log-level", value: "L", help: logLevelNames + " (default " + def + ")"},
	}
}
