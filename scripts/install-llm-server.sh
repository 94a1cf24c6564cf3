#!/usr/bin/env bash
# Installs llama-cpp-python's OpenAI-compatible server (the local server the platform tests and `npm run eval:servers`
# talk to) into the grue cache: a venv per version, built from source once (about 16 minutes on 2 loaded cores), then reused.
# The venv is built under <dir>.partial and renamed when complete, so an interrupted build is never mistaken for a finished one.
# Prints the venv's python on its last line.
set -euo pipefail
VERSION="${GRUE_LLAMA_CPP_PYTHON_VERSION:-0.3.36}"
CACHE="${GRUE_CACHE:-$HOME/.cache/grue}"
VENV="$CACHE/llm-server/llama-cpp-python-$VERSION"

installed() { "$VENV/bin/python" -c 'import llama_cpp.server.app' >/dev/null 2>&1; }

if installed; then
  echo "llama-cpp-python $VERSION server: reused from $VENV" >&2
  echo "$VENV/bin/python"
  exit 0
fi

PYTHON="${PYTHON:-python3}"
command -v "$PYTHON" >/dev/null || { echo "python3 is needed to build llama-cpp-python's server" >&2; exit 1; }
command -v cmake >/dev/null || { echo "cmake is needed to build llama-cpp-python's server (apt-get install cmake)" >&2; exit 1; }

mkdir -p "$(dirname "$VENV")"
# Two callers at once (a test run and CI, say) build once: the second waits for the first and reuses its venv.
exec 9>"$VENV.lock"
flock 9
if installed; then
  echo "llama-cpp-python $VERSION server: reused from $VENV (built by a concurrent install)" >&2
  echo "$VENV/bin/python"
  exit 0
fi

echo "llama-cpp-python $VERSION server: building from source into $VENV (once; about 16 minutes on 2 cores)" >&2
started=$(date +%s)
rm -rf "$VENV.partial" "$VENV"
"$PYTHON" -m venv "$VENV.partial"
# CPU only, built at low priority: the machine's cores are shared.
CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}" CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
  nice -n 10 "$VENV.partial/bin/pip" install --quiet "llama-cpp-python[server]==$VERSION" >&2
mv "$VENV.partial" "$VENV"
# A venv's scripts name its own path: point the text ones (not the python symlinks) at the final name.
for file in "$VENV"/bin/* "$VENV/pyvenv.cfg"; do
  if [ -f "$file" ] && [ ! -L "$file" ] && grep -Iq "$VENV.partial" "$file"; then
    sed -i "s#$VENV.partial#$VENV#g" "$file"
  fi
done
"$VENV/bin/python" -c 'import llama_cpp.server.app' >&2
echo "llama-cpp-python $VERSION server: built in $(($(date +%s) - started)) s" >&2
echo "$VENV/bin/python"
