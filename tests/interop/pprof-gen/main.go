// SPDX-License-Identifier: Apache-2.0

// Writes one real Go runtime profile of each kind into the folder named by
// its argument: cpu (with pprof.Do labels), heap, allocs, mutex, block,
// goroutine and threadcreate, as <kind>.pb.gz. gen.sh runs it offline.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"time"
)

var sink []byte

func hash(n int) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < n; i++ {
		h ^= uint64(i)
		h *= 1099511628211
	}
	return h
}

func spin(d time.Duration) uint64 {
	var s uint64
	for end := time.Now().Add(d); time.Now().Before(end); {
		s += hash(10000)
	}
	return s
}

// cpuWork burns CPU under two label sets, so that samples carry labels.
func cpuWork() {
	var wg sync.WaitGroup
	for _, who := range []string{"alpha", "beta"} {
		wg.Add(1)
		go func(who string) {
			defer wg.Done()
			labels := pprof.Labels("worker", who, "phase", "spin")
			pprof.Do(context.Background(), labels, func(context.Context) {
				spin(400 * time.Millisecond)
			})
		}(who)
	}
	wg.Wait()
}

func allocate() {
	for i := 0; i < 2000; i++ {
		sink = make([]byte, 1024+i%7*512)
		_ = strings.Repeat("x", 64+i%5)
	}
}

func contend() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				mu.Lock()
				time.Sleep(20 * time.Microsecond)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	ch := make(chan int)
	go func() {
		for i := 0; i < 50; i++ {
			time.Sleep(100 * time.Microsecond)
			ch <- i
		}
		close(ch)
	}()
	for range ch {
	}
}

func write(dir, name string, p *pprof.Profile) {
	f, err := os.Create(filepath.Join(dir, name+".pb.gz"))
	if err != nil {
		panic(err)
	}
	if err := p.WriteTo(f, 0); err != nil {
		panic(err)
	}
	f.Close()
}

func main() {
	dir := os.Args[1]
	runtime.MemProfileRate = 512
	runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(1)
	f, err := os.Create(filepath.Join(dir, "cpu.pb.gz"))
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	cpuWork()
	pprof.StopCPUProfile()
	f.Close()
	allocate()
	contend()
	runtime.GC()
	block := make(chan struct{})
	for i := 0; i < 3; i++ {
		go func() { <-block }()
	}
	for _, kind := range []string{"heap", "allocs", "mutex", "block", "goroutine", "threadcreate"} {
		write(dir, kind, pprof.Lookup(kind))
	}
	close(block)
	fmt.Println("wrote", dir)
}
