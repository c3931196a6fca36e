# Sourced by the scripts: finds a JDK 25 and exports JAVA_HOME and PATH for it.
# Order: $JAVA_HOME, then `java` on the PATH, then the usual install locations
# (or the globs in $LOOMGATE_JDK_SEARCH, when set).
# If none is a 25, prints one line naming what was found instead and returns 1.

# Prints the major version of the java binary $1 (8 for 1.8.0_x), or nothing. The JDK's own
# `release` file says it without starting a JVM (which would cost every scripts/run ~60 ms);
# without one, `java -version` does. Read with bash's builtins: each program started here (readlink,
# dirname, sed) cost scripts/run 3 to 6 ms on a 2-core machine, and it runs on every start.
loomgate_java_major() {
  local v="" java=$1 line
  [ -L "$java" ] && java=$(readlink -f "$java")
  local home=${java%/*}
  local release="${home%/*}/release"
  if [ -r "$release" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      case "$line" in
        JAVA_VERSION=\"*\") v=${line#JAVA_VERSION=\"}; v=${v%\"}; break ;;
      esac
    done <"$release"
  fi
  [ -n "$v" ] || v=$("$1" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)
  [ -n "$v" ] || return 0
  case "$v" in
    1.*) v=${v#1.}; echo "${v%%.*}" ;;
    *) v=${v%%[.+-]*}; echo "$v" ;;
  esac
}

loomgate_find_jdk25() {
  local seen=() java major home
  if [ -n "${JAVA_HOME:-}" ]; then
    if [ -x "$JAVA_HOME/bin/java" ]; then
      major=$(loomgate_java_major "$JAVA_HOME/bin/java")
      [ "$major" = "25" ] && [ -x "$JAVA_HOME/bin/javac" ] && { echo "$JAVA_HOME"; return 0; }
      seen+=("JAVA_HOME=$JAVA_HOME (Java ${major:-unknown})")
    else
      seen+=("JAVA_HOME=$JAVA_HOME (no bin/java)")
    fi
  fi
  if java=$(command -v java 2>/dev/null); then
    major=$(loomgate_java_major "$java")
    home=$(dirname "$(dirname "$(readlink -f "$java")")")
    [ "$major" = "25" ] && [ -x "$home/bin/javac" ] && { echo "$home"; return 0; }
    seen+=("java on PATH: $java (Java ${major:-unknown})")
  fi
  # LOOMGATE_JDK_SEARCH replaces these locations (space-separated globs); tests use it.
  local where="${LOOMGATE_JDK_SEARCH-/usr/lib/jvm/*25* /usr/lib/jvm/* /opt/java/* /opt/jdk* $HOME/.sdkman/candidates/java/* $HOME/.jdks/* /Library/Java/JavaVirtualMachines/*/Contents/Home}"
  for home in $where; do
    [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || continue
    major=$(loomgate_java_major "$home/bin/java")
    [ "$major" = "25" ] && { echo "$home"; return 0; }
    seen+=("$home (Java ${major:-unknown})")
  done
  local found="nothing"
  [ ${#seen[@]} -gt 0 ] && found=$(printf '%s; ' "${seen[@]}" | sed 's/; $//')
  echo "loomgate: needs a JDK 25 (Temurin 25 recommended) and found none. Found: $found. Install one (e.g. under /usr/lib/jvm) or set JAVA_HOME to it." >&2
  return 1
}

loomgate_use_jdk25() {
  local home
  home=$(loomgate_find_jdk25) || return 1
  export JAVA_HOME="$home"
  export PATH="$JAVA_HOME/bin:$PATH"
}
