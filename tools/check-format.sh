#!/usr/bin/env bash
# Formatting check (CI runs it from .ci/run): every tracked *.cpp and *.h must be as clang-format
# (Debian bookworm's clang-format 14, config in .clang-format) would write it. Lists the files that
# differ and exits 1 if there are any; changes nothing. To fix a file: clang-format -i FILE.
#   tools/check-format.sh          CLANG_FORMAT=clang-format-14 tools/check-format.sh
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format}
command -v "$clang_format" > /dev/null \
  || { echo "check-format: $clang_format not found (Debian: apt-get install clang-format)" >&2; exit 2; }

# One clang-format run over all files; each difference is reported as "FILE:LINE:COL: error: ...".
mapfile -d '' files < <(git ls-files -z -- '*.cpp' '*.h')
existing=()
for file in "${files[@]}"; do
  if [ -f "$file" ]; then existing+=("$file"); fi  # one deleted in the work tree is skipped
done
[ ${#existing[@]} -gt 0 ] || { echo "check-format: no *.cpp or *.h tracked" >&2; exit 2; }
status=0
report=$(printf '%s\0' "${existing[@]}" \
           | xargs -0 "$clang_format" --dry-run --Werror 2>&1 > /dev/null) || status=$?
mapfile -t differ < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: .*/\1/p' <<< "$report" | sort -u)

if [ ${#differ[@]} -gt 0 ]; then
  echo "check-format: ${#differ[@]} of ${#existing[@]} files differ from clang-format's layout" \
    "(clang-format -i FILE fixes one):" >&2
  printf '  %s\n' "${differ[@]}" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then  # clang-format failed without naming a file (a bad .clang-format)
  echo "$report" >&2
  echo "check-format: $clang_format failed" >&2
  exit 2
fi
echo "check-format: ${#existing[@]} files formatted as .clang-format says"
