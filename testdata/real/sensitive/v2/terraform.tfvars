secret_var      = "SECRET-MARKER-var-0001"
db_password     = "SECRET-MARKER-nested-0002"
rotating_secret = "SECRET-MARKER-new-0004"
api_token       = "SECRET-MARKER-output-0005"
