package experiment_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
)

// Each OJPP scenario in full mode on one worker (issue 12's target: under
// 5 s natively). Prediction scores are cached per training set, so only
// the first iteration of ojpp-predict pays for them; run with
// -benchtime 1x to time a fresh study.
func BenchmarkOJPPScenarios(b *testing.B) {
	for _, name := range scenarios.Names() {
		if !strings.HasPrefix(name, "ojpp-") {
			continue
		}
		b.Run(name, func(b *testing.B) {
			sc := load(b, name)
			for range b.N {
				if _, err := experiment.RunStudy(context.Background(), sc, experiment.StudyOptions{Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
