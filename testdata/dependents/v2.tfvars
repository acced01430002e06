db_version = "2"
