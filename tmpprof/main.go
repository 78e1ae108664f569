package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/schedlab/schedlab/sim/experiment"
	_ "github.com/schedlab/schedlab/sim/policy/all"
	"github.com/schedlab/schedlab/sim/scenario"
)

func main() {
	data, _ := os.ReadFile(os.Args[1])
	sc, err := scenario.Parse(data)
	if err != nil {
		panic(err)
	}
	f, _ := os.Create("/tmp/g5/cpu.prof")
	pprof.StartCPUProfile(f)
	t := time.Now()
	st, err := experiment.RunStudy(context.Background(), sc, experiment.StudyOptions{Workers: 1})
	pprof.StopCPUProfile()
	fmt.Println(time.Since(t), err)
	st.WriteText(os.Stdout)
}
