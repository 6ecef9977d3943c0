"""The model: the one Anthropic client (client.py), where prompt-cache markers go, what a call
costs, the tool specs the model sees, and the catalog of models a reporter may choose."""
