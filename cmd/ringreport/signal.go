package main

import (
	"os"
	"os/signal"
	"syscall"
)

// onInterrupt calls cleanup with the signal's name when the process gets
// SIGINT or SIGTERM, then exits with status 128 plus the signal's number,
// as a shell reports a process killed by it (130, 143). The returned
// function stops watching for signals; one that came before may still be
// handled.
func onInterrupt(cleanup func(name string)) (stop func()) {
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-ch:
			name, code := sig.String(), exitError
			switch sig {
			case os.Interrupt:
				name = "SIGINT"
			case syscall.SIGTERM:
				name = "SIGTERM"
			}
			if s, ok := sig.(syscall.Signal); ok {
				code = 128 + int(s)
			}
			cleanup(name)
			os.Exit(code)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
