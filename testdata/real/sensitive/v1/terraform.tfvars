rotating_secret = "SECRET-MARKER-old-0003"
