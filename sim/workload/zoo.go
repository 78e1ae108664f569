package workload

import "fmt"

// Template is one job type of a model zoo: a model trained at one batch size.
type Template struct {
	Model       string
	BatchSize   int
	Distributed bool // may use more than one GPU
}

// Key is the template's name in Gavel's notation, e.g. "ResNet-50 (batch size 64)".
func (t Template) Key() string {
	if t.Model == "A3C" || t.Model == "CycleGAN" {
		return t.Model
	}
	return fmt.Sprintf("%s (batch size %d)", t.Model, t.BatchSize)
}

// GavelZoo is the 26 job types of Gavel's Table 2 (spec 001 §5.2). "LM" is
// the LSTM language model and "Recommendation" the Recoder autoencoder, the
// names the measured throughput data uses. Nineteen types may be distributed.
var GavelZoo = buildGavelZoo()

func buildGavelZoo() []Template {
	var z []Template
	add := func(model string, distributed bool, batches ...int) {
		for _, b := range batches {
			z = append(z, Template{Model: model, BatchSize: b, Distributed: distributed})
		}
	}
	add("ResNet-18", true, 16, 32, 64, 128, 256)
	add("ResNet-50", true, 16, 32, 64, 128)
	add("Transformer", true, 16, 32, 64, 128, 256)
	add("LM", true, 5, 10, 20, 40, 80)
	add("Recommendation", false, 512, 1024, 2048, 4096, 8192)
	add("A3C", false, 4)
	add("CycleGAN", false, 1)
	return z
}

// GavelDistributed returns the templates that may use more than one GPU.
func GavelDistributed() []Template {
	var d []Template
	for _, t := range GavelZoo {
		if t.Distributed {
			d = append(d, t)
		}
	}
	return d
}
