package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
)

// The playground's own settings live in [package.metadata.playground],
// where Cargo leaves tools their configuration:
//
//	[package.metadata.playground]
//	env      = { BURN_DEVICE = "cuda" }
//	args     = ["client", "my-topic"]       # what `cargo run -- client my-topic` passes
//	hardware = { cuda = 2, rocm = 0, wgpu = ["DiscreteGpu", "IntegratedGpu"], metal = false, vulkan = true }
//	target   = "wasm32-unknown-unknown"    # optional, default the host
//	[[package.metadata.playground.servers]]
//	address = "ws://localhost:3000"
//	device  = "flex"
//	faults  = ["exit-after-init"]           # optional: how the server misbehaves

var (
	playgroundKeys = []string{"env", "args", "hardware", "servers", "target"}
	hardwareKeys   = []string{"cuda", "rocm", "wgpu", "metal", "vulkan"}
	serverKeys     = []string{"address", "device", "faults"}
	// adapterKinds are wgpu's DeviceKind variants a machine can offer.
	adapterKinds = []string{"DiscreteGpu", "IntegratedGpu", "VirtualGpu", "Cpu"}
	// burnDeviceNames are the values Burn's BURN_DEVICE override matches
	// (crates/burn-dispatch/src/device.rs:282-353), in its order.
	burnDeviceNames = []string{"cuda", "metal", "rocm", "vulkan", "webgpu", "wgpu", "cpu", "tch", "remote", "flex", "ndarray"}
	// serverDeviceNames are what a server can be asked to host: any
	// BURN_DEVICE name, or a capture device.
	serverDeviceNames = append(append([]string(nil), burnDeviceNames...), "capture")
)

// maxDevices bounds the device counts of the simulated machine, which the
// dispatch model enumerates.
const maxDevices = 16

// defaultHardware is the machine when [package.metadata.playground.hardware]
// does not say otherwise, key by key: one device for each GPU backend the
// features compile in (cuda = 1 with the cuda feature, rocm = 1 with rocm,
// one DiscreteGpu wgpu adapter with any wgpu flavour, metal = true with
// metal, vulkan = true with vulkan), and nothing else. A plain program on
// an enabled backend therefore runs.
func defaultHardware(features map[string]bool) dispatch.Hardware {
	var hw dispatch.Hardware
	if features["burn-dispatch/cuda"] {
		hw.Cuda = 1
	}
	if features["burn-dispatch/rocm"] {
		hw.Rocm = 1
	}
	if features["burn-dispatch/wgpu"] {
		hw.Wgpu = []string{"DiscreteGpu"}
	}
	hw.Metal = features["burn-dispatch/metal"]
	hw.Vulkan = features["burn-dispatch/vulkan"]
	return hw
}

const playgroundPath = "[package.metadata.playground]"

// readPlayground reads [package.metadata.playground] into c; c's features
// are already resolved.
func (p *parser) readPlayground(c *Config) {
	c.Dispatch.Env = map[string]string{}
	c.EnvRanges = map[string]source.Range{}
	c.Dispatch.Hardware = defaultHardware(c.Dispatch.Features)
	if t := p.playgroundTable(); t != nil {
		for _, key := range t.names {
			v := t.get(key)
			switch key {
			case "env":
				p.readEnv(c, v)
			case "args":
				p.readArgs(c, v)
			case "hardware":
				p.readHardware(c, v)
			case "servers":
				p.readServers(c, v)
			case "target":
				p.readTarget(c, v)
			default:
				p.add(errUnknownKey(key, v.key, playgroundKeys))
			}
		}
	}
	p.checkBurnDevice(c)
}

// playgroundTable finds [package.metadata.playground]. Cargo lets
// package.metadata hold anything, so only the playground's own table is
// checked.
func (p *parser) playgroundTable() *table {
	pkg := p.doc.root.get("package")
	if pkg == nil {
		return nil
	}
	if pkg.kind != kindTable {
		p.add(errInvalidType(pkg, "a map"))
		return nil
	}
	meta := pkg.table.subtable("metadata")
	v := meta.get("playground")
	if v == nil {
		return nil
	}
	if v.kind != kindTable {
		p.add(errInvalidType(v, "a map"))
		return nil
	}
	return v.table
}

func (p *parser) readEnv(c *Config, v *value) {
	if v.kind != kindTable {
		p.add(errInvalidType(v, "a map"))
		return
	}
	for _, name := range v.table.names {
		val := v.table.get(name)
		if val.kind != kindString {
			p.add(errInvalidType(val, "a string"))
			continue
		}
		c.Dispatch.Env[name] = val.text
		c.EnvRanges[name] = val.span
		p.env[name] = val
	}
}

// readArgs reads the program's command-line arguments, an array of
// strings.
func (p *parser) readArgs(c *Config, v *value) {
	if v.kind != kindArray {
		p.add(errInvalidType(v, "a sequence"))
		return
	}
	for _, item := range v.items {
		if item.kind != kindString {
			p.add(errInvalidType(item, "a string"))
			continue
		}
		c.Dispatch.Args = append(c.Dispatch.Args, item.text)
	}
}

func (p *parser) readHardware(c *Config, v *value) {
	if v.kind != kindTable {
		p.add(errInvalidType(v, "a map"))
		return
	}
	hw := &c.Dispatch.Hardware
	for _, key := range v.table.names {
		val := v.table.get(key)
		switch key {
		case "cuda", "rocm":
			n, ok := p.deviceCount(val)
			if !ok {
				continue
			}
			if key == "cuda" {
				hw.Cuda = n
			} else {
				hw.Rocm = n
			}
		case "wgpu":
			if adapters, ok := p.adapters(val); ok {
				hw.Wgpu = adapters
			}
		case "metal", "vulkan":
			if val.kind != kindBool {
				p.add(errInvalidType(val, "a boolean"))
				continue
			}
			if key == "metal" {
				hw.Metal = val.text == "true"
			} else {
				hw.Vulkan = val.text == "true"
			}
		default:
			p.add(errUnknownKey(key, val.key, hardwareKeys))
		}
	}
}

func (p *parser) deviceCount(v *value) (int, bool) {
	if v.kind != kindInteger {
		d := errInvalidType(v, "a device count")
		if n, err := strconv.Atoi(v.text); err == nil && v.kind == kindString && n >= 0 && n <= maxDevices {
			d.Fixes = []diag.Fix{{Title: fmt.Sprintf("Write the count as a number: `%d`", n), Edits: []diag.Edit{replaceEdit(v.span, strconv.Itoa(n))}}}
		}
		p.add(d)
		return 0, false
	}
	n, err := strconv.ParseInt(v.text, 0, 64)
	if err != nil || n < 0 || n > maxDevices {
		p.add(errInvalidValue(v.span, fmt.Sprintf("invalid device count `%s`, expected 0 to %d", v.text, maxDevices)))
		return 0, false
	}
	return int(n), true
}

func (p *parser) adapters(v *value) ([]string, bool) {
	if v.kind != kindArray {
		p.add(errInvalidType(v, "a sequence of wgpu adapter kinds"))
		return nil, false
	}
	if len(v.items) > maxDevices {
		p.add(errInvalidValue(v.span, fmt.Sprintf("%d wgpu adapters, expected at most %d", len(v.items), maxDevices)))
		return nil, false
	}
	adapters := []string{}
	ok := true
	for _, item := range v.items {
		if item.kind != kindString {
			p.add(errInvalidType(item, "a wgpu adapter kind"))
			ok = false
			continue
		}
		if !contains(adapterKinds, item.text) {
			p.add(errUnknownAdapter(item.text, item, adapterKinds))
			ok = false
			continue
		}
		adapters = append(adapters, item.text)
	}
	return adapters, ok
}

func (p *parser) readServers(c *Config, v *value) {
	if v.kind != kindArray && v.kind != kindArrayOfTables {
		p.add(errInvalidType(v, "a sequence of servers"))
		return
	}
	first := map[string]source.Range{}
	for _, item := range v.items {
		if item.kind != kindTable {
			p.add(errInvalidType(item, "a server table with `address` and `device`"))
			continue
		}
		server, ok := p.server(item)
		if !ok {
			continue
		}
		if at, dup := first[server.Address]; dup {
			p.add(errDuplicateServer(server.Address, item.table.get("address").span, at))
			continue
		}
		first[server.Address] = item.table.get("address").span
		c.Dispatch.Servers = append(c.Dispatch.Servers, server)
		c.ServerRanges = append(c.ServerRanges, item.span)
	}
}

// server reads one server; a server Burn would refuse to start is reported
// and left out, since its process would have panicked before listening.
func (p *parser) server(item *value) (dispatch.Server, bool) {
	t := item.table
	ok := true
	for _, key := range t.names {
		if !contains(serverKeys, key) {
			p.add(errUnknownKey(key, t.get(key).key, serverKeys))
		}
	}
	var server dispatch.Server
	address := t.get("address")
	switch {
	case address == nil:
		p.add(errMissingKey("[[package.metadata.playground.servers]]", item.span, "address"))
		ok = false
	case address.kind != kindString:
		p.add(errInvalidType(address, "a string"))
		ok = false
	default:
		normalized, valid := normalizeAddress(address.text)
		if !valid {
			p.add(errServerAddress(address.text, address.span))
			ok = false
		}
		server.Address = normalized
	}
	device := t.get("device")
	switch {
	case device == nil:
		p.add(errMissingKey("[[package.metadata.playground.servers]]", item.span, "device"))
		ok = false
	case device.kind != kindString:
		p.add(errInvalidType(device, "a string"))
		ok = false
	default:
		name := strings.ToLower(device.text)
		switch {
		case !contains(serverDeviceNames, name):
			p.add(errUnknownServerDevice(device.text, device, serverDeviceNames))
			ok = false
		case name == "tch" || name == "remote" || name == "capture":
			p.add(errCannotHost(name, device))
			ok = false
		}
		server.Device = name
	}
	if faults := t.get("faults"); faults != nil {
		list, valid := p.faults(faults, server.Address)
		server.Faults = list
		ok = ok && valid
	}
	return server, ok
}

// readTarget reads the build target; only the browser target changes
// what Burn compiles.
func (p *parser) readTarget(c *Config, v *value) {
	if v.kind != kindString {
		p.add(errInvalidType(v, "a target triple"))
		return
	}
	if !contains(dispatch.Targets, v.text) {
		p.add(errUnknownTarget(v.text, v, dispatch.Targets))
		return
	}
	c.Dispatch.Target = v.text
}

// faults reads a server's faults; the Iroh framing faults need an Iroh
// server.
func (p *parser) faults(v *value, address string) ([]string, bool) {
	if v.kind != kindArray {
		p.add(errInvalidType(v, "a sequence of server faults"))
		return nil, false
	}
	names := dispatch.ServerFaultNames()
	list := []string{}
	ok := true
	for _, item := range v.items {
		if item.kind != kindString {
			p.add(errInvalidType(item, "a server fault"))
			ok = false
			continue
		}
		fault, known := dispatch.LookupServerFault(item.text)
		switch {
		case !known:
			p.add(errUnknownFault(item.text, item, names))
			ok = false
		case fault.IrohOnly && address != "" && !isIrohID(address):
			p.add(errIrohOnlyFault(item.text, item.span))
			ok = false
		case contains(list, item.text):
		default:
			list = append(list, item.text)
		}
	}
	return list, ok
}

// normalizeAddress checks a server address and writes a websocket address
// with its scheme, as Burn's client reads it: a missing scheme means ws
// (crates/burn-communication/src/base.rs:41-67). An Iroh endpoint id is
// kept as is.
func normalizeAddress(address string) (string, bool) {
	address = strings.TrimSpace(address)
	if isIrohID(address) {
		return address, true
	}
	scheme, rest, hasScheme := strings.Cut(address, "://")
	if !hasScheme {
		scheme, rest = "ws", address
	}
	if scheme != "ws" && scheme != "wss" {
		return address, false
	}
	hostPort := rest
	if i := strings.IndexAny(hostPort, "/?#"); i >= 0 {
		hostPort = hostPort[:i]
	}
	host, port := hostPort, ""
	if strings.HasPrefix(hostPort, "[") {
		end := strings.Index(hostPort, "]")
		if end < 0 {
			return address, false
		}
		host, port = hostPort[:end+1], strings.TrimPrefix(hostPort[end+1:], ":")
		if port == "" && len(hostPort) > end+1 {
			return address, false
		}
	} else if i := strings.LastIndex(hostPort, ":"); i >= 0 {
		host, port = hostPort[:i], hostPort[i+1:]
		if port == "" {
			return address, false
		}
	}
	if host == "" || strings.ContainsAny(host, " \t@") {
		return address, false
	}
	if port != "" {
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil || n == 0 {
			return address, false
		}
	}
	return scheme + "://" + rest, true
}

// isIrohID reports whether s is an Iroh endpoint id: an ed25519 public
// key, 32 bytes written as 64 hexadecimal digits.
func isIrohID(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// checkBurnDevice predicts what Device::default() will do with BURN_DEVICE
// (crates/burn-dispatch/src/device.rs:278-358).
func (p *parser) checkBurnDevice(c *Config) {
	raw, set := c.Dispatch.Env["BURN_DEVICE"]
	if !set {
		return
	}
	at := p.env["BURN_DEVICE"]
	span := at.span
	features := c.Dispatch.Features
	if !features["burn-dispatch/std"] {
		p.add(warnBurnDeviceWithoutStd(span))
		return
	}
	name := strings.ToLower(raw)
	if !contains(burnDeviceNames, name) {
		p.add(warnBurnDeviceUnknown(raw, at, burnDeviceNames))
		return
	}
	enabled := features["burn-dispatch/"+name]
	if name == "flex" {
		enabled = enabled || features[DefaultBackend]
	}
	if enabled {
		return
	}
	var fix *diag.Fix
	if edit, ok := c.AddFeatureEdit(name); ok {
		fix = &diag.Fix{Title: fmt.Sprintf("Enable the `%s` feature of burn", name), Edits: []diag.Edit{edit}}
	}
	p.add(warnBurnDeviceDisabled(name, span, fix))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
