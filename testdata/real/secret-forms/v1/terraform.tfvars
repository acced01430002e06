pw  = "S3cret&Pass<word>!"
pin = 987654321
