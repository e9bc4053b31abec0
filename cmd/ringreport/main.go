package main

import (
	"fmt"
	"io"
	"os"

	"github.com/ringreport/ringreport/internal/gcbound"
)

// Exit codes.
const (
	exitOK    = 0 // success
	exitError = 1 // bad input or a failed build
	exitUsage = 2 // bad command line
	exitStale = 3 // check: the output directory is out of date
)

func main() {
	gcbound.Run()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"build", "replay scenarios and write the report site (the default)", runBuild},
		{"check", "fail with exit status 3 when the output directory is stale", runCheck},
		{"validate", "parse scenarios and report every error", runValidate},
		{"render", "write one figure or data file of one scenario to standard output", runRender},
		{"schema", "print the JSON Schema of the scenario format", runSchema},
		{"version", "print the version", runVersion},
		{"help", "show help for a command", runHelp},
	}
}

// run dispatches to a subcommand; with no subcommand (or a first argument
// that is a flag or a path) it builds.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		for _, c := range commands() {
			if args[0] == c.name {
				return c.run(args[1:], stdout, stderr)
			}
		}
		if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
			usage(stdout)
			return exitOK
		}
	}
	return runBuild(args, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "ringreport turns YAML scenarios into a static report on data placement.\n\nUsage:\n\n\tringreport <command> [flags] [path ...]\n\nCommands:\n\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "\t%-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'ringreport help <command>' for a command's flags.\nExit status: 0 ok, 1 error in input or build, 2 usage, 3 stale output.\n")
}

func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] && c.name != "help" {
			return c.run([]string{"-h"}, stdout, stdout) // asked for: on stdout
		}
	}
	fmt.Fprintf(stderr, "ringreport help: unknown command %q\n", args[0])
	return exitUsage
}

// version is the release this binary was built from.
var version = "v0.1.0-dev"

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "", stderr)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	fmt.Fprintln(stdout, "ringreport", version)
	return exitOK
}
