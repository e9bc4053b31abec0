// Package lab runs real products for conformance tests: it finds their
// binaries, starts them on 127.0.0.1 with every file inside the test's own
// temporary folder, and stops exactly the processes it started, by their
// process ids.
//
// A missing tool skips the test on a developer's machine and fails it under
// CI=true, where .ci/run has installed everything.
//
// Reference programs the tests build (C and C++ programs over a product's
// library, a Java class) are built once and kept in the user cache folder
// under a hash of their inputs (Cached, Compile), and an answer several
// tests of one binary compare with is computed once (Memo): building or
// starting a reference costs more CPU than running it.
package lab

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sbin are the folders Debian installs daemons into, which a non-root PATH
// may lack.
var sbin = []string{"/usr/sbin", "/sbin", "/usr/local/sbin"}

// missing fails the test under CI=true and skips it otherwise.
func missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: .ci/run must install it)", msg)
	}
	t.Skip(msg)
}

// Need returns the path of the named binary, looked up on PATH and then in
// the sbin folders; see package doc for what happens when it is missing.
func Need(t testing.TB, name, pkg string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, d := range sbin {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && st.Mode()&0o111 != 0 {
			return p
		}
	}
	missing(t, "%s not found; install Debian package %s", name, pkg)
	return ""
}

// NodeModules returns the node_modules folder holding the npm package pkg
// (RINGREPORT_NODE_MODULES, or the cache folder .ci/run installs into),
// together with the node binary.
func NodeModules(t testing.TB, pkg string) (node, dir string) {
	t.Helper()
	node = Need(t, "node", "nodejs")
	dir = os.Getenv("RINGREPORT_NODE_MODULES")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			missing(t, "no cache folder for npm packages: %v", err)
		}
		dir = filepath.Join(cache, "ringreport-ci", "npm", "node_modules")
	}
	if _, err := os.Stat(filepath.Join(dir, pkg, "package.json")); err != nil {
		missing(t, "npm package %s not in %s; run .ci/run or set RINGREPORT_NODE_MODULES", pkg, dir)
	}
	return node, dir
}

// FreePorts returns n distinct TCP ports free on 127.0.0.1 at the time of
// the call.
func FreePorts(t testing.TB, n int) []int {
	t.Helper()
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, n)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("no free port on 127.0.0.1: %v", err)
		}
		ls = append(ls, l)
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports
}

// Run runs a command to completion and returns its standard output; it
// fails the test with the command's standard error when it exits non-zero.
func Run(t testing.TB, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// Start starts a long-running process in the foreground and arranges for
// the test's cleanup to stop it by its own process id (SIGTERM, then
// SIGKILL after 5 s) and wait for it.
func Start(t testing.TB, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(name, args...)
	log := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("%s output:\n%s", name, log.String())
		}
	})
	return cmd
}

// StopPIDFile stops a daemon that wrote its process id to path (for
// products that fork into the background), with sig, and waits up to 5 s
// for it to exit.
func StopPIDFile(t testing.TB, path string, sig syscall.Signal) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("pid file %s: %v", path, err)
		return
	}
	var pid int
	if _, err := fmt.Sscan(strings.TrimSpace(string(b)), &pid); err != nil || pid <= 1 {
		t.Errorf("pid file %s holds %q, not a process id", path, b)
		return
	}
	if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		t.Errorf("stop %d: %v", pid, err)
		return
	}
	for range 100 {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// WaitListen waits up to 10 s until something accepts TCP connections on
// 127.0.0.1:port.
func WaitListen(t testing.TB, port int) {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("nothing listens on %s after 10 s", addr)
}
