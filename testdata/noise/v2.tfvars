default_tags = { Owner = "team-b", Env = "prod" }
sizes        = { a = 1, b = 1, c = 1, d = 2 }
rotation     = "two"
