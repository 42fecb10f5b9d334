package store_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// benchClients are the callers at once of the benchmarks: one, and eight
// at once, as a busy server has requests in flight.
var benchClients = []int{1, 8}

// BenchmarkPut is shares stored per second on each backend, by one client
// and by eight at once, each share a new state of about 1 KiB (a snippet
// of 25 lines). PostgreSQL's is the one storetest.EnvPostgres names, on
// this machine or not; it skips without one.
//
//	go test -run='^$' -bench=. -count=5 ./store/ | tee new.txt; benchstat new.txt
func BenchmarkPut(b *testing.B) {
	forEachBench(b, func(s shareStore, next func() int64) error {
		_, err := s.Put(context.Background(), benchState(next()))
		return err
	}, "shares/s")
}

// BenchmarkGet is shares read per second, of a thousand stored.
func BenchmarkGet(b *testing.B) {
	const stored = 1000
	var ids []string
	forEachBench(b, func(s shareStore, next func() int64) error {
		_, err := s.Get(context.Background(), ids[next()%stored])
		return err
	}, "reads/s", func(b *testing.B, s shareStore) {
		ids = ids[:0]
		for i := range stored {
			id, err := s.Put(context.Background(), benchState(int64(i)))
			if err != nil {
				b.Fatal(err)
			}
			ids = append(ids, id)
		}
	})
}

// forEachBench runs op on each backend for each count of clients, in a
// new database after setup, and reports the operations per second as
// unit.
func forEachBench(b *testing.B, op func(s shareStore, next func() int64) error, unit string, setup ...func(*testing.B, shareStore)) {
	for _, be := range backends {
		for _, clients := range benchClients {
			b.Run(fmt.Sprintf("db=%s/clients=%d", be.name, clients), func(b *testing.B) {
				s, _ := be.open(b)
				for _, f := range setup {
					f(b, s)
				}
				var n atomic.Int64
				next := func() int64 { return n.Add(1) }
				b.ResetTimer()
				if clients == 1 {
					for b.Loop() {
						if err := op(s, next); err != nil {
							b.Fatal(err)
						}
					}
				} else {
					b.SetParallelism(max(1, clients/runtime.GOMAXPROCS(0)))
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							if err := op(s, next); err != nil {
								b.Error(err)
								return
							}
						}
					})
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), unit)
			})
		}
	}
}

// benchState is the n-th state of the benchmarks: about 1 KiB, unique.
func benchState(n int64) []byte {
	snippet := fmt.Sprintf("// share %d\\n", n) + strings.Repeat("let t = Tensor::<1>::ones([2], &device);\\n", 24)
	return fmt.Appendf(nil, `{"v":1,"config":"","snippet":"%s","mode":"panic"}`, snippet)
}
