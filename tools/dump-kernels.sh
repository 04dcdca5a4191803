#!/usr/bin/env bash
# Writes the generated kernel (and launch metadata) of every example x family x
# target into DIR, so that a refactoring of the code generator can be checked
# to leave the generated code byte-identical:
#   tools/dump-kernels.sh build/tools/liftc/liftc before/ && ... && diff -r before/ after/
set -euo pipefail
liftc=${1:?usage: dump-kernels.sh LIFTC DIR}
out=${2:?usage: dump-kernels.sh LIFTC DIR}
cd "$(dirname "$0")/.."
mkdir -p "$out"
for program in examples/json/*.json; do
  name=$(basename "$program" .json)
  # Sizes: every size variable at 64 (symbolic sizes are covered by the tests).
  # A size is {"name": ...} or its name alone ("sizes": ["N", "M"]).
  sizes=$(python3 -c 'import json,sys; print(",".join((s["name"] if isinstance(s, dict) else s)+"=64" for s in json.load(open(sys.argv[1]))["sizes"]))' "$program")
  # Each family's recipe with its defaults, and the plain kernel specialised
  # (interior and border codes) and vectorised.
  for family in plain tiled local coarsened stream plain-spec plain-vec4; do
    case $family in
      plain-spec) options=(--opt plain --specialise-boundaries --local 16,4) ;;
      plain-vec4) options=(--opt plain --vector 4) ;;
      *) options=(--opt "$family") ;;
    esac
    for target in opencl cuda; do
      base="$out/$name.$family.$target"
      if ! "$liftc" compile "$program" "${options[@]}" --size "$sizes" --target "$target" \
           -o "$base.kernel" --metadata "$base.json" 2> "$base.err"; then
        rm -f "$base.kernel" "$base.json"
      else
        rm -f "$base.err"
      fi
    done
  done
done
echo "kernels written to $out: $(ls "$out" | grep -c '\.kernel$') kernels, $(ls "$out" | grep -c '\.err$') refusals"
