package worker

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/protocol"
)

// A trace sent to a worker comes back as the import panel's summary and
// warnings with a valid scenario; a broken one as an error naming its
// line; a bad request as an error reply.
func TestImportTraceMessage(t *testing.T) {
	csv := "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n" +
		"0,1,0,606,vgg19,164,30\n1,8,30,133,vgg11,147,23\n2,0,53,157,inception4,127,26\n3,2,79,513,vgg16,121,20\n"
	msg := func(text string) protocol.Message {
		m := protocol.NewMessage(protocol.TypeImport, 7, protocol.ImportRequest{Name: "small.csv", Format: "tiresias", Scenario: "small"})
		m.Bin = map[string][]byte{protocol.TraceKey: []byte(text)}
		return m
	}
	r, _ := call(t, msg(csv))
	im := decode[protocol.Imported](t, r)
	if r.Type != protocol.TypeImported || r.ID != 7 || im.Err != "" || !strings.Contains(im.Summary, "3 jobs kept") {
		t.Fatalf("reply %s %d: %+v", r.Type, r.ID, im)
	}
	if len(im.Warnings) != 1 || im.Warned != 1 || !strings.HasPrefix(im.Warnings[0], "line 4: ") {
		t.Errorf("warnings %q (%d)", im.Warnings, im.Warned)
	}
	if _, err := scenario.Parse([]byte(im.Document)); err != nil {
		t.Errorf("the scenario: %v", err)
	}
	r, _ = call(t, msg(strings.Replace(csv, "0,1,0,606", "0,one,0,606", 1)))
	if im := decode[protocol.Imported](t, r); !strings.Contains(im.Err, `small.csv could not be read as tiresias: line 2: column num_gpu`) || im.Document != "" {
		t.Errorf("broken trace: %+v", im)
	}
	r, _ = call(t, protocol.Message{Type: protocol.TypeImport, ID: 8, JSON: []byte("{")})
	if r.Type != protocol.TypeError || r.ID != 8 {
		t.Errorf("a bad request: %s %s", r.Type, r.JSON)
	}
}
