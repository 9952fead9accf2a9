package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for i := 1; i <= 8; i++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			for k := 0; k < 1000; k++ {
				mu.Lock()
				total += n
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	fmt.Println(total)
}
