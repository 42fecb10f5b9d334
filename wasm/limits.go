package wasm

import (
	"fmt"
	"runtime"
	"time"
)

// PageSize is the size of one page of wasm linear memory.
const PageSize = 64 << 10

// Defaults of Limits.
const (
	// DefaultMemoryPages caps each instance at 64 MiB. The engine keeps
	// values only for small tensors, so a legitimate run needs a few MiB.
	DefaultMemoryPages = 1024
	// DefaultRecyclePages replaces an instance after a run that left its
	// memory above 48 MiB. The guest's collector lets its heap grow to
	// three times what is live, so an instance serving typical runs settles
	// at about 430 pages (27 MiB); with the threshold at 512 pages, the
	// heavier examples of a mixed load had a worker replaced every few
	// seconds.
	DefaultRecyclePages = 768
	// DefaultWallTime is the backstop behind the engine's own step budget.
	DefaultWallTime = 2 * time.Second
	// DefaultResultBytes caps the Result JSON a run may return.
	DefaultResultBytes = 4 << 20
	// DefaultQueueLength is how many runs may wait for an instance.
	DefaultQueueLength = 32
)

// Limits bound what one run and the whole pool may use.
type Limits struct {
	MemoryPages  uint32        // hard cap of an instance's linear memory, in pages
	RecyclePages uint32        // an instance above this after a run is replaced
	WallTime     time.Duration // per run, measured from the moment it has an instance
	ResultBytes  int           // largest Result JSON a run may return
	PoolSize     int           // instances, and so runs executing at once
	QueueLength  int           // runs waiting for an instance; more are refused with ErrBusy
}

// DefaultLimits returns the defaults, with one instance per CPU the Go
// scheduler uses: a run is CPU-bound, so more instances only add memory.
func DefaultLimits() Limits {
	return Limits{
		MemoryPages:  DefaultMemoryPages,
		RecyclePages: DefaultRecyclePages,
		WallTime:     DefaultWallTime,
		ResultBytes:  DefaultResultBytes,
		PoolSize:     runtime.GOMAXPROCS(0),
		QueueLength:  DefaultQueueLength,
	}
}

func (l Limits) validate() error {
	switch {
	case l.MemoryPages == 0 || l.MemoryPages > 65536:
		return fmt.Errorf("memory limit of %d pages is outside 1..65536", l.MemoryPages)
	case l.RecyclePages == 0 || l.RecyclePages > l.MemoryPages:
		return fmt.Errorf("recycle threshold of %d pages is outside 1..%d (the memory limit)", l.RecyclePages, l.MemoryPages)
	case l.WallTime <= 0:
		return fmt.Errorf("wall time limit %v is not positive", l.WallTime)
	case l.ResultBytes <= 0:
		return fmt.Errorf("result size limit %d is not positive", l.ResultBytes)
	case l.PoolSize <= 0:
		return fmt.Errorf("pool size %d is not positive", l.PoolSize)
	case l.QueueLength < 0:
		return fmt.Errorf("queue length %d is negative", l.QueueLength)
	}
	return nil
}
