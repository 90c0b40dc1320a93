"""One module per lesson, ``lNN.py``, each registering that lesson's exercises."""
