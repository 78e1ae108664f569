// highstime times HiGHS's solves of one LP for build/benchreport's
// -highs flag, the way docs/lp.md's peer figures were taken: it reads the
// MPS file once, then n times clears the solver and runs it (one thread,
// otherwise HiGHS's default options: presolve on), with std::clock()
// around run() only, so reading the file and starting the process are not
// counted. It prints, one per line:
//
//	cpu-ms/op <CPU milliseconds per solve>
//	status <HiGHS's model status>
//	objective <the objective value>
//	version <HiGHS's version>
//
// Build it against an installed HiGHS (docs/lp.md, "Benchmarks"), e.g.
//
//	g++ -O2 -o highstime highstime.cpp -I$PREFIX/include/highs -L$PREFIX/lib -lhighs
//
// It is not part of schedlab's build; Go's tools ignore this directory.
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "Highs.h"

int main(int argc, char** argv) {
  if (argc != 3 || std::atoi(argv[2]) < 1) {
    std::fprintf(stderr, "usage: highstime FILE.mps N\n");
    return 2;
  }
  const int n = std::atoi(argv[2]);
  Highs h;
  h.setOptionValue("output_flag", false);
  h.setOptionValue("threads", 1);
  if (h.readModel(argv[1]) == HighsStatus::kError) {
    std::fprintf(stderr, "highstime: cannot read %s\n", argv[1]);
    return 1;
  }
  std::clock_t total = 0;
  for (int i = 0; i < n; i++) {
    h.clearSolver();
    const std::clock_t start = std::clock();
    const HighsStatus s = h.run();
    total += std::clock() - start;
    if (s == HighsStatus::kError) {
      std::fprintf(stderr, "highstime: HiGHS failed on %s\n", argv[1]);
      return 1;
    }
  }
  std::printf("cpu-ms/op %.4f\n", 1000.0 * total / CLOCKS_PER_SEC / n);
  std::printf("status %s\n", h.modelStatusToString(h.getModelStatus()).c_str());
  std::printf("objective %.17g\n", h.getObjectiveValue());
  std::printf("version %s\n", h.version().c_str());
  return 0;
}
