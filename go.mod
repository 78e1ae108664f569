module github.com/schedlab/schedlab

go 1.26

require (
	github.com/chromedp/chromedp v0.22.1
	github.com/go-fonts/liberation v0.3.3
	github.com/vugu/vjson v0.0.0-20200505061711-f9cbed27d3d9
	github.com/vugu/vugu v0.5.1
	golang.org/x/image v0.30.0
	gonum.org/v1/gonum v0.16.0
	gonum.org/v1/plot v0.17.0
)

require (
	go.starlark.net v0.0.0-20260908191801-89a6a09411d5
	golang.org/x/sys v0.42.0 // indirect
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/BurntSushi/toml v1.4.1-0.20240526193622-a339e1f7089c // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/andybalholm/brotli v1.1.1 // indirect
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/vugu/html v0.0.0-20190914200101-c62dc20b8289 // indirect
	github.com/vugu/xxhash v0.0.0-20191111030615-ed24d0179019 // indirect
	golang.org/x/exp/typeparams v0.0.0-20231108232855-2478ac86f678 // indirect
	golang.org/x/mod v0.27.0 // indirect
	golang.org/x/sync v0.16.0 // indirect
	golang.org/x/text v0.28.0 // indirect
	golang.org/x/tools v0.36.0 // indirect
	honnef.co/go/tools v0.6.1 // indirect
)

tool (
	github.com/vugu/vugu/cmd/vugugen
	honnef.co/go/tools/cmd/staticcheck
)

replace codeberg.org/go-fonts/liberation => ./internal/liberation

replace codeberg.org/go-latex/latex => ./internal/golatex

replace codeberg.org/go-pdf/fpdf => ./internal/fpdf
