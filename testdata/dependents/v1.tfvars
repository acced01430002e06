db_version = "1"
