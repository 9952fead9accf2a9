package main

import (
	"fmt"
	"os"

	"github.com/pelletier/go-toml/v2"
)

type Base struct {
	Region string
	Name   string
	BsPort int
}

type Config struct {
	Base `toml:",inline"`
	PID  uint32
}

func main() {
	in := Config{Base: Base{Region: "eu", Name: "x", BsPort: 7}, PID: 3}
	b, err := toml.Marshal(in)
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	var out Config
	if err := toml.Unmarshal(b, &out); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	if out != in {
		fmt.Printf("round trip: got %+v, want %+v\n%s", out, in, b)
		os.Exit(1)
	}
	fmt.Println("ok")
}
