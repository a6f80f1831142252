package cuda

import (
	"encoding/hex"
	"os"
	"path/filepath"
)

// cacheDir is where compiled kernels are kept between processes:
// $DL_CUDA_CACHE, else the user's cache folder (~/.cache/dlbd/cuda).
// "off" disables the disk cache. The cache is an optimisation only: any
// failure to read or write it just means compiling again.
func cacheDir() string {
	if d := os.Getenv("DL_CUDA_CACHE"); d != "" {
		if d == "off" {
			return ""
		}
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "dlbd", "cuda")
}

func cachePath(key [32]byte, target string) string {
	dir := cacheDir()
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, hex.EncodeToString(key[:])+"."+target)
}

// loadCached returns the cached image for key, or nil.
func loadCached(key [32]byte, target string) *Image {
	p := cachePath(key, target)
	if p == "" {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil || len(data) == 0 {
		return nil
	}
	return &Image{Data: data, Target: target}
}

// storeCached writes im atomically (temporary file, then rename), so a
// concurrent reader never sees half a file.
func storeCached(key [32]byte, im *Image) {
	p := cachePath(key, im.Target)
	if p == "" || os.MkdirAll(filepath.Dir(p), 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(im.Data)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), p) != nil {
		os.Remove(f.Name())
	}
}
