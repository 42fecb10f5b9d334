package ui

import (
	_ "embed"
	"encoding/json"
)

//go:embed features.json
var featuresJSON []byte

// configHelpers lists what the config panel offers: Burn's Cargo features
// with a one-line note each, the wgpu adapter kinds of the hardware panel and
// the values BURN_DEVICE accepts (spec.md §2.4).
type configHelpers struct {
	Groups []struct {
		Title    string `json:"title"`
		Features []struct {
			Name string `json:"name"`
			Note string `json:"note"`
		} `json:"features"`
	} `json:"groups"`
	WgpuAdapters []string `json:"wgpuAdapters"`
	BurnDevices  []string `json:"burnDevices"`
}

// helpers is decoded once; the embedded file is checked by the tests.
var helpers = func() configHelpers {
	var h configHelpers
	if err := json.Unmarshal(featuresJSON, &h); err != nil {
		panic("ui: features.json: " + err.Error())
	}
	return h
}()
