module codeberg.org/go-fonts/liberation

go 1.23.0

require github.com/go-fonts/liberation v0.3.3
