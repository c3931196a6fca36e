# Sourced by the scripts: provides `loomgate_mvn`, which runs Maven >= 3.6.3 found on the PATH, or
# else one downloaded once from Maven Central into ~/.cache/loomgate (checked against its SHA-512).

LOOMGATE_MAVEN_VERSION=3.9.11

loomgate_maven_ok() {
  local v
  v=$("$1" -B -v 2>/dev/null | grep -o 'Apache Maven [0-9][0-9.]*' | head -n 1 | cut -d' ' -f3)
  [ -n "$v" ] || return 1
  # 3.6.3 or newer
  printf '%s\n%s\n' "3.6.3" "$v" | sort -V -C
}

loomgate_find_maven() {
  local mvn
  if mvn=$(command -v mvn 2>/dev/null) && loomgate_maven_ok "$mvn"; then
    echo "$mvn"; return 0
  fi
  local dir="${XDG_CACHE_HOME:-$HOME/.cache}/loomgate/apache-maven-$LOOMGATE_MAVEN_VERSION"
  if [ -x "$dir/bin/mvn" ]; then
    echo "$dir/bin/mvn"; return 0
  fi
  echo "loomgate: no Maven >= 3.6.3 on the PATH; downloading Maven $LOOMGATE_MAVEN_VERSION into $dir" >&2
  local base="https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/$LOOMGATE_MAVEN_VERSION"
  local tgz="apache-maven-$LOOMGATE_MAVEN_VERSION-bin.tar.gz" tmp
  tmp=$(mktemp -d) || return 1
  if ! curl -fsSL --retry 3 -o "$tmp/$tgz" "$base/$tgz" || ! curl -fsSL --retry 3 -o "$tmp/$tgz.sha512" "$base/$tgz.sha512"; then
    echo "loomgate: could not download Maven from $base; install Maven 3.6.3+ and retry" >&2
    rm -rf "$tmp"; return 1
  fi
  if [ "$(sha512sum "$tmp/$tgz" | cut -d' ' -f1)" != "$(cut -d' ' -f1 < "$tmp/$tgz.sha512")" ]; then
    echo "loomgate: the downloaded Maven does not match its SHA-512; not using it" >&2
    rm -rf "$tmp"; return 1
  fi
  mkdir -p "$(dirname "$dir")" && tar -xzf "$tmp/$tgz" -C "$(dirname "$dir")" && rm -rf "$tmp" || return 1
  echo "$dir/bin/mvn"
}

# Runs Maven with its output on stdout, without colour codes (Debian's Maven 3.8 prints some even in
# batch mode) and without the JDK 24+ warnings about Maven's own use of sun.misc.Unsafe.
# Returns Maven's exit status.
loomgate_mvn() {
  local mvn opts="${MAVEN_OPTS:-}"
  mvn=$(loomgate_find_maven) || return 1
  if "${JAVA_HOME:+$JAVA_HOME/bin/}java" --sun-misc-unsafe-memory-access=allow -version >/dev/null 2>&1; then
    opts="$opts --sun-misc-unsafe-memory-access=allow"
  fi
  MAVEN_OPTS="$opts" "$mvn" -Dstyle.color=never "$@" 2>&1 | sed -u 's/\x1b\[[0-9;]*m//g'
  return "${PIPESTATUS[0]}"
}
