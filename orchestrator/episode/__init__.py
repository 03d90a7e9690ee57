"""One episode, turn by turn: user ↔ agent ↔ tools across the four services, then its score."""
