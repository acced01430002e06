package main

test_nothing if true
