package sweep_test

import (
	"fmt"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

func ExampleParseValues() {
	fmt.Println(sweep.ParseValues(model.Lease, "1:4,8,16"))
	fmt.Println(sweep.ParseValues(model.Lease, "2:10:4"))
	fmt.Println(sweep.ParseValues(model.Fencing, "false,true"))
	fmt.Println(sweep.ParseValues(model.Lease, "4:1"))
	// Output:
	// [1 2 3 4 8 16] <nil>
	// [2 6 10] <nil>
	// [0 1] <nil>
	// [] range "4:1" is empty: want lo <= hi
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
