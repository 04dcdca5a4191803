#!/usr/bin/env python3
"""Checks that two kernel dumps differ only by named index temporaries.

The kernel IR's "name common indices" pass (codegen/kernel_ir_passes.h)
declares an index base shared by several accesses once
(`const int idx_0 = gid0_0 + 4096*gid1_0;`) and writes the accesses through
it (`A[idx_0 - 8194]`). Undoing that, deleting each declaration and putting
each name's definition back where the name is read, must give the kernel
generated without the pass, byte for byte:

    tools/dump-kernels.sh LIFTC_WITHOUT_THE_PASS before/
    tools/dump-kernels.sh build/tools/liftc/liftc after/
    tools/check-named-indices.py before/ after/

Exit status 0 when every kernel of AFTER passes, 1 otherwise (the first
differences are printed).
"""
import difflib
import os
import re
import sys

DECLARATION = re.compile(r"^\s*const (int|long|long long) (idx_\d+) = (.*);$")
NAME = re.compile(r"\b(idx_\d+)\b")


def unnamed(kernel: str) -> str:
    """The kernel with its idx_N declarations removed and each use spelled."""
    definitions = {}
    lines = []
    for line in kernel.split("\n"):
        declared = DECLARATION.match(line)
        if declared:
            definitions[declared.group(2)] = declared.group(3)
            continue
        # A use follows its declaration; the latest one is in scope (the
        # interior and the border codes draw their names apart). A base
        # never reads another name, so one substitution suffices.
        lines.append(NAME.sub(lambda m: definitions[m.group(1)], line))
    return "\n".join(lines)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        print("usage: check-named-indices.py BEFORE_DIR AFTER_DIR", file=sys.stderr)
        return 2
    before_dir, after_dir = sys.argv[1], sys.argv[2]
    kernels = sorted(f for f in os.listdir(after_dir) if f.endswith(".kernel"))
    different = 0
    for name in kernels:
        with open(os.path.join(after_dir, name)) as f:
            after = unnamed(f.read())
        with open(os.path.join(before_dir, name)) as f:
            before = f.read()
        if after == before:
            continue
        different += 1
        if different <= 3:
            print(name)
            diff = difflib.unified_diff(before.split("\n"), after.split("\n"), lineterm="")
            print("\n".join(list(diff)[:12]))
    print(f"{len(kernels)} kernels: {len(kernels) - different} equal to BEFORE once every idx_N is spelled, "
          f"{different} not")
    return 0 if different == 0 and kernels else 1


if __name__ == "__main__":
    sys.exit(main())
