package dl

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestHostBuffersAskForHugePages checks that a large host buffer lies in a
// mapping that Linux marks for transparent huge pages (VmFlags "hg" in
// /proc/self/smaps, set by madvise MADV_HUGEPAGE whatever the THP mode).
// Whether the kernel then finds huge pages depends on the machine, so the
// test checks the advice, not AnonHugePages.
func TestHostBuffersAskForHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("this kernel has no transparent huge pages")
	}
	big, err := cpu.malloc(CPU, 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	flags, ok := vmFlags(t, uintptr(unsafe.Pointer(unsafe.SliceData(big.host))))
	if !ok {
		t.Skip("no /proc/self/smaps entry for the buffer")
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("an 8 MiB host buffer's mapping has VmFlags %q; want hg (madvise MADV_HUGEPAGE)", flags)
	}
	big.host[0], big.host[len(big.host)-1] = 1, 1 // keep it alive past the lookup
}

// vmFlags returns the VmFlags line of the /proc/self/smaps mapping that
// contains addr.
func vmFlags(t *testing.T, addr uintptr) (string, bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", false
	}
	defer f.Close()
	inside := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok && inside {
			return strings.TrimSpace(rest), true
		}
		fields := strings.Fields(line)
		if len(fields) == 0 || !strings.Contains(fields[0], "-") || strings.HasSuffix(fields[0], ":") {
			continue
		}
		lo, hi, _ := strings.Cut(fields[0], "-")
		a, err1 := strconv.ParseUint(lo, 16, 64)
		b, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 == nil && err2 == nil {
			inside = uint64(addr) >= a && uint64(addr) < b
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return "", false
}

// TestConfigureCPUSmallPages checks that CPUConfig.SmallPages reaches the
// allocator's switch and that the zero CPUConfig turns the advice back on.
func TestConfigureCPUSmallPages(t *testing.T) {
	defer ConfigureCPU(CPUConfig{})
	if err := ConfigureCPU(CPUConfig{SmallPages: true}); err != nil {
		t.Fatal(err)
	}
	if !cpuSmallPages.Load() {
		t.Error("ConfigureCPU(CPUConfig{SmallPages: true}) left the huge-page advice on")
	}
	if err := ConfigureCPU(CPUConfig{}); err != nil {
		t.Fatal(err)
	}
	if cpuSmallPages.Load() {
		t.Error("ConfigureCPU(CPUConfig{}) left the huge-page advice off")
	}
}
