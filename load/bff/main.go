// The reference for issue #44's /aggregate target: the fan-out of loomgate's HTTP /aggregate
// (examples/http-aggregate.json: the bundled backend's /db and /file at once, both answers in one
// JSON document) written as a Go backend-for-frontend would be: both calls under one errgroup on the
// request's context, the first error cancelling the other, net/http's pooled keep-alive client.
// scripts/load --scenario cpu builds and runs it beside loomgate.
//
//	go build -o bff . && ./bff -listen 127.0.0.1:0 -backend http://127.0.0.1:9090
//
// Prints "bff listening on http://ADDR" once bound. GET /aggregate answers
// {"db":...,"file":...} (each part the backend's JSON), or 502 when a call failed.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"time"

	"golang.org/x/sync/errgroup"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	backend := flag.String("backend", "http://127.0.0.1:9090", "the bundled backend's base URL")
	flag.Parse()

	client := &http.Client{
		Timeout: 10 * time.Second,
		Transport: &http.Transport{ // keep-alive for every concurrent call, as loomgate's pool does
			MaxIdleConns:        8192,
			MaxIdleConnsPerHost: 8192,
			IdleConnTimeout:     90 * time.Second,
		},
	}
	http.HandleFunc("/aggregate", func(w http.ResponseWriter, r *http.Request) {
		g, ctx := errgroup.WithContext(r.Context())
		var db, file json.RawMessage
		g.Go(func() (err error) { db, err = call(ctx, client, *backend+"/db"); return })
		g.Go(func() (err error) { file, err = call(ctx, client, *backend+"/file"); return })
		if err := g.Wait(); err != nil {
			http.Error(w, `{"error":"upstream_failed"}`, http.StatusBadGateway)
			return
		}
		body, _ := json.Marshal(map[string]json.RawMessage{"db": db, "file": file})
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("bff listening on http://%s\n", ln.Addr())
	log.Fatal(http.Serve(ln, nil))
}

// call GETs url under ctx and returns its body, which must be JSON and come with a 2xx.
func call(ctx context.Context, client *http.Client, url string) (json.RawMessage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 || !json.Valid(body) {
		return nil, fmt.Errorf("%s: status %d", url, resp.StatusCode)
	}
	return body, nil
}
