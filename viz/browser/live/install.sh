#!/bin/sh
# install.sh DEST — install playwright-core (pinned and integrity-checked by
# package-lock.json) into DEST/node_modules for live.mjs and assist.mjs. No browser is
# downloaded: they drive Debian's chromium. Idempotent.
set -eu
if [ $# -ne 1 ] || [ -z "$1" ]; then
	echo "usage: $0 DEST   (e.g. <repo>/.assets/live-test)" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
dest=$(cd "$1" && pwd)
if [ -f "$dest/node_modules/playwright-core/package.json" ] && cmp -s "$here/package-lock.json" "$dest/package-lock.json"; then
	echo "playwright-core: already installed in $dest"
	exit 0
fi
cp "$here/package.json" "$here/package-lock.json" "$dest/"
# npm ci installs exactly the lock file's versions and checks their integrity.
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix "$dest" --silent --no-audit --no-fund --prefer-offline
echo "playwright-core: installed in $dest"
