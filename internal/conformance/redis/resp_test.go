package redis_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strconv"
	"testing"
	"time"
)

// reply is one RESP2 reply: Kind is '+', '-', ':', '$' or '*'; Str holds
// simple strings, errors and bulk strings, Int integers, Arr arrays; Nil
// marks a null bulk string or array.
type reply struct {
	Kind byte
	Str  string
	Int  int64
	Arr  []reply
	Nil  bool
}

// conn is a minimal binary-safe RESP2 client for one node, enough to
// pipeline commands whose arguments are arbitrary bytes.
type conn struct {
	c net.Conn
	r *bufio.Reader
	w *bufio.Writer
}

// dial connects to 127.0.0.1:port; the test's cleanup closes it.
func dial(t testing.TB, port int) *conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 2*time.Second)
	if err != nil {
		t.Fatalf("dial %d: %v", port, err)
	}
	t.Cleanup(func() { c.Close() })
	return &conn{c: c, r: bufio.NewReader(c), w: bufio.NewWriter(c)}
}

// send queues one command.
func (c *conn) send(args ...[]byte) {
	fmt.Fprintf(c.w, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(c.w, "$%d\r\n", len(a))
		c.w.Write(a)
		c.w.WriteString("\r\n")
	}
}

// pipeline sends cmds in one write and reads their replies, in order.
func (c *conn) pipeline(t testing.TB, cmds [][][]byte) []reply {
	t.Helper()
	c.c.SetDeadline(time.Now().Add(10 * time.Second))
	for _, cmd := range cmds {
		c.send(cmd...)
	}
	if err := c.w.Flush(); err != nil {
		t.Fatalf("write: %v", err)
	}
	out := make([]reply, len(cmds))
	for i := range out {
		r, err := c.read()
		if err != nil {
			t.Fatalf("reply %d of %d: %v", i, len(cmds), err)
		}
		out[i] = r
	}
	return out
}

// do runs one command given as strings.
func (c *conn) do(t testing.TB, args ...string) reply {
	t.Helper()
	b := make([][]byte, len(args))
	for i, a := range args {
		b[i] = []byte(a)
	}
	return c.pipeline(t, [][][]byte{b})[0]
}

func (c *conn) line() (string, error) {
	s, err := c.r.ReadString('\n')
	if err != nil {
		return "", err
	}
	if len(s) < 2 || s[len(s)-2] != '\r' {
		return "", fmt.Errorf("malformed line %q", s)
	}
	return s[:len(s)-2], nil
}

func (c *conn) read() (reply, error) {
	s, err := c.line()
	if err != nil {
		return reply{}, err
	}
	if s == "" {
		return reply{}, fmt.Errorf("empty reply line")
	}
	r := reply{Kind: s[0]}
	body := s[1:]
	switch r.Kind {
	case '+', '-':
		r.Str = body
	case ':':
		r.Int, err = strconv.ParseInt(body, 10, 64)
	case '$':
		n, perr := strconv.Atoi(body)
		if perr != nil || n < -1 {
			return r, fmt.Errorf("bad bulk length %q", body)
		}
		if n == -1 {
			r.Nil = true
			return r, nil
		}
		b := make([]byte, n+2)
		if _, err = io.ReadFull(c.r, b); err == nil {
			r.Str = string(b[:n])
		}
	case '*':
		n, perr := strconv.Atoi(body)
		if perr != nil || n < -1 {
			return r, fmt.Errorf("bad array length %q", body)
		}
		if n == -1 {
			r.Nil = true
			return r, nil
		}
		r.Arr = make([]reply, n)
		for i := range r.Arr {
			if r.Arr[i], err = c.read(); err != nil {
				return r, err
			}
		}
	default:
		return r, fmt.Errorf("unknown reply type %q", s)
	}
	return r, err
}
