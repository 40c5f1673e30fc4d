#!/usr/bin/env bash
# Coverage-guided fuzzing, for a bounded time: each target runs
# for the given seconds (default 60), growing its corpus, which is then
# shrunk to the inputs that cover an edge no other does. The corpus is committed and the
# normal test run replays it (crates/collide/tests/it/broad/fuzz_corpus.rs).
#
#   fuzz/run.sh              # 60 s per target
#   fuzz/run.sh 3600         # an hour per target
#   fuzz/run.sh 600 broad_ops
#
# Needs the nightly toolchain (rustup toolchain install nightly) and
# cargo-fuzz (installed here when missing). A finding stops the run and
# is saved under fuzz/artifacts/<target>/; replay it with
# `cargo +nightly fuzz run <target> <file>` in fuzz/, fix it, and keep it
# as a named test in crates/collide/tests/it/broad/regressions.rs.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(trace_parse broad_ops world_ops)
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  cargo +nightly install cargo-fuzz --locked
fi
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  echo "fuzzing $target for $seconds s" >&2
  cargo +nightly fuzz run "$target" "corpus/$target" -- \
    -max_total_time="$seconds" -max_len=2048 -timeout=10
  # Keep one input per covered edge (hit counts ignored): a few hundred
  # files, which the test run replays in seconds.
  cargo +nightly fuzz cmin "$target" "corpus/$target" -- -use_counters=0 -use_value_profile=0
done
