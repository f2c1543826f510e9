#!/usr/bin/env python3
"""Runs the Python binding tests (tests/python) under pytest for ctest.

Exit code 77 (ctest's skip) when pytest is missing or a reason to skip is
given with --skip; otherwise pytest's exit code.
"""

import argparse
import os
import sys


def main():
    """Parses the arguments and runs pytest on this directory."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip", help="report this reason and skip")
    args, rest = ap.parse_known_args()
    if args.skip:
        print(f"SKIP: {args.skip}")
        return 77
    try:
        import pytest
    except ImportError:
        print(f"SKIP: pytest is not available to {sys.executable} (Debian: python3-pytest)")
        return 77
    here = os.path.dirname(os.path.abspath(__file__))
    # No cache directory in the source tree.
    return pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", here, here] + rest)


if __name__ == "__main__":
    sys.exit(main())
