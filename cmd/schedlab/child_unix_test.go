//go:build unix

package main

import (
	"bufio"
	"fmt"
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
	t    testing.TB
	addr string
	args []string
	dir  string // an empty --dir: only the API
	url  string // set by startServer, the same after a restart

	mu     sync.Mutex // guards cmd and stderr: restarts come from timers
	cmd    *exec.Cmd
	stderr strings.Builder
}

// startServer starts schedlab serve with args on addr ("" for a free
// loopback port) and waits until it listens.
func startServer(t testing.TB, addr string, args ...string) *server {
	t.Helper()
	if addr == "" {
		addr = freeAddr(t)
	}
	s := &server{t: t, addr: addr, args: args, dir: t.TempDir()}
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.kill)
	return s
}

// start starts the process; it may run on another goroutine than the
// test's (restart from a timer), so it returns its error.
func (s *server) start() error {
	args := append([]string{"serve", "--addr", s.addr, "--dir", s.dir}, s.args...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "SCHEDLAB_TEST_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting schedlab serve: %w", err)
	}
	s.mu.Lock()
	s.cmd = cmd
	s.mu.Unlock()
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
			return fmt.Errorf("schedlab serve said %q; stderr:\n%s", l, s.errors())
		}
		s.mu.Lock()
		if s.url == "" { // a restart listens on the same address
			s.url = "http://" + m[1]
		}
		s.mu.Unlock()
		return nil
	case <-time.After(2 * time.Minute):
		return fmt.Errorf("schedlab serve did not start within 2 minutes; stderr:\n%s", s.errors())
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
	s.mu.Lock()
	cmd := s.cmd
	s.cmd = nil
	s.mu.Unlock()
	if cmd != nil && cmd.Process != nil {
		cmd.Process.Signal(syscall.SIGCONT)
		cmd.Process.Kill()
		cmd.Wait()
	}
}

// restart starts the server again on the same address (from a timer:
// an error fails the test without stopping it).
func (s *server) restart() {
	if err := s.start(); err != nil {
		s.t.Errorf("restarting the server: %v", err)
	}
}

// signal sends sig to the process.
func (s *server) signal(sig os.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		s.cmd.Process.Signal(sig)
	}
}

// freeze stops the process (SIGSTOP): connections are accepted by the
// kernel but never answered. thaw lets it go on.
func (s *server) freeze() { s.signal(syscall.SIGSTOP) }
func (s *server) thaw()   { s.signal(syscall.SIGCONT) }

// peakRSS is the most memory the process has held, from /proc (0 where
// there is none).
func (s *server) peakRSS() int64 {
	s.mu.Lock()
	cmd := s.cmd
	s.mu.Unlock()
	if cmd == nil {
		return 0
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status")
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
