#!/bin/sh
# gocache.sh seed|keep — let an image build reuse the Go build and module caches of earlier builds
# on the same machine, while the image keeps only what this build used (docker/Dockerfile).
#
# The Dockerfile mounts a BuildKit cache at $store (RUN --mount=type=cache): it outlives builds,
# is never part of the image, and starts empty on a new machine (then this changes nothing).
#
#   seed  copy $store/build into GOCACHE, dated two hours back. The go command re-dates each
#         cache entry it uses that is older than an hour (cmd/go/internal/cache: mtimeInterval),
#         so after the build, entries still dated back were not used by it.
#   keep  delete from GOCACHE the entries this build did not use; save GOCACHE and the downloaded
#         modules into $store for the next build (GOPROXY=file://$store/mod,... reads them back);
#         delete the module zip files from GOMODCACHE: the go command builds from the extracted
#         modules, and the zips (250 MB) are only its download cache.
set -eu

store=${DLBD_GO_STORE:-/var/cache/dlbd-go}
gocache=$(go env GOCACHE)
modcache=$(go env GOMODCACHE)
stamp="$store/.seeded"

case "${1:-}" in
seed)
  mkdir -p "$store/build" "$store/mod" "$gocache"
  if [ -n "$(ls -A "$store/build")" ]; then
    cp -a "$store/build/." "$gocache/"
    find "$gocache" -type f -exec touch -m -d "@$(( $(date +%s) - 7200 ))" {} +
    echo "gocache: seeded GOCACHE with $(du -sh "$gocache" | cut -f1) from earlier builds"
  fi
  touch -d "@$(( $(date +%s) - 60 ))" "$stamp"
  ;;
keep)
  [ -e "$stamp" ] || { echo "gocache: keep without seed" >&2; exit 1; }
  # Cache entries live in GOCACHE/00 ... GOCACHE/ff; README and trim.txt stay.
  unused=$(find "$gocache"/[0-9a-f][0-9a-f] -type f ! -newer "$stamp" | wc -l)
  find "$gocache"/[0-9a-f][0-9a-f] -type f ! -newer "$stamp" -delete
  echo "gocache: removed $unused cache entries this build did not use; GOCACHE is $(du -sh "$gocache" | cut -f1)"
  rm -rf "$store/build.new"
  cp -a "$gocache" "$store/build.new"
  rm -rf "$store/build"
  mv "$store/build.new" "$store/build"
  cp -a "$modcache/cache/download/." "$store/mod/"
  find "$modcache/cache/download" -name '*.zip' -delete
  rm -f "$stamp"
  ;;
*)
  echo "usage: $0 seed|keep" >&2
  exit 2
  ;;
esac
