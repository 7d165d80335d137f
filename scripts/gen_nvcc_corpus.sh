#!/usr/bin/env bash
# Regenerate the nvcc PTX corpus in tests/data/nvcc/ from the CUDA sources in
# tests/data/cuda/, then check every produced file with ptxas.
#
#   scripts/gen_nvcc_corpus.sh            # regenerate + verify
#   scripts/gen_nvcc_corpus.sh --check    # only re-run ptxas on the checked-in files
#
# Environment:
#   NVCC, PTXAS          compiler / assembler to use (default: from PATH)
#   STU_NVCC_STAGE       staging directory the sources are compiled from
#                        (default /tmp/stu-nvcc-corpus).  nvcc writes the
#                        absolute source path into .file directives and debug
#                        sections, so a fixed staging path keeps the output
#                        byte-identical no matter where the repository lives.
#
# The corpus was produced with CUDA 13.0 (V13.0.88).  Another nvcc version
# will produce different (but still valid) PTX; the script warns about that.
#
# nvcc runs strictly one invocation at a time (no parallelism) on purpose.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC_DIR="$ROOT/tests/data/cuda"
OUT_DIR="$ROOT/tests/data/nvcc"
STAGE=${STU_NVCC_STAGE:-/tmp/stu-nvcc-corpus}
NVCC=${NVCC:-nvcc}
PTXAS=${PTXAS:-ptxas}
EXPECTED_NVCC="V13.0.88"

ARCHS=(sm_80 sm_90a sm_100a)

# Every source is compiled at -O3 for every arch above.  The sources guard
# arch-specific features with #if __CUDA_ARCH__ / __CUDA_ARCH_FEAT_SM100_ALL,
# so no (source, arch) pair is skipped.
SOURCES=(
    vector_elementwise
    transpose_shared
    local_memory
    volatile_cache_hints
    atomic_ref_store
    cluster_dsmem
    ptx_st_wrappers
    tcgen05_store
    noinline_calls
    half_bf16_int128
    wmma_pipeline
    cutlass_style_asm
    kernel_attributes
)

# Extra variants: "output-name source arch flags..."
# (output file: <output-name>.<arch>.ptx)
VARIANTS=(
    # unoptimised device code (nvcc -O0 only affects host code; -Xcicc -O0
    # turns off NVVM optimisation): generic st.* via %SP, __local_depot, long
    # st.param call sequences, bra.uni chains
    "local_memory_O0       local_memory       sm_80   -O0 -Xcicc -O0"
    "noinline_calls_O0     noinline_calls     sm_100a -O0 -Xcicc -O0"
    # line info: .loc (incl. function_name/inlined_at), .file, .section .debug_str
    "transpose_shared_lineinfo transpose_shared sm_90a  -O3 -lineinfo"
    "atomic_ref_store_lineinfo atomic_ref_store sm_100a -O3 -lineinfo"
    # full device debug info: .section .debug_{info,abbrev,loc,macinfo,...}
    "vector_elementwise_G  vector_elementwise sm_80   -G"
    "cluster_dsmem_G       cluster_dsmem      sm_90a  -G"
    # relocatable device code: .visible/.weak/.extern linkage, .extern .global
    "noinline_calls_rdc    noinline_calls     sm_90a  -O3 -rdc=true"
    "noinline_calls_rdc    noinline_calls     sm_100a -O3 -rdc=true"
)

log() { printf '%s\n' "$*" >&2; }

verify() {
    # verify <ptx file> <arch> <rdc:0|1>
    local f=$1 arch=$2 rdc=$3
    local extra=()
    # relocatable code references symbols defined elsewhere: compile-only
    if [[ $rdc == 1 ]]; then extra=(-c); fi
    if ! "$PTXAS" -arch="$arch" "${extra[@]}" "$f" -o /dev/null; then
        log "ptxas REJECTED $f"
        return 1
    fi
}

arch_of() {
    # tests/data/nvcc/<name>.<arch>.ptx -> <arch>
    local b=${1##*/}
    b=${b%.ptx}
    printf '%s\n' "${b##*.}"
}

is_rdc() { [[ ${1##*/} == *_rdc.* ]]; }

STORE_RE='^[[:space:]]*(@!?%?[[:alnum:]_]+[[:space:]]+)?(st\.|st\.async|tcgen05\.st)'

write_manifest() {
    local m="$OUT_DIR/MANIFEST.tsv"
    {
        printf '# file\tsource\tarch\tflags\tstore_family_lines\tlines\n'
        local line
        for line in "${MANIFEST_ROWS[@]}"; do printf '%s\n' "$line"; done
    } > "$m"
}

check_only() {
    local n=0 bad=0 f
    for f in "$OUT_DIR"/*.ptx; do
        local rdc=0
        is_rdc "$f" && rdc=1
        if verify "$f" "$(arch_of "$f")" "$rdc"; then n=$((n + 1)); else bad=$((bad + 1)); fi
    done
    log "ptxas accepted $n file(s), rejected $bad"
    [[ $bad == 0 ]]
}

if [[ ${1:-} == --check ]]; then
    check_only
    exit $?
fi

command -v "$NVCC" >/dev/null || { log "nvcc not found (set NVCC)"; exit 1; }
command -v "$PTXAS" >/dev/null || { log "ptxas not found (set PTXAS)"; exit 1; }
ver=$("$NVCC" --version | tail -n 1)
log "nvcc: $ver"
if [[ $ver != *"$EXPECTED_NVCC"* ]]; then
    log "warning: corpus was generated with nvcc $EXPECTED_NVCC; output will differ"
fi

# Stage the sources at a fixed path and compile them by bare file name, so
# that __FILE__ strings, .file directives and debug info do not depend on
# where the repository is checked out.
mkdir -p "$STAGE"
rm -f "$STAGE"/*.cu "$STAGE"/*.ptx
cp "$SRC_DIR"/*.cu "$STAGE"/

mkdir -p "$OUT_DIR"
rm -f "$OUT_DIR"/*.ptx "$OUT_DIR"/MANIFEST.tsv

MANIFEST_ROWS=()
fail=0

build() {
    # build <output-name> <source> <arch> <flags...>
    local name=$1 src=$2 arch=$3
    shift 3
    local out="$OUT_DIR/$name.$arch.ptx"
    local tmp="$STAGE/$name.$arch.ptx"
    log "nvcc -ptx -arch=$arch $* $src.cu -> ${out#"$ROOT"/}"
    (cd "$STAGE" && "$NVCC" -ptx -arch="$arch" "$@" "$src.cu" -o "$tmp")
    mv "$tmp" "$out"
    local rdc=0
    [[ " $* " == *" -rdc=true "* ]] && rdc=1
    if ! verify "$out" "$arch" "$rdc"; then fail=1; fi
    local nst nlines
    nst=$(grep -cE "$STORE_RE" "$out" || true)
    nlines=$(wc -l < "$out" | tr -d ' ')
    MANIFEST_ROWS+=("$(printf '%s\t%s.cu\t%s\t%s\t%s\t%s' "${out##*/}" "$src" "$arch" "$*" "$nst" "$nlines")")
}

for src in "${SOURCES[@]}"; do
    for arch in "${ARCHS[@]}"; do
        build "$src" "$src" "$arch" -O3
    done
done

for v in "${VARIANTS[@]}"; do
    # shellcheck disable=SC2086
    set -- $v
    build "$@"
done

write_manifest
rm -f "$STAGE"/*.cu "$STAGE"/*.ptx
rmdir "$STAGE" 2>/dev/null || true

count=$(find "$OUT_DIR" -maxdepth 1 -name "*.ptx" | wc -l)
if [[ $fail != 0 ]]; then
    log "FAILED: ptxas rejected at least one file"
    exit 1
fi
log "OK: $count PTX files in ${OUT_DIR#"$ROOT"/}, all accepted by ptxas"
