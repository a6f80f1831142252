#!/bin/sh
# with-ca.sh COMMAND [ARG...] — run COMMAND trusting extra CA certificates, such as the one of a
# TLS-inspecting proxy, when a PEM file of them is there; otherwise just run COMMAND.
#
# The file: $DLBD_CA_CERTS, default /run/secrets/ca_certs — where a build secret is mounted
#   (docker build --secret id=ca_certs,src=proxy-ca.pem, with RUN --mount=type=secret,id=ca_certs)
#   and where an instructor mounts it at run time (-v "$PWD/proxy-ca.pem:/run/secrets/ca_certs:ro").
# It may hold only the proxy's CA or a whole bundle (the host's /etc/ssl/certs/ca-certificates.crt):
# certificates already in the system's bundle are not added twice.
#
# What it sets for COMMAND, with a bundle of the system's certificates plus the extra ones written
# under ${TMPDIR:-/tmp} (nothing is installed into the system; the files are removed when COMMAND
# ends, or, with DLBD_CA_KEEP=1, kept and COMMAND exec'd: the entry point's long-lived Jupyter):
#   SSL_CERT_FILE (Go, OpenSSL, Python's ssl), PIP_CERT and REQUESTS_CA_BUNDLE (pip),
#   NODE_EXTRA_CA_CERTS and npm_config_cafile (npm), GIT_SSL_CAINFO and CURL_CA_BUNDLE,
#   APT_CONFIG (apt over https: Acquire::https::CAInfo), and, where keytool is installed,
#   MAVEN_OPTS with a Java trust store holding the JDK's CAs plus the extra ones (maven).
set -eu

extra=${DLBD_CA_CERTS:-/run/secrets/ca_certs}
if [ ! -s "$extra" ]; then
  exec "$@"
fi
grep -q -e '-----BEGIN CERTIFICATE-----' "$extra" || {
  echo "with-ca: $extra holds no PEM certificate (-----BEGIN CERTIFICATE-----)" >&2
  exit 1
}

dir=$(mktemp -d "${TMPDIR:-/tmp}/dlbd-ca.XXXXXX")
system=/etc/ssl/certs/ca-certificates.crt
[ -s "$system" ] || system=/dev/null

# One file per certificate of $extra that the system's bundle lacks (compared as text, ignoring
# blank lines and carriage returns).
tr -d '\r' <"$extra" | awk -v dir="$dir" -v sysbundle="$system" '
  BEGIN {
    while ((getline line < sysbundle) > 0) {
      if (line ~ /-----BEGIN CERTIFICATE-----/) { cur = "" }
      cur = cur line "\n"
      if (line ~ /-----END CERTIFICATE-----/) { known[cur] = 1 }
    }
  }
  /-----BEGIN CERTIFICATE-----/ { cur = ""; in_cert = 1 }
  in_cert && NF { cur = cur $0 "\n" }
  /-----END CERTIFICATE-----/ {
    in_cert = 0
    if (!(cur in known)) { n++; printf "%s", cur > (dir "/extra-" n ".pem"); close(dir "/extra-" n ".pem") }
  }'
bundle="$dir/bundle.pem"
cat "$system" >"$bundle"
for f in "$dir"/extra-*.pem; do
  [ -e "$f" ] && cat "$f" >>"$bundle"
done

export SSL_CERT_FILE="$bundle" PIP_CERT="$bundle" REQUESTS_CA_BUNDLE="$bundle" \
  NODE_EXTRA_CA_CERTS="$bundle" npm_config_cafile="$bundle" GIT_SSL_CAINFO="$bundle" CURL_CA_BUNDLE="$bundle"

# apt reads APT_CONFIG before its other configuration files.
printf 'Acquire::https::CAInfo "%s";\n' "$bundle" >"$dir/apt.conf"
export APT_CONFIG="$dir/apt.conf"

if command -v keytool >/dev/null 2>&1; then
  jks=
  for c in /etc/ssl/certs/java/cacerts "$(dirname "$(readlink -f "$(command -v keytool)")")/../lib/security/cacerts"; do
    if [ -s "$c" ]; then jks=$c; break; fi
  done
  if [ -n "$jks" ]; then
    cp "$jks" "$dir/cacerts"
    for f in "$dir"/extra-*.pem; do
      [ -e "$f" ] || continue
      keytool -importcert -noprompt -storepass changeit -keystore "$dir/cacerts" \
        -alias "dlbd-$(basename "$f" .pem)" -file "$f" >/dev/null
    done
    export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }-Djavax.net.ssl.trustStore=$dir/cacerts -Djavax.net.ssl.trustStorePassword=changeit"
  fi
fi

if [ "${DLBD_CA_KEEP:-}" = 1 ]; then
  exec "$@"
fi
status=0
"$@" || status=$?
rm -rf "$dir"
exit "$status"
