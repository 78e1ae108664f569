//go:build unix

package main

import (
	"bufio"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The tests of schedlab serve as a user runs it start the test binary
// itself as the server: TestMain runs the command line it is given when
// SCHEDLAB_TEST_MAIN is set. Its caches start cold, its memory is its own
// to measure, and it can be killed, frozen and restarted.
func TestMain(m *testing.M) {
	if os.Getenv("SCHEDLAB_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// server is a schedlab serve process.
type server struct {
	t      testing.TB
	cmd    *exec.Cmd
	url    string
	addr   string
	args   []string
	mu     sync.Mutex
	stderr strings.Builder
}

// startServer starts schedlab serve with args on addr ("" for a free
// loopback port) and waits until it listens.
func startServer(t testing.TB, addr string, args ...string) *server {
	t.Helper()
	if addr == "" {
		addr = freeAddr(t)
	}
	s := &server{t: t, addr: addr, args: args}
	s.start()
	t.Cleanup(s.kill)
	return s
}

func (s *server) start() {
	s.t.Helper()
	args := append([]string{"serve", "--addr", s.addr, "--dir", s.t.TempDir()}, s.args...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "SCHEDLAB_TEST_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("starting schedlab serve: %v", err)
	}
	s.cmd = cmd
	go func() {
		sc := bufio.NewScanner(errPipe)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.mu.Lock()
			s.stderr.WriteString(sc.Text() + "\n")
			s.mu.Unlock()
		}
	}()
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		for sc.Scan() {
		}
	}()
	select {
	case l := <-line:
		m := regexp.MustCompile(`http://([^/ ]+)/v1/`).FindStringSubmatch(l)
		if m == nil {
			s.t.Fatalf("schedlab serve said %q; stderr:\n%s", l, s.errors())
		}
		s.url = "http://" + m[1]
	case <-time.After(2 * time.Minute):
		s.t.Fatalf("schedlab serve did not start within 2 minutes; stderr:\n%s", s.errors())
	}
}

// errors is what the server wrote on stderr so far.
func (s *server) errors() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

// kill ends the server at once (SIGKILL) and reaps it.
func (s *server) kill() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGCONT)
		s.cmd.Process.Kill()
		s.cmd.Wait()
		s.cmd = nil
	}
}

// restart starts the server again on the same address.
func (s *server) restart() { s.start() }

// freeze stops the process (SIGSTOP): connections are accepted by the
// kernel but never answered. thaw lets it go on.
func (s *server) freeze() { s.cmd.Process.Signal(syscall.SIGSTOP) }
func (s *server) thaw()   { s.cmd.Process.Signal(syscall.SIGCONT) }

// peakRSS is the most memory the process has held, from /proc (0 where
// there is none).
func (s *server) peakRSS() int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/status")
	if err != nil {
		return 0
	}
	for l := range strings.Lines(string(data)) {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// noRace fails the test when the server's race detector reported one.
func (s *server) noRace() {
	if e := s.errors(); strings.Contains(e, "DATA RACE") {
		s.t.Errorf("the server reported a data race:\n%.4000s", e)
	}
}

func freeAddr(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// postJSON posts body as JSON and returns the status and answer.
func postJSON(c *http.Client, url, body string) (int, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var b strings.Builder
	_, err = bufio.NewReader(resp.Body).WriteTo(&b)
	return resp.StatusCode, []byte(b.String()), err
}
