package nodesfrom

// The product-validation tests: every configuration the tables accept,
// the products accept too, and every one the tables refuse (where the
// product refuses it as well), the product refuses. They run the real
// binaries when they are installed; without them the tests skip, and
// under CI=true they fail (lab.Need).

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/conformance/lab"
)

// ngxStreamModule is where Debian's libnginx-mod-stream puts the stream
// module.
const ngxStreamModule = "/usr/lib/nginx/modules/ngx_stream_module.so"

// ngxErrLine finds the line of a case file in nginx's message.
var ngxErrLine = regexp.MustCompile(`case\d+\.conf:(\d+)`)

// nginxCheck returns a function that runs nginx -t on a configuration
// made of the case's text, included from a main file with the pid,
// error_log and events{} that nginx needs, and reports whether nginx
// accepts it and what it said.
func nginxCheck(t *testing.T) func(conf string) (bool, string) {
	bin := lab.Need(t, "nginx", "nginx-light")
	stream := ""
	if _, err := os.Stat(ngxStreamModule); err == nil {
		stream = "load_module " + ngxStreamModule + ";\n"
	} else if os.Getenv("CI") == "true" {
		t.Fatalf("%s not found; install Debian package libnginx-mod-stream (CI=true: .ci/run must install it)", ngxStreamModule)
	}
	dir := t.TempDir()
	// the file the tables' include lines name, empty
	if err := os.WriteFile(filepath.Join(dir, "mime.types"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.conf")
	errlog := filepath.Join(dir, "error.log")
	k := 0
	return func(conf string) (bool, string) {
		if stream == "" && strings.Contains(conf, "stream") {
			t.Skipf("%s not found; install Debian package libnginx-mod-stream", ngxStreamModule)
		}
		k++
		file := filepath.Join(dir, "case"+itoa(k)+".conf")
		if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		m := stream + "pid " + filepath.Join(dir, "nginx.pid") + ";\nerror_log " + errlog + ";\nevents {}\ninclude " + file + ";\n"
		if err := os.WriteFile(main, []byte(m), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "-t", "-q", "-p", dir, "-c", main, "-e", errlog).CombinedOutput()
		return err == nil, strings.TrimSpace(string(out))
	}
}

func TestNginxAcceptsWhatParseAccepts(t *testing.T) {
	check := nginxCheck(t)
	for _, c := range nginxCases {
		t.Run(c.name, func(t *testing.T) {
			if c.product != "" {
				t.Skip(c.product)
			}
			ok, out := check(c.in)
			switch {
			case len(c.errs) == 0 && !ok:
				t.Errorf("Parse accepts it, nginx does not:\n%s\n%s", c.in, out)
			case len(c.errs) > 0 && ok:
				t.Errorf("Parse refuses it (%s), nginx accepts it:\n%s", c.errs[0], c.in)
			case len(c.errs) > 0:
				// nginx names the line it stopped at: Parse's first
				// problem is on it, or before it when Parse points at
				// the start of what nginx found wrong at its end (an
				// upstream with no servers, a quote never closed)
				m := ngxErrLine.FindStringSubmatch(out)
				line, _, _ := strings.Cut(c.errs[0], ":")
				if m == nil || atoi(line) > atoi(m[1]) {
					t.Errorf("Parse's first problem is %s; nginx says:\n%s", c.errs[0], out)
				}
			}
		})
	}
	for _, c := range nginxBadServers {
		t.Run(c.line, func(t *testing.T) {
			if ok, _ := check("http { upstream c { " + c.line + " } }\n"); ok {
				t.Errorf("Parse refuses %q (%s), nginx accepts it", c.line, c.err)
			}
		})
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// hapErrLine finds the line of the case file in HAProxy's alerts.
var hapErrLine = regexp.MustCompile(`case\d+\.cfg:(\d+)\]`)

// haproxyCheck returns a function that runs haproxy -c on a
// configuration and reports whether HAProxy accepts it (it may warn, and
// says "no listener" for a file without a frontend: that is accepted too)
// and what it said.
func haproxyCheck(t *testing.T) func(conf string) (bool, string) {
	bin := lab.Need(t, "haproxy", "haproxy")
	dir := t.TempDir()
	k := 0
	return func(conf string) (bool, string) {
		k++
		file := filepath.Join(dir, "case"+itoa(k)+".cfg")
		if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _ := exec.Command(bin, "-c", "-f", file).CombinedOutput()
		s := string(out)
		ok := strings.Contains(s, "Configuration file is valid") || strings.Contains(s, "Configuration file has no error")
		return ok, strings.TrimSpace(s)
	}
}

func TestHAProxyAcceptsWhatParseAccepts(t *testing.T) {
	check := haproxyCheck(t)
	for _, c := range haproxyCases {
		t.Run(c.name, func(t *testing.T) {
			if c.product != "" {
				t.Skip(c.product)
			}
			ok, out := check(c.in)
			switch {
			case len(c.errs) == 0 && !ok:
				t.Errorf("Parse accepts it, HAProxy does not:\n%s\n%s", c.in, out)
			case len(c.errs) > 0 && ok:
				t.Errorf("Parse refuses it (%s), HAProxy accepts it:\n%s", c.errs[0], c.in)
			case len(c.errs) > 0:
				m := hapErrLine.FindStringSubmatch(out)
				line, _, _ := strings.Cut(c.errs[0], ":")
				if m != nil && atoi(line) > atoi(m[1]) {
					t.Errorf("Parse's first problem is %s; HAProxy says:\n%s", c.errs[0], out)
				}
			}
		})
	}
	for _, c := range haproxyBadServers {
		t.Run(c.line, func(t *testing.T) {
			if ok, _ := check("backend b\n    " + c.line + "\n"); ok {
				t.Errorf("Parse refuses %q (%s), HAProxy accepts it", c.line, c.err)
			}
		})
	}
	for _, c := range haproxyStricter {
		t.Run(c.line, func(t *testing.T) {
			if ok, out := check("backend b\n    " + c.line + "\n"); !ok {
				t.Errorf("%q is listed as one HAProxy accepts; it does not:\n%s", c.line, out)
			}
		})
	}
}
