"""expect-exit.py N command [args...]

Runs the command with this process's stdin, stdout and stderr and exits 0 if
the command's exit status is N, 1 otherwise (with a message on stderr). lit's
`not` only tells zero from non-zero; this checks an exact status, e.g. the 2
that waveasm-opt returns for usage errors.
"""

import subprocess
import sys


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: expect-exit.py N command [args...]\n")
        return 1
    want = int(argv[1])
    got = subprocess.call(argv[2:])
    if got != want:
        sys.stderr.write("expect-exit: '%s' exited with %d, expected %d\n" % (argv[2], got, want))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
