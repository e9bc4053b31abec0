package haproxy_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// roundTrip sends every probe's request to HAProxy at addr and records the
// answering server's name in probe.got (or the failure in probe.err). The
// probes are spread over conns keep-alive connections, each sending its
// requests in batches ahead of the answers (HTTP/1.1 pipelining, which
// HAProxy answers in order), so that a connection costs a write and a read
// per batch of requests instead of a round trip per request.
func roundTrip(addr string, ps []*probe, conns int) error {
	var wg sync.WaitGroup
	errs := make([]error, conns)
	for i := range conns {
		var share []*probe
		for j := i; j < len(ps); j += conns {
			share = append(share, ps[j])
		}
		wg.Go(func() { errs[i] = pipeline(addr, share) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Pipelining limits. HAProxy 2.6 reads pipelined requests into one
// buffer (tune.bufsize, 16 KiB, less tune.maxrewrite, 1 KiB) and answers
// 400 Bad request when requests fill it (measured: at about 340 requests
// of 48 bytes). inFlight requests of at most maxRequest bytes stay at 8
// KiB, half of it.
const (
	inFlight   = 8
	maxRequest = 1024
)

// request is p's HTTP/1.1 request.
func (p *probe) request() []byte {
	b := fmt.Appendf(nil, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Case: %s\r\n", p.path, p.c.name)
	if p.hdr != "" {
		b = fmt.Appendf(b, "X-Key: %s\r\n", p.hdr)
	}
	return append(b, "\r\n"...)
}

// pipeline sends ps on one connection in batches of inFlight, each batch
// in one write, and reads a batch's answers, in order, before it sends
// the next. (A writer that sent a request for each answer read, keeping
// inFlight in flight, woke up once per answer: a quarter of the test's
// CPU went to switching between it and the reader.)
func pipeline(addr string, ps []*probe) error {
	for _, p := range ps {
		if n := len(p.request()); n > maxRequest {
			return fmt.Errorf("case %s, key %q: a request of %d bytes, more than the %d that pipelining allows for", p.c.name, p.key, n, maxRequest)
		}
	}
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReaderSize(c, 64<<10)
	buf := make([]byte, 0, inFlight*maxRequest)
	for len(ps) > 0 {
		batch := ps[:min(inFlight, len(ps))]
		ps = ps[len(batch):]
		buf = buf[:0]
		for _, p := range batch {
			buf = append(buf, p.request()...)
		}
		if _, err := c.Write(buf); err != nil {
			return err
		}
		if err := receive(r, batch); err != nil {
			for _, q := range ps {
				q.err = fmt.Errorf("not sent: %v", err)
			}
			return err
		}
	}
	return nil
}

// receive reads one answer per probe, in order; the body of a 200 answer
// is the server's name.
func receive(r *bufio.Reader, ps []*probe) error {
	for i, p := range ps {
		resp, err := http.ReadResponse(r, nil)
		var body []byte
		if err == nil {
			body, err = io.ReadAll(resp.Body)
		}
		if err != nil {
			for _, q := range ps[i:] {
				q.err = fmt.Errorf("no answer: %v", err)
			}
			return fmt.Errorf("answer %d of %d (case %s, key %q): %w", i+1, len(ps), p.c.name, p.key, err)
		}
		if resp.StatusCode != http.StatusOK {
			p.err = fmt.Errorf("status %s: %.80s", resp.Status, body)
			continue
		}
		p.got = string(body)
	}
	return nil
}
