"""A demonstration exercise for the checker's own doctests (not part of any lesson)."""

from __future__ import annotations

from ..answers import Number
from ..registry import Text, exercise

exercise("L0.demo", expect=Number("cc0f01c18a28f971df9666c8", digits=4),
         hints=[Text(en="what is five times nine?", zh="五乘以九是多少？"),
                Text(en="5 × 9 = 9 + 9 + 9 + 9 + 9.", zh="5 × 9 = 9 + 9 + 9 + 9 + 9。")],
         wrong=[(44, Text(en="44 is one short.", zh="44 差了一点。"))])
