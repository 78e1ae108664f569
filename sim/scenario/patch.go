package scenario

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/schema"
)

// Variant returns a copy of the scenario with values set at JSON paths,
// checked like any other document. Values are JSON.
func (sc *Scenario) Variant(assigns ...Assign) (*Scenario, error) {
	tree, err := schema.Parse(sc.raw)
	if err != nil {
		return nil, err
	}
	for _, a := range assigns {
		v, err := schema.Parse(a.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Param, err)
		}
		if err := setPath(&tree, a.Param, func(any) (any, error) { return v, nil }); err != nil {
			return nil, err
		}
	}
	return sc.parseTree(tree, true)
}

// SweepVariant returns the variant of the sweep at value x.
func (sc *Scenario) SweepVariant(x float64) (*Scenario, error) {
	return sc.sweepVariant(x, true)
}

// sweepVariant is SweepVariant; dry false skips the variant's dry build
// (the validator builds only the extreme sweep values, see checkVariants).
func (sc *Scenario) sweepVariant(x float64, dry bool) (*Scenario, error) {
	if sc.Sweep == nil {
		return sc, nil
	}
	tree, err := schema.Parse(sc.raw)
	if err != nil {
		return nil, err
	}
	num := json.Number(strconv.FormatFloat(x, 'g', -1, 64))
	for _, p := range sc.Sweep.Params {
		if err := setPath(&tree, p, func(any) (any, error) { return num, nil }); err != nil {
			return nil, err
		}
	}
	for _, p := range sc.Sweep.Scale {
		err := setPath(&tree, p, func(old any) (any, error) {
			n, ok := old.(json.Number)
			if !ok && old == nil {
				return nil, fmt.Errorf("%s: the sweep scales this path, but the scenario has no number there", p)
			}
			if !ok {
				return nil, fmt.Errorf("%s: the sweep scales this path, but it holds %s, not a number", p, describeJSON(old))
			}
			f, _ := n.Float64()
			v := f * x
			if !strings.ContainsAny(string(n), ".eE") { // whole numbers stay whole
				v = math.Round(v)
			}
			return json.Number(strconv.FormatFloat(v, 'g', -1, 64)), nil
		})
		if err != nil {
			return nil, err
		}
	}
	return sc.parseTree(tree, dry)
}

// parseTree checks a variant of sc. Its limits and its own variants are
// checked by the document it comes from.
func (sc *Scenario) parseTree(tree any, dry bool) (*Scenario, error) {
	data, err := json.Marshal(tree)
	if err != nil {
		return nil, err
	}
	return parse(sc.registry(), data, false, dry)
}

// setPath replaces the value at path ("a.b[2].c") with f(old). Missing
// object levels are created; array indexes must exist. Objects and arrays
// are references, so changing a child changes the tree.
func setPath(root *any, path string, f func(old any) (any, error)) error {
	steps, err := splitPath(path)
	if err != nil {
		return err
	}
	cur := *root
	for i, st := range steps {
		last := i == len(steps)-1
		var get func() any
		var set func(any)
		if st.key != "" {
			obj, ok := cur.(map[string]any)
			if !ok {
				return fmt.Errorf("%s: %q is not inside an object", path, st.key)
			}
			get, set = func() any { return obj[st.key] }, func(v any) { obj[st.key] = v }
		} else {
			arr, ok := cur.([]any)
			if !ok || st.index >= len(arr) {
				return fmt.Errorf("%s: no element [%d]", path, st.index)
			}
			get, set = func() any { return arr[st.index] }, func(v any) { arr[st.index] = v }
		}
		if last {
			v, err := f(get())
			if err != nil {
				return err
			}
			set(v)
			return nil
		}
		if get() == nil {
			set(map[string]any{})
		}
		cur = get()
	}
	return nil
}

func describeJSON(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "true or false"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%v", v)
}

type pathStep struct {
	key   string
	index int
}

func splitPath(path string) ([]pathStep, error) {
	var steps []pathStep
	for _, part := range strings.Split(path, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name == "" && rest == "" {
			return nil, fmt.Errorf("bad path %q", path)
		}
		if name != "" {
			steps = append(steps, pathStep{key: name})
		}
		for rest != "" {
			idx, after, ok := strings.Cut(rest, "]")
			n, err := strconv.Atoi(idx)
			if !ok || err != nil || n < 0 {
				return nil, fmt.Errorf("bad index in path %q", path)
			}
			steps = append(steps, pathStep{index: n})
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return steps, nil
}

// WithPolicy returns the scenario reduced to policy i, keeping its label,
// so that one policy of a comparison can run on its own (the page runs
// each policy in its own worker) with the results it has in the whole
// run. The reference values, checks, robustness claims (which judge
// checks over draws) and quick version speak about the whole comparison
// and are dropped.
func (sc *Scenario) WithPolicy(i int) (*Scenario, error) {
	if i < 0 || i >= len(sc.Policies) {
		return nil, fmt.Errorf("policy index %d is out of range (the scenario has %d policies)", i, len(sc.Policies))
	}
	tree, err := schema.Parse(sc.raw)
	if err != nil {
		return nil, err
	}
	obj, ok := tree.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the scenario is not a JSON object")
	}
	p := sc.Policies[i]
	p.Label = sc.PolicyLabel(i)
	one, err := json.Marshal([]PolicySpec{p})
	if err != nil {
		return nil, err
	}
	if obj["policies"], err = schema.Parse(one); err != nil {
		return nil, err
	}
	for _, k := range []string{"reference", "checks", "robustness", "quick"} {
		delete(obj, k)
	}
	// A sweep's ratios compare two policies, which one policy alone
	// cannot show.
	if sw, ok := obj["sweep"].(map[string]any); ok {
		delete(sw, "ratios")
	}
	return sc.parseTree(obj, true)
}

// Document returns the scenario's JSON document (for a variant, the
// patched one).
func (sc *Scenario) Document() []byte { return sc.raw }

// QuickVariant returns the scenario with its quick version's changes
// applied (the scenario itself when it has none): what tests and quick
// looks run.
func (sc *Scenario) QuickVariant() (*Scenario, error) {
	if sc.Quick == nil || len(sc.Quick.Set) == 0 {
		return sc, nil
	}
	return sc.Variant(sc.Quick.Set...)
}

// BaseSweepValue is the sweep value the scenario as written corresponds
// to: the number at the sweep's first parameter path, or 1 for a sweep
// that only scales. ok is false without a sweep or when the document has
// no number there.
func (sc *Scenario) BaseSweepValue() (x float64, ok bool) {
	if sc.Sweep == nil {
		return 0, false
	}
	if len(sc.Sweep.Params) == 0 {
		return 1, len(sc.Sweep.Scale) > 0
	}
	tree, err := schema.Parse(sc.raw)
	if err != nil {
		return 0, false
	}
	_ = setPath(&tree, sc.Sweep.Params[0], func(old any) (any, error) {
		if n, isNum := old.(json.Number); isNum {
			if f, err := n.Float64(); err == nil {
				x, ok = f, true
			}
		}
		return old, nil
	})
	return x, ok
}
