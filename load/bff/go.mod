module loomgate.local/bff

go 1.24.0

require golang.org/x/sync v0.18.0
