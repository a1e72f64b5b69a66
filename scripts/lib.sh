# Shared by the launcher and the test script: find a JDK >= 22 and the system packages the tests use.
# Sourced, not run.

# Prints the home of a JDK whose major version is at least $1 (default 22), or fails with advice.
containerfs_find_jdk() {
  local want=${1:-22} candidate version
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    candidate=${candidate%/}
    [ -n "$candidate" ] && [ -x "$candidate/bin/javac" ] || continue
    version=$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
    if [ -n "$version" ] && [ "${version%%.*}" -ge "$want" ] 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  echo "containerfs: no JDK $want or newer found (JAVA_HOME or /usr/lib/jvm). The library runs on Java 17," \
       "but building everything and the FUSE mount need JDK $want+ (e.g. Temurin 25): install one and set JAVA_HOME." >&2
  return 1
}

# Installs the Debian packages the test suite uses (FUSE, the reference GSD library, xattr tools, bindfs,
# Maven) when one is missing. Needs root (or sudo) and Debian's package index.
containerfs_install_test_packages() {
  local need=()
  command -v fusermount3 >/dev/null 2>&1 || need+=(fuse3)
  ls /usr/lib/x86_64-linux-gnu/libfuse3.so.3 /usr/lib/*/libfuse3.so.3 >/dev/null 2>&1 || need+=(libfuse3-3)
  /usr/bin/python3 -c 'import gsd.fl' >/dev/null 2>&1 || need+=(python3-gsd)
  command -v getfattr >/dev/null 2>&1 || need+=(attr)
  command -v bindfs >/dev/null 2>&1 || need+=(bindfs)
  command -v rsync >/dev/null 2>&1 || need+=(rsync)
  command -v mvn >/dev/null 2>&1 || need+=(maven)
  command -v jq >/dev/null 2>&1 || need+=(jq)
  [ ${#need[@]} -eq 0 ] && return 0
  echo "containerfs: installing Debian packages: ${need[*]}" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
}
