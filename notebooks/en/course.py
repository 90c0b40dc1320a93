"""``from course import check``: the exercise checker, in this folder's language.

Written by notebooks/build.py: the checker is the _course/ package in the nearest folder above.
"""

import sys
from pathlib import Path

_here = Path(__file__).resolve()
sys.path.insert(0, str(next(p for p in _here.parents if (p / "_course").is_dir())))
from _course import check, set_language  # noqa: E402

set_language("en")

try:  # short tracebacks (the error's last line only), as %xmode Minimal, without its printout
    from IPython import get_ipython

    get_ipython().InteractiveTB.set_mode("Minimal")
except (ImportError, AttributeError):  # plain Python: nothing to set
    pass
