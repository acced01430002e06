output "crlf" {
  value = "CRLF line endings"
}
