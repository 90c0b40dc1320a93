"""A demonstration exercise for the checker's own doctests (not part of any lesson)."""

from __future__ import annotations

from ..answers import Number
from ..registry import Text, exercise

exercise("L0.demo", expect=Number("538d4948cac2acfd95990311", digits=4),
         hints=[Text(en="what is six times seven?", zh="六乘以七是多少？"),
                Text(en="6 × 7 = 6 + 6 + 6 + 6 + 6 + 6 + 6.",
                     zh="6 × 7 = 6 + 6 + 6 + 6 + 6 + 6 + 6。")],
         wrong=[(41, Text(en="41 is one short.", zh="41 差了一点。"))])
