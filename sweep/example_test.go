package sweep_test

import (
	"fmt"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

func ExampleParseValues() {
	for _, s := range []string{"1:4,8,16", "2:10:4", "1:1000000000", "1:9:2,5", "4:1"} {
		l, err := sweep.ParseValues(0, model.Lease, s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(l.Len(), "values:", l.At(0), "…", l.At(l.Len()-1))
	}
	// Output:
	// 6 values: 1 … 16
	// 3 values: 2 … 10
	// 1000000000 values: 1 … 1000000000
	// duplicate value 5
	// range "4:1" is empty: want lo <= hi
}

// Shards of a 10-row grid: contiguous, in order, together every row once.
func ExampleShard() {
	for k := range 3 {
		first, last := sweep.Shard(10, k, 3)
		fmt.Printf("shard %d/3: rows %d to %d\n", k, first, last-1)
	}
	// Output:
	// shard 0/3: rows 0 to 2
	// shard 1/3: rows 3 to 5
	// shard 2/3: rows 6 to 9
}
