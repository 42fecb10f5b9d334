package wasm

// ErrWorkerDied is errWorkerDied, for the tests of package wasm_test.
var ErrWorkerDied = errWorkerDied

// WorkerRlimits are the limits a worker of a pool with limits l gets, by
// the names /proc/PID/limits gives them.
func WorkerRlimits(l Limits, ownUser bool) map[string]uint64 {
	m := map[string]uint64{}
	for _, r := range workerRlimits(l, ownUser) {
		m[r.name] = r.value
	}
	return m
}
