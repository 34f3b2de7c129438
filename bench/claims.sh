#!/usr/bin/env bash
# Benchmark of claim checking: a 200-item note checked against a 10,000-event log, the way
# `git handoff note` checks it (the digest recomputed from the log file, every claim read and
# judged). Target: under 20 ms. The work is in benches/claims_bench.rs.
#
# Usage: bench/claims.sh [RUNS]     (default 51; builds the release example)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --quiet --bench claims_bench -- "${1:-51}"
