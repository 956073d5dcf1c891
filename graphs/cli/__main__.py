"""``python -m graphs.cli``: the ``semiring-paths`` command without the installed console script."""

import sys

from graphs.cli import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
