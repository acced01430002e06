motd  = "Welcome to the production environment: changes only through the release pipeline, and every change needs two approvals."
token = "SECRET-MARKER-long-0008-a-sensitive-value-longer-than-any-table-cell-must-stay-masked-and-whole"
