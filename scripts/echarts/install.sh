#!/bin/sh
# install.sh DEST — install the pinned ECharts build used by package viz.
#
# Fetches echarts@$VERSION from the npm registry (npm pack: never a CDN),
# checks the tarball against the pinned npm integrity (SHA-512), and installs
#   DEST/echarts/$VERSION/echarts.min.js   (+ LICENSE, NOTICE, echarts.min.js.sha512)
# atomically (temp dir + rename). Idempotent: when the installed file still
# matches its recorded SHA-512 it exits at once, without the network.
#
# viz finds the file at run time through the environment:
#   DLBD_ASSETS=DEST          (the kernelspec sets it; viz looks in $DLBD_ASSETS/echarts/$VERSION)
#   DLBD_ECHARTS_JS=/path/to/echarts.min.js   (optional override of the file itself)
# Needs: sh, npm (with node), tar, mktemp. npm's cache (~/.npm) lets a second
# machine-local install run offline (--prefer-offline).
set -eu

VERSION=5.6.0
# npm view echarts@5.6.0 dist.integrity
INTEGRITY=sha512-oTbVTsXfKuEhxftHqL5xprgLoc0k7uScAwtryCgWF6hPYFLRwOUHiFmHGCBKP5NPFNkDVopOieyUqYGH8Fa3kA==

if [ $# -ne 1 ] || [ -z "$1" ]; then
	echo "usage: $0 DEST   (installs DEST/echarts/$VERSION/echarts.min.js)" >&2
	exit 2
fi
mkdir -p "$1"
DEST=$(cd "$1" && pwd)/echarts/$VERSION

# sha512 FILE: prints the base64 SHA-512 of FILE (node is always there with npm).
sha512() {
	node -e 'const c=require("crypto"),f=require("fs");process.stdout.write(c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$1"
}

if [ -s "$DEST/echarts.min.js" ] && [ -s "$DEST/echarts.min.js.sha512" ] &&
	[ "$(sha512 "$DEST/echarts.min.js")" = "$(cat "$DEST/echarts.min.js.sha512")" ]; then
	echo "echarts $VERSION: already installed in $DEST"
	exit 0
fi

for tool in npm node tar; do
	command -v "$tool" >/dev/null 2>&1 || { echo "echarts install: '$tool' not found; install Node.js/npm (Debian: apt-get install nodejs npm)" >&2; exit 1; }
done

parent=$(dirname "$DEST")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.install-$VERSION.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

(cd "$tmp" && npm pack --silent --prefer-offline "echarts@$VERSION" >/dev/null) || {
	echo "echarts install: 'npm pack echarts@$VERSION' failed (no access to the npm registry $(npm config get registry)?)" >&2
	exit 1
}
tgz="$tmp/echarts-$VERSION.tgz"
got="sha512-$(sha512 "$tgz")"
if [ "$got" != "$INTEGRITY" ]; then
	echo "echarts install: integrity mismatch for echarts-$VERSION.tgz" >&2
	echo "  want $INTEGRITY" >&2
	echo "  got  $got" >&2
	exit 1
fi
tar -xzf "$tgz" -C "$tmp" package/dist/echarts.min.js package/LICENSE package/NOTICE
mkdir "$tmp/out"
cp "$tmp/package/dist/echarts.min.js" "$tmp/package/LICENSE" "$tmp/package/NOTICE" "$tmp/out/"
sha512 "$tmp/out/echarts.min.js" >"$tmp/out/echarts.min.js.sha512"
rm -rf "$DEST.old"
[ -e "$DEST" ] && mv "$DEST" "$DEST.old"
mv "$tmp/out" "$DEST"
rm -rf "$DEST.old"
echo "echarts $VERSION: installed $DEST/echarts.min.js (npm integrity checked)"
