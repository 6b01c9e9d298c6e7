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

.PHONY: soak

# The save-versus-store soak (build tag soak): every cell of
# lsp/savestore_e2e_test.go 20 times, quiet and with both cores kept busy.
# .ci/run runs it with 2 runs a cell under load.
soak:
	go test -tags soak -run TestSoakSaveStore -v -timeout 0 ./lsp/
	MEMLSP_SOAK_LOAD=1 go test -tags soak -run TestSoakSaveStore -v -timeout 0 ./lsp/
