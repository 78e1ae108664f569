module codeberg.org/go-latex/latex

go 1.23.0

require golang.org/x/image v0.30.0
