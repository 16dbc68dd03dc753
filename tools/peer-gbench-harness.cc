// The Google Benchmark side of tools/peer-gbench: the build's msort and introsort
// (libqsb_algorithms.so's qsb_msort and qsb_introsort) timed by Google Benchmark on the inputs
// that `qsortbench gen` wrote, one benchmark per cell and algorithm.
//
// usage: peer-gbench-harness [--benchmark_* flags] PATTERN:NELEM:SIZE:FILE ...
//
// Contract: a benchmark named ALGORITHM/PATTERN/NELEM/SIZE for each cell given and each of
// msort and introsort, in that order; manual time around the sort call only (the copy of the
// input before it and the verification after it are outside the time); the comparator lives
// in this executable and has the tool's shape (the key of the element's width read with
// memcpy, (a > b) - (a < b)), so the sorts, in their shared object, call it from another
// object as they do in the tool and as a libc qsort does. Each repetition reports the counter
// call_s, its own wall time. Every sort is verified (ascending,
// and the same multiset of elements as the input); a wrong result ends that benchmark with
// an error and the exit status 1. A bad argument or an unreadable input: exit 2.
// Built at run time by tools/peer-gbench, never by the project's CMake build.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" {
#include "sorts.h"
}

namespace {

typedef void (*sort_function)(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);

struct algorithm {
    const char *name;
    sort_function sort;
};

const algorithm algorithms[] = {
    {"msort", qsb_msort},
    {"introsort", qsb_introsort},
};

struct cell {
    std::string pattern;
    size_t nelem;
    size_t size;
    std::vector<unsigned char> input;
    uint64_t fingerprint; // of the input's multiset of elements
};

int wrong_results = 0;

// The key width of the patterns spec (as the tool's element layout): 1 byte for 1-byte
// elements, 2 for 2 or 3, 8 for 8, 4 otherwise.
size_t key_width(size_t size)
{
    if (size == 1)
        return 1;
    if (size == 2 || size == 3)
        return 2;
    if (size == 8)
        return 8;
    return 4;
}

// The tool's comparator shape, one function per key width, chosen once per cell.
template <typename Key> int compare_keys(const void *a, const void *b, void *arg)
{
    Key ka, kb;
    (void)arg;
    std::memcpy(&ka, a, sizeof ka);
    std::memcpy(&kb, b, sizeof kb);
    return (ka > kb) - (ka < kb);
}

qsb_compare comparator_for(size_t size)
{
    switch (key_width(size)) {
    case 1:
        return compare_keys<uint8_t>;
    case 2:
        return compare_keys<uint16_t>;
    case 8:
        return compare_keys<uint64_t>;
    default:
        return compare_keys<uint32_t>;
    }
}

uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Order-independent: the sum of a hash of each element's bytes, so a permutation of the
// input has the input's fingerprint and a lost or duplicated element almost surely not.
uint64_t multiset_fingerprint(const unsigned char *p, size_t nelem, size_t size)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < nelem; i++) {
        uint64_t h = 0xcbf29ce484222325ULL;
        for (size_t j = 0; j < size; j++)
            h = (h ^ p[i * size + j]) * 0x100000001b3ULL;
        sum += mix64(h);
    }
    return sum;
}

// Empty when the sort's output is right, else why not.
std::string verify(const unsigned char *out, const cell &c, qsb_compare cmp)
{
    for (size_t i = 1; i < c.nelem; i++)
        if (cmp(out + (i - 1) * c.size, out + i * c.size, nullptr) > 0)
            return "not sorted at index " + std::to_string(i);
    if (multiset_fingerprint(out, c.nelem, c.size) != c.fingerprint)
        return "not a permutation of the input";
    return "";
}

// The counter call_s is the wall time of the whole call (copies, sorts, verifications): the
// script sizes the repetitions of a run from it.
void time_sort(benchmark::State &state, const cell *c, const algorithm *alg)
{
    auto call_start = std::chrono::steady_clock::now();
    qsb_compare cmp = comparator_for(c->size);
    std::vector<unsigned char> work(c->input.size());
    for (auto _ : state) {
        std::memcpy(work.data(), c->input.data(), work.size());
        auto start = std::chrono::steady_clock::now();
        alg->sort(work.data(), c->nelem, c->size, cmp, nullptr);
        auto stop = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(work.data());
        state.SetIterationTime(std::chrono::duration<double>(stop - start).count());
        std::string why = verify(work.data(), *c, cmp);
        if (!why.empty()) {
            wrong_results++;
            std::fprintf(stderr, "peer-gbench-harness: error: %s on %s %zux%zu: %s\n", alg->name,
                         c->pattern.c_str(), c->nelem, c->size, why.c_str());
            state.SkipWithError(why.c_str());
            break;
        }
    }
    state.counters["call_s"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - call_start).count();
}

bool parse_count(const std::string &text, size_t *out)
{
    char *end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || v == 0)
        return false;
    *out = static_cast<size_t>(v);
    return true;
}

// PATTERN:NELEM:SIZE:FILE, the file holding exactly NELEM * SIZE bytes.
bool read_cell(const std::string &arg, cell *c)
{
    size_t a = arg.find(':'), b = arg.find(':', a + 1), d = arg.find(':', b + 1);
    if (a == std::string::npos || b == std::string::npos || d == std::string::npos) {
        std::fprintf(stderr, "peer-gbench-harness: error: '%s': want PATTERN:NELEM:SIZE:FILE\n",
                     arg.c_str());
        return false;
    }
    c->pattern = arg.substr(0, a);
    std::string file = arg.substr(d + 1);
    if (!parse_count(arg.substr(a + 1, b - a - 1), &c->nelem) ||
        !parse_count(arg.substr(b + 1, d - b - 1), &c->size)) {
        std::fprintf(stderr, "peer-gbench-harness: error: '%s': NELEM and SIZE must be "
                             "positive integers\n", arg.c_str());
        return false;
    }
    std::ifstream in(file, std::ios::binary);
    c->input.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
        std::fprintf(stderr, "peer-gbench-harness: error: cannot read %s\n", file.c_str());
        return false;
    }
    if (c->input.size() != c->nelem * c->size) {
        std::fprintf(stderr, "peer-gbench-harness: error: %s holds %zu bytes, not %zu x %zu\n",
                     file.c_str(), c->input.size(), c->nelem, c->size);
        return false;
    }
    c->fingerprint = multiset_fingerprint(c->input.data(), c->nelem, c->size);
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    benchmark::Initialize(&argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: peer-gbench-harness [--benchmark_* flags] "
                             "PATTERN:NELEM:SIZE:FILE ...\n");
        return 2;
    }
    // The registered benchmarks point at the cells: they live until main returns.
    std::vector<cell> cells(static_cast<size_t>(argc - 1));
    for (int i = 1; i < argc; i++)
        if (!read_cell(argv[i], &cells[static_cast<size_t>(i - 1)]))
            return 2;
    for (const cell &c : cells)
        for (const algorithm &alg : algorithms) {
            std::string name = std::string(alg.name) + "/" + c.pattern + "/" +
                               std::to_string(c.nelem) + "/" + std::to_string(c.size);
            benchmark::RegisterBenchmark(name.c_str(), time_sort, &c, &alg)->UseManualTime();
        }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return wrong_results ? 1 : 0;
}
