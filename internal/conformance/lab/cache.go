package lab

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Reference programs (the C and C++ programs that call a product's
// library, the Java class that decodes keys as the JDK does) are built
// once and kept in the user cache folder, beside the npm packages, under a
// name that is a hash of everything the build reads that can change: the
// source, the flags, the compiler's identity (its resolved path, size and
// modification time) and the package database's (Debian's
// /var/lib/dpkg/status, which any install or upgrade of a library or its
// headers rewrites). A build whose inputs changed gets a new name, so a
// stale program is never run; an unchanged one is not rebuilt. Compiling
// them on every run cost more CPU than running them (javac 1.3 CPU-s for a
// 0.1 s run).

// cacheVersion changes when the layout of the cache changes.
const cacheVersion = "ringreport-lab-build-v1"

// dpkgStatus is the package database whose identity is part of every key.
const dpkgStatus = "/var/lib/dpkg/status"

// fileID is a file's resolved path, size and modification time, or the
// reason it has none.
func fileID(path string) string {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p
	}
	st, err := os.Stat(path)
	if err != nil {
		return path + ": " + err.Error()
	}
	return fmt.Sprintf("%s %d %d", path, st.Size(), st.ModTime().UnixNano())
}

// Cached returns a folder holding what build wrote into it, for the
// inputs tool (a program build runs) and parts (everything else build
// reads); want is a file build must leave in the folder. The folder is in
// the user cache folder and reused by later runs with the same inputs;
// without a cache folder it is the test's temporary folder. A failed build
// is never kept.
func Cached(t testing.TB, tool string, parts []string, want string, build func(dir string) error) (string, error) {
	t.Helper()
	h := sha256.New()
	for _, p := range append([]string{cacheVersion, fileID(tool), fileID(dpkgStatus), want}, parts...) {
		fmt.Fprintf(h, "%d:%s\n", len(p), p)
	}
	key := hex.EncodeToString(h.Sum(nil))[:32]
	root := cacheRoot()
	if root == "" {
		dir := t.TempDir()
		return dir, build(dir)
	}
	final := filepath.Join(root, key)
	if _, err := os.Stat(filepath.Join(final, want)); err == nil {
		return final, nil
	}
	tmp, err := os.MkdirTemp(root, "tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := build(tmp); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(tmp, want)); err != nil {
		return "", fmt.Errorf("the build left no %s: %v", want, err)
	}
	os.RemoveAll(final) // an incomplete entry (want missing), if any
	if err := os.Rename(tmp, final); err != nil && !errors.Is(err, fs.ErrExist) && !isNotEmpty(err) {
		return "", err
	}
	return final, nil
}

// isNotEmpty reports whether a rename failed because another process put
// the same entry in place first (ENOTEMPTY).
func isNotEmpty(err error) bool { return strings.Contains(err.Error(), "directory not empty") }

var (
	rootOnce sync.Once
	rootDir  string
)

// cacheRoot is the folder for built programs (RINGREPORT_LAB_CACHE, or
// ringreport-ci/build in the user cache folder), created on first use, or
// "" when there is none.
func cacheRoot() string {
	rootOnce.Do(func() {
		dir := os.Getenv("RINGREPORT_LAB_CACHE")
		if dir == "" {
			cache, err := os.UserCacheDir()
			if err != nil {
				return
			}
			dir = filepath.Join(cache, "ringreport-ci", "build")
		}
		if os.MkdirAll(dir, 0o755) == nil {
			rootDir = dir
		}
	})
	return rootDir
}

// Compile returns a program built by compiler (a path from Need) from src,
// written as file (its extension tells the compiler the language), with
// flags after the source (options and libraries), through Cached. The
// program is named file without its extension. A failed build returns the
// compiler's output in the error.
func Compile(t testing.TB, compiler, file string, src []byte, flags ...string) (string, error) {
	t.Helper()
	name := strings.TrimSuffix(file, filepath.Ext(file))
	dir, err := Cached(t, compiler, append([]string{file, string(src)}, flags...), name, func(dir string) error {
		if err := os.WriteFile(filepath.Join(dir, file), src, 0o644); err != nil {
			return err
		}
		args := append([]string{"-o", filepath.Join(dir, name), filepath.Join(dir, file)}, flags...)
		if out, err := exec.Command(compiler, args...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s %s: %v\n%s", filepath.Base(compiler), strings.Join(args, " "), err, out)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}
