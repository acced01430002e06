default_tags = { Owner = "team-a", Env = "prod" }
sizes        = { a = 1, b = 1, c = 1, d = 1 }
rotation     = "one"
