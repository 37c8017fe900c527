"""`python -m bc_common.conformance NAME ...`: every check of the named bootcamps (default: all available)."""
import sys

from . import main

sys.exit(main())
