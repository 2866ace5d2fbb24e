# Sourced by the kernel-*.sh scripts, which compile kernel files from a tree the user
# gives (KERNEL_SRC) and take a few helpers out of larger files by name.
# shellcheck shell=bash

# extract FILE REGEX: from the line matching REGEX to the next line that starts with
# "}" (a function's or a struct's end)
extract() {
  awk -v re="$2" '$0 ~ re { on = 1 } on { print } on && /^}/ { exit }' "$1"
}

# need FILE WORD: fail if WORD is not in FILE (a tree whose code moved)
need() {
  grep -q "$2" "$1" || { echo "$(basename "$0"): $2 not found where expected" >&2; exit 2; }
}
