package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// peakProcess is a process of the command whose peak RSS (its resident
// memory at its highest) can be read once it has run: the one measure of
// a child's memory that TestHostileBounds and TestEstimateGrid share.
//
// A process that Go starts inherits the test's own peak RSS (exec records
// the peak of the memory it replaces, which vfork shares with the
// parent), and so does one that a shell started that way execs. So the
// command runs under GNU time, which forks it from a small process, and
// the peak is time's %M; without GNU time it is the process's rusage,
// which then errs high by the test's own size.
type peakProcess struct {
	*exec.Cmd
	maxrss string // GNU time's output file, or "" to read rusage
}

// newPeakProcess returns the process of bin args in dir. limit, when
// positive, bounds its address space in bytes (ulimit -v), so that past
// it the process fails to allocate instead of taking the machine down.
// Ending ctx kills the whole process group, GNU time and the command
// alike.
func newPeakProcess(t *testing.T, ctx context.Context, dir string, limit int64, bin string, args ...string) *peakProcess {
	p := &peakProcess{}
	argv := append([]string{bin}, args...)
	if timeBin, err := exec.LookPath("/usr/bin/time"); err == nil {
		p.maxrss = filepath.Join(t.TempDir(), "maxrss")
		argv = append([]string{timeBin, "-o", p.maxrss, "-f", "%M"}, argv...)
	} else {
		t.Log("no GNU time: peak RSS from rusage, which counts the test's own")
	}
	if limit > 0 {
		argv = append([]string{"/bin/sh", "-c", fmt.Sprintf(`ulimit -v %d && exec "$0" "$@"`, limit>>10)}, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	p.Cmd = cmd
	return p
}

// Peak returns the peak RSS in bytes of the process, which has run.
func (p *peakProcess) Peak() (int64, error) {
	if p.ProcessState == nil {
		return 0, fmt.Errorf("the process did not run")
	}
	if p.maxrss == "" {
		return int64(p.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) << 10, nil // KiB on Linux
	}
	b, err := os.ReadFile(p.maxrss)
	if err != nil || len(b) == 0 {
		return 0, fmt.Errorf("no peak RSS: GNU time wrote none (%v), as when it is killed", err)
	}
	// "Command exited with non-zero status 1" comes first.
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	kib, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("reading GNU time's peak RSS: %q: %v", b, err)
	}
	return kib << 10, nil
}
