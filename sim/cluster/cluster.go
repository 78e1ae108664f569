// Package cluster describes the hardware a simulation runs on: servers that
// hold GPUs of one type and memory size, grouped into racks, and the
// bandwidth of the links inside a server, between servers of a rack and
// between racks.
//
// A Cluster is immutable once built. GPUs and servers are numbered densely
// from 0 so that the engine and the policies can index slices by them.
package cluster

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// GPUID numbers a GPU within its cluster, from 0.
type GPUID int32

// ServerID numbers a server within its cluster, from 0.
type ServerID int32

// ServerGroup is a set of identical servers, as written in a scenario.
type ServerGroup struct {
	Count           int     `json:"count" min:"1" max:"100000" help:"number of identical servers in this group"`
	GPUs            int     `json:"gpus" min:"1" max:"64" help:"GPUs in each server"`
	GPUType         string  `json:"gpu_type" help:"GPU model, e.g. V100; policies and perf models key on it"`
	GPUMemoryGB     float64 `json:"gpu_memory_gb,omitempty" min:"0" unit:"GB" help:"memory of each GPU; 0 means memory is not modelled"`
	IntraServerGBps float64 `json:"intra_server_gbps,omitempty" min:"0" unit:"GB/s" help:"bandwidth between GPUs of one server (NVLink or PCIe); 0 uses the network default"`
}

// Spec is the cluster as written in a scenario.
type Spec struct {
	Servers        []ServerGroup `json:"servers" help:"server groups, numbered in order"`
	ServersPerRack int           `json:"servers_per_rack,omitempty" min:"0" help:"servers per rack, filled in order; 0 puts every server in one rack"`
	Network        Network       `json:"network,omitempty" help:"bandwidth of the links between servers"`
	// Draw, instead of Servers, draws each server's GPU count from a set:
	// a paper that redraws its cluster (SJF-BCO draws 20 servers from
	// {4, 8, 16, 32}); a sweep over draw.seed shows how much a result
	// owes to one draw.
	Draw *ServerDraw `json:"draw,omitempty" help:"instead of servers: draw each server's GPU count at random from a set, one cluster per seed"`

	drawn bool // Servers hold Draw's servers (Expand ran)
}

// ServerDraw is a cluster drawn at random: Servers servers, each with a
// GPU count drawn uniformly from GPUsFrom.
type ServerDraw struct {
	Servers  int    `json:"servers" min:"1" max:"100000" help:"number of servers"`
	GPUsFrom []int  `json:"gpus_from" help:"the GPU counts a server may have, each equally likely, e.g. [4, 8, 16, 32]"`
	GPUType  string `json:"gpu_type" help:"GPU model of every server, e.g. V100"`
	Seed     uint64 `json:"seed" help:"seed of the draw: the same seed gives the same cluster"`
	PerSeed  bool   `json:"per_seed,omitempty" help:"each run's seed draws its own cluster (from seed and the run's seed), as a paper that redraws its cluster for every run"`
}

// clusterStream is the PCG stream of a fixed draw; a run's own draw
// (PerSeed) uses the stream after it plus the run's seed.
const clusterStream = 0x636c7573 // "clus"

// Groups are the drawn servers, one group of one server each, in order.
func (d *ServerDraw) Groups() ([]ServerGroup, error) { return d.groups(clusterStream) }

// ForSeed is the spec a run of this seed uses: with a drawn cluster whose
// draw is per seed, the servers of that seed's draw; otherwise s itself.
func (s Spec) ForSeed(seed uint64) (Spec, error) {
	d := s.Draw
	if d == nil || !d.PerSeed {
		return s, nil
	}
	g, err := d.groups(clusterStream + 1 + seed)
	if err != nil {
		return s, err
	}
	s.Servers, s.drawn = g, true
	return s, nil
}

func (d *ServerDraw) groups(stream uint64) ([]ServerGroup, error) {
	if d.Servers < 1 {
		return nil, fmt.Errorf("cluster.draw.servers must be at least 1, got %d", d.Servers)
	}
	if len(d.GPUsFrom) == 0 {
		return nil, fmt.Errorf("cluster.draw.gpus_from must list at least one GPU count")
	}
	for _, g := range d.GPUsFrom {
		if g < 1 || g > 64 {
			return nil, fmt.Errorf("cluster.draw.gpus_from: a server has 1 to 64 GPUs, got %d", g)
		}
	}
	r := rand.New(rand.NewPCG(d.Seed, stream))
	out := make([]ServerGroup, d.Servers)
	for i := range out {
		out[i] = ServerGroup{Count: 1, GPUs: d.GPUsFrom[r.IntN(len(d.GPUsFrom))], GPUType: d.GPUType}
	}
	return out, nil
}

// Expand replaces a drawn cluster by its servers, so that everything
// downstream reads Servers; a spec with both is refused.
func (s *Spec) Expand() error {
	if s.Draw == nil || s.drawn {
		return nil
	}
	if len(s.Servers) > 0 {
		return fmt.Errorf("cluster: give servers or draw, not both")
	}
	g, err := s.Draw.Groups()
	if err != nil {
		return err
	}
	s.Servers, s.drawn = g, true
	return nil
}

// Network holds link bandwidths. Zero values take the defaults below.
type Network struct {
	IntraServerGBps float64 `json:"intra_server_gbps,omitempty" min:"0" unit:"GB/s" help:"default bandwidth inside a server"`
	InterServerGBps float64 `json:"inter_server_gbps,omitempty" min:"0" unit:"GB/s" help:"bandwidth of a server's network link within a rack"`
	InterRackGBps   float64 `json:"inter_rack_gbps,omitempty" min:"0" unit:"GB/s" help:"bandwidth available between racks"`
}

// Default bandwidths: PCIe-class inside a server and 10 Gb/s Ethernet
// between servers, the set-up of the SJF-BSBF testbed (spec 000 §5.5).
const (
	DefaultIntraServerGBps = 6
	DefaultInterServerGBps = 1.25
)

// GPU is one device.
type GPU struct {
	ID       GPUID
	Server   ServerID
	Slot     int // index within its server
	Type     string
	MemoryGB float64 // 0 when memory is not modelled
}

// Server is one machine.
type Server struct {
	ID              ServerID
	Rack            int
	Type            string
	FirstGPU        GPUID
	NumGPUs         int
	MemoryGB        float64
	IntraServerGBps float64
}

// GPUs returns the IDs of the server's GPUs in slot order.
func (s *Server) GPUs() []GPUID {
	ids := make([]GPUID, s.NumGPUs)
	for i := range ids {
		ids[i] = s.FirstGPU + GPUID(i)
	}
	return ids
}

// Cluster is an immutable set of servers and GPUs.
type Cluster struct {
	GPUs            []GPU
	Servers         []Server
	NumRacks        int
	InterServerGBps float64
	InterRackGBps   float64

	types      []string
	typeGPUs   []int     // by index in types: gpusByType
	typeMaxMem []float64 // by index in types: maxMemByType
	// fitGPUs is the most GPUs of any one type and fitMemGB the least
	// memory of a type that states it (+Inf if none does): a job of no
	// stated type needing at most these fits without Fit's loop.
	fitGPUs       int
	fitMemGB      float64
	gpusByType    map[string]int
	maxPerServer  int
	maxPerType    map[string]int // largest server of each type
	maxMemByType  map[string]float64
	serversOfType map[string][]ServerID
}

// New builds a cluster from its spec. The spec must have been validated;
// New still refuses specs that would make an unusable cluster.
func New(spec Spec) (*Cluster, error) {
	if len(spec.Servers) == 0 {
		return nil, fmt.Errorf("cluster: no servers")
	}
	net := spec.Network
	if net.IntraServerGBps == 0 {
		net.IntraServerGBps = DefaultIntraServerGBps
	}
	if net.InterServerGBps == 0 {
		net.InterServerGBps = DefaultInterServerGBps
	}
	if net.InterRackGBps == 0 {
		net.InterRackGBps = net.InterServerGBps
	}
	c := &Cluster{
		InterServerGBps: net.InterServerGBps,
		InterRackGBps:   net.InterRackGBps,
		gpusByType:      map[string]int{},
		maxPerType:      map[string]int{},
		maxMemByType:    map[string]float64{},
		serversOfType:   map[string][]ServerID{},
	}
	for gi, g := range spec.Servers {
		if g.Count < 1 || g.GPUs < 1 {
			return nil, fmt.Errorf("cluster: servers[%d] needs at least one server and one GPU", gi)
		}
		if g.GPUType == "" {
			return nil, fmt.Errorf("cluster: servers[%d] has no gpu_type", gi)
		}
		intra := g.IntraServerGBps
		if intra == 0 {
			intra = net.IntraServerGBps
		}
		for i := 0; i < g.Count; i++ {
			sid := ServerID(len(c.Servers))
			rack := 0
			if spec.ServersPerRack > 0 {
				rack = int(sid) / spec.ServersPerRack
			}
			srv := Server{ID: sid, Rack: rack, Type: g.GPUType, FirstGPU: GPUID(len(c.GPUs)),
				NumGPUs: g.GPUs, MemoryGB: g.GPUMemoryGB, IntraServerGBps: intra}
			c.Servers = append(c.Servers, srv)
			for slot := 0; slot < g.GPUs; slot++ {
				c.GPUs = append(c.GPUs, GPU{ID: GPUID(len(c.GPUs)), Server: sid, Slot: slot,
					Type: g.GPUType, MemoryGB: g.GPUMemoryGB})
			}
			if rack+1 > c.NumRacks {
				c.NumRacks = rack + 1
			}
			c.gpusByType[g.GPUType] += g.GPUs
			c.serversOfType[g.GPUType] = append(c.serversOfType[g.GPUType], sid)
			c.maxPerServer = max(c.maxPerServer, g.GPUs)
			c.maxPerType[g.GPUType] = max(c.maxPerType[g.GPUType], g.GPUs)
			c.maxMemByType[g.GPUType] = max(c.maxMemByType[g.GPUType], g.GPUMemoryGB)
		}
	}
	for t := range c.gpusByType {
		c.types = append(c.types, t)
	}
	sort.Strings(c.types)
	for _, t := range c.types {
		c.typeGPUs = append(c.typeGPUs, c.gpusByType[t])
		c.typeMaxMem = append(c.typeMaxMem, c.maxMemByType[t])
	}
	c.fitMemGB = math.Inf(1)
	for i, n := range c.typeGPUs {
		c.fitGPUs = max(c.fitGPUs, n)
		if m := c.typeMaxMem[i]; m > 0 {
			c.fitMemGB = min(c.fitMemGB, m)
		}
	}
	return c, nil
}

// NumGPUs is the number of GPUs in the cluster.
func (c *Cluster) NumGPUs() int { return len(c.GPUs) }

// Types returns the distinct GPU types, sorted by name.
func (c *Cluster) Types() []string { return c.types }

// GPUsOfType returns how many GPUs of type t the cluster has.
func (c *Cluster) GPUsOfType(t string) int { return c.gpusByType[t] }

// ServersOfType returns the servers holding GPUs of type t, in ID order.
func (c *Cluster) ServersOfType(t string) []ServerID { return c.serversOfType[t] }

// MaxGPUsPerServer is the size of the largest server.
func (c *Cluster) MaxGPUsPerServer() int { return c.maxPerServer }

// MaxMemoryGB returns the largest GPU memory of type t, or over all types
// when t is empty. Zero means memory is not modelled.
func (c *Cluster) MaxMemoryGB(t string) float64 {
	if t != "" {
		return c.maxMemByType[t]
	}
	m := 0.0
	for _, v := range c.maxMemByType {
		m = max(m, v)
	}
	return m
}

// ServerOf returns the server that holds GPU g.
func (c *Cluster) ServerOf(g GPUID) *Server { return &c.Servers[c.GPUs[g].Server] }

// FitsAnyType reports, for a job of no stated GPU type, whether every
// type has memGB per GPU and one of them has gpus GPUs, when Fit says
// yes without its loop over the types: the engine's check of most
// arrivals, kept small enough to inline.
func (c *Cluster) FitsAnyType(gpus int, memGB float64) bool {
	return memGB <= c.fitMemGB && uint(gpus-1) < uint(c.fitGPUs) // 1 <= gpus <= c.fitGPUs
}

// Fit reports whether a job needing gpus GPUs with memGB of memory on each
// could ever run alone on an empty cluster, restricted to GPU type gpuType
// when it is not empty. When it cannot, the reason is a plain sentence.
func (c *Cluster) Fit(gpus int, memGB float64, gpuType string) (ok bool, reason string) {
	// the engine asks at every arrival (after FitsAnyType): slices by
	// type index, not maps keyed by name (hashing a string costs more in
	// WebAssembly)
	avail := 0
	for i, t := range c.types {
		if gpuType != "" && t != gpuType {
			continue
		}
		mem := c.typeMaxMem[i]
		if memGB > 0 && mem > 0 && memGB > mem {
			continue
		}
		avail = max(avail, c.typeGPUs[i])
	}
	if gpuType != "" && c.gpusByType[gpuType] == 0 {
		return false, fmt.Sprintf("the cluster has no %s GPUs", gpuType)
	}
	if avail == 0 {
		return false, fmt.Sprintf("needs %.3g GB per GPU, more than any GPU has", memGB)
	}
	if gpus > avail {
		return false, fmt.Sprintf("needs %d GPUs of one type but at most %d are usable", gpus, avail)
	}
	return true, ""
}

// RingBandwidthGBps returns the bottleneck bandwidth of a ring all-reduce
// over the given GPUs when no other job uses the links: the intra-server
// bandwidth if they share one server, the inter-server bandwidth if they
// share one rack, and the inter-rack bandwidth otherwise. A single GPU has
// no ring and gets 0.
func (c *Cluster) RingBandwidthGBps(gpus []GPUID) float64 {
	if len(gpus) < 2 {
		return 0
	}
	first := c.ServerOf(gpus[0])
	sameServer, sameRack := true, true
	for _, g := range gpus[1:] {
		s := c.ServerOf(g)
		if s.ID != first.ID {
			sameServer = false
		}
		if s.Rack != first.Rack {
			sameRack = false
		}
	}
	switch {
	case sameServer:
		return first.IntraServerGBps
	case sameRack:
		return c.InterServerGBps
	default:
		return c.InterRackGBps
	}
}

// ServersSpanned returns how many distinct servers the GPUs lie on.
func (c *Cluster) ServersSpanned(gpus []GPUID) int {
	servers := make([]ServerID, 0, 8)
	for _, g := range gpus {
		s := c.GPUs[g].Server
		if !containsServer(servers, s) {
			servers = append(servers, s)
		}
	}
	return len(servers)
}

func containsServer(list []ServerID, s ServerID) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// MarshalJSON writes a drawn cluster as its draw, without the servers it
// expanded to, so that it reads back the same.
func (s Spec) MarshalJSON() ([]byte, error) {
	type plain Spec
	if !s.drawn {
		return json.Marshal(plain(s))
	}
	return json.Marshal(struct {
		ServersPerRack int         `json:"servers_per_rack,omitempty"`
		Network        Network     `json:"network,omitempty"`
		Draw           *ServerDraw `json:"draw"`
	}{s.ServersPerRack, s.Network, s.Draw})
}
