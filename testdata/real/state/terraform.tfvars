state_secret = "SECRET-MARKER-state-0006"
