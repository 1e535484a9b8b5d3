#!/bin/sh
# Seed the fuzz corpus from the Mermaid corpus in tests/fixtures/mermaid-corpus:
#   sh fuzz/seed.sh && RUSTC_BOOTSTRAP=1 cargo fuzz run render -- -max_total_time=300
# Each seed is: one byte (width/ASCII), one byte (header choice 0 = none), the source.
set -eu
here=$(dirname "$0")
src="$here/../tests/fixtures/mermaid-corpus"
out="$here/corpus/render"
mkdir -p "$out"
n=0
find "$src" -type f \( -name '*.mmd' -o -name '*.txt' \) ! -name 'README*' | sort | while read -r f; do
  n=$((n + 1))
  { printf "\\$(printf '%03o' $((n * 37 % 256)))\\000"; sed '/^---$/,$d; /^padding[XY]=/d' "$f"; } > "$out/seed$n"
done
