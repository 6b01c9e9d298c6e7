# Developer targets. CI runs .ci/run; these are extra, slower checks.

.PHONY: stress

# The multi-process stress test (build tag stress; go test ./... skips it).
stress:
	go test -tags stress -run Stress -count=1 -v ./core/...

.PHONY: fuzz

# Every fuzz target for FUZZTIME each (go test -fuzz takes one target per run).
FUZZTIME ?= 10m
fuzz:
	scripts/fuzz $(FUZZTIME)
