package policy

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
)

// A Filter refuses the servers a job cannot use, with the reason: the
// filter stage of the Kubernetes scheduler framework. A placement runs
// its filters in order; the first that refuses a server is the one its
// explanation names.
type Filter interface {
	// Name names the filter in explanations, e.g. "gpu-type".
	Name() string
	// Refuse says in a short phrase why job r cannot take GPUs on server
	// srv now, or "" when it can.
	Refuse(r Request, srv *cluster.Server) string
}

// GPUTypeFilter refuses servers whose GPUs are not of the job's type, or
// of a type on which the believed perf model gives the job no throughput
// at its size (Request.TypeOK). Every placement runs it first.
type GPUTypeFilter struct{}

// Name implements Filter.
func (GPUTypeFilter) Name() string { return "gpu-type" }

// Refuse implements Filter.
func (GPUTypeFilter) Refuse(r Request, srv *cluster.Server) string {
	switch {
	case r.gpuType != "" && srv.Type != r.gpuType:
		return fmt.Sprintf("%s GPUs; the job runs only on %s", srv.Type, r.gpuType)
	case !r.TypeOK(srv.Type):
		return fmt.Sprintf("the perf model gives %s on %d GPUs no throughput on %s", r.s.Job(r.id).Model, r.gpus, srv.Type)
	}
	return ""
}

// FreeMemoryFilter refuses servers with no free GPU that has the job's
// memory free. Every placement runs it.
type FreeMemoryFilter struct{}

// Name implements Filter.
func (FreeMemoryFilter) Name() string { return "free-memory" }

// Refuse implements Filter.
func (FreeMemoryFilter) Refuse(r Request, srv *cluster.Server) string {
	free := r.s.ServerFree(srv.ID)
	switch {
	case free == 0:
		return fmt.Sprintf("all %s busy", countGPUs(srv.NumGPUs))
	case countFree(srv, r.fit()) == 0:
		return fmt.Sprintf("%s free, none with %.3g GB free", countGPUs(free), r.mem)
	}
	return ""
}

// StrictShapeFilter is the strict placement's shape, server by server: a
// job that fits on one server (of the largest size of its type) needs a
// server with all of its GPUs usable; a larger job takes whole free
// servers and puts the rest on one more, so a server must be wholly free
// or hold that rest.
type StrictShapeFilter struct{}

// Name implements Filter.
func (StrictShapeFilter) Name() string { return "strict-shape" }

// Refuse implements Filter.
func (StrictShapeFilter) Refuse(r Request, srv *cluster.Server) string {
	usable := countFree(srv, r.fit())
	big := largestServer(r.s.Cluster(), srv.Type)
	if r.gpus <= big {
		if usable < r.gpus {
			return fmt.Sprintf("%s usable; strict placement keeps the job's %d on one server", countGPUs(usable), r.gpus)
		}
		return ""
	}
	if usable == srv.NumGPUs && srv.NumGPUs <= r.gpus {
		return ""
	}
	if rest := r.gpus % big; rest > 0 && usable >= rest {
		return ""
	}
	return fmt.Sprintf("%d of %d GPUs usable: neither wholly free nor room for the job's %d GPUs beyond whole servers", usable, srv.NumGPUs, r.gpus%big)
}

// countGPUs writes "1 GPU", "3 GPUs".
func countGPUs(n int) string {
	if n == 1 {
		return "1 GPU"
	}
	return fmt.Sprintf("%d GPUs", n)
}
