from __future__ import annotations

import sys

from tools.playground.cli import main

sys.exit(main())
