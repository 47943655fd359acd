#pragma once
// The headless subcommands of `weft`. Each takes its own arguments (without the subcommand
// name) and returns the process exit code: 0 success, 2 bad input or usage (the error on
// stderr), 1 any other failure. They share core/ with the GUI and print, never compute.

#include <QStringList>

namespace weft::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

int info(const QStringList &args);
int gen(const QStringList &args);
int convert(const QStringList &args);
int bench(const QStringList &args);
int route(const QStringList &args);
int metrics(const QStringList &args);
int keys(const QStringList &args);
int ebb(const QStringList &args);
int migrate(const QStringList &args);
int reconfigure(const QStringList &args);
int diff(const QStringList &args);
int discover(const QStringList &args);
int commit(const QStringList &args);
int drain(const QStringList &args);
int undrain(const QStringList &args);
int lab(const QStringList &args);
int monitor(const QStringList &args);
int rules(const QStringList &args);
int target(const QStringList &args);
int check(const QStringList &args);
int serve(const QStringList &args);
// weft slurm topology (CommandSlurm.cpp).
int slurm(const QStringList &args);
// weft adapt: --replay (CommandAdapt.cpp) or a live loop (CommandAdaptLive.cpp, adaptLive).
int adapt(const QStringList &args);
int adaptLive(const QStringList &args);

}  // namespace weft::cli
