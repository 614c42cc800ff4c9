package main

import (
	"bytes"
	"os"
	"testing"
)

// TestUpToDate: model/params.go is what the table generates. After
// editing the table, run go generate ./model.
func TestUpToDate(t *testing.T) {
	got, err := os.ReadFile("../../params.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, Generate()) {
		t.Error("model/params.go differs from what paramgen's table generates: run go generate ./model")
	}
}
