"""Neural-network building blocks (being written)."""
