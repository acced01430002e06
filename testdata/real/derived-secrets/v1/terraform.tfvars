pw  = "S3cret&Pass<word>!-XYZ"
pin = "4821"
key = "-----BEGIN TEST KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n-----END TEST KEY-----\n"
