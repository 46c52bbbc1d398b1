#!/usr/bin/env bash
# CI smoke run: build the benchmark in release and run a few short samples of every case
# (round trips of every coder are checked first; a mismatch fails the run). About 10 s after the build.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --package-path Benchmarks
swift run -c release --package-path Benchmarks Bench --quick "$@"
