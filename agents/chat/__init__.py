"""What a chat message asks for: which earlier messages it needs (context selection) and which
job it is (the router). Each is one forced model call."""
