package procmem

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

func TestTreeRSSCountsChildren(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads Linux's /proc")
	}
	self, err := RSS(os.Getpid())
	if err != nil || self < 1<<20 {
		t.Fatalf("RSS of this process: %d, %v", self, err)
	}
	if peak, err := PeakRSS(os.Getpid()); err != nil || peak < self {
		t.Fatalf("peak RSS of this process %d (%v), below its RSS %d", peak, err, self)
	}
	alone, err := TreeRSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	// A child holding 64 MiB of touched memory.
	cmd := exec.Command("sh", "-c", `head -c 67108864 /dev/zero | tr '\0' x > /dev/null & x=$(head -c 67108864 /dev/zero | tr '\0' y); echo ready; sleep 30`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil {
		t.Fatal(err)
	}
	withChild, err := TreeRSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if withChild < alone+32<<20 {
		t.Errorf("with a child holding 64 MiB the tree holds %d MiB, alone %d MiB", withChild>>20, alone>>20)
	}
}

func TestChildrenCPUCountsABusyChild(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads Linux's /proc")
	}
	before := ChildrenCPU(os.Getpid())
	cmd := exec.Command("sh", "-c", `i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo done; sleep 30`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	buf := make([]byte, 4)
	if _, err := out.Read(buf); err != nil {
		t.Fatal(err)
	}
	if after := ChildrenCPU(os.Getpid()); after-before < 20*time.Millisecond {
		t.Errorf("a child that counted to 200000 used %v of CPU", after-before)
	}
}
