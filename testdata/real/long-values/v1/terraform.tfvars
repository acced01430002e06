motd  = "Welcome to the staging environment: maintenance every Sunday 02:00-04:00 UTC, ask #platform before changing anything here."
token = "SECRET-MARKER-long-0008-a-sensitive-value-longer-than-any-table-cell-must-stay-masked-and-whole"
