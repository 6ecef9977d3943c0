"""How work gets done: runs and their progress events, what a run was asked (its input), the
outbox that records task messages with the work, the broker they are handed to (after the
response, or by the workers' relay), and which process owns a row right now."""
